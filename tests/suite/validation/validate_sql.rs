//! validate for entrez_data: the dataset exists for this caller, and the SQL
//! compiles against that dataset's real tables under the read-only policy.
//! Each case goes through validate and through tools/call, which must agree;
//! validate must never change the store. Together with the main corpus this
//! reaches every dataset and SQL code the validate outputSchema documents.

use crate::common::call_tool_with;
use crate::common::data::*;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::staging::store::Status;
use entrez_mcp_core::staging::{DatasetStore, Limits};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn validate(s: &entrez_mcp_core::protocol::Server, args: Value, ctx: &RequestContext) -> Value {
    let v = call_tool_with(
        s,
        "validate",
        json!({"tool": "entrez_data", "arguments": args}),
        ctx,
    );
    assert_eq!(v["isError"], false, "{v}");
    v["structuredContent"].clone()
}

fn codes(report: &Value) -> Vec<(String, String)> {
    report["details"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_string(),
                e["path"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn datasets_and_sql_are_checked_against_the_real_schema() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    let me = RequestContext::default();
    let mut seen: BTreeSet<String> = BTreeSet::new();

    // Invalid: (sql, code) — tools/call must refuse with the same code.
    let bad: &[(&str, &str)] = &[
        ("SELECT titel FROM article", "sql_error"),
        ("SELECT * FROM authors", "sql_error"),
        ("SELEC 1", "sql_error"),
        ("DELETE FROM article", "sql_not_read_only"),
        ("ATTACH ':memory:' AS m", "sql_not_read_only"),
        ("SELECT load_extension('x')", "sql_not_read_only"),
        ("SELECT 1; SELECT 2", "sql_multiple_statements"),
        ("-- nothing", "sql_not_a_query"),
    ];
    for (sql, code) in bad {
        let args = json!({"operation": "query", "data_access_id": id, "sql": sql});
        let r = validate(&s, args.clone(), &me);
        assert_eq!(r["valid"], false, "{sql}");
        assert_eq!(
            codes(&r),
            vec![(code.to_string(), "$.sql".to_string())],
            "{sql}: {r}"
        );
        seen.insert(code.to_string());
        let real = data(&s, args);
        assert_eq!(real["isError"], true, "{sql}");
        assert_eq!(real["structuredContent"]["error"]["code"], *code, "{sql}");
    }
    // The missing name is named, with the closest real one and what exists.
    let typo = validate(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT titel FROM article"}),
        &me,
    );
    let message = typo["details"]["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("no such column: titel"), "{message}");
    assert!(message.contains("Did you mean \"title\""), "{message}");
    assert!(typo["suggestions"][0]
        .as_str()
        .unwrap()
        .starts_with("Columns of this dataset: article (pmid,"));
    let table = validate(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT * FROM authors"}),
        &me,
    );
    assert!(table["details"]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("Did you mean \"author\"?"));

    // Valid: real column names, including ones a keyword filter would refuse.
    for sql in [
        "SELECT pmid, title, year, doi, pmcid FROM article WHERE year >= 2000",
        "SELECT a.pmid, COUNT(*) FROM author a JOIN article USING (pmid) GROUP BY a.pmid",
        "SELECT descriptor, COUNT(*) AS n FROM mesh WHERE major = 1 GROUP BY descriptor ORDER BY n DESC",
        "SELECT pmid AS created_at, year AS last_update, 0 AS deleted FROM article",
    ] {
        let args = json!({"operation": "query", "data_access_id": id, "sql": sql});
        let r = validate(&s, args.clone(), &me);
        assert_eq!(r["valid"], true, "{sql}: {r}");
        assert_eq!(data(&s, args)["isError"], false, "{sql}");
    }
    assert_eq!(
        validate(
            &s,
            json!({"operation": "schema", "data_access_id": id}),
            &me
        )["valid"],
        true
    );

    // Only a partial dataset can be continued: validate refuses the others as the call does.
    let now = clock.now_unix_ms();
    let loading = format!("{:032x}", 0xb05e_u128);
    begin_direct(&store, &loading, "local", now);
    let failed = format!("{:032x}", 0xfa11_u128);
    begin_direct(&store, &failed, "local", now);
    crate::common::block_on(store.finish(&failed, Status::Failed("upstream".into()), lease(now)))
        .unwrap();
    for (dataset, code) in [
        (&id, "dataset_complete"),
        (&loading, "dataset_busy"),
        (&failed, "dataset_failed"),
    ] {
        let args = json!({"operation": "fetch_and_stage", "data_access_id": dataset});
        let r = validate(&s, args.clone(), &me);
        assert_eq!(
            codes(&r),
            vec![(code.to_string(), "$.data_access_id".to_string())],
            "{r}"
        );
        let real = data(&s, args);
        assert_eq!(real["structuredContent"]["error"]["code"], code, "{real}");
        seen.insert(code.to_string());
    }

    // Another caller's dataset reads exactly like no dataset.
    let other = session("someone-else");
    let theirs = validate(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT 1"}),
        &other,
    );
    assert_eq!(
        codes(&theirs),
        vec![("dataset_not_found".into(), "$.data_access_id".into())]
    );
    let unknown = validate(
        &s,
        json!({"operation": "drop_dataset", "data_access_id": "0123456789abcdef0123456789abcdef"}),
        &me,
    );
    assert_eq!(
        codes(&unknown),
        vec![("dataset_not_found".into(), "$.data_access_id".into())]
    );
    seen.insert("dataset_not_found".into());

    // Exports: a format or style this server does not write is refused, naming those it does;
    // a known one validates, its SQL checked like a query's.
    for (args, code, path) in [
        (
            json!({"operation": "export", "data_access_id": id, "format": "docx"}),
            "unknown_format",
            "$.format",
        ),
        (
            json!({"operation": "bibliography", "data_access_id": id, "style": "mla"}),
            "unknown_style",
            "$.style",
        ),
        (
            json!({"operation": "bibliography", "ids": ["1"], "format": "csv"}),
            "unknown_format",
            "$.format",
        ),
        (
            json!({"operation": "export", "data_access_id": id, "format": "ris", "sql": "SELECT pmidd FROM article"}),
            "sql_error",
            "$.sql",
        ),
        (
            json!({"operation": "chart", "data_access_id": id, "chart": "pie"}),
            "unknown_chart",
            "$.chart",
        ),
        (
            json!({"operation": "chart", "data_access_id": id, "chart": "line"}),
            "chart_unsuitable",
            "$.sql",
        ),
    ] {
        let report = validate(&s, args.clone(), &me);
        assert_eq!(
            codes(&report),
            vec![(code.to_string(), path.to_string())],
            "{args}"
        );
        let message = report["details"]["errors"][0]["message"].as_str().unwrap();
        if code == "unknown_format" {
            assert!(message.contains("Supported: "), "{message}");
        }
        let real = call_tool_with(&s, "entrez_data", args.clone(), &me);
        assert_eq!(real["isError"], true, "{args}");
        seen.insert(code.to_string());
    }
    let fine = validate(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "csl-json"}),
        &me,
    );
    assert_eq!(fine["valid"], true, "{fine}");
    assert_eq!(fine["normalized_arguments"]["format"], "csl_json");

    // Expired: reported, and validate leaves the dataset where it is (it never writes).
    clock.advance_secs(Limits::default().ttl_secs + 1);
    let expired = validate(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT 1"}),
        &me,
    );
    assert_eq!(
        codes(&expired),
        vec![("dataset_expired".into(), "$.data_access_id".into())]
    );
    seen.insert("dataset_expired".into());
    assert!(crate::common::block_on(store.get(&id)).unwrap().is_some());

    let documented: BTreeSet<String> = entrez_mcp_core::validation::codes::DATASET_ERRORS
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(seen, documented);
}

#[test]
fn dataset_schemas_are_resources_of_their_owner_only() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    let rpc = |method: &str, params: Value, ctx: &RequestContext| {
        let msg = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let bytes = serde_json::to_vec(&msg).unwrap();
        crate::common::block_on(s.handle_bytes(&bytes, ctx)).unwrap()
    };
    let me = RequestContext::default();
    let init = rpc("initialize", json!({"protocolVersion": "2025-11-25"}), &me);
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        json!({"subscribe": false, "listChanged": false})
    );
    let uri = format!("entrez-dataset://{id}/schema");
    let list = rpc("resources/list", json!({}), &me);
    let resources = list["result"]["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 1);
    assert_eq!(resources[0]["uri"], uri);
    assert_eq!(resources[0]["mimeType"], "application/json");
    let templates = rpc("resources/templates/list", json!({}), &me);
    assert_eq!(
        templates["result"]["resourceTemplates"][0]["uriTemplate"],
        "entrez-dataset://{data_access_id}/schema"
    );

    let read = rpc("resources/read", json!({"uri": uri}), &me);
    let contents = read["result"]["contents"].as_array().unwrap();
    assert_eq!(contents[0]["uri"], uri);
    assert_eq!(contents[0]["mimeType"], "application/json");
    let schema: Value = serde_json::from_str(contents[0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(schema["data_access_id"], id);
    assert_eq!(schema["tables"][0]["name"], "article");
    assert_eq!(schema["tables"][0]["row_count"], 8);
    assert_eq!(schema["example_queries"].as_array().unwrap().len(), 3);
    assert!(contents[1]["text"]
        .as_str()
        .unwrap()
        .contains("Example queries"));

    // Someone else, a malformed URI, and a dataset that does not exist: -32002.
    for (params, ctx) in [
        (json!({"uri": uri}), session("someone-else")),
        (json!({"uri": "entrez-dataset://../etc/schema"}), me.clone()),
        (
            json!({"uri": "entrez-dataset://0123456789abcdef0123456789abcdef/schema"}),
            me.clone(),
        ),
    ] {
        let r = rpc("resources/read", params.clone(), &ctx);
        assert_eq!(r["error"]["code"], -32002, "{params}: {r}");
        assert_eq!(
            r["error"]["data"]["uri"], params["uri"],
            "the URI is named in data"
        );
        assert!(r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Resource not found"));
    }
    assert_eq!(
        rpc("resources/list", json!({}), &session("someone-else"))["result"]["resources"],
        json!([])
    );
    let missing = rpc("resources/read", json!({}), &me);
    assert_eq!(missing["error"]["code"], -32602);
}
