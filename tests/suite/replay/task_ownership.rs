//! Whose a task is, natively, for every kind of task in both revisions: a staging, a PubChem
//! call held while PubChem works, a BioC call run in the background, and (2025-11-25) a
//! result kept at once. A stranger who knows the task id gets exactly the answer an id nobody
//! made gets, from every task method, and their cancel changes nothing for the owner.

use super::background_staging::{carried_server_with, Asked};
use crate::common::block_on;
use crate::common::replay::Replay;
use entrez_mcp::store::SqliteStore;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::caller::{Channel, RequestContext};
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::secret::ApiKey;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};

const NOBODY: &str = "00000000000000000000000000000000";

/// A caller over HTTP: 2025-11-25 in session `who`, or 2026-07-28 with key `who`.
fn caller(who: &str, stateless: bool) -> RequestContext {
    RequestContext {
        session_id: (!stateless).then(|| format!("session-{who}")),
        caller_api_key: stateless.then(|| ApiKey::new(format!("key-of-{who}-0123456789"))),
        channel: Channel::Http,
        stateless,
        ..Default::default()
    }
}

fn send(s: &Server, who: &str, stateless: bool, method: &str, mut params: Value) -> Value {
    if stateless {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities":
                {"extensions": {"io.modelcontextprotocol/tasks": {}}},
        });
    }
    let msg = json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": params});
    block_on(s.handle_bytes(msg.to_string().as_bytes(), &caller(who, stateless))).expect("a reply")
}

/// The task id a call made as a task by `who` answers with.
fn create(s: &Server, stateless: bool, call: Value) -> String {
    let mut params = call;
    if !stateless {
        params["task"] = json!({});
    }
    let created = send(s, "owner", stateless, "tools/call", params);
    let id = if stateless {
        created["result"]["taskId"].as_str()
    } else {
        created["result"]["task"]["taskId"].as_str()
    };
    id.unwrap_or_else(|| panic!("no task: {created}"))
        .to_string()
}

fn status(s: &Server, stateless: bool, id: &str) -> String {
    let got = send(s, "owner", stateless, "tasks/get", json!({"taskId": id}));
    got["result"]["status"]
        .as_str()
        .unwrap_or_else(|| panic!("the owner cannot see it: {got}"))
        .to_string()
}

/// A reply's error with `id` replaced, so a stranger's and a nobody's can be compared.
fn shape(reply: &Value, id: &str) -> String {
    assert!(reply.get("error").is_some(), "not refused: {reply}");
    reply["error"].to_string().replace(id, "<id>")
}

fn assert_stranger_sees_nothing(s: &Server, stateless: bool, id: &str, kind: &str) {
    let before = status(s, stateless, id);
    let methods: &[&str] = if stateless {
        &["tasks/get", "tasks/cancel", "tasks/update"]
    } else {
        &["tasks/get", "tasks/result", "tasks/cancel"]
    };
    for method in methods {
        let theirs = send(s, "stranger", stateless, method, json!({"taskId": id}));
        let nobody = send(s, "stranger", stateless, method, json!({"taskId": NOBODY}));
        assert_eq!(
            shape(&theirs, id),
            shape(&nobody, NOBODY),
            "{kind} {method} (stateless {stateless})"
        );
        assert_eq!(theirs["error"]["code"], -32602, "{kind} {method}: {theirs}");
    }
    if !stateless {
        let list = send(s, "stranger", false, "tasks/list", json!({}));
        assert!(list["result"]["tasks"].is_array(), "{list}");
        assert!(
            !list.to_string().contains(id),
            "{kind}: listed to a stranger"
        );
    }
    let after = status(s, stateless, id);
    assert_ne!(after, "cancelled", "{kind}: a stranger cancelled it");
    assert_eq!(after, before, "{kind}: a stranger changed it");
}

#[test]
fn a_stranger_sees_nothing_of_a_staging_task_in_either_revision() {
    let replay = Replay::start();
    let asked = Asked::default();
    let s = carried_server_with(
        &replay,
        SqliteStore::in_memory().unwrap(),
        &asked,
        Limits::default(),
        Allowance::default(),
    );
    for stateless in [false, true] {
        let ids: Vec<u64> = (90_000_001..=90_000_700).collect();
        let call = json!({"name": "entrez_data", "arguments": {"operation": "fetch_and_stage", "ids": ids}});
        let id = create(&s, stateless, call);
        assert_stranger_sees_nothing(&s, stateless, &id, "staging");
        // And once it has ended.
        super::background_staging::drive(&s, &asked);
        assert_eq!(status(&s, stateless, &id), "completed");
        assert_stranger_sees_nothing(&s, stateless, &id, "completed staging");
    }
}

#[test]
fn a_stranger_sees_nothing_of_a_held_pubchem_task_in_either_revision() {
    let (_script, s) = super::pending_tasks::pubchem(1_000);
    let call = json!({"name": "entrez_external", "arguments": {
        "service": "pubchem", "operation": "structure_search",
        "search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async"}});
    for stateless in [false, true] {
        let id = create(&s, stateless, call.clone());
        assert_eq!(status(&s, stateless, &id), "working");
        assert_stranger_sees_nothing(&s, stateless, &id, "held");
    }
}

#[test]
fn a_stranger_sees_nothing_of_a_bioc_task_run_apart_in_either_revision() {
    let (_script, s, _asked) = super::background_calls::bioc_server();
    let call = json!({"name": "entrez_external", "arguments": {
        "service": "pmc", "operation": "bioc", "ids": ["PMC1234567"]}});
    for stateless in [false, true] {
        let id = create(&s, stateless, call.clone());
        assert_stranger_sees_nothing(&s, stateless, &id, "apart");
    }
}

#[test]
fn a_stranger_sees_nothing_of_a_result_kept_at_once() {
    let (_script, s, _asked) = super::background_calls::bioc_server();
    let call = json!({"name": "entrez_data", "arguments": {"operation": "list_datasets"}});
    let id = create(&s, false, call);
    assert_eq!(status(&s, false, &id), "completed");
    assert_stranger_sees_nothing(&s, false, &id, "kept");
}
