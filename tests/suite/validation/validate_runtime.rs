//! validate's opt-in runtime level: one esummary lookup, within a 1 s budget,
//! says whether the ids of an entrez_query call exist. Against the NCBI replay
//! server (which answers esummary JSON for PMIDs in NCBI's documented shape),
//! a stalled upstream, and no upstream at all. Together with the main corpus
//! this reaches every runtime code the validate outputSchema documents.

use crate::common::call_tool;
use crate::common::replay::Replay;
use entrez_mcp::SystemPlatform;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::{HttpCall, HttpReply, Network, Transport};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn runtime(s: &Server, args: Value) -> Value {
    let v = call_tool(
        s,
        "validate",
        json!({"tool": "entrez_query", "arguments": args, "level": "runtime"}),
    );
    assert_eq!(v["isError"], false, "{v}");
    assert_eq!(v["structuredContent"]["level"], "runtime");
    v["structuredContent"].clone()
}

fn found(report: &Value, key: &str) -> Vec<(String, String)> {
    report["details"][key]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["code"].as_str().unwrap().to_string(),
                f["path"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Upstream that never answers; the budget timer is real.
struct Stalled;

impl Transport for Stalled {
    fn send<'a>(&'a self, _call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
        Box::pin(std::future::pending())
    }
    fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(tokio::time::sleep(Duration::from_millis(ms)))
    }
}

#[test]
fn ids_are_looked_up_at_ncbi_within_the_budget() {
    let replay = Replay::start();
    let (s, _, _) = crate::common::data::server(Some(&replay), Limits::default());
    let mut seen: BTreeSet<String> = BTreeSet::new();

    // Recorded and synthetic PMIDs exist; PMID 1 is not in the replay's PubMed.
    let fine = runtime(
        &s,
        json!({"operation": "fetch", "database": "pubmed", "ids": ["11748933", "90000001"]}),
    );
    assert_eq!(fine["valid"], true, "{fine}");
    assert_eq!(found(&fine, "warnings"), vec![]);
    let missing = runtime(
        &s,
        json!({"operation": "summary", "database": "pubmed", "ids": ["11748933", "1", "90000002"]}),
    );
    assert_eq!(missing["valid"], false);
    assert_eq!(
        found(&missing, "errors"),
        vec![("id_not_found".into(), "$.ids[1]".into())]
    );
    let message = missing["details"]["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("pubmed has no record 1"), "{message}");
    assert!(message.contains("cannot get document summary"), "{message}");
    seen.insert("id_not_found".into());
    // link checks the ids of its source database.
    let link = runtime(
        &s,
        json!({"operation": "link", "dbfrom": "pubmed", "database": "pubmed", "ids": ["1"]}),
    );
    assert_eq!(
        found(&link, "errors"),
        vec![("id_not_found".into(), "$.ids[0]".into())]
    );

    // The semantic level never asks; the runtime level asks once per call.
    let before = replay.stats()["requests"].as_u64().unwrap();
    let semantic = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": {"operation": "fetch", "database": "pubmed", "ids": ["1"]}}),
    );
    assert_eq!(semantic["structuredContent"]["valid"], true);
    assert_eq!(replay.stats()["requests"].as_u64().unwrap(), before);

    // More than 200 distinct ids: the first 200 are checked, and the answer says so.
    let many: Vec<String> = (90_000_001u64..=90_000_250)
        .map(|n| n.to_string())
        .collect();
    let partial = runtime(
        &s,
        json!({"operation": "summary", "database": "pubmed", "ids": many}),
    );
    assert_eq!(partial["valid"], true);
    assert!(found(&partial, "warnings").contains(&("runtime_partial".into(), "$.ids".into())));
    seen.insert("runtime_partial".into());

    // A database the replay holds no esummary JSON for: the check is reported as not made.
    let gene = runtime(
        &s,
        json!({"operation": "summary", "database": "gene", "ids": ["7157"], "retmode": "json"}),
    );
    assert_eq!(gene["valid"], true);
    assert_eq!(
        found(&gene, "warnings"),
        vec![("runtime_unavailable".into(), "$.ids".into())]
    );
    seen.insert("runtime_unavailable".into());

    // Stalled upstream: a warning after about a second, never a verdict on the ids.
    let stalled = Server::new(Config::defaults(), Box::new(SystemPlatform))
        .unwrap()
        .with_network(Network {
            transport: Box::new(Stalled),
            pacer: Box::new(MemoryPacer::new()),
            cache: None,
        });
    let started = Instant::now();
    let slow = runtime(
        &stalled,
        json!({"operation": "fetch", "database": "pubmed", "ids": ["1"]}),
    );
    let took = started.elapsed();
    assert_eq!(slow["valid"], true);
    assert_eq!(
        found(&slow, "warnings"),
        vec![("runtime_budget_exceeded".into(), "$.ids".into())]
    );
    assert!(
        took >= Duration::from_millis(950) && took < Duration::from_secs(5),
        "{took:?}"
    );
    seen.insert("runtime_budget_exceeded".into());

    let documented: BTreeSet<String> = entrez_mcp_core::validation::codes::RUNTIME_CODES
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(seen, documented);
}

#[test]
fn the_capability_announces_the_runtime_level_truthfully() {
    let c = entrez_mcp_core::tools::validate::capability();
    assert_eq!(c["levels"]["runtime"], true);
    assert_eq!(c["runtime"]["budgetMs"], 1000);
    assert_eq!(c["runtime"]["cacheable"], false);
    assert_eq!(c["sideEffects"], false);
}
