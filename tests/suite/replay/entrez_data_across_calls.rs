//! entrez_data stagings that take more than one call, on the Workers Free plan's budget
//! (10 ms of CPU, 50 subrequests): continued without gaps or repeats, only by their owner,
//! and after a fault upstream.

use super::entrez_data_replay::stage;
use crate::common::data::*;
use crate::common::replay::Replay;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};

/// Continues a partial dataset until it is complete; returns the calls it took.
fn continue_until_complete(s: &entrez_mcp_core::protocol::Server, first: &Value) -> usize {
    let id = first["data_access_id"].as_str().unwrap();
    let mut calls = 1;
    let mut last = first.clone();
    while last["status"] == "partial" {
        assert_eq!(last["next_call"]["data_access_id"], id, "{last}");
        assert!(last["remaining"].as_u64().unwrap() > 0, "{last}");
        assert!(
            last["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains("ENTREZ_CPU_BUDGET_MS")),
            "the cap is said: {last}"
        );
        last = ok(s, last["next_call"].clone());
        calls += 1;
        assert!(calls < 100, "no end: {last}");
    }
    assert_eq!(last["status"], "complete", "{last}");
    assert_eq!(last["remaining"], 0);
    assert_eq!(last["next_call"], Value::Null);
    calls
}

#[test]
fn a_free_plan_budget_stages_across_calls_without_gaps_or_repeats() {
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    // A search: the first call searches once; the rest page its history set onwards.
    let first = stage(
        &s,
        json!({"term": "replay-synthetic[all]", "max_records": 1000}),
    );
    assert_eq!(first["status"], "partial", "{first}");
    let staged_first = first["records"].as_u64().unwrap();
    assert!(staged_first > 0 && staged_first < 500, "{first}");
    assert_eq!(first["remaining"], 1000 - staged_first);
    let id = first["data_access_id"].as_str().unwrap().to_string();
    // A partial dataset answers queries meanwhile, and says it is partial.
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    assert_eq!(q["status"], "partial");
    assert!(
        q["warnings"][0].as_str().unwrap().contains("partial"),
        "{q}"
    );
    let calls = continue_until_complete(&s, &first);
    assert!(calls >= 3, "1,000 records cannot fit a few calls: {calls}");
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        1000
    );
    assert_eq!(
        scalar(&s, &id, "SELECT MAX(pmid) - MIN(pmid) + 1 FROM article"),
        1000
    );
    let searches = replay.stats();
    // Ids: the ones not yet fetched are kept between calls.
    let ids: Vec<u64> = (90_000_001..=90_000_700).collect();
    let first = stage(&s, json!({"ids": ids}));
    assert_eq!(first["status"], "partial", "{first}");
    let id = first["data_access_id"].as_str().unwrap().to_string();
    continue_until_complete(&s, &first);
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        700
    );
    assert_eq!(
        scalar(
            &s,
            &id,
            "SELECT COUNT(*) FROM article WHERE pmid BETWEEN 90000001 AND 90000700"
        ),
        700
    );
    // A complete dataset has nothing to continue; a malformed id is refused by the schema.
    let done = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(done["code"], "dataset_complete", "{done}");
    let both = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id, "term": "x"}),
    );
    assert_ne!(
        both["code"], "dataset_complete",
        "a source and an id together are ambiguous: {both}"
    );
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    eprintln!("free-plan staging: {calls} calls for 1,000 records; replay {searches} then {stats}");
}

#[test]
fn only_the_owner_continues_a_partial_dataset() {
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    let alice = session("alice");
    let ids: Vec<u64> = (90_000_001..=90_000_400).collect();
    let first = ok_as(
        &s,
        json!({"operation": "fetch_and_stage", "ids": ids}),
        &alice,
    );
    assert_eq!(first["status"], "partial", "{first}");
    let id = first["data_access_id"].as_str().unwrap();
    let stranger = err_as(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
        &session("mallory"),
    );
    assert_eq!(stranger["code"], "dataset_not_found", "{stranger}");
    // What the dataset's first call set stays: other settings are ignored, and said to be.
    let next = ok_as(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id, "database": "gene", "max_records": 5}),
        &alice,
    );
    assert!(
        next["records"].as_u64() > first["records"].as_u64(),
        "{next}"
    );
    assert_eq!(next["database"], "pubmed");
    assert!(
        next["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("database, max_records ignored"),
        "{next}"
    );
}

#[test]
fn a_passing_fault_leaves_a_partial_dataset_that_continues_without_gaps() {
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    let ids: Vec<u64> = (90_000_001..=90_000_300).collect();
    let first = stage(&s, json!({"ids": ids}));
    assert_eq!(first["status"], "partial", "{first}");
    let id = first["data_access_id"].as_str().unwrap().to_string();
    // NCBI answers 503 to every attempt of the next request.
    replay.control("POST", "/__replay/fail", r#"{"status": 503, "count": 4}"#);
    let paused = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(paused["details"]["status"], "partial", "{paused}");
    assert_eq!(
        paused["details"]["records_staged"], first["records"],
        "{paused}"
    );
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(listed["datasets"][0]["status"], "partial", "{listed}");
    continue_until_complete(
        &s,
        &ok(
            &s,
            json!({"operation": "fetch_and_stage", "data_access_id": id}),
        ),
    );
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        300
    );
    assert_eq!(
        scalar(&s, &id, "SELECT MAX(pmid) - MIN(pmid) + 1 FROM article"),
        300
    );
}
