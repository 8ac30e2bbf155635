//! Charts of staged datasets (`entrez_data` chart): every named chart and a chart of SQL come
//! back as a PNG image block, a text summary and the points in structuredContent (checked
//! against the outputSchema by `data`); too many rows, non-numeric values, empty results and
//! a loading dataset are said so. `entrez_query` count_by_year charts a term's records per
//! year from one count-only search per year, each count named.

use crate::common::data::*;
use crate::common::replay::Replay;
use base64::Engine as _;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};

/// The chart's image block, decoded, and its text.
fn picture(r: &Value) -> (Vec<u8>, String) {
    let content = r["content"].as_array().unwrap();
    let image = content
        .iter()
        .find(|c| c["type"] == "image")
        .unwrap_or_else(|| panic!("no image: {r}"));
    assert_eq!(image["mimeType"], "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: 800 × 500.
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 800);
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 500);
    let text = content
        .iter()
        .find(|c| c["type"] == "text")
        .and_then(|c| c["text"].as_str())
        .unwrap_or_default()
        .to_string();
    (png, text)
}

fn chart(s: &entrez_mcp_core::protocol::Server, id: &str, args: Value) -> Value {
    let mut a = json!({"operation": "chart", "data_access_id": id});
    for (k, v) in args.as_object().unwrap() {
        a[k] = v.clone();
    }
    let r = data(s, a.clone());
    assert_eq!(r["isError"], false, "{a} → {r}");
    r
}

#[test]
fn every_named_chart_draws_a_staged_search() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 450}),
    );
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    let years = sql(
        &s,
        &id,
        "SELECT year, COUNT(*) FROM article WHERE year IS NOT NULL GROUP BY year ORDER BY year",
    );
    let r = chart(&s, &id, json!({"chart": "per_year"}));
    let (png, text) = picture(&r);
    // What the model reads (docs/src/charts.md shows it): `cargo test charts -- --nocapture`.
    eprintln!("{text}");
    if let Ok(path) = std::env::var("ENTREZ_MCP_CHART_PNG") {
        std::fs::write(path, &png).unwrap();
    }
    let st = &r["structuredContent"];
    assert_eq!(st["title"], "Articles per year");
    assert_eq!(st["kind"], "bar");
    assert!(st["sql"].as_str().unwrap().contains("GROUP BY year"));
    // Every year the query counts is a point with the same count; the years between are 0.
    let points = st["points"].as_array().unwrap();
    for row in years["rows"].as_array().unwrap() {
        let label = row[0].to_string();
        let p = points
            .iter()
            .find(|p| p["label"] == label.as_str())
            .unwrap();
        assert_eq!(p["value"].as_f64(), row[1].as_f64(), "{label}");
    }
    let sum: f64 = points.iter().map(|p| p["value"].as_f64().unwrap()).sum();
    assert_eq!(sum, 450.0);
    assert!(
        text.contains("Articles per year") && text.contains("total 450"),
        "{text}"
    );
    for name in [
        "top_journals",
        "top_mesh",
        "top_mesh_major",
        "top_authors",
        "publication_types",
    ] {
        let r = chart(&s, &id, json!({"chart": name, "limit": 5}));
        picture(&r);
        let st = &r["structuredContent"];
        assert!(st["points"].as_array().unwrap().len() <= 5, "{name}: {st}");
        assert!(st["sql"].as_str().unwrap().ends_with("LIMIT 5"), "{name}");
    }
    // A line of SQL, and one column of names counted.
    let r = chart(
        &s,
        &id,
        json!({"chart": "line", "sql": "SELECT year, COUNT(*) AS n FROM article GROUP BY year ORDER BY year"}),
    );
    assert_eq!(r["structuredContent"]["kind"], "line");
    assert_eq!(r["structuredContent"]["y_label"], "n");
    let r = chart(
        &s,
        &id,
        json!({"sql": "SELECT publication_type FROM publication_type"}),
    );
    assert_eq!(r["structuredContent"]["kind"], "bar");
}

#[test]
fn bad_input_is_said_and_the_chart_stays_valid() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    // Too many categories: the rest summed into "Other".
    let r = chart(
        &s,
        &id,
        json!({"sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60) SELECT 'c' || i, i FROM n"}),
    );
    let st = &r["structuredContent"];
    assert_eq!(st["points"].as_array().unwrap().len(), 40);
    assert_eq!(st["points"][39]["label"], "Other (21)");
    assert!(st["warnings"].to_string().contains("at most 40 bars"));
    // Too many rows: refused, the limit named.
    let e = err(
        &s,
        json!({"operation": "chart", "data_access_id": id, "sql": "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) SELECT i, i FROM n"}),
    );
    assert_eq!(e["code"], "chart_too_large");
    assert!(
        e["message"].as_str().unwrap().contains("at most 1000"),
        "{e}"
    );
    // Values that are not numbers are left out and counted.
    let r = chart(
        &s,
        &id,
        json!({"sql": "SELECT 'a', 1 UNION ALL SELECT 'b', 'many'"}),
    );
    let st = &r["structuredContent"];
    assert_eq!(st["points"].as_array().unwrap().len(), 1);
    assert!(st["warnings"].to_string().contains("not a number"), "{st}");
    // No rows: an empty chart, said so.
    let r = chart(
        &s,
        &id,
        json!({"sql": "SELECT year, COUNT(*) FROM article WHERE year > 3000 GROUP BY year"}),
    );
    let (_, text) = picture(&r);
    assert_eq!(r["structuredContent"]["points"], json!([]));
    assert!(text.contains("no data"), "{text}");
    // Three columns, an unknown chart, bar without sql: refused with their codes.
    let e = err(
        &s,
        json!({"operation": "chart", "data_access_id": id, "sql": "SELECT 1, 2, 3"}),
    );
    assert_eq!(e["code"], "chart_unsuitable");
    let e = err(
        &s,
        json!({"operation": "chart", "data_access_id": id, "chart": "pie"}),
    );
    assert_eq!(e["code"], "unknown_chart");
    assert!(e["message"].as_str().unwrap().contains("per_year"));
    let e = err(
        &s,
        json!({"operation": "chart", "data_access_id": id, "chart": "line"}),
    );
    assert_eq!(e["code"], "chart_unsuitable");
    // A dataset still loading: drawn from what it holds, said so.
    let loading = "00000000000000000000000000000abc";
    begin_direct(&store, loading, "local", clock.now_unix_ms());
    let r = chart(&s, loading, json!({"chart": "per_year"}));
    let st = &r["structuredContent"];
    assert_eq!(st["status"], "loading");
    assert!(st["warnings"].to_string().contains("still loading"), "{st}");
}

#[test]
fn count_by_year_is_one_count_per_year_drawn() {
    let replay = Replay::start();
    let s = crate::common::networked_server(&replay.eutils_base(), None);
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        json!({"operation": "count_by_year", "term": "replay-synthetic[all]", "mindate": "1988", "maxdate": "1992"}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let (_, text) = picture(&r);
    let st = &r["structuredContent"];
    // The replay's made-up counts: 0 before 1990, then 100 + 20 a year.
    let counts: Vec<(u64, u64)> = st["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["year"].as_u64().unwrap(), c["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        counts,
        vec![(1988, 0), (1989, 0), (1990, 100), (1991, 120), (1992, 140)]
    );
    assert_eq!(
        st["counts"][2]["term"],
        "(replay-synthetic[all]) AND 1990[pdat]"
    );
    assert_eq!(st["total"], 360);
    assert!(text.contains("1991: 120"), "{text}");
    // More than 50 years, or not years: refused before any search.
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        json!({"operation": "count_by_year", "term": "x", "mindate": "1900", "maxdate": "2024"}),
    );
    assert_eq!(r["isError"], true);
    assert!(r.to_string().contains("chart_too_large"), "{r}");
    assert!(r.to_string().contains("at most 50"), "{r}");
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        json!({"operation": "count_by_year", "term": "x", "mindate": "2020/01", "maxdate": "2024"}),
    );
    assert!(r.to_string().contains("invalid_date"), "{r}");
}
