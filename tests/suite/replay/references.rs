//! check_references end to end on the NCBI stand-in: the benchmark of tests/fixtures/
//! references/corpus.json (correct citations in ten styles, wrong and invented ones, built
//! by scripts/references_corpus.py from the stand-in's own records), every verdict, and a
//! budget-cut answer whose next_call finishes the list.

use crate::common::replay::Replay;
use crate::common::*;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn server(replay: &Replay) -> Server {
    networked_server(&replay.eutils_base(), None)
}

fn check(s: &Server, args: Value) -> (Value, String) {
    let r = call_tool(s, "entrez_query", args.clone());
    assert_eq!(r["isError"], false, "{r}");
    let text = r["content"][0]["text"].as_str().unwrap_or("").to_string();
    (r["structuredContent"].clone(), text)
}

fn corpus() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/references/corpus.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn retracted(v: &Value) -> bool {
    v["integrity"]["flags"]
        .as_array()
        .is_some_and(|f| f.iter().any(|x| x == "retracted"))
}

/// The benchmark: the confusion table (expected kind × verdict), printed, and the issue's
/// bar: no wrong or invented citation verified, at least 95% of correct ones verified and
/// none not_found, every retracted one flagged, at most 10 upstream requests per 100.
#[test]
fn the_reference_benchmark_verifies_no_wrong_citation() {
    let replay = Replay::start();
    let s = server(&replay);
    let corpus = corpus();
    assert!(corpus.len() >= 200, "{}", corpus.len());
    let mut table: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut requests = Vec::new();
    for chunk in corpus.chunks(100) {
        let references: Vec<Value> = chunk
            .iter()
            .map(|e| match &e["reference"] {
                Value::String(t) => json!({"key": e["id"], "text": t}),
                Value::Object(o) => {
                    let mut o = o.clone();
                    o.insert("key".into(), e["id"].clone());
                    Value::Object(o)
                }
                _ => unreachable!(),
            })
            .collect();
        let before = replay.stats()["requests"].as_u64().unwrap();
        let (r, _) = check(
            &s,
            json!({"operation": "check_references", "references": references, "max_characters": 200000}),
        );
        let sent = replay.stats()["requests"].as_u64().unwrap() - before;
        requests.push((chunk.len(), sent));
        let results = r["references"].as_array().unwrap();
        assert_eq!(results.len(), chunk.len(), "{}", r["warnings"]);
        for (e, v) in chunk.iter().zip(results) {
            let kind = e["kind"].as_str().unwrap();
            let verdict = v["verdict"].as_str().unwrap();
            *table
                .entry(kind.into())
                .or_default()
                .entry(verdict.into())
                .or_insert(0) += 1;
            let wrong = match kind {
                "correct" => verdict != "verified" || v["pmid"] != e["truth_pmid"],
                _ => verdict == "verified",
            };
            // A wrong citation of a real paper names it: as the record its identifier,
            // title or citation points at, or among the others it names.
            let named = |p: &Value| {
                v["pmid"] == *p
                    || v["also"]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|o| o["pmid"] == *p))
            };
            let unnamed = kind != "correct" && verdict == "mismatch" && !named(&e["truth_pmid"]);
            let unflagged = e["retracted"] == true && !retracted(v);
            if unnamed {
                failures.push(format!(
                    "{} {kind} → {verdict}, the real paper {} not named: {}",
                    e["id"], e["truth_pmid"], v["message"]
                ));
            }
            if wrong || unflagged {
                failures.push(format!(
                    "{} {kind} → {verdict} {}: {}\n    {}",
                    e["id"], v["pmid"], e["reference"], v["message"]
                ));
            }
        }
    }
    let verdicts = [
        "verified",
        "mismatch",
        "ambiguous",
        "not_found",
        "unreadable",
        "invalid",
        "unchecked",
    ];
    let mut out = format!(
        "{:<20}{}\n",
        "expected \\ given",
        verdicts.map(|v| format!("{v:>11}")).join("")
    );
    for (kind, row) in &table {
        let cells: String = verdicts
            .map(|v| format!("{:>11}", row.get(v).copied().unwrap_or(0)))
            .join("");
        out.push_str(&format!("{kind:<20}{cells}\n"));
    }
    for (n, sent) in &requests {
        out.push_str(&format!("{n} references: {sent} upstream requests\n"));
    }
    println!("REFERENCE BENCHMARK ({} references)\n{out}", corpus.len());
    let correct = &table["correct"];
    let total: u64 = correct.values().sum();
    let verified = correct.get("verified").copied().unwrap_or(0);
    let wrong_verified: u64 = table
        .iter()
        .filter(|(k, _)| *k != "correct")
        .map(|(_, r)| r.get("verified").copied().unwrap_or(0))
        .sum();
    assert_eq!(
        wrong_verified,
        0,
        "wrong citations verified:\n{out}\n{}",
        failures.join("\n")
    );
    assert_eq!(
        correct.get("not_found"),
        None,
        "correct citations not found:\n{out}\n{}",
        failures.join("\n")
    );
    assert!(
        verified * 100 >= total * 95,
        "{verified} of {total} correct verified:\n{out}\n{}",
        failures.join("\n")
    );
    assert!(
        failures.iter().all(|f| !f.contains("retracted")),
        "{}",
        failures.join("\n")
    );
    for (n, sent) in requests {
        assert!(
            sent * 100 <= 10 * n.max(100) as u64,
            "{n} references took {sent} requests"
        );
    }
}
