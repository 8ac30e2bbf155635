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

fn verdicts(r: &Value) -> Vec<(String, String)> {
    r["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["key"].as_str().unwrap().to_string(),
                v["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The verdict of the reference keyed `key` in a check_references result.
pub(super) fn by_key<'a>(r: &'a Value, key: &str) -> &'a Value {
    r["references"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {r}"))
}

/// Each cause #53 lists, on the line shapes that showed it.
/// Wrong citations a review found still verified: a line in a layout the reader does not
/// know with a real DOI (every other field made up), a correct citation with a PMID that
/// does not exist beside its right DOI, a title changed by one meaningful word, and a
/// journal's plural ("Guts" for "Gut"). None may be `verified`.
#[test]
fn wrong_citations_a_review_found_are_not_verified() {
    let replay = Replay::start();
    let s = server(&replay);
    let bao = "Bao Y, Prescott J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer.";
    let refs = json!([
        {"key": "acs-real-doi", "text": "Smith, J.; Doe, A. Quantum entanglement of gut microbiota in marathon runners. Nature 2020, 580, 112-118. DOI: 10.1136/gutjnl-2016-312510"},
        {"key": "pmid-missing", "text": format!("{bao} Gut. 2017;66(6):1116-22. doi:10.1136/gutjnl-2016-312510. PMID: 99999999")},
        {"key": "title-word", "text": "Bao Y, Prescott J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of prostate cancer. Gut. 2017;66(6):1116-22. doi:10.1136/gutjnl-2016-312510"},
        {"key": "plural-journal", "text": format!("{bao} Guts. 2017;66(6):1116-22.")},
        {"key": "right", "text": format!("{bao} Gut. 2017;66(6):1116-22. doi:10.1136/gutjnl-2016-312510")},
        // Nature's layout, the year in brackets at the end: it was read as authors alone
        // and answered a confident not_found.
        {"key": "nature", "text": "Bao, Y. & Prescott, J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Gut 66, 1116-1122 (2017)."}
    ]);
    let (r, text) = check(
        &s,
        json!({"operation": "check_references", "references": refs}),
    );
    let got = verdicts(&r);
    let want: Vec<(String, String)> = [
        ("acs-real-doi", "unreadable"),
        ("pmid-missing", "mismatch"),
        ("title-word", "mismatch"),
        ("plural-journal", "mismatch"),
        ("right", "verified"),
        ("nature", "unreadable"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(got, want, "{text}");
}

#[test]
fn each_cause_of_a_wrong_verdict_is_gone() {
    let replay = Replay::start();
    let s = server(&replay);
    let refs = json!([
        // A leading "PMID: n." cut the line: the made-up rest was never read.
        {"key": "pmid-first", "text": "PMID: 9500320. Smith J, Doe A. Quantum entanglement of gut microbiota in marathon runners. Nature. 2020;580:112."},
        // A year one off was accepted; the electronic year is the paper's own.
        {"key": "year-off", "text": "Bao Y, Prescott J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Gut. 2018;66(6):1116-22."},
        {"key": "epub-year", "text": "Bao Y, Prescott J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Gut. 2016;66(6):1116-22."},
        // The DOI reader stopped at the pages' "10."; a BibTeX DOI kept its brace.
        {"key": "doi-after-pages", "text": "Smith J. Made up findings on nothing at all. J Test. 2020;5:1-10. doi:10.1136/gutjnl-2016-312510"},
        {"key": "bibtex", "text": "@article{bao2017, author={Bao, Ying and Prescott, Jennifer}, title={Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer}, journal={Gut}, year={2017}, volume={66}, number={6}, pages={1116--1122}, doi={10.1136/gutjnl-2016-312510}}"},
        // "Surname X. A title": the initial before a title that starts with "A".
        {"key": "initial-then-a", "text": "Example A, Sample B. A documented example of an article corrected by two errata. J Doc Ex. 2019."},
        // Harvard and Chicago lines were not read.
        {"key": "harvard", "text": "Lerro, C.C., Beane Freeman, L.E. and DellaValle, C.T. (2018) 'Occupational pesticide exposure and subclinical hypothyroidism among male pesticide applicators', Occupational and Environmental Medicine, 75(2), pp. 79-89."},
        {"key": "chicago", "text": "Guo, Fumin, Dante Capaldi, and Miranda Kirby. 2018. “Development of a Pulmonary Imaging Biomarker Pipeline for Phenotyping of Chronic Lung Disease.” Journal of Medical Imaging 5 (2): 026002."},
        {"key": "unreadable", "text": "see that 2019 group paper, the one in some journal; 12 pages or so"},
        // A correct citation with a wrong DOI; a typo in a title with no volume or page.
        {"key": "wrong-doi", "text": "Bao Y, Prescott J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Gut. 2017;66(6):1116-22. doi:10.1136/oemed-2017-104431"},
        {"key": "doi-not-found", "text": "Bao Y, Prescott J. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Gut. 2017;66(6):1116-22. doi:10.1136/gutjnl-0000-000000"},
        {"key": "typo", "text": "Lerro CC, Beane Freeman LE. Occupational pesticide exposure and subclinical hypothyroidsm among male pesticide applicators. Occup Environ Med. 2018."},
        // An identifier with too little else to compare is not verified.
        {"key": "id-and-author", "pmid": "27797938", "authors": ["Bao Y"]},
        // A PMCID is not a PMID.
        {"key": "pmcid", "text": "Smith J. Made up findings on nothing at all. J Test. 2020;5:1-10. PMCID: PMC5771820"}
    ]);
    let (r, text) = check(
        &s,
        json!({"operation": "check_references", "references": refs}),
    );
    let got = verdicts(&r);
    let want = [
        ("pmid-first", "mismatch"),
        ("year-off", "mismatch"),
        ("epub-year", "verified"),
        ("doi-after-pages", "mismatch"),
        ("bibtex", "verified"),
        ("initial-then-a", "verified"),
        ("harvard", "verified"),
        ("chicago", "verified"),
        ("unreadable", "unreadable"),
        ("wrong-doi", "mismatch"),
        ("doi-not-found", "mismatch"),
        ("typo", "verified"),
        ("id-and-author", "ambiguous"),
        ("pmcid", "mismatch"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(got, want, "{text}");
    // The mismatch names the paper the identifier belongs to, with what disagrees.
    let p = by_key(&r, "pmid-first");
    assert_eq!(
        (
            p["pmid"].as_str(),
            p["first_author"].as_str(),
            p["journal"].as_str(),
            p["year"].as_i64()
        ),
        (
            Some("9500320"),
            Some("Wakefield"),
            Some("Lancet"),
            Some(1998)
        )
    );
    assert_eq!(
        p["disagreed"],
        json!([
            "title",
            "year",
            "first_author",
            "journal",
            "volume",
            "first_page"
        ])
    );
    assert_eq!(by_key(&r, "year-off")["disagreed"], json!(["year"]));
    assert_eq!(by_key(&r, "doi-after-pages")["pmid"], "27797938");
    assert_eq!(by_key(&r, "bibtex")["matched_by"], "doi");
    assert_eq!(by_key(&r, "initial-then-a")["pmid"], "99000001");
    assert_eq!(by_key(&r, "harvard")["read"]["style"], "quoted_title");
    assert_eq!(by_key(&r, "chicago")["pmid"], "29963580");
    let u = by_key(&r, "unreadable");
    assert!(
        u["message"]
            .as_str()
            .unwrap()
            .starts_with("Could not read this reference"),
        "{u}"
    );
    assert_eq!(
        u["read"]["missing"],
        json!([
            "first_author",
            "title",
            "journal",
            "year",
            "volume",
            "first_page"
        ])
    );
    // The wrong DOI names its own paper, and the paper the rest of the line cites.
    let w = by_key(&r, "wrong-doi");
    assert_eq!(
        (w["pmid"].as_str(), w["matched_by"].as_str()),
        (Some("28775130"), Some("doi"))
    );
    assert_eq!(w["also"][0]["pmid"], "27797938", "{w}");
    let n = by_key(&r, "doi-not-found");
    assert_eq!(
        (n["pmid"].as_str(), n["matched_by"].as_str()),
        (Some("27797938"), Some("citation_match"))
    );
    assert!(
        n["message"]
            .as_str()
            .unwrap()
            .starts_with("Its DOI 10.1136/gutjnl-0000-000000 is not in PubMed"),
        "{n}"
    );
    assert_eq!(by_key(&r, "typo")["pmid"], "28775130");
    assert!(by_key(&r, "id-and-author")["message"]
        .as_str()
        .unwrap()
        .contains("agrees only on first_author"));
    let c = by_key(&r, "pmcid");
    assert_eq!(
        (
            c["pmid"].as_str(),
            c["pmcid"].as_str(),
            c["matched_by"].as_str()
        ),
        (Some("28775130"), Some("PMC5771820"), Some("pmcid"))
    );
}

/// A chimera (one paper's title, another's authors and source) lists both; two records of
/// one journal, year and volume with nothing to tell them apart are ambiguous, listed.
#[test]
fn chimeras_list_both_papers_and_ambiguous_citations_list_candidates() {
    let replay = Replay::start();
    let s = server(&replay);
    let refs = json!([
        {"key": "chimera", "text": "Lerro CC, Beane Freeman LE. Leucocyte telomere length, genetic variants at the TERT gene region and risk of pancreatic cancer. Occup Environ Med. 2018;75(2):79-89."},
        {"key": "two", "journal": "J Doc Ex", "year": 2019, "volume": "12"}
    ]);
    let (r, text) = check(
        &s,
        json!({"operation": "check_references", "references": refs}),
    );
    let c = by_key(&r, "chimera");
    assert_eq!(
        (c["verdict"].as_str(), c["pmid"].as_str()),
        (Some("mismatch"), Some("27797938"))
    );
    assert_eq!(c["also"][0]["pmid"], "28775130", "{c}");
    assert!(
        c["message"].as_str().unwrap().contains("two papers mixed"),
        "{c}"
    );
    let a = by_key(&r, "two");
    assert_eq!(a["verdict"], "ambiguous", "{text}");
    let listed: Vec<&str> = a["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["pmid"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["99000001", "99000002"]);
    assert!(text.contains("candidate PMID 99000001"), "{text}");
}

/// Twenty references known only by their titles: one search and one summary.
#[test]
fn title_searches_are_batched() {
    let replay = Replay::start();
    let s = server(&replay);
    let titles: Vec<Value> = corpus()
        .iter()
        .filter(|e| e["style"] == "fields")
        .map(|e| e["reference"]["title"].clone())
        .chain(
            [
                "Quantum entanglement of gut microbiota in marathon runners",
                "Microplastic burden in human placenta predicts neonatal eczema",
            ]
            .map(|t| json!(t)),
        )
        .take(20)
        .collect();
    assert!(titles.len() >= 16, "{}", titles.len());
    let before = replay.stats()["requests"].as_u64().unwrap();
    let (r, _) = check(
        &s,
        json!({"operation": "check_references", "references": titles}),
    );
    let sent = replay.stats()["requests"].as_u64().unwrap() - before;
    assert_eq!(
        r["summary"]["verified"].as_u64().unwrap() as usize,
        titles.len() - 2,
        "{}",
        r["summary"]
    );
    assert_eq!(r["summary"]["not_found"], 2);
    assert!(sent <= 3, "{sent} requests");
}

/// Out of requests: the rest are `unchecked`, and next_call (which the input schema takes)
/// checks them; a budget cut keeps the same verdicts in both blocks and its next_call
/// finishes the list.
#[test]
fn unchecked_references_and_a_budget_cut_are_finished_by_next_call() {
    let replay = Replay::start();
    // 12 subrequests at 4 attempts each: three requests a call.
    let allowance = entrez_mcp_core::allowance::Allowance {
        subrequests: 12,
        ..Default::default()
    };
    let (s, _, _) =
        crate::common::data::server_spending(Some(&replay), Default::default(), allowance);
    let refs = json!([
        "doi:10.1136/gutjnl-2016-312510",
        {"key": "cited", "journal": "Lancet", "year": 1998, "volume": "351", "first_page": "637"},
        {"key": "titled", "text": "Lerro CC. Occupational pesticide exposure and subclinical hypothyroidism among male pesticide applicators. Occup Environ Med. 2018."}
    ]);
    let (r, text) = check(
        &s,
        json!({"operation": "check_references", "references": refs}),
    );
    assert_eq!(
        verdicts(&r),
        [
            ("ref1", "verified"),
            ("cited", "verified"),
            ("titled", "unchecked")
        ]
        .map(|(a, b)| (a.to_string(), b.to_string())),
        "{text}"
    );
    let next = &r["next_call"];
    assert_eq!(
        next["arguments"]["references"],
        json!([refs[2]]),
        "re-sent as given: {next}"
    );
    let (again, _) = check(&s, next["arguments"].clone());
    assert_eq!(
        verdicts(&again),
        [("titled".to_string(), "verified".to_string())]
    );

    // A budget that holds a few of twelve verdicts.
    let s = server(&replay);
    let mut twelve: Vec<Value> = corpus()
        .iter()
        .filter(|e| e["style"] == "vancouver")
        .take(12)
        .map(|e| e["reference"].clone())
        .collect();
    // An invalid reference at the end: next_call re-sends it as given, which the schema takes.
    twelve.push(json!({"key": "bad", "doi": "10.12/x"}));
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "check_references", "references": twelve, "max_characters": 2500}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let shown = verdicts(&r["structuredContent"]);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(!shown.is_empty() && shown.len() < 13, "{}", shown.len());
    for (i, (key, verdict)) in shown.iter().enumerate() {
        let line = format!(
            "{}. [{}] {key}",
            i + 1,
            verdict.to_uppercase().replace('_', " ")
        );
        assert!(text.contains(&line), "{line} not in {text}");
    }
    assert!(
        !text.contains(&format!("{}. [", shown.len() + 1)),
        "the text shows more than the structured result: {text}"
    );
    let mut keys: Vec<String> = shown.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(
        r["structuredContent"]["next_call"],
        Value::Null,
        "one next_call: budget's"
    );
    let mut next = r["structuredContent"]["budget"]["next_call"].clone();
    for _ in 0..12 {
        if next.is_null() {
            break;
        }
        let r = call_tool(&s, "entrez_query", next["arguments"].clone());
        assert_eq!(r["isError"], false, "the next_call is accepted: {r}");
        let part = verdicts(&r["structuredContent"]);
        assert!(
            part.iter()
                .all(|(k, v)| v == "verified" || (k == "bad" && v == "invalid")),
            "{part:?}"
        );
        keys.extend(part.into_iter().map(|(k, _)| k));
        next = r["structuredContent"]["budget"]["next_call"].clone();
    }
    assert_eq!(keys.len(), 13, "{keys:?}");
}
