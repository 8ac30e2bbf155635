//! MCP tasks in both revisions: a staging handed back as a task and polled to its end,
//! another operation made a task that ends at once, cancel mid-way, and a stranger who can
//! neither see nor poll nor cancel someone else's task. The steps the scheduler is asked for
//! are run by the test (`background_staging::drive`), as the edges run them.

use super::background_staging::{carried_server_with, drive, Asked};
use crate::common::block_on;
use crate::common::replay::Replay;
use entrez_mcp::store::SqliteStore;
use entrez_mcp::SystemPlatform;
use entrez_mcp_core::caller::{Channel, RequestContext};
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::store::{DatasetStore, Lease, Status};
use entrez_mcp_core::staging::Limits;
use entrez_mcp_core::tasks::Step;
use serde_json::{json, Value};

/// A 2025-11-25 request in session `session`.
pub(super) fn handshake(s: &Server, session: &str, method: &str, params: Value) -> Value {
    let ctx = RequestContext {
        session_id: Some(session.to_string()),
        channel: Channel::Http,
        ..Default::default()
    };
    let msg = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    block_on(s.handle_bytes(msg.to_string().as_bytes(), &ctx)).expect("a reply")
}

/// A 2026-07-28 request from the local user, declaring the tasks extension or not.
pub(super) fn stateless(s: &Server, method: &str, mut params: Value, extension: bool) -> Value {
    let capabilities = if extension {
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    } else {
        json!({})
    };
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    let msg = json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": params});
    block_on(s.handle_bytes(msg.to_string().as_bytes(), &RequestContext::default()))
        .expect("a reply")
}

/// The task id of a 2025-11-25 `CreateTaskResult` reply.
pub(super) fn task_id(created: &Value) -> String {
    match created["result"]["task"]["taskId"].as_str() {
        Some(id) => id.to_string(),
        None => panic!("no task: {created}"),
    }
}

fn stage_args(n: u64) -> Value {
    let ids: Vec<u64> = (90_000_001..90_000_001 + n).collect();
    json!({"name": "entrez_data", "arguments": {"operation": "fetch_and_stage", "ids": ids}})
}

#[test]
fn a_2025_11_25_client_gets_a_task_for_a_staging_and_reads_the_call_s_result() {
    let replay = Replay::start();
    let asked = Asked::default();
    let s = carried_server_with(
        &replay,
        SqliteStore::in_memory().unwrap(),
        &asked,
        Limits::default(),
    );
    let init = handshake(
        &s,
        "a",
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}}),
    );
    assert_eq!(
        init["result"]["capabilities"]["tasks"]["requests"]["tools"]["call"],
        json!({}),
        "{init}"
    );
    let listed = handshake(&s, "a", "tools/list", json!({}));
    for tool in listed["result"]["tools"].as_array().unwrap() {
        let support = &tool["execution"]["taskSupport"];
        match tool["name"].as_str().unwrap() {
            "entrez_data" | "entrez_external" | "entrez_query" => {
                assert_eq!(support, "optional")
            }
            other => assert!(support.is_null(), "{other} runs no task"),
        }
    }
    let mut call = stage_args(600);
    call["task"] = json!({"ttl": 60000});
    let created = handshake(&s, "a", "tools/call", call);
    let task = &created["result"]["task"];
    let id = task["taskId"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32, "{created}");
    assert_eq!(task["status"], "working", "{created}");
    assert!(task["pollInterval"].as_u64().unwrap() > 0);
    assert!(task["ttl"].as_u64().unwrap() > 0);
    assert!(task["createdAt"].as_str().unwrap().ends_with('Z'));
    // Nothing was staged in the call itself: the scheduler has the whole staging.
    assert_eq!(*asked.0.lock().unwrap(), vec![(id.clone(), 0)]);
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert!(
        got["result"]["statusMessage"]
            .as_str()
            .unwrap()
            .contains("600 to go"),
        "{got}"
    );
    // Another session can neither see, poll nor cancel it.
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let stranger = handshake(&s, "b", method, json!({"taskId": id}));
        assert_eq!(stranger["error"]["code"], -32602, "{method}: {stranger}");
    }
    let theirs = handshake(&s, "b", "tasks/list", json!({}));
    assert_eq!(theirs["result"]["tasks"], json!([]), "{theirs}");
    drive(&s, &asked);
    let done = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(done["result"]["status"], "completed", "{done}");
    let result = handshake(&s, "a", "tasks/result", json!({"taskId": id}));
    let r = &result["result"];
    assert_eq!(
        r["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        id
    );
    assert_eq!(r["isError"], false, "{result}");
    let sc = &r["structuredContent"];
    assert_eq!(sc["status"], "complete", "{result}");
    assert_eq!(sc["records"], 600);
    assert_eq!(sc["data_access_id"], id);
    assert!(
        sc["batches"].as_u64().unwrap() >= 2,
        "the whole staging's batches: {sc}"
    );
    assert!(s.registry.output_violations("entrez_data", r).is_empty());
    let mine = handshake(&s, "a", "tasks/list", json!({}));
    assert_eq!(mine["result"]["tasks"][0]["taskId"], id, "{mine}");
    let again = handshake(&s, "a", "tasks/cancel", json!({"taskId": id}));
    assert_eq!(again["error"]["code"], -32602, "a task that ended: {again}");
    // Another operation made a task ends at once, its result kept for the caller.
    let list_call =
        json!({"name": "entrez_data", "arguments": {"operation": "list_datasets"}, "task": {}});
    let quick = handshake(&s, "a", "tools/call", list_call);
    let quick_id = quick["result"]["task"]["taskId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(quick["result"]["task"]["status"], "completed", "{quick}");
    let read = handshake(&s, "a", "tasks/result", json!({"taskId": quick_id}));
    assert_eq!(
        read["result"]["structuredContent"]["datasets"][0]["data_access_id"], id,
        "{read}"
    );
    let stranger = handshake(&s, "b", "tasks/get", json!({"taskId": quick_id}));
    assert_eq!(stranger["error"]["code"], -32602, "{stranger}");
    // A tool that runs no task says so, as 2025-11-25 asks.
    let refused = handshake(
        &s,
        "a",
        "tools/call",
        json!({"name": "entrez_capabilities", "arguments": {}, "task": {}}),
    );
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
}

#[test]
fn a_cancelled_staging_keeps_what_it_staged_and_takes_no_more_steps() {
    let replay = Replay::start();
    let asked = Asked::default();
    let store = SqliteStore::in_memory().unwrap();
    // One staging running at a time, so that the cancel is seen to free its slot.
    let one = Limits {
        max_running: 1,
        ..super::background_staging::free_plan()
    };
    let s = carried_server_with(&replay, store.clone(), &asked, one);
    let mut call = stage_args(1000);
    call["task"] = json!({});
    let id = task_id(&handshake(&s, "a", "tools/call", call));
    // Two steps of the Free plan's budget, then the caller cancels.
    for _ in 0..2 {
        let ids = asked.take();
        assert_eq!(ids, vec![id.clone()]);
        block_on(s.run_step(&id)).unwrap();
    }
    let cancelled = handshake(&s, "a", "tasks/cancel", json!({"taskId": id}));
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    // The step asked for before the cancel finds nothing to do, and asks for no other.
    for id in asked.take() {
        assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    }
    assert!(asked.take().is_empty());
    // A step that ends after the cancel (one whose scheduler failed, say) cannot undo it.
    let now = SystemPlatform.now_unix_ms();
    let lease = Lease {
        now_ms: now,
        expires_ms: now + 600_000,
    };
    let late = Status::Partial("{}".into());
    let info = block_on(store.finish(&id, late, lease)).unwrap();
    assert_eq!(info.status.as_str(), "failed", "{info:?}");
    let listed = crate::common::data::data_as(
        &s,
        json!({"operation": "list_datasets"}),
        &RequestContext {
            session_id: Some("a".into()),
            channel: Channel::Http,
            ..Default::default()
        },
    );
    let d = &listed["structuredContent"]["datasets"][0];
    assert_eq!(d["status"], "failed", "{listed}");
    assert!(
        d["reason"].as_str().unwrap().contains("cancelled"),
        "{listed}"
    );
    let records = d["records"].as_u64().unwrap();
    assert!(records > 0 && records < 1000, "{listed}");
    let result = handshake(&s, "a", "tasks/result", json!({"taskId": id}));
    assert_eq!(
        result["error"]["data"]["code"], "task_cancelled",
        "{result}"
    );
    // Its slot among the stagings running is free again: another is admitted, and one more
    // beside that is not.
    let mut again = stage_args(100);
    again["task"] = json!({});
    let admitted = handshake(&s, "a", "tools/call", again.clone());
    assert_eq!(
        admitted["result"]["task"]["status"], "working",
        "{admitted}"
    );
    let refused = task_id(&handshake(&s, "a", "tools/call", again));
    let why = handshake(&s, "a", "tasks/result", json!({"taskId": refused}));
    assert_eq!(
        why["result"]["structuredContent"]["error"]["details"]["limit"], "account_running",
        "{why}"
    );
}

#[test]
fn a_2026_07_28_client_that_declares_the_extension_gets_a_task_and_one_that_does_not_a_result() {
    let replay = Replay::start();
    let asked = Asked::default();
    let s = carried_server_with(
        &replay,
        SqliteStore::in_memory().unwrap(),
        &asked,
        Limits::default(),
    );
    let discover = stateless(&s, "server/discover", json!({}), false);
    assert_eq!(
        discover["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "{discover}"
    );
    assert!(discover["result"]["capabilities"].get("tasks").is_none());
    let listed = stateless(&s, "tools/list", json!({}), true);
    assert!(listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t.get("execution").is_none()));
    // Without the extension: the call as it always was.
    let plain = stateless(&s, "tools/call", stage_args(300), false);
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(
        plain["result"]["structuredContent"]["status"], "complete",
        "{plain}"
    );
    // With it: a task, flat, with its times in milliseconds.
    let created = stateless(&s, "tools/call", stage_args(600), true);
    let t = &created["result"];
    assert_eq!(t["resultType"], "task", "{created}");
    assert_eq!(t["status"], "working");
    assert!(t.get("task").is_none() && t.get("ttl").is_none() && t.get("pollInterval").is_none());
    assert!(t["ttlMs"].as_u64().unwrap() > 0 && t["pollIntervalMs"].as_u64().unwrap() > 0);
    let id = t["taskId"].as_str().unwrap().to_string();
    // The task methods need the extension on the request itself: -32021, naming it.
    let undeclared = stateless(&s, "tasks/get", json!({"taskId": id}), false);
    assert_eq!(undeclared["error"]["code"], -32021, "{undeclared}");
    assert_eq!(
        undeclared["error"]["data"]["requiredCapabilities"]["extensions"]
            ["io.modelcontextprotocol/tasks"],
        json!({})
    );
    let working = stateless(&s, "tasks/get", json!({"taskId": id}), true);
    assert_eq!(working["result"]["status"], "working", "{working}");
    assert_eq!(working["result"]["resultType"], "complete");
    assert!(working["result"].get("result").is_none());
    drive(&s, &asked);
    let done = stateless(&s, "tasks/get", json!({"taskId": id}), true);
    let d = &done["result"];
    assert_eq!(d["status"], "completed", "{done}");
    assert_eq!(d["result"]["structuredContent"]["records"], 600, "{done}");
    assert!(d["result"]["_meta"]
        .get("io.modelcontextprotocol/related-task")
        .is_none());
    // Cancel and update are acknowledgements; cancelling an ended task changes nothing.
    let ack = stateless(&s, "tasks/cancel", json!({"taskId": id}), true);
    assert_eq!(
        ack["result"],
        json!({"resultType": "complete", "_meta": ack["result"]["_meta"]}),
        "{ack}"
    );
    let still = stateless(&s, "tasks/get", json!({"taskId": id}), true);
    assert_eq!(still["result"]["status"], "completed");
    let update = stateless(
        &s,
        "tasks/update",
        json!({"taskId": id, "inputResponses": {"x": {}}}),
        true,
    );
    assert_eq!(update["result"]["resultType"], "complete", "{update}");
    let unknown = stateless(
        &s,
        "tasks/get",
        json!({"taskId": "0123456789abcdef0123456789abcdef"}),
        true,
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    for gone in ["tasks/result", "tasks/list"] {
        let r = stateless(&s, gone, json!({"taskId": id}), true);
        assert_eq!(r["error"]["code"], -32601, "{gone}: {r}");
    }
    // Only a staging is long work: another operation answers at once, even when asked.
    let q = stateless(
        &s,
        "tools/call",
        json!({"name": "entrez_data", "arguments": {"operation": "list_datasets"}}),
        true,
    );
    assert_eq!(q["result"]["resultType"], "complete", "{q}");
}
