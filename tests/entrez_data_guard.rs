//! entrez_data queries under the read-only policy: a hostile-SQL corpus that
//! SQLite must refuse, legitimate queries that keyword matching would wrongly
//! refuse, the time limit, and row limits with totals.

mod common;
mod entrez_data_common;

use entrez_data_common::*;
use entrez_mcp::staging::Limits;
use serde_json::json;

fn setup(limits: Limits) -> (entrez_mcp::protocol::Server, String) {
    let (server, clock, store) = server(None, limits);
    use entrez_mcp::platform::Platform;
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    (server, id)
}

const HOSTILE: &[&str] = &[
    "INSERT INTO article (pmid, kind, title) VALUES (1, 'article', 'x')",
    "INSERT INTO article SELECT * FROM article",
    "REPLACE INTO article (pmid, kind, title) VALUES (9997, 'article', 'x')",
    "UPDATE article SET title = 'x'",
    "DELETE FROM article",
    "WITH x AS (SELECT 1) DELETE FROM article",
    "DROP TABLE article",
    "DROP INDEX mesh_descriptor",
    "CREATE TABLE t (a)",
    "CREATE TEMP TABLE t (a)",
    "CREATE VIEW v AS SELECT 1",
    "CREATE INDEX i ON article (title)",
    "CREATE TRIGGER tr AFTER INSERT ON article BEGIN SELECT 1; END",
    "ALTER TABLE article ADD COLUMN x",
    "ALTER TABLE article RENAME TO y",
    "ATTACH DATABASE '/tmp/entrez-data-attach.sqlite' AS x",
    "ATTACH ':memory:' AS m",
    "DETACH DATABASE main",
    "PRAGMA writable_schema = 1",
    "PRAGMA journal_mode = DELETE",
    "PRAGMA query_only = 0",
    "PRAGMA user_version = 7",
    "SELECT * FROM pragma_journal_mode",
    "VACUUM",
    "VACUUM INTO '/tmp/entrez-data-vacuum-into.sqlite'",
    "REINDEX",
    "ANALYZE",
    "BEGIN",
    "BEGIN IMMEDIATE",
    "COMMIT",
    "ROLLBACK",
    "SAVEPOINT a",
    "RELEASE a",
    "EXPLAIN DELETE FROM article",
    "SELECT load_extension('/tmp/evil.so')",
    "SELECT fts3_tokenizer('simple')",
    "SELECT 1; DELETE FROM article",
    "SELECT * FROM article /* x */ ; DROP TABLE article",
    "SELECT 1; SELECT 2",
    "-- only a comment",
    ";",
];

#[test]
fn hostile_sql_is_refused_by_sqlite_and_changes_nothing() {
    let (s, id) = setup(Limits::default());
    let before = sql(&s, &id, "SELECT (SELECT COUNT(*) FROM article), (SELECT COUNT(*) FROM author), (SELECT group_concat(name) FROM sqlite_schema)");
    for q in HOSTILE {
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
    for q in [
        "SELECT pmid AS created_at, year AS last_update, 0 AS deleted FROM article",
        "WITH t(created_at, last_update, deleted) AS (SELECT 1, 2, 3) SELECT created_at, last_update, deleted FROM t",
        "SELECT json_extract('{\"deleted\": true, \"update\": 1}', '$.deleted') AS deleted",
        "SELECT 'DROP TABLE article; --' AS text, 'INSERT' AS \"delete\"",
        "SELECT COUNT(*) FROM article -- DELETE FROM article",
        "SELECT * FROM article;",
        "  select title from article where title like '%update%' or title like '%drop%'  ",
        "PRAGMA table_info(article)",
        "SELECT name FROM sqlite_schema WHERE type = 'table'",
        "SELECT pmid, ROW_NUMBER() OVER (ORDER BY pmid) AS n FROM article",
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10) SELECT SUM(x) FROM c",
        "SELECT a.pmid, COUNT(au.position) FROM article a LEFT JOIN author au USING (pmid) GROUP BY a.pmid",
        "SELECT key, value FROM json_each('[1, 2, 3]')",
    ] {
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
