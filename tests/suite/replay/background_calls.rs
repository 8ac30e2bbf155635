//! BioC calls made MCP tasks run in the background (`tasks::calls`): the call answers
//! with a task before it sends anything, the scheduler runs it with no request behind it, and
//! the task then holds exactly what the call would have returned. Owned like a dataset,
//! cancellable, and started again when a run is lost.

use super::background_staging::Asked;
use super::tasks::{handshake, stateless};
use crate::common::block_on;
use crate::common::external_replay::scripted::*;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::ledger::Quotas;
use entrez_mcp_core::staging::Limits;
use entrez_mcp_core::tasks::calls::{RUN_RETAKE_MS, RUN_STARTS};
use entrez_mcp_core::tasks::Step;
use serde_json::{json, Value};
use std::sync::Arc;

/// A server whose BioC answers every article with a title and one paragraph, and whose
/// scheduler only writes down the runs asked for.
pub(super) fn bioc_server() -> (Arc<Script>, Server, Asked) {
    bioc_server_under(None)
}

/// [`bioc_server`], its ledger under `quotas` where given.
fn bioc_server_under(quotas: Option<Quotas>) -> (Arc<Script>, Server, Asked) {
    let script = Arc::new(Script {
        clock: Arc::new(Clock::default()),
        reply: Box::new(|call| {
            let id = call.url.split('/').rev().nth(1).unwrap_or("?").to_string();
            let passage = |kind: &str, text: String| {
                json!({"infons": {"section_type": kind, "type": kind.to_lowercase()},
                       "offset": 0, "text": text})
            };
            json_reply(
                200,
                None,
                json!([{"documents": [{"id": id, "passages": [
                    passage("TITLE", format!("Article {id}")),
                    passage("ABSTRACT", "Sixteen words of an abstract, as BioC serves it.".into()),
                ]}]}]),
            )
        }),
        sent: Default::default(),
    });
    let asked = Asked::default();
    let s = server(script.clone(), Arc::new(CountingPacer::default()))
        .with_staging(super::pending_tasks::task_staging(&asked, quotas))
        .unwrap();
    (script, s, asked)
}

fn bioc() -> Value {
    json!({"name": "entrez_external", "arguments": {
        "service": "pmc", "operation": "bioc", "ids": ["PMC1234567", "PMC7654321"]}})
}

fn sent(script: &Script) -> usize {
    script.sent.lock().unwrap().len()
}

fn as_task() -> Value {
    let mut call = bioc();
    call["task"] = json!({});
    call
}

/// A BioC task made by session "a" on `s`: its id.
fn task_of(s: &Server) -> String {
    let created = handshake(s, "a", "tools/call", as_task());
    let id = created["result"]["task"]["taskId"].as_str();
    id.unwrap_or_else(|| panic!("no task: {created}"))
        .to_string()
}

#[test]
fn a_2025_11_25_bioc_task_runs_apart_and_ends_with_what_the_call_returns() {
    // What the call returns without a task, for comparison.
    let (script, s, asked) = bioc_server();
    let inline = handshake(&s, "a", "tools/call", bioc());
    assert_eq!(inline["result"]["isError"], false, "{inline}");
    assert_eq!(sent(&script), 2, "one request per id");
    assert!(
        asked.take().is_empty(),
        "a call without a task runs in its request"
    );

    let (script, s, asked) = bioc_server();
    let created = handshake(&s, "a", "tools/call", as_task());
    let task = &created["result"]["task"];
    assert_eq!(task["status"], "working", "{created}");
    assert!(
        task["statusMessage"]
            .as_str()
            .unwrap()
            .contains("running in the background"),
        "{created}"
    );
    let id = task["taskId"].as_str().unwrap().to_string();
    assert_eq!(
        sent(&script),
        0,
        "nothing is sent before the scheduler runs it"
    );
    assert_eq!(asked.take(), vec![id.clone()]);
    // A stranger can neither see nor cancel it.
    for method in ["tasks/get", "tasks/cancel"] {
        let theirs = handshake(&s, "b", method, json!({"taskId": id}));
        assert_eq!(theirs["error"]["code"], -32602, "{theirs}");
    }
    // The scheduler runs it, with no request behind it.
    assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::Finished);
    assert_eq!(sent(&script), 2);
    // Run again (an alarm come twice), it has nothing to do.
    assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    assert_eq!(sent(&script), 2);
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "completed", "{got}");
    let result = handshake(&s, "a", "tasks/result", json!({"taskId": id}));
    let r = &result["result"];
    assert_eq!(r["isError"], false, "{result}");
    let mut theirs = r["structuredContent"].clone();
    let mut own = inline["result"]["structuredContent"].clone();
    // The same call, but for the cache and request notes of its own run.
    for v in [&mut theirs, &mut own] {
        v.as_object_mut().unwrap().remove("requests");
    }
    assert_eq!(theirs, own, "{result}");
    assert_eq!(r["content"], inline["result"]["content"]);
}

#[test]
fn a_2026_07_28_bioc_call_that_declares_the_extension_runs_apart_too() {
    let (script, s, asked) = bioc_server();
    let mut params = bioc();
    params["_meta"] = json!({"io.modelcontextprotocol/clientCapabilities": {
        "extensions": {"io.modelcontextprotocol/tasks": {}}}});
    let created = stateless(&s, "tools/call", params, true);
    let r = &created["result"];
    assert_eq!(r["resultType"], "task", "{created}");
    let id = r["taskId"].as_str().unwrap().to_string();
    assert_eq!(asked.take(), vec![id.clone()]);
    assert_eq!(sent(&script), 0);
    block_on(s.run_step(&id)).unwrap();
    let got = stateless(&s, "tasks/get", json!({"taskId": id}), true);
    assert_eq!(got["result"]["status"], "completed", "{got}");
    assert_eq!(
        got["result"]["result"]["structuredContent"]["operation"], "bioc",
        "{got}"
    );
}

#[test]
fn a_cancelled_bioc_task_is_not_run() {
    let (script, s, asked) = bioc_server();
    let id = task_of(&s);
    let cancelled = handshake(&s, "a", "tasks/cancel", json!({"taskId": id}));
    assert_eq!(cancelled["result"]["status"], "cancelled", "{cancelled}");
    for id in asked.take() {
        assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    }
    assert_eq!(sent(&script), 0);
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}

#[test]
fn a_lost_run_is_started_again_and_after_three_starts_the_task_ends_lost() {
    let (script, s, asked) = bioc_server();
    let id = task_of(&s);
    assert_eq!(asked.take().len(), 1);
    // The run asked for never happens (the process stopped). Before the retake time a look
    // starts nothing; after it, each look starts it once more.
    for start in 2..=RUN_STARTS {
        let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
        assert_eq!(got["result"]["status"], "working", "{got}");
        assert!(asked.take().is_empty(), "not yet");
        block_on(entrez_mcp_core::net::Transport::sleep(
            script.as_ref(),
            RUN_RETAKE_MS,
        ));
        let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
        let message = got["result"]["statusMessage"].as_str().unwrap().to_string();
        assert!(message.contains(&format!("({start} start(s))")), "{got}");
        assert_eq!(asked.take(), vec![id.clone()]);
    }
    block_on(entrez_mcp_core::net::Transport::sleep(
        script.as_ref(),
        RUN_RETAKE_MS,
    ));
    let got = handshake(&s, "a", "tasks/get", json!({"taskId": id}));
    assert_eq!(got["result"]["status"], "failed", "{got}");
    assert!(asked.take().is_empty());
    let result = handshake(&s, "a", "tasks/result", json!({"taskId": id}));
    assert_eq!(result["result"]["isError"], true, "{result}");
    assert_eq!(
        result["result"]["structuredContent"]["error"]["code"], "task_lost",
        "{result}"
    );
    // A run that comes after all (a slow process) changes nothing.
    assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    assert_eq!(sent(&script), 0);
}

#[test]
fn a_bioc_task_past_the_running_ceiling_runs_in_its_request_or_is_refused_having_run_nothing() {
    // One call running at a time: the first BioC task holds the slot until its run ends.
    let quotas = Quotas {
        running: 1,
        ..Quotas::from_lookup(|_| None, &Limits::default())
    };
    let (script, s, asked) = bioc_server_under(Some(quotas));
    let id = task_of(&s);
    assert_eq!(asked.take(), vec![id.clone()]);
    // 2025-11-25 asked for a task, and none can be kept: a JSON-RPC error, nothing sent.
    let refused = handshake(&s, "a", "tools/call", as_task());
    assert_eq!(
        refused["error"]["data"]["code"], "quota_exceeded",
        "{refused}"
    );
    assert_eq!(
        refused["error"]["data"]["details"]["limit"],
        "account_running"
    );
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.ends_with("Nothing ran."), "{message}");
    assert_eq!(sent(&script), 0);
    // 2026-07-28 lets the server decide: the call runs in its request, as without a task.
    let mut params = bioc();
    params["_meta"] = json!({"io.modelcontextprotocol/clientCapabilities": {
        "extensions": {"io.modelcontextprotocol/tasks": {}}}});
    let inline = stateless(&s, "tools/call", params.clone(), true);
    let r = &inline["result"];
    assert_eq!(r["isError"], false, "{inline}");
    assert_eq!(r["structuredContent"]["found"], 2, "{inline}");
    assert_eq!(sent(&script), 2);
    assert!(asked.take().is_empty());
    // The first run's end frees the slot.
    block_on(s.run_step(&id)).unwrap();
    let next = stateless(&s, "tools/call", params, true);
    assert_eq!(next["result"]["resultType"], "task", "{next}");
}
