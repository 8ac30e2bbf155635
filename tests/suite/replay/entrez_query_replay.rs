//! entrez_query end to end against the NCBI replay server: real recorded replies,
//! NCBI's rate limit, retries, and every result checked against the outputSchema.

use crate::common::replay::Replay;
use crate::common::*;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};
use std::sync::Arc;

fn server(replay: &Replay, key: Option<&str>) -> Server {
    networked_server(&replay.eutils_base(), key)
}

fn query(s: &Server, args: Value) -> Value {
    let r = call_tool(s, "entrez_query", args.clone());
    assert_eq!(r["isError"], false, "{args} → {r}");
    r["structuredContent"].clone()
}

#[test]
fn search_returns_ids_translation_and_history() {
    let replay = Replay::start();
    let s = server(&replay, None);
    let r = query(
        &s,
        json!({"operation": "search", "term": "biopython", "usehistory": true}),
    );
    assert_eq!(r["database"], "pubmed");
    assert!(r["count"].as_u64().unwrap() > 0);
    assert!(!r["ids"].as_array().unwrap().is_empty());
    assert!(
        r["webenv"].as_str().is_some_and(|w| w.starts_with("MCID_")),
        "{r}"
    );
    assert_eq!(r["query_key"], "1");
}

#[test]
fn fetch_pubmed_parses_articles_with_text_listing() {
    let replay = Replay::start();
    let s = server(&replay, None);
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "fetch", "ids": ["12091962"]}),
    );
    let sc = &r["structuredContent"];
    assert_eq!(sc["format"], "pubmed_xml");
    assert_eq!(sc["count"], 1, "{sc}");
    let a = &sc["records"][0];
    assert_eq!(a["pmid"], "12091962");
    assert_eq!(
        a["title"],
        "The treatment of AIDS behind the walls of correctional facilities."
    );
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("1. The treatment of AIDS") && text.contains("PMID 12091962"),
        "{text}"
    );
    assert_eq!(
        r["content"][0]["annotations"]["audience"],
        json!(["user", "assistant"])
    );
}

#[test]
fn sequences_taxonomy_summary_link_post_spell_info_and_citations() {
    let replay = Replay::start();
    let s = server(&replay, None);
    let gb = query(
        &s,
        json!({"operation": "fetch", "database": "nuccore", "ids": ["NC_005816"], "rettype": "gb", "retmode": "text"}),
    );
    assert_eq!(gb["format"], "flat_file");
    assert_eq!(gb["records"][0]["accession"], "NC_005816");
    let prot = query(
        &s,
        json!({"operation": "fetch", "database": "protein", "ids": ["CAA35997"]}),
    );
    assert_eq!(prot["format"], "gbseq_xml");
    assert!(prot["records"][0]["accession"].is_string());
    let tax = query(
        &s,
        json!({"operation": "fetch", "database": "taxonomy", "ids": ["9685"]}),
    );
    assert_eq!(tax["format"], "taxonomy_xml");
    assert!(tax["records"][0]["lineage"]
        .as_str()
        .is_some_and(|l| !l.is_empty()));
    let sum = query(
        &s,
        json!({"operation": "summary", "ids": ["11850928", "11482001"], "retmode": "xml"}),
    );
    assert!(
        sum["docs"][0]["title"]
            .as_str()
            .is_some_and(|t| !t.is_empty()),
        "{sum}"
    );
    let link = query(
        &s,
        json!({"operation": "link", "ids": ["9298984"], "database": "pubmed"}),
    );
    assert!(!link["linksets"].as_array().unwrap().is_empty());
    let post = query(
        &s,
        json!({"operation": "post", "ids": ["11237011", "12466850"]}),
    );
    assert!(post["webenv"].as_str().is_some_and(|w| !w.is_empty()));
    let spell = query(&s, json!({"operation": "spell", "term": "biopythooon"}));
    assert!(spell["corrected_query"].is_string());
    let dbs = query(&s, json!({"operation": "info"}));
    assert!(dbs["databases"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d == "pubmed"));
    let pubmed = query(&s, json!({"operation": "info", "database": "pubmed"}));
    assert!(pubmed["database"]["fields"].as_array().unwrap().len() > 10);
    let cit = query(
        &s,
        json!({"operation": "citation_match", "citations": [
        {"journal": "proc natl acad sci u s a", "year": 1991, "volume": 88, "first_page": 3248, "author": "mann bj", "key": "Art1"}]}),
    );
    assert_eq!(cit["matches"][0]["pmid"], "2014248");
    let global = query(
        &s,
        json!({"operation": "global_query", "term": "biopython", "databases": ["pubmed", "pmc"]}),
    );
    assert_eq!(global["results"].as_array().unwrap().len(), 2);
    assert!(global["results"][0]["count"].as_u64().is_some(), "{global}");
}

#[test]
fn ncbi_errors_inside_200_replies_become_error_results() {
    let replay = Replay::start();
    let s = server(&replay, None);
    // An id past NCBI's 64-bit range passes as digits but NCBI answers 200 with two <ERROR>s.
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "post", "ids": ["99999999999999999999999"]}),
    );
    assert_eq!(r["isError"], true, "{r}");
    let e = &r["structuredContent"]["error"];
    assert!(
        e["message"].as_str().unwrap().contains("Empty ID list"),
        "{e}"
    );
    assert!(!e["suggestions"].as_array().unwrap().is_empty());
}

#[test]
fn calls_rejected_by_validation_are_never_sent_upstream() {
    let replay = Replay::start();
    let s = server(&replay, None);
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "post", "database": "nothing", "ids": ["1"]}),
    );
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(replay.stats()["requests"], 0);
}

#[test]
fn transient_503s_are_retried_until_success() {
    let replay = Replay::start();
    replay.control("POST", "/__replay/fail", r#"{"status": 503, "count": 2}"#);
    let s = server(&replay, None);
    let r = query(&s, json!({"operation": "info"}));
    assert!(r["databases"].as_array().is_some());
    let stats = replay.stats();
    assert!(stats["requests"].as_u64().unwrap() >= 3, "{stats}");
}

/// `calls` concurrent searches through `s`; every result must be a success.
fn concurrent_searches(s: &Arc<Server>, calls: usize) {
    let results: Vec<Value> = block_on(async {
        let tasks: Vec<_> = (0..calls)
            .map(|i| {
                let s = Arc::clone(s);
                tokio::spawn(async move {
                    // PMC: one request per search (PubMed's also checks for retractions).
                    let msg = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                        "params": {"name": "entrez_query", "arguments": {"operation": "search", "database": "pmc", "term": "stem cells"}}});
                    s.handle_bytes(msg.to_string().as_bytes(), &Default::default()).await.unwrap()
                })
            })
            .collect();
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    for r in &results {
        assert_eq!(r["result"]["isError"], false, "{r}");
    }
}

#[test]
fn ninety_concurrent_keyed_calls_never_put_more_than_ten_into_one_second() {
    // Spaced slots, not bursts of ten: a burst's sends spread out, and the next burst's
    // first ones used to overtake them (11 to 14 in one second, and 429s).
    let replay = Replay::start();
    let s = Arc::new(server(&replay, Some("load-test-key")));
    concurrent_searches(&s, 90);
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    assert_eq!(stats["requests"], 90);
    for (identity, max) in stats["max_in_any_1s_window"].as_object().unwrap() {
        assert!(identity.starts_with("key:"), "{identity}");
        assert!(max.as_u64().unwrap() <= 10, "{identity} peaked at {max}");
    }
}

#[test]
fn thirty_concurrent_calls_cause_no_429_and_stay_under_the_limit() {
    let replay = Replay::start();
    let s = Arc::new(server(&replay, None));
    let started = std::time::Instant::now();
    concurrent_searches(&s, 30);
    assert!(started.elapsed().as_secs() < 60);
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    for (identity, max) in stats["max_in_any_1s_window"].as_object().unwrap() {
        assert!(max.as_u64().unwrap() <= 3, "{identity} peaked at {max}");
    }
    assert_eq!(stats["requests"], 30);
}

#[test]
fn progress_notifications_stream_before_the_result() {
    use entrez_mcp_core::http::{Endpoint, Sessions};
    use entrez_mcp_core::mcp::progress::Notifier;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Collect(Mutex<Vec<Value>>);
    impl Notifier for Collect {
        fn notify(&self, n: Value) {
            self.0.lock().unwrap().push(n);
        }
    }

    let replay = Replay::start();
    let endpoint = Endpoint::new(
        server(&replay, None),
        Sessions::new(b"k".to_vec(), 3600, true),
    );
    let session = {
        let r = block_on(endpoint.handle(post(&initialize_body("2025-11-25"), &[])));
        r.header("Mcp-Session-Id").unwrap().to_string()
    };
    let call = json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "entrez_query", "_meta": {"progressToken": "gq-1"},
        "arguments": {"operation": "global_query", "term": "biopython", "databases": ["pubmed", "pmc", "gene"]}}});
    let req = post(&call.to_string(), &[("Mcp-Session-Id", &session)]);
    assert!(endpoint.wants_stream(&req));
    let sink = Collect::default();
    let reply = block_on(endpoint.handle_notifying(req, Some(&sink)));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json_body()["result"]["isError"], false);
    let events = sink.0.lock().unwrap();
    let progress: Vec<f64> = events
        .iter()
        .map(|e| e["params"]["progress"].as_f64().unwrap())
        .collect();
    assert_eq!(progress, vec![1.0, 2.0, 3.0]);
    assert!(events
        .iter()
        .all(|e| e["method"] == "notifications/progress"
            && e["params"]["progressToken"] == "gq-1"
            && e["params"]["total"] == 3.0));
    // Without a token, or without SSE in Accept, nothing streams.
    let plain = json!({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "entrez_query", "arguments": {"operation": "info"}}});
    assert!(!endpoint.wants_stream(&post(&plain.to_string(), &[("Mcp-Session-Id", &session)])));
    let no_sse = post(
        &call.to_string(),
        &[("Mcp-Session-Id", &session), ("Accept", "application/json")],
    );
    assert!(!endpoint.wants_stream(&no_sse));
}
