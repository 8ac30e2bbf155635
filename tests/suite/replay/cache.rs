//! The cache of upstream answers on the native edge, against the NCBI replay: a repeated
//! call sends nothing and says so, `fresh` asks again, identical calls in flight send one
//! request, entries expire on the clock and stay within the byte bound, and what must not
//! be kept (the history server, errors, cut-off bodies, `no-store`, validate's checks)
//! never is, nor any API key.

use crate::common::call_tool;
use crate::common::data::Clock;
use crate::common::replay::Replay;
use entrez_mcp::cache::SqliteAnswers;
use entrez_mcp::store::SqliteStore;
use entrez_mcp::transport::ReqwestTransport;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::net::cache::ResponseCache;
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::Network;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::{Limits, Staging};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;

const KEY: &str = "cachetestkey0123456789abcdef";

/// A server with a cache (in `dir`, else in memory), its settings from `env`.
fn cached(replay: &Replay, env: &[(&str, &str)], dir: Option<&Path>) -> (Server, Arc<Clock>) {
    let mut vars: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    vars.push(("EUTILS_BASE_URL".into(), replay.eutils_base()));
    vars.push(("NCBI_EMAIL".into(), "tests@example.org".into()));
    let config = Config::from_lookup(move |k| {
        vars.iter()
            .find(|(name, _)| name == k)
            .map(|(_, v)| v.clone())
    });
    let settings = config.cache;
    let store = match dir {
        Some(d) => SqliteAnswers::open(d, settings.max_bytes),
        None => SqliteAnswers::from_lookup(
            |k| (k == "ENTREZ_DATA_DIR").then(|| ":memory:".into()),
            settings.max_bytes,
        ),
    }
    .expect("cache opens");
    let clock = Arc::new(Clock::default());
    let server = Server::new(config, Box::new(clock.clone()))
        .unwrap()
        .with_network(Network {
            transport: Box::new(ReqwestTransport::new().unwrap()),
            pacer: Box::new(MemoryPacer::new()),
            cache: Some(ResponseCache::new(Box::new(store), settings)),
        })
        .with_staging(Staging::new(
            SqliteStore::in_memory().unwrap(),
            Limits::default(),
        ))
        .unwrap();
    (server, clock)
}

fn upstream(replay: &Replay) -> u64 {
    replay.stats()["requests"].as_u64().unwrap()
}

fn query(s: &Server, args: Value) -> Value {
    let r = call_tool(s, "entrez_query", args.clone());
    assert_eq!(r["isError"], false, "{args} → {r}");
    r
}

fn text(r: &Value) -> &str {
    r["content"][0]["text"].as_str().unwrap()
}

/// The result without its `cache` note and text: what the caller would read either way.
fn records(r: &Value) -> Value {
    let mut s = r["structuredContent"].clone();
    s.as_object_mut().unwrap().remove("cache");
    s
}

#[test]
fn a_repeated_fetch_sends_nothing_and_says_where_it_came_from() {
    let replay = Replay::start();
    let (s, clock) = cached(&replay, &[], None);
    let fetch =
        json!({"operation": "fetch", "database": "pubmed", "ids": ["12091962", "90000001"]});
    let first = query(&s, fetch.clone());
    let sent = upstream(&replay);
    assert_eq!(sent, 1);
    assert!(first["structuredContent"].get("cache").is_none(), "{first}");
    clock.advance_secs(180);
    let again = query(&s, fetch.clone());
    assert_eq!(upstream(&replay), sent, "a repeated fetch sent a request");
    assert_eq!(records(&again), records(&first));
    assert_eq!(
        again["structuredContent"]["cache"],
        json!({"hits": 1, "shared": 0, "oldest_age_s": 180})
    );
    assert!(
        text(&again)
            .contains("1 upstream answer(s) came from this server's cache (oldest 3 min old)"),
        "{}",
        text(&again)
    );
    // The same request from a caller with another key is the same answer.
    let keyed = entrez_mcp_core::caller::RequestContext {
        caller_api_key: Some(entrez_mcp_core::secret::ApiKey::new(KEY)),
        ..Default::default()
    };
    let r = crate::common::call_tool_with(&s, "entrez_query", fetch, &keyed);
    assert_eq!(r["structuredContent"]["cache"]["hits"], 1, "{r}");
    assert_eq!(upstream(&replay), sent);
    // The status tool counts it.
    let status = call_tool(&s, "system_api_key_status", json!({}));
    let c = &status["structuredContent"]["cache"];
    assert_eq!(
        (c["enabled"].clone(), c["hits"].clone(), c["misses"].clone()),
        (json!(true), json!(2), json!(1))
    );
    assert_eq!(c["entries"], 1);
    assert!(
        text(&status).contains("2 hits and 1 misses"),
        "{}",
        text(&status)
    );
}

#[test]
fn fresh_asks_upstream_again_and_refreshes_the_entry() {
    let replay = Replay::start();
    let (s, clock) = cached(&replay, &[], None);
    let info = json!({"operation": "info", "database": "pubmed"});
    query(&s, info.clone());
    clock.advance_secs(600);
    let mut fresh = info.clone();
    fresh["fresh"] = json!(true);
    let r = query(&s, fresh);
    assert_eq!(upstream(&replay), 2);
    assert!(r["structuredContent"].get("cache").is_none(), "{r}");
    // fresh acts on every operation that asks upstream: no warning says it was ignored.
    let warned = r["structuredContent"]["call_warnings"].to_string();
    assert!(!warned.contains("fresh"), "{warned}");
    // The refreshed entry is what the next call reads: no older than the refresh.
    let r = query(&s, info);
    assert_eq!(upstream(&replay), 2);
    assert_eq!(r["structuredContent"]["cache"]["oldest_age_s"], 0, "{r}");
    // fetch_and_stage honours it too.
    let stage = json!({"operation": "fetch_and_stage", "ids": ["12091962"]});
    let r = call_tool(&s, "entrez_data", stage.clone());
    assert_eq!(r["isError"], false, "{r}");
    let before = upstream(&replay);
    let r = call_tool(&s, "entrez_data", stage.clone());
    assert_eq!(r["structuredContent"]["cache"]["hits"], 1, "{r}");
    assert_eq!(upstream(&replay), before);
    let mut fresh = stage;
    fresh["fresh"] = json!("true");
    call_tool(&s, "entrez_data", fresh);
    assert_eq!(upstream(&replay), before + 1);
}

#[test]
fn validate_names_fresh_only_where_no_request_is_made() {
    let replay = Replay::start();
    let (s, _) = cached(&replay, &[], None);
    let findings = |tool: &str, arguments: Value| {
        let v = call_tool(
            &s,
            "validate",
            json!({"tool": tool, "arguments": arguments}),
        );
        v["structuredContent"]["details"].to_string()
    };
    for (tool, arguments) in [
        (
            "entrez_query",
            json!({"operation": "search", "term": "asthma", "fresh": true}),
        ),
        (
            "entrez_query",
            json!({"operation": "fetch", "ids": ["1"], "fresh": true}),
        ),
        (
            "entrez_query",
            json!({"operation": "link", "ids": ["1"], "fresh": true}),
        ),
        (
            "entrez_external",
            json!({"service": "pubchem", "operation": "compound", "namespace": "cid", "identifier": "2244", "fresh": true}),
        ),
        (
            "entrez_external",
            json!({"service": "pmc", "operation": "id_convert", "ids": ["PMC3531190"], "fresh": true}),
        ),
        (
            "entrez_data",
            json!({"operation": "fetch_and_stage", "ids": ["1"], "fresh": true}),
        ),
    ] {
        let found = findings(tool, arguments.clone());
        assert!(!found.contains("$.fresh"), "{tool} {arguments}: {found}");
    }
    let found = findings(
        "entrez_data",
        json!({"operation": "list_datasets", "fresh": true}),
    );
    assert!(
        found.contains("$.fresh") && found.contains("ignored_parameter"),
        "{found}"
    );
}

#[test]
fn the_history_server_is_never_cached() {
    let replay = Replay::start();
    let (s, _) = cached(&replay, &[], None);
    let search = json!({"operation": "search", "term": "biopython", "usehistory": true});
    let r = query(&s, search.clone());
    query(&s, search);
    // Each search goes upstream again (it checks for retractions only when asked).
    assert_eq!(upstream(&replay), 2);
    let webenv = r["structuredContent"]["webenv"]
        .as_str()
        .unwrap()
        .to_string();
    let page = json!({"operation": "fetch", "webenv": webenv, "query_key": 1, "retmax": 2});
    query(&s, page.clone());
    let r = query(&s, page);
    assert_eq!(upstream(&replay), 4);
    assert!(r["structuredContent"].get("cache").is_none());
    let post = json!({"operation": "post", "ids": ["12091962"]});
    query(&s, post.clone());
    query(&s, post);
    assert_eq!(upstream(&replay), 6);
}

#[test]
fn errors_cut_off_bodies_and_no_store_answers_are_never_cached() {
    let replay = Replay::start();
    let (s, _) = cached(&replay, &[], None);
    let info = json!({"operation": "info", "database": "pubmed"});
    // A 400 is final: an error result, and nothing kept.
    replay.control("POST", "/__replay/fail", r#"{"status": 400}"#);
    let r = call_tool(&s, "entrez_query", info.clone());
    assert_eq!(r["isError"], true, "{r}");
    // An <ERROR> in a 200.
    replay.control("POST", "/__replay/fail", r#"{"body": "quote_key"}"#);
    let r = call_tool(&s, "entrez_query", info.clone());
    assert_eq!(r["isError"], true, "{r}");
    // NCBI's own truncated einfo: whatever the reader makes of it, it is not kept.
    replay.control("POST", "/__replay/fail", r#"{"fixture": "einfo4.xml"}"#);
    call_tool(&s, "entrez_query", info.clone());
    // An answer marked no-store.
    replay.control("POST", "/__replay/fail", r#"{"cache_control": "no-store"}"#);
    query(&s, info.clone());
    assert_eq!(upstream(&replay), 4);
    // Each of those left nothing behind: the next call goes upstream, and the one after
    // that is the first served from the cache.
    let r = query(&s, info.clone());
    assert!(r["structuredContent"].get("cache").is_none(), "{r}");
    assert_eq!(upstream(&replay), 5);
    let r = query(&s, info);
    assert_eq!(r["structuredContent"]["cache"]["hits"], 1, "{r}");
    assert_eq!(upstream(&replay), 5);
}

#[test]
fn entries_expire_on_time_after_the_ttl_scale() {
    let replay = Replay::start();
    // A search stays 10 minutes; at half scale, 5.
    let (s, clock) = cached(&replay, &[("ENTREZ_CACHE_TTL_SCALE", "0.5")], None);
    let search = json!({"operation": "search", "term": "biopython"});
    // One request each time: a search checks for retractions only when asked.
    query(&s, search.clone());
    clock.advance_secs(299);
    query(&s, search.clone());
    assert_eq!(upstream(&replay), 1, "served before its 300 s were up");
    clock.advance_secs(1);
    let r = query(&s, search);
    assert_eq!(upstream(&replay), 2, "served after its 300 s were up");
    assert!(r["structuredContent"].get("cache").is_none());
}

#[test]
fn identical_calls_in_flight_send_one_request() {
    let replay = Replay::start();
    let (s, _) = cached(&replay, &[], None);
    // The first request to arrive answers after 3 s, long enough for every call to join it
    // on a slow machine; the others never reach the replay.
    replay.control("POST", "/__replay/fail", r#"{"delay_ms": 3000}"#);
    let fetch = json!({"operation": "fetch", "database": "pubmed", "ids": ["12091962"]});
    let results: Vec<Value> = std::thread::scope(|scope| {
        let calls: Vec<_> = (0..5)
            .map(|_| scope.spawn(|| query(&s, fetch.clone())))
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    assert_eq!(upstream(&replay), 1);
    let shared = results
        .iter()
        .filter(|r| r["structuredContent"]["cache"]["shared"] == 1)
        .count();
    assert_eq!(shared, 4, "four calls waited for the fifth's request");
    for r in &results {
        assert_eq!(records(r), records(&results[0]));
    }
}

#[test]
fn the_byte_bound_holds_as_the_least_recently_used_go() {
    let replay = Replay::start();
    // Room for two of these fetches (about 5.5 KB each), not three.
    let (s, _) = cached(&replay, &[("ENTREZ_CACHE_MAX_BYTES", "13000")], None);
    let fetch = |id: &str| json!({"operation": "fetch", "database": "pubmed", "ids": [id], "retmode": "xml"});
    for id in ["90000001", "90000002"] {
        query(&s, fetch(id));
    }
    // 90000001 is used again, so 90000002 is the one to go when 90000003 comes.
    query(&s, fetch("90000001"));
    assert_eq!(upstream(&replay), 2);
    query(&s, fetch("90000003"));
    assert_eq!(upstream(&replay), 3);
    let status = call_tool(&s, "system_api_key_status", json!({}));
    let c = &status["structuredContent"]["cache"];
    assert!(c["bytes"].as_u64().unwrap() <= 13_000, "{c}");
    assert_eq!(c["entries"], 2, "{c}");
    query(&s, fetch("90000001"));
    assert_eq!(upstream(&replay), 3, "the recently used one was dropped");
    query(&s, fetch("90000002"));
    assert_eq!(upstream(&replay), 4, "the least recently used one was kept");
}

#[test]
fn validate_neither_reads_nor_fills_the_cache() {
    let replay = Replay::start();
    let (s, _) = cached(&replay, &[], None);
    let check = json!({"tool": "entrez_query", "level": "runtime",
        "arguments": {"operation": "fetch", "database": "pubmed", "ids": ["11748933"]}});
    for _ in 0..2 {
        let v = call_tool(&s, "validate", check.clone());
        assert_eq!(v["structuredContent"]["valid"], true, "{v}");
    }
    assert_eq!(upstream(&replay), 2);
}

#[test]
fn no_api_key_is_part_of_a_stored_key_or_value() {
    let replay = Replay::start();
    let dir = std::env::temp_dir().join(format!("entrez-cache-keys-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    {
        let (s, _) = cached(&replay, &[("NCBI_API_KEY", KEY)], Some(&dir));
        query(
            &s,
            json!({"operation": "fetch", "database": "pubmed", "ids": ["12091962"]}),
        );
        query(&s, json!({"operation": "search", "term": "biopython"}));
        query(&s, json!({"operation": "info"}));
        let status = call_tool(&s, "system_api_key_status", json!({}));
        // One entry each (a search checks for retractions only when asked).
        assert_eq!(status["structuredContent"]["cache"]["entries"], 3);
    }
    let mut bytes = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        bytes.extend(std::fs::read(entry.unwrap().path()).unwrap());
    }
    assert!(bytes.len() > 10_000, "the answers are on disk");
    let found = bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes());
    assert!(!found, "the server's API key is in the cache file");
    let _ = std::fs::remove_dir_all(&dir);
}
