//! PubChem calls held as MCP tasks (`tasks::calls`): an asynchronous search that PubChem is
//! still working on after the hand-off answers with a task, each due look polls its ListKey
//! once, and the task ends with what the call would have returned. Scripted PubChem and a
//! clock that jumps when slept on, so the waits run instantly.

use super::background_staging::Asked;
use super::tasks::{handshake, stateless, task_id};
use crate::common::block_on;
use crate::common::external_replay::scripted::*;
use entrez_mcp::store::SqliteStore;
use entrez_mcp_core::caller::{Channel, RequestContext};
use entrez_mcp_core::net::HttpReply;
use entrez_mcp_core::staging::ledger::{MemoryLedger, Quotas};
use entrez_mcp_core::staging::TaskStore;
use entrez_mcp_core::staging::{Limits, Staging};
use entrez_mcp_core::tasks::calls::{LOOK_FIRST_MS, PUBCHEM_WAIT_MS};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

/// PubChem answering an asynchronous substructure search `Waiting` (ListKey 42) for the first
/// `waits` polls of its ListKey, then with three CIDs.
pub(super) fn pubchem(waits: u32) -> (Arc<Script>, entrez_mcp_core::protocol::Server) {
    pubchem_under(waits, None)
}

/// [`pubchem`], its ledger under `quotas` where given.
fn pubchem_under(
    waits: u32,
    quotas: Option<Quotas>,
) -> (Arc<Script>, entrez_mcp_core::protocol::Server) {
    let clock = Arc::new(Clock::default());
    let polled = AtomicU32::new(0);
    let script = Arc::new(Script {
        clock: clock.clone(),
        reply: Box::new(move |call| -> HttpReply {
            let waiting =
                json!({"Waiting": {"ListKey": "42", "Message": "Your request is running"}});
            if !call.url.contains("/listkey/42/") {
                return json_reply(202, None, waiting);
            }
            if polled.fetch_add(1, Ordering::SeqCst) < waits {
                return json_reply(202, None, waiting);
            }
            json_reply(
                200,
                None,
                json!({"IdentifierList": {"CID": [241, 995, 1140]}}),
            )
        }),
        sent: Default::default(),
    });
    // Tasks are offered where staging can go on by itself; a pending call needs no step.
    let staging = task_staging(&Asked::default(), quotas);
    let s = server(script.clone(), Arc::new(CountingPacer::default()))
        .with_staging(staging)
        .unwrap();
    (script, s)
}

/// A store in memory with `scheduler` (tasks are offered where one is), its ledger under
/// `quotas` where given.
pub(super) fn task_staging(scheduler: &Asked, quotas: Option<Quotas>) -> Staging {
    let staging = Staging::new(SqliteStore::in_memory().unwrap(), Limits::default())
        .with_scheduler(Box::new(scheduler.clone()));
    match quotas {
        Some(q) => Staging {
            ledger: Box::new(MemoryLedger::new(q)),
            ..staging
        },
        None => staging,
    }
}

/// Moves the scripted clock on, as a wait would.
fn advance(script: &Script, ms: u64) {
    use entrez_mcp_core::net::Transport;
    block_on(script.sleep(ms));
}

fn search() -> Value {
    json!({"name": "entrez_external", "arguments": {
        "service": "pubchem", "operation": "structure_search",
        "search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async"}})
}

fn sent(script: &Script) -> usize {
    script.sent.lock().unwrap().len()
}

fn session(id: &str) -> RequestContext {
    RequestContext {
        session_id: Some(id.into()),
        channel: Channel::Http,
        ..Default::default()
    }
}

#[test]
fn a_2025_11_25_search_pubchem_is_still_working_on_becomes_a_task_that_ends_with_the_call_s_result()
{
    let (script, s) = pubchem(5);
    let mut call = search();
    call["task"] = json!({});
    let created = handshake(&s, "a", "tools/call", call);
    let task = &created["result"]["task"];
    assert_eq!(task["status"], "working", "{created}");
    let message = task["statusMessage"].as_str().unwrap();
    assert!(message.contains("ListKey 42"), "{message}");
    let id = task["taskId"].as_str().unwrap().to_string();
    // The search, then polls at 1, 2.5 and 4.75 s: the hand-off comes before 5 s.
    assert_eq!(sent(&script), 4, "{:?}", script.sent.lock().unwrap());
    // A look before the next is due asks PubChem nothing.
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert_eq!(sent(&script), 4);
    // A stranger can neither see nor cancel it.
    let theirs = handshake(&s, "b", "tasks/get", json!({"taskId": id}));
    assert_eq!(theirs["error"]["code"], -32602, "{theirs}");
    let theirs = handshake(&s, "b", "tasks/cancel", json!({"taskId": id}));
    assert_eq!(theirs["error"]["code"], -32602, "{theirs}");
    // Once due, a look polls the ListKey once.
    advance(&script, LOOK_FIRST_MS);
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert_eq!(sent(&script), 5);
    assert!(script.sent.lock().unwrap()[4].ends_with("/compound/listkey/42/cids/JSON"));
    // tasks/result waits, looking as each look falls due, and returns the call's own result.
    let result = handshake(&s, "a", "tasks/result", json!({"taskId": id}));
    let r = &result["result"];
    assert_eq!(r["isError"], false, "{result}");
    let sc = &r["structuredContent"];
    assert_eq!(sc["cids"], json!([241, 995, 1140]), "{result}");
    assert_eq!(sc["listkey"], "42");
    assert_eq!(
        sc["polls"], 6,
        "every poll of the call and its task counted"
    );
    assert_eq!(
        r["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        id.as_str()
    );
    let polls = sent(&script);
    assert_eq!(polls, 7, "{:?}", script.sent.lock().unwrap());
    // An ended task stays ended, and asks PubChem nothing more.
    advance(&script, 60_000);
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "completed", "{got}");
    assert_eq!(sent(&script), polls);
    let listed =
        crate::common::data::data_as(&s, json!({"operation": "list_datasets"}), &session("a"));
    assert_eq!(
        listed["structuredContent"]["datasets"],
        json!([]),
        "a pending call is no dataset"
    );
}

#[test]
fn a_2026_07_28_held_search_answers_with_a_task_inline_and_stops_when_cancelled() {
    let (script, s) = pubchem(50);
    let created = stateless(&s, "tools/call", search(), true);
    let t = &created["result"];
    assert_eq!(t["resultType"], "task", "{created}");
    assert_eq!(t["status"], "working");
    let id = t["taskId"].as_str().unwrap().to_string();
    advance(&script, LOOK_FIRST_MS);
    let got = stateless(&s, "tasks/get", json!({"taskId": id}), true);
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert!(got["result"].get("result").is_none());
    // A cancel when a look is due asks PubChem nothing.
    advance(&script, 60_000);
    let before = sent(&script);
    let cancelled = stateless(&s, "tasks/cancel", json!({"taskId": id}), true);
    assert_eq!(
        cancelled["result"],
        json!({"resultType": "complete", "_meta": cancelled["result"]["_meta"]}),
        "{cancelled}"
    );
    advance(&script, 120_000);
    let got = stateless(&s, "tasks/get", json!({"taskId": id}), true);
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    assert_eq!(
        sent(&script),
        before,
        "neither the cancel nor a cancelled task looks"
    );
    // The same search without the extension waits in the call, as it always did.
    let plain = stateless(&s, "tools/call", search(), false);
    assert_eq!(plain["result"]["isError"], true, "{plain}");
    assert_eq!(
        plain["result"]["structuredContent"]["error"]["code"],
        "pubchem_search_pending"
    );
}

#[test]
fn a_held_search_pubchem_never_finishes_ends_as_the_call_would_have() {
    let (script, s) = pubchem(u32::MAX);
    let mut call = search();
    call["task"] = json!({});
    let id = task_id(&handshake(&s, "a", "tools/call", call));
    let mut looks = 0;
    loop {
        advance(&script, 30_000);
        let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
        looks += 1;
        assert!(looks < 100, "no end: {got}");
        if got["result"]["status"] != "working" {
            // 2025-11-25 calls a task whose result is a tool error failed.
            assert_eq!(got["result"]["status"], "failed", "{got}");
            break;
        }
    }
    // About one look in 30 s once the waits have grown, over PUBCHEM_WAIT_MS.
    assert!(looks as u64 >= PUBCHEM_WAIT_MS / 30_000, "{looks}");
    let result = handshake(&s, "a", "tasks/result", json!({"taskId": id}));
    let e = &result["result"]["structuredContent"]["error"];
    assert_eq!(e["code"], "pubchem_search_pending", "{result}");
    assert_eq!(e["details"]["listkey"], "42");
    assert!(
        e["message"].as_str().unwrap().contains("after 18"),
        "the whole wait is named: {e}"
    );
}

#[test]
fn a_search_pubchem_answers_within_the_hand_off_ends_in_the_call() {
    let (script, s) = pubchem(1);
    let plain = stateless(&s, "tools/call", search(), true);
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(
        plain["result"]["structuredContent"]["cids"],
        json!([241, 995, 1140])
    );
    let mut call = search();
    call["task"] = json!({});
    let created = handshake(&s, "a", "tools/call", call);
    assert_eq!(
        created["result"]["task"]["status"], "completed",
        "{created}"
    );
    // PubChem said Waiting once: the first search polled twice, the second once.
    assert_eq!(sent(&script), 5, "{:?}", script.sent.lock().unwrap());
}

#[test]
fn a_task_past_the_ledger_s_ceilings_is_refused_or_answered_at_once() {
    let limits = Limits::default();
    let quotas = Quotas {
        total_bytes: 100,
        ..Quotas::from_lookup(|_| None, &limits)
    };
    let (_script, s) = pubchem_under(1, Some(quotas));
    // 2025-11-25 asked for a task, and its result cannot be kept: an error that says so.
    let mut call = search();
    call["task"] = json!({});
    let refused = handshake(&s, "a", "tools/call", call);
    assert_eq!(
        refused["error"]["data"]["code"], "quota_exceeded",
        "{refused}"
    );
    assert_eq!(
        refused["error"]["data"]["details"]["limit"], "total_bytes",
        "{refused}"
    );
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("Its task cannot be kept. This call ran"),
        "{message}"
    );
    // 2026-07-28 leaves it to the server: the call's own result, at once.
    let plain = stateless(&s, "tools/call", search(), true);
    assert_eq!(plain["result"]["resultType"], "complete", "{plain}");
    assert_eq!(
        plain["result"]["structuredContent"]["cids"],
        json!([241, 995, 1140])
    );
    // A search PubChem is still working on after the hand-off, which cannot be held: the
    // call's answer as it then stands, naming the ListKey to collect later.
    let (_script, s) = pubchem_under(50, Some(quotas));
    let pending = stateless(&s, "tools/call", search(), true);
    let r = &pending["result"];
    assert_eq!(r["resultType"], "complete", "{pending}");
    assert_eq!(
        r["structuredContent"]["error"]["code"],
        "pubchem_search_pending"
    );
    assert_eq!(r["structuredContent"]["error"]["details"]["listkey"], "42");
}

#[test]
fn results_kept_before_a_native_restart_are_charged_again() {
    use entrez_mcp_core::staging::ledger::{Account, Ledger};
    use entrez_mcp_core::staging::store::{DatasetStore, NewDataset};
    use entrez_mcp_core::staging::task_store::StoredTask;
    let store = SqliteStore::in_memory().unwrap();
    let later = u64::MAX / 2;
    let kept = |id: &str, owner: &str, bytes: usize| StoredTask {
        id: id.into(),
        owner: owner.into(),
        result: "x".repeat(bytes),
        created_ms: 1,
        expires_ms: later,
    };
    // A dataset (charged as a dataset, 0 bytes so far) with its staging task's final result
    // (not charged), a call's result kept for an identity and one for a session.
    let dataset = "d".repeat(32);
    block_on(store.create(
        NewDataset {
            id: dataset.clone(),
            owner: "id-alice".into(),
            database: "pubmed".into(),
            layout: entrez_mcp_core::staging::layouts::layout_for("pubmed"),
            source: "1 id".into(),
            created_ms: 1,
            expires_ms: later,
        },
        10,
    ))
    .unwrap();
    block_on(store.save(kept(&dataset, "id-alice", 500))).unwrap();
    block_on(store.save(kept(&"a".repeat(32), "id-alice", 300))).unwrap();
    block_on(store.save(kept(&"b".repeat(32), "session-x", 200))).unwrap();
    let quotas = Quotas {
        total_bytes: 10_000,
        ..Quotas::from_lookup(|_| None, &Limits::default())
    };
    let ledger = entrez_mcp::seeded_ledger(&store, quotas).unwrap();
    let alice = block_on(ledger.allowance(&Account::Identity("alice".into()), 2)).unwrap();
    assert_eq!(alice.total_bytes_left, 10_000 - 300 - 200, "{alice:?}");
    assert_eq!(
        alice.bytes_left,
        Some(quotas.identity_bytes - 300),
        "{alice:?}"
    );
    assert_eq!(alice.datasets_left, Some(quotas.identity_datasets - 1));
}
