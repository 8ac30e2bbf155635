//! What the model reads: `detail`, `fields` and `max_characters` end to end against the
//! NCBI replay: whole abstracts inside the default budget, every block within a lower one,
//! and every record or row left out named with the call that returns it.

use crate::common::call_tool;
use crate::common::data::{ok, server};
use crate::common::replay::Replay;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};

/// Twenty synthetic PMIDs: recorded articles (two with structured abstracts) cloned.
fn twenty() -> Vec<String> {
    (90_000_001..=90_000_020).map(|i| i.to_string()).collect()
}

fn text_of(r: &Value) -> String {
    r["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn json_chars(v: &Value) -> usize {
    chars(&v.to_string())
}

fn fetch(s: &Server, extra: Value) -> Value {
    let mut args = json!({"operation": "fetch", "database": "pubmed", "ids": twenty()});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    let r = call_tool(s, "entrez_query", args.clone());
    assert_eq!(r["isError"], false, "{args} → {r}");
    r
}

fn cuts(r: &Value) -> Vec<Value> {
    r["structuredContent"]["call_warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|w| w["code"] == "results_cut")
        .cloned()
        .collect()
}

#[test]
fn twenty_abstracts_are_whole_in_the_text_at_the_default_budget() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    // detail full holds about 10 of these records in the largest budget: read it in halves.
    let ids = twenty();
    let mut records: Vec<Value> = Vec::new();
    for half in ids.chunks(10) {
        let full = fetch(
            &s,
            json!({"ids": half, "detail": "full", "max_characters": 200_000}),
        );
        assert!(cuts(&full).is_empty());
        records.extend(
            full["structuredContent"]["records"]
                .as_array()
                .unwrap()
                .clone(),
        );
    }
    let standard = fetch(&s, json!({}));
    let text = text_of(&standard);
    assert_eq!(records.len(), 20);
    assert_eq!(
        standard["structuredContent"]["records"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
    assert!(cuts(&standard).is_empty(), "{:?}", cuts(&standard));
    let mut floor = 0;
    for r in &records {
        let title = r["title"].as_str().unwrap();
        floor += chars(title);
        assert!(text.contains(title), "{title}");
        if let Some(abs) = r["abstract_text"].as_str() {
            floor += chars(abs);
            // Every section, whole, with its label.
            for line in abs.lines() {
                assert!(text.contains(line), "missing from the text: {line}");
            }
        }
    }
    let structured = json_chars(&standard["structuredContent"]);
    assert!(
        chars(&text) * 4 <= floor * 5,
        "text {} vs title+abstract {floor}",
        chars(&text)
    );
    assert!(
        structured <= 2 * chars(&text),
        "structuredContent {structured} vs text {}",
        chars(&text)
    );
    assert!(text.contains("BACKGROUND:") || text.contains("RESULTS:"));
    // Standard writes the bulky lists shorter; full keeps everything parsed.
    let one = &standard["structuredContent"]["records"][0];
    assert!(one["authors"][0].is_string() && one.get("mesh").is_none());
    assert!(records[0]["authors"][0]["affiliations"].is_array());
    assert!(records[0]["mesh"].is_array());
}

#[test]
fn a_lower_budget_holds_both_blocks_and_names_what_it_left_out() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let r = fetch(&s, json!({"max_characters": 12_000}));
    let sc = &r["structuredContent"];
    assert!(chars(&text_of(&r)) <= 12_000, "{}", chars(&text_of(&r)));
    assert!(json_chars(sc) <= 12_000, "{}", json_chars(sc));
    let shown: Vec<String> = sc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["pmid"].as_str().unwrap().to_string())
        .collect();
    assert!(!shown.is_empty() && shown.len() < 20, "{shown:?}");
    let left: Vec<String> = sc["budget"]["left_out_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    // Exactly the ids not shown, in order, and each record shown is whole.
    assert_eq!([shown.clone(), left.clone()].concat(), twenty());
    assert_eq!(sc["budget"]["left_out"], left.len());
    let warning = &cuts(&r)[0];
    assert!(warning["message"]
        .as_str()
        .unwrap()
        .contains(&format!("{} of 20 records", shown.len())));
    assert!(text_of(&r).contains("[results_cut]"));
    // The next call returns the rest, and only the rest.
    let next = &sc["budget"]["next_call"];
    assert_eq!(next["tool"], "entrez_query");
    assert_eq!(next["arguments"]["ids"], json!(left));
    assert_eq!(next["arguments"]["max_characters"], 12_000);
    let rest = call_tool(&s, "entrez_query", next["arguments"].clone());
    let first = rest["structuredContent"]["records"][0]["pmid"].clone();
    assert_eq!(first, json!(left[0]));
}

#[test]
fn a_record_longer_than_the_budget_alone_is_cut_and_marked() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let r = fetch(&s, json!({"max_characters": 2_000, "detail": "full"}));
    let sc = &r["structuredContent"];
    assert!(chars(&text_of(&r)) <= 2_000, "{}", text_of(&r));
    assert!(json_chars(sc) <= 2_000, "{} {sc}", json_chars(sc));
    assert_eq!(sc["budget"]["record_cut"], true);
    assert!(text_of(&r).contains("was cut to fit"));
    assert_eq!(sc["records"][0]["pmid"], "90000001");
}

#[test]
fn brief_and_fields_shape_both_blocks() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let brief = fetch(&s, json!({"detail": "brief"}));
    let a = &brief["structuredContent"]["records"][0];
    assert!(a.get("abstract_text").is_none() && a.get("authors").is_none());
    assert!(a["title"].is_string() && a["pmid"].is_string());
    assert!(!text_of(&brief).contains("BACKGROUND:"));
    let picked = fetch(&s, json!({"fields": ["title", "mesh_major"]}));
    for a in picked["structuredContent"]["records"].as_array().unwrap() {
        let keys: Vec<&String> = a.as_object().unwrap().keys().collect();
        // The id, and integrity, which no choice of fields leaves out.
        assert!(
            keys.iter()
                .all(|k| ["pmid", "title", "mesh_major", "integrity"].contains(&k.as_str())),
            "{keys:?}"
        );
        assert!(keys.iter().any(|k| *k == "integrity"), "{keys:?}");
    }
    let standard = fetch(&s, json!({}));
    assert!(
        json_chars(&brief["structuredContent"]) * 3 < json_chars(&standard["structuredContent"])
    );
}

#[test]
fn summaries_and_other_operations_stay_within_the_budget() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let summary = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "summary", "ids": twenty(), "max_characters": 2_000}),
    );
    assert_eq!(summary["isError"], false, "{summary}");
    assert!(chars(&text_of(&summary)) <= 2_000);
    assert!(json_chars(&summary["structuredContent"]) <= 2_000);
    assert!(!cuts(&summary).is_empty());
    // einfo returns no list of records: the guard shortens its largest lists and says so.
    let info = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "info", "database": "pubmed", "max_characters": 3_000}),
    );
    assert_eq!(info["isError"], false, "{info}");
    assert!(
        chars(&text_of(&info)) <= 3_000,
        "{}",
        chars(&text_of(&info))
    );
    assert!(json_chars(&info["structuredContent"]) <= 3_000);
    assert!(cuts(&info)[0]["message"]
        .as_str()
        .unwrap()
        .contains("$.database"));
}

#[test]
fn rows_past_the_budget_are_named_with_the_statement_that_pages_on() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "ids": (90_000_001..=90_000_060).collect::<Vec<u64>>()}),
    );
    let id = staged["data_access_id"].as_str().unwrap();
    let sql = "SELECT pmid, title, abstract FROM article ORDER BY pmid";
    let r = call_tool(
        &s,
        "entrez_data",
        json!({"operation": "query", "data_access_id": id, "sql": sql, "max_characters": 8_000}),
    );
    let sc = &r["structuredContent"];
    assert!(chars(&text_of(&r)) <= 8_000);
    assert!(json_chars(sc) <= 8_000);
    let shown = sc["rows"].as_array().unwrap().len();
    assert!(shown > 0 && shown < 60, "{shown}");
    assert_eq!(sc["row_count"], shown);
    assert_eq!(sc["budget"]["left_out"], 60 - shown);
    let next = &sc["budget"]["next_call"]["arguments"];
    assert!(next["sql"]
        .as_str()
        .unwrap()
        .ends_with(&format!("LIMIT {} OFFSET {shown}", 60 - shown)));
    assert_eq!(next["limit"], 60 - shown);
    let rest = ok(&s, next.clone());
    assert_eq!(
        rest["rows"][0][0],
        json!(90_000_001 + shown as u64),
        "the next page starts after the last row shown"
    );
    // Exactly the rows left out, no more (the next call pages on within its own budget).
    assert_eq!(rest["total"], 60 - shown);
    // A statement with its closing semicolon and a comment pages the same way.
    let r = call_tool(
        &s,
        "entrez_data",
        json!({"operation": "query", "data_access_id": id, "max_characters": 8_000,
               "sql": format!("{sql}; -- by pmid")}),
    );
    let next = &r["structuredContent"]["budget"]["next_call"]["arguments"];
    assert_eq!(
        ok(&s, next.clone())["rows"][0][0],
        json!(90_000_001 + shown as u64)
    );
}

#[test]
fn a_history_page_past_the_budget_continues_at_the_next_record() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let search = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "search", "term": "replay-synthetic[all]", "usehistory": true, "retmax": 0}),
    );
    let sc = &search["structuredContent"];
    let (webenv, key) = (sc["webenv"].clone(), sc["query_key"].clone());
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "fetch", "webenv": webenv, "query_key": key, "retstart": 10,
               "retmax": 20, "max_characters": 12_000}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let sc = &r["structuredContent"];
    let shown = sc["records"].as_array().unwrap().len();
    assert!(shown > 0 && shown < 20, "{shown}");
    let next = &sc["budget"]["next_call"]["arguments"];
    assert_eq!(next["retstart"], 10 + shown);
    assert_eq!(next["retmax"], 20 - shown);
    let rest = call_tool(&s, "entrez_query", next.clone());
    let first = &rest["structuredContent"]["records"][0]["pmid"];
    assert_eq!(first, &json!((90_000_011 + shown as u64).to_string()));
}
