//! 200 PMC articles staged as a dataset from the NCBI stand-in's synthetic JATS
//! (replay/src/ncbi/synthetic_pmc.rs): sections, captions and a full-text query
//! whose expected rows this file reads from the generated XML its own way; the
//! stand-in's pacing record; the Workers Free plan's limits across calls.

use crate::common::data::*;
use crate::common::replay::{fetched, Replay};
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::staging::Limits;
use entrez_mcp_replay::ncbi::synthetic_pmc;
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};

const COUNT: u64 = 200;

fn pmcids() -> Vec<String> {
    (0..COUNT)
        .map(|i| format!("PMC{}", synthetic_pmc::FIRST + i))
        .collect()
}

/// One text run of a JATS article: the titles of the `sec`s around it, the elements
/// around it, and the text.
struct Run {
    path: String,
    elements: Vec<String>,
    text: String,
}

/// Reads JATS by its tags alone: a stack of open elements and of section titles; a
/// section's title is the text of a `title` directly inside its `sec`.
fn runs(xml: &str) -> Vec<Run> {
    let mut out = Vec::new();
    let mut elements: Vec<String> = Vec::new();
    let mut titles: Vec<String> = Vec::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let text = rest[..open].trim();
        if !text.is_empty() {
            let parent = elements.iter().rev().nth(1).map(String::as_str);
            if elements.last().map(String::as_str) == Some("title") && parent == Some("sec") {
                *titles.last_mut().unwrap() = text.to_string();
            } else {
                out.push(Run {
                    path: titles.join(" > "),
                    elements: elements.clone(),
                    text: text.to_string(),
                });
            }
        }
        let close = open + rest[open..].find('>').unwrap();
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(elements.pop().as_deref(), Some(name), "balanced XML");
            if name == "sec" {
                titles.pop();
            }
        } else {
            let name = tag.split_whitespace().next().unwrap().to_string();
            if name == "sec" {
                titles.push(String::new());
            }
            elements.push(name);
        }
    }
    out
}

/// What the test expects of the generated articles, read from their XML.
struct Expected {
    /// PMCIDs with "hazard ratio" (any case) in a section under a heading path naming
    /// results, outside table cells (a section's text holds captions, not cells).
    results_hr: BTreeSet<String>,
    /// PMCIDs with "hazard ratio" in a table cell.
    cells_hr: BTreeSet<String>,
    /// `sec` elements per article plus one for the `ack`.
    sections: usize,
}

fn expected() -> Expected {
    let mut e = Expected {
        results_hr: BTreeSet::new(),
        cells_hr: BTreeSet::new(),
        sections: 0,
    };
    for id in pmcids() {
        let n = synthetic_pmc::number(&id).unwrap();
        let xml = synthetic_pmc::article(n);
        e.sections += xml.matches("<sec ").count() + xml.matches("<ack>").count();
        for r in runs(&xml) {
            if !r.text.to_lowercase().contains("hazard ratio") {
                continue;
            }
            if r.elements.iter().any(|x| x == "td") {
                e.cells_hr.insert(id.clone());
            } else if r.path.to_lowercase().contains("result") {
                e.results_hr.insert(id.clone());
            }
        }
    }
    e
}

fn column(rows: &Value, i: usize) -> BTreeSet<String> {
    rows["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[i].as_str().unwrap().to_string())
        .collect()
}

const RESULTS_HR: &str = "SELECT DISTINCT s.pmcid FROM section s WHERE lower(s.path) LIKE '%result%' AND instr(lower(s.text), 'hazard ratio') > 0 ORDER BY s.pmcid";
const FTS_RESULTS_HR: &str = "SELECT DISTINCT s.pmcid FROM section_fts JOIN section s ON s.rowid = section_fts.rowid WHERE section_fts MATCH 'path:result* AND text:\"hazard ratio\"*'";
const CELLS_HR: &str = "SELECT DISTINCT pmcid FROM caption WHERE kind = 'table' AND instr(lower(table_rows), 'hazard ratio') > 0";

/// The dataset holds every article, its sections, and answers the full-text questions
/// as the test's reading of the XML does.
fn check_dataset(s: &entrez_mcp_core::protocol::Server, id: &str, e: &Expected) {
    assert_eq!(
        scalar(s, id, "SELECT COUNT(DISTINCT pmcid) FROM article"),
        COUNT as i64
    );
    assert_eq!(
        scalar(s, id, "SELECT COUNT(*) FROM section"),
        e.sections as i64
    );
    assert_eq!(
        scalar(s, id, "SELECT COUNT(*) FROM caption WHERE kind = 'table'"),
        COUNT as i64
    );
    let found = column(&sql(s, id, RESULTS_HR), 0);
    assert_eq!(found, e.results_hr);
    let cells = column(&sql(s, id, CELLS_HR), 0);
    assert_eq!(cells, e.cells_hr);
    // Natively, the FTS5 index built when staging ended finds the same articles.
    assert_eq!(column(&sql(s, id, FTS_RESULTS_HR), 0), e.results_hr);
}

#[test]
fn two_hundred_pmc_articles_stage_and_answer_a_full_text_query() {
    let e = expected();
    // The generator's cases are all present, so the query can tell them apart.
    assert!(e.results_hr.len() > 50 && e.results_hr.len() < 150);
    assert!(!e.cells_hr.is_empty());
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let args = json!({"operation": "fetch_and_stage", "database": "pmc", "ids": pmcids()});
    let started = std::time::Instant::now();
    let st = ok(&s, args);
    let elapsed = started.elapsed();
    assert_eq!(st["status"], "complete", "{st}");
    assert_eq!(st["layout"], "pmc");
    assert_eq!(st["records"], COUNT);
    let id = st["data_access_id"].as_str().unwrap();
    check_dataset(&s, id, &e);
    // The layout's own example (instr, as the Worker's LIKE cap requires) finds only them.
    let schema = ok(&s, json!({"operation": "schema", "data_access_id": id}));
    let example = schema["example_queries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["sql"].as_str().unwrap().contains("hazard ratio"))
        .unwrap()["sql"]
        .clone();
    let rows = column(&sql(&s, id, example.as_str().unwrap()), 0);
    assert!(
        !rows.is_empty() && rows.is_subset(&e.results_hr),
        "{rows:?}"
    );
    // Natively the FTS5 index: listed without its shadow tables, its example ranked by bm25.
    let names: Vec<&str> = schema["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"section_fts"), "{names:?}");
    assert!(
        !names.iter().any(|n| n.starts_with("section_fts_")),
        "{names:?}"
    );
    let ranked = schema["example_queries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["sql"].as_str().unwrap().contains("bm25"))
        .unwrap()["sql"]
        .clone();
    let ranked = sql(&s, id, ranked.as_str().unwrap());
    assert_eq!(ranked["row_count"], 50, "{ranked}");
    let ranks: Vec<f64> = ranked["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[2].as_f64().unwrap())
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{ranks:?}");
    assert!(column(&ranked, 0).is_subset(&e.results_hr));

    eprintln!(
        "200 PMC articles staged in {elapsed:?}: {} bytes, {} rows",
        st["bytes"], st["rows"]
    );
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    let fetches = fetched(&stats);
    assert_eq!(fetches.len(), 2, "two batches of 100: {stats}");
    assert!(fetches.iter().all(|f| f.len() == 100));
    for (caller, max) in stats["max_in_any_1s_window"].as_object().unwrap() {
        assert!(max.as_u64().unwrap() <= 3, "{caller} paced at 3/s: {stats}");
    }
}

#[test]
fn two_hundred_pmc_articles_stage_across_free_plan_calls_without_loss() {
    let e = expected();
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    let args = json!({"operation": "fetch_and_stage", "database": "pmc", "ids": pmcids()});
    let mut last = ok(&s, args);
    let id = last["data_access_id"].as_str().unwrap().to_string();
    let mut calls = 1;
    // Requests the stand-in saw per call: within the plan's 50 subrequests.
    let mut seen = 0;
    let mut per_call = Vec::new();
    let mut count = |replay: &Replay| {
        let now = replay.stats()["requests"].as_u64().unwrap();
        per_call.push(now - seen);
        seen = now;
    };
    count(&replay);
    while last["status"] == "partial" {
        assert_eq!(last["next_call"]["data_access_id"], id.as_str(), "{last}");
        let said = last["warnings"].as_array().unwrap().iter();
        assert!(
            said.map(|w| w.as_str().unwrap())
                .any(|w| w.contains("ENTREZ_CPU_BUDGET_MS") || w.contains("ENTREZ_SUBREQUESTS")),
            "the cap is said: {last}"
        );
        last = ok(&s, last["next_call"].clone());
        count(&replay);
        calls += 1;
        assert!(calls < 50, "no end: {last}");
    }
    assert_eq!(last["status"], "complete", "{last}");
    assert!(
        calls >= 2,
        "200 articles do not fit one Free-plan call: {calls}"
    );
    assert!(
        per_call.iter().all(|&n| (1..=50).contains(&n)),
        "{per_call:?}"
    );
    check_dataset(&s, &id, &e);
    // Each id fetched exactly once across the calls.
    let stats = replay.stats();
    let sizes: Vec<usize> = fetched(&stats).iter().map(Vec::len).collect();
    let mut times: HashMap<String, usize> = HashMap::new();
    for f in fetched(&stats) {
        for i in f {
            *times.entry(i).or_default() += 1;
        }
    }
    assert_eq!(times.len(), COUNT as usize, "{stats}");
    assert!(times.values().all(|&t| t == 1), "{times:?}");
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    eprintln!(
        "free-plan PMC staging: {calls} calls for {COUNT} articles, requests per call {per_call:?}, efetch batches {sizes:?}"
    );
}
