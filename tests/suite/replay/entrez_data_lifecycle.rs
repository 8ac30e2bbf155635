//! entrez_data's life cycle: listed only with a store, owned per session,
//! expired by the clock, held to its limits, dropped on request, and honest
//! about datasets a crash left half-staged.

use crate::common::data::*;
use crate::common::replay::Replay;
use crate::common::{rpc, server_with};
use entrez_mcp::store::{SqliteStore, DAMAGED, INTERRUPTED};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::staging::layouts::PUBMED;
use entrez_mcp_core::staging::rows;
use entrez_mcp_core::staging::store::{
    Caps, DatasetStore, Lease, NewDataset, Status, STALE_LOADING_MS,
};
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};

fn tool_names(s: &entrez_mcp_core::protocol::Server) -> Vec<String> {
    let list = rpc(
        s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn listed_and_callable_only_on_servers_with_a_store() {
    let (plain, _) = server_with(Config::defaults());
    assert!(!tool_names(&plain).contains(&"entrez_data".to_string()));
    let r = rpc(
        &plain,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "entrez_data", "arguments": {"operation": "list_datasets"}}}),
    );
    assert_eq!(r["error"]["code"], -32602);

    let (s, _, _) = server(None, Limits::default());
    assert!(tool_names(&s).contains(&"entrez_data".to_string()));
    let list = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let tool = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "entrez_data")
        .unwrap()
        .clone();
    let a = &tool["annotations"];
    assert_eq!(
        (
            a["readOnlyHint"].clone(),
            a["destructiveHint"].clone(),
            a["openWorldHint"].clone()
        ),
        (json!(false), json!(true), json!(true))
    );
    let empty = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(empty["datasets"], json!([]));
    assert_eq!(empty["limits"]["max_records_per_staging"], 10000);
    // Without a network, staging says so rather than pretending.
    let e = err(&s, json!({"operation": "fetch_and_stage", "ids": ["1"]}));
    assert_eq!(e["code"], "upstream_unavailable");
}

#[test]
fn datasets_belong_to_their_session() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let alice = session("alice-session");
    let bob = session("bob-session");
    let st = ok_as(
        &s,
        json!({"operation": "fetch_and_stage", "ids": ["12091962", "9997"]}),
        &alice,
    );
    let id = st["data_access_id"].as_str().unwrap();
    for op in ["query", "schema", "drop_dataset"] {
        let e = err_as(
            &s,
            json!({"operation": op, "data_access_id": id, "sql": "SELECT 1"}),
            &bob,
        );
        assert_eq!(e["code"], "dataset_not_found", "{op}");
    }
    let bobs = ok_as(&s, json!({"operation": "list_datasets"}), &bob);
    assert_eq!(bobs["owner_scope"], "session");
    assert_eq!(bobs["datasets"], json!([]));
    let mine = ok_as(&s, json!({"operation": "list_datasets"}), &alice);
    assert_eq!(mine["datasets"][0]["data_access_id"], id);
    assert_eq!(mine["datasets"][0]["records"], 2);
    // Without a session the caller's key decides; stdio (neither) is one local owner.
    let keyed = entrez_mcp_core::caller::RequestContext {
        caller_api_key: Some(entrez_mcp_core::secret::ApiKey::new("caller-key")),
        ..Default::default()
    };
    assert_eq!(
        ok_as(&s, json!({"operation": "list_datasets"}), &keyed)["owner_scope"],
        "api_key"
    );
    assert_eq!(
        ok(&s, json!({"operation": "list_datasets"}))["datasets"],
        json!([])
    );
    let dropped = ok_as(
        &s,
        json!({"operation": "drop_dataset", "data_access_id": id}),
        &alice,
    );
    assert_eq!(dropped["dropped"], true);
    let again = err_as(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT 1"}),
        &alice,
    );
    assert_eq!(again["code"], "dataset_not_found");
}

#[test]
fn datasets_expire_after_their_ttl() {
    let replay = Replay::start();
    let limits = Limits {
        ttl_secs: 60,
        ..Limits::default()
    };
    let (s, clock, store) = server(Some(&replay), limits);
    let a = ok(
        &s,
        json!({"operation": "fetch_and_stage", "ids": ["12091962"]}),
    );
    let b = ok(&s, json!({"operation": "fetch_and_stage", "ids": ["9997"]}));
    let (ida, idb) = (
        a["data_access_id"].as_str().unwrap(),
        b["data_access_id"].as_str().unwrap(),
    );
    clock.advance_secs(59);
    assert_eq!(scalar(&s, ida, "SELECT COUNT(*) FROM article"), 1);
    clock.advance_secs(2);
    let e = err(
        &s,
        json!({"operation": "query", "data_access_id": ida, "sql": "SELECT 1"}),
    );
    assert_eq!(e["code"], "dataset_expired");
    assert!(e["message"].as_str().unwrap().contains("expired"));
    // Listing drops the rest lazily, and the store forgets them.
    assert_eq!(
        ok(&s, json!({"operation": "list_datasets"}))["datasets"],
        json!([])
    );
    assert!(crate::common::block_on(store.get(idb)).unwrap().is_none());
    let fresh = ok(&s, json!({"operation": "fetch_and_stage", "ids": ["9997"]}));
    assert_eq!(fresh["status"], "complete");
}

#[test]
fn a_staging_longer_than_the_lifetime_completes_and_lives_a_lifetime_after() {
    // A lifetime of 60 s, and every NCBI request takes 25 s on the clock: the search and the
    // four batches of 500 synthetic records span 125 s, more than twice the lifetime.
    let replay = Replay::start();
    let limits = Limits {
        ttl_secs: 60,
        ..Limits::default()
    };
    let store = SqliteStore::in_memory().unwrap();
    let (s, clock) = server_ticking(Some(&replay), limits, store.clone(), 25_000);
    let started = clock.now_unix_ms();
    let st = ok(
        &s,
        json!({"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 2000}),
    );
    let finished = clock.now_unix_ms();
    assert!(
        finished - started >= 2 * 60_000,
        "the staging took {} ms on the clock, not more than the lifetime",
        finished - started
    );
    assert_eq!(
        (st["status"].as_str(), st["records"].as_u64()),
        (Some("complete"), Some(2000))
    );
    let id = st["data_access_id"].as_str().unwrap().to_string();
    // The lifetime the result reports runs from the last write, and is true.
    let expires = crate::common::block_on(store.get(&id))
        .unwrap()
        .unwrap()
        .expires_ms;
    // (The last write came just before the result did: a few real milliseconds earlier.)
    assert!(
        expires + 1_000 >= finished + 60_000,
        "expires {expires}, finished {finished}"
    );
    assert_eq!(st["expires"], entrez_mcp_core::staging::iso8601(expires));
    clock.advance_secs((expires - clock.now_unix_ms()) / 1000 - 1);
    assert_eq!(scalar(&s, &id, "SELECT COUNT(*) FROM article"), 2000);
    clock.advance_secs(2);
    let e = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT 1"}),
    );
    assert_eq!(e["code"], "dataset_expired");
}

#[test]
fn a_loading_dataset_is_never_expired_under_a_live_stager_and_fails_once_it_is_gone() {
    let store = SqliteStore::in_memory().unwrap();
    let now = Clock::default().now_unix_ms();
    let id = "0a0b0c0d0e0f00112233445566778899";
    // A lifetime of one second, and one batch written now.
    let short = Lease {
        now_ms: now,
        expires_ms: now + 1_000,
    };
    crate::common::block_on(store.create(
        NewDataset {
            id: id.into(),
            owner: "local".into(),
            database: "pubmed".into(),
            layout: &PUBMED,
            source: "fixtures".into(),
            created_ms: now,
            expires_ms: short.expires_ms,
        },
        10,
    ))
    .unwrap();
    let caps = Caps {
        max_rows: u64::MAX,
        max_bytes: u64::MAX,
    };
    crate::common::block_on(store.append(id, rows::pubmed(recorded_articles()), caps, short))
        .unwrap();
    let info = crate::common::block_on(store.get(id)).unwrap().unwrap();
    assert_eq!((info.updated_ms, info.expires_ms), (now, now + 1_000));
    // Past its expiry, a minute after its last write: a batch may simply be slow.
    let later = now + 60_000;
    assert!(!info.expired(later) && !info.abandoned(later));
    assert!(crate::common::block_on(store.expire(later))
        .unwrap()
        .is_empty());
    assert_eq!(
        crate::common::block_on(store.get(id))
            .unwrap()
            .unwrap()
            .status,
        Status::Loading
    );
    // No write for the whole stale window: the stager is gone; it is failed, then expired.
    let gone = now + STALE_LOADING_MS + 1;
    assert!(info.abandoned(gone) && info.expired(gone));
    assert_eq!(
        crate::common::block_on(store.expire(gone)).unwrap(),
        vec![id.to_string()]
    );
    assert!(crate::common::block_on(store.get(id)).unwrap().is_none());
}

#[test]
fn limits_give_clear_errors_and_disturb_nothing_else() {
    let replay = Replay::start();
    let limits = Limits {
        max_datasets: 2,
        max_rows: 60,
        ..Limits::default()
    };
    let (s, _, _) = server(Some(&replay), limits);
    let small = ok(
        &s,
        json!({"operation": "fetch_and_stage", "ids": ["12091962"]}),
    );
    let small_id = small["data_access_id"].as_str().unwrap().to_string();
    let before = sql(&s, &small_id, "SELECT * FROM author");

    // 300 synthetic articles in one batch: far over 60 rows, so the batch is undone.
    let ids: Vec<u64> = (90_000_001..=90_000_300).collect();
    let e = err(&s, json!({"operation": "fetch_and_stage", "ids": ids}));
    assert_eq!(e["code"], "limit_exceeded", "{e}");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("over the limit of 60 rows"));
    assert_eq!(e["details"]["status"], "failed");
    assert_eq!(e["details"]["records_staged"], 0);
    let failed_id = e["details"]["data_access_id"].as_str().unwrap();
    assert_eq!(scalar(&s, failed_id, "SELECT COUNT(*) FROM article"), 0);

    // Two datasets held: a third is refused before anything is fetched.
    let quota = err(&s, json!({"operation": "fetch_and_stage", "ids": ["9997"]}));
    assert_eq!(quota["code"], "dataset_quota_exceeded");
    assert_eq!(
        sql(&s, &small_id, "SELECT * FROM author")["rows"],
        before["rows"]
    );
    ok(
        &s,
        json!({"operation": "drop_dataset", "data_access_id": failed_id}),
    );
    assert_eq!(
        ok(&s, json!({"operation": "fetch_and_stage", "ids": ["9997"]}))["records"],
        1
    );
}

/// A store under a fresh directory holding dataset `id` with one batch staged and
/// never finished, as a process that stopped mid-staging leaves it.
fn interrupted_dataset(name: &str, id: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("entrez-data-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    {
        let store = SqliteStore::open(&dir).unwrap();
        begin_direct(&store, id, "local", Clock::default().now_unix_ms());
        // Dropped here without finish(): the process "stopped" mid-staging.
    }
    dir
}

#[test]
fn a_crash_between_batches_leaves_a_failed_dataset_not_a_complete_one() {
    let id = "00112233445566778899aabbccddeeff";
    let dir = interrupted_dataset("crash", id);
    std::fs::write(dir.join("datasets").join("stray.sqlite"), b"junk").unwrap();
    let store = SqliteStore::open(&dir).unwrap();
    let info = crate::common::block_on(store.get(id)).unwrap().unwrap();
    assert_eq!(info.status, Status::Failed(INTERRUPTED.to_string()));
    assert_eq!(info.records, 8);
    assert!(!dir.join("datasets").join("stray.sqlite").exists());
    let (s, _) = server_on(None, Limits::default(), store);
    let listed: Value = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(listed["datasets"][0]["status"], "failed");
    assert_eq!(listed["datasets"][0]["reason"], INTERRUPTED);
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    assert_eq!(q["rows"][0][0], 8);
    assert_eq!(q["status"], "failed");
    ok(
        &s,
        json!({"operation": "drop_dataset", "data_access_id": id}),
    );
    assert!(!dir.join("datasets").join(format!("{id}.sqlite")).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dataset_a_machine_crash_tore_is_emptied_and_says_why() {
    // Staging does not fsync each batch, so a power loss mid-staging can leave a torn
    // file; the store must find it on reopening, not serve it.
    let id = "ffeeddccbbaa99887766554433221100";
    let dir = interrupted_dataset("torn", id);
    let file = dir.join("datasets").join(format!("{id}.sqlite"));
    let mut bytes = std::fs::read(&file).unwrap();
    let half = bytes.len() / 2;
    bytes[half..].fill(0xAB);
    std::fs::write(&file, bytes).unwrap();

    let store = SqliteStore::open(&dir).unwrap();
    let info = crate::common::block_on(store.get(id)).unwrap().unwrap();
    assert_eq!(info.status, Status::Failed(DAMAGED.to_string()));
    assert_eq!((info.records, info.rows), (0, 0));
    let (s, _) = server_on(None, Limits::default(), store);
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM author"}),
    );
    assert_eq!(q["rows"][0][0], 0);
    let listed: Value = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(listed["datasets"][0]["reason"], DAMAGED);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dataset_that_cannot_reach_the_disk_is_failed_not_complete() {
    let dir = std::env::temp_dir().join(format!("entrez-data-unsynced-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = SqliteStore::open(&dir).unwrap();
    // Its file is taken away before staging finishes, so the final flush cannot happen.
    let fresh = "1f1e1d1c1b1a19181716151413121110";
    let now = Clock::default().now_unix_ms();
    begin_direct(&store, fresh, "local", now);
    std::fs::remove_file(dir.join("datasets").join(format!("{fresh}.sqlite"))).unwrap();
    let finished = crate::common::block_on(store.finish(fresh, Status::Complete, lease(now)));
    assert!(finished.is_err());
    let info = crate::common::block_on(store.get(fresh)).unwrap().unwrap();
    match info.status {
        Status::Failed(reason) => assert!(
            reason.contains("could not be completed on disk"),
            "{reason}"
        ),
        other => panic!("expected failed, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}
