//! entrez_data queries under the read-only policy: a hostile-SQL corpus that
//! SQLite must refuse, legitimate queries that keyword matching would wrongly
//! refuse, the time limit, and row limits with totals.

use crate::common::data::*;
use entrez_mcp_core::staging::Limits;
use serde_json::json;

fn setup(limits: Limits) -> (entrez_mcp_core::protocol::Server, String) {
    let (server, clock, store) = server(None, limits);
    use entrez_mcp_core::platform::Platform;
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    (server, id)
}

/// The hostile-SQL corpus, shared with the end-to-end suite that runs it on the Worker's Durable Objects.
fn corpus(file: &str, key: &str) -> Vec<String> {
    let text = match file {
        "hostile" => include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/sql/hostile.json"
        )),
        _ => include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/sql/legitimate.json"
        )),
    };
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn hostile_sql_is_refused_by_sqlite_and_changes_nothing() {
    let (s, id) = setup(Limits::default());
    let before = sql(&s, &id, "SELECT (SELECT COUNT(*) FROM article), (SELECT COUNT(*) FROM author), (SELECT group_concat(name) FROM sqlite_schema)");
    let hostile = corpus("hostile", "refused");
    assert!(hostile.len() >= 40);
    for q in &hostile {
        let e = err(
            &s,
            json!({"operation": "query", "data_access_id": id, "sql": q}),
        );
        let code = e["code"].as_str().unwrap();
        assert!(
            [
                "sql_not_read_only",
                "sql_multiple_statements",
                "sql_not_a_query"
            ]
            .contains(&code),
            "{q}: {e}"
        );
        assert!(!e["suggestions"].as_array().unwrap().is_empty(), "{q}");
    }
    let multiple = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT 1; SELECT 2"}),
    );
    assert_eq!(multiple["code"], "sql_multiple_statements");
    let insert = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "INSERT INTO article (pmid, kind, title) VALUES (1, 'a', 'b')"}),
    );
    assert_eq!(insert["code"], "sql_not_read_only");
    assert!(
        insert["message"]
            .as_str()
            .unwrap()
            .contains("INSERT into article"),
        "{insert}"
    );
    let vacuum = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "VACUUM INTO '/tmp/entrez-data-vacuum-into.sqlite'"}),
    );
    assert_eq!(vacuum["code"], "sql_not_read_only");
    assert!(!std::path::Path::new("/tmp/entrez-data-vacuum-into.sqlite").exists());
    assert!(!std::path::Path::new("/tmp/entrez-data-attach.sqlite").exists());
    let ext = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT load_extension('x')"}),
    );
    assert!(
        ext["message"].as_str().unwrap().contains("load_extension"),
        "{ext}"
    );
    let after = sql(&s, &id, "SELECT (SELECT COUNT(*) FROM article), (SELECT COUNT(*) FROM author), (SELECT group_concat(name) FROM sqlite_schema)");
    assert_eq!(before["rows"], after["rows"]);
    // The store's own work still runs normally after all those refusals.
    let schema = ok(&s, json!({"operation": "schema", "data_access_id": id}));
    assert_eq!(schema["tables"][0]["name"], "article");
}

#[test]
fn queries_that_only_look_dangerous_pass() {
    let (s, id) = setup(Limits::default());
    let allowed = corpus("legitimate", "allowed");
    assert!(allowed.len() >= 13);
    for q in &allowed {
        let r = sql(&s, &id, q);
        assert_eq!(r["status"], "complete", "{q}");
        assert!(!r["columns"].as_array().unwrap().is_empty(), "{q}");
    }
    let cols = sql(
        &s,
        &id,
        "SELECT pmid AS created_at, year AS last_update, 0 AS deleted FROM article",
    );
    assert_eq!(
        cols["columns"],
        json!(["created_at", "last_update", "deleted"])
    );
    assert_eq!(cols["row_count"], 8);
}

#[test]
fn limits_totals_and_the_time_limit() {
    let limits = Limits {
        query_time_limit_ms: 400,
        ..Limits::default()
    };
    let (s, id) = setup(limits);
    let series = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000) SELECT x FROM c";
    let r = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": series}),
    );
    assert_eq!(r["row_count"], 100);
    assert_eq!(r["limit"], 100);
    assert_eq!(r["total"], 5000);
    assert_eq!(r["total_exact"], true);
    assert_eq!(r["truncated"], true);
    assert!(r["warnings"][0].as_str().unwrap().contains("100 of 5000"));
    let max = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": series, "limit": 1000}),
    );
    assert_eq!(max["row_count"], 1000);
    assert_eq!(max["rows"][999][0], 1000);
    let over = data(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": series, "limit": 1001}),
    );
    assert_eq!(
        over["structuredContent"]["error"]["code"],
        "invalid_arguments"
    );

    // Endless: stopped by the progress handler, a clear error, and the connection still works.
    let endless =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c";
    let started = std::time::Instant::now();
    let e = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": endless}),
    );
    assert_eq!(e["code"], "sql_timeout");
    assert!(started.elapsed().as_millis() < 5_000);
    // Rows found before the limit are returned; only the total is left open.
    let rows_then_time =
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c";
    let partial = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": rows_then_time, "limit": 10}),
    );
    assert_eq!(partial["row_count"], 10);
    assert_eq!(partial["total_exact"], false);
    assert!(partial["total"].as_u64().unwrap() >= 10);
    assert_eq!(scalar(&s, &id, "SELECT COUNT(*) FROM article"), 8);
    // A value that would take a gigabyte is refused, not built.
    let big = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT length(randomblob(1000000000))"}),
    );
    assert_eq!(big["code"], "sql_error");
    let syntax = err(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELEC 1"}),
    );
    assert_eq!(syntax["code"], "sql_error");
    assert!(syntax["suggestions"][0]
        .as_str()
        .unwrap()
        .contains("schema"));
}

/// The Worker's Durable Objects cannot install an authorizer, so each query is
/// first compiled on a schema replica; the replica must refuse and allow
/// exactly what the native connection does.
#[test]
fn the_worker_schema_replica_applies_the_same_policy() {
    use entrez_mcp_sqlite::replica;
    let pubmed = entrez_mcp_core::staging::layouts::named("pubmed").unwrap();
    let mut conn = replica::open(pubmed, true).unwrap();
    for q in corpus("hostile", "refused") {
        let e = replica::check(&mut conn, &q).unwrap_err();
        assert!(
            [
                "sql_not_read_only",
                "sql_multiple_statements",
                "sql_not_a_query"
            ]
            .contains(&e.code.as_str()),
            "{q}: {} {}",
            e.code,
            e.message
        );
    }
    for q in corpus("legitimate", "allowed") {
        let columns = replica::check(&mut conn, &q).unwrap_or_else(|e| panic!("{q}: {e:?}"));
        assert!(!columns.is_empty(), "{q}");
    }
    // The replica holds the tables and nothing else: no rows, no file, nothing attached.
    let count: i64 = conn
        .query_row("SELECT COUNT(*) FROM article", [], |r| r.get(0))
        .unwrap();
    assert_eq!(count, 0);
}
