//! Research integrity end to end on the replay: a retracted record flagged at every detail
//! level, in a budget-cut result, in summaries, searches and its staged dataset; and a
//! reference list checked against PubMed, one verdict per reference, in a few requests.
//! The retracted, corrected and concerned records are tests/fixtures/ncbi/documented's,
//! built to the PubMed DTD (no recording of such records exists here).

use crate::common::data::{ok, sql};
use crate::common::replay::Replay;
use crate::common::*;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};

fn server(replay: &Replay) -> Server {
    networked_server(&replay.eutils_base(), None)
}

fn query(s: &Server, args: Value) -> (Value, String) {
    let r = call_tool(s, "entrez_query", args.clone());
    assert_eq!(r["isError"], false, "{args} → {r}");
    let text = r["content"][0]["text"].as_str().unwrap_or("").to_string();
    (r["structuredContent"].clone(), text)
}

fn flags(record: &Value) -> Vec<String> {
    record["integrity"]["flags"]
        .as_array()
        .unwrap_or_else(|| panic!("no integrity in {record}"))
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_retracted_record_is_flagged_at_every_detail_level_and_in_a_cut_result() {
    let replay = Replay::start();
    let s = server(&replay);
    let ids = [
        "9500320", "20137807", "99000001", "99000003", "99000005", "12091962",
    ];
    for detail in ["brief", "standard", "full"] {
        let (r, text) = query(
            &s,
            json!({"operation": "fetch", "ids": ids, "detail": detail}),
        );
        let records = r["records"].as_array().unwrap();
        assert_eq!(
            flags(&records[0]),
            ["retracted", "expression_of_concern"],
            "{detail}"
        );
        assert_eq!(records[0]["integrity"]["notices"][0]["pmid"], "20137807");
        assert_eq!(flags(&records[1]), ["retraction_notice"]);
        assert_eq!(flags(&records[2]), ["corrected"]);
        assert_eq!(flags(&records[3]), ["expression_of_concern"]);
        assert!(flags(&records[4]).is_empty() && flags(&records[5]).is_empty());
        assert!(
            text.contains(
                "1. RETRACTED: retraction notice PMID 20137807 (Lancet. 2010 Feb 6;375(9713):445)"
            ),
            "{detail}: {text}"
        );
        assert_eq!(r["flagged"]["retracted"], json!(["9500320"]));
        assert!(
            r["warnings"][0]
                .as_str()
                .unwrap()
                .starts_with("1 of the 6 records is RETRACTED (PMID 9500320)"),
            "{r}"
        );
    }
    // fields picks what the caller names, and integrity with it.
    let (r, _) = query(
        &s,
        json!({"operation": "fetch", "ids": ["9500320"], "fields": ["title"]}),
    );
    assert_eq!(
        flags(&r["records"][0]),
        ["retracted", "expression_of_concern"]
    );
    // A budget that holds one record of six: the others are left out, the count is not.
    let (r, text) = query(
        &s,
        json!({"operation": "fetch", "ids": ["99000005", "9500320", "12091962", "99000001", "99000003", "20137807"], "max_characters": 2500}),
    );
    assert!(r["count"].as_u64().unwrap() < 6, "{r}");
    assert_eq!(r["flagged"]["retracted"], json!(["9500320"]));
    assert!(
        text.contains("RETRACTED among them: PMID 9500320."),
        "{text}"
    );
    // MEDLINE text says the same.
    let (m, _) = query(
        &s,
        json!({"operation": "fetch", "ids": ["9500320"], "rettype": "medline", "retmode": "text"}),
    );
    assert_eq!(
        flags(&m["records"][0]),
        ["retracted", "expression_of_concern"]
    );
}

#[test]
fn summaries_and_searches_say_what_is_retracted() {
    let replay = Replay::start();
    let s = server(&replay);
    let (r, text) = query(
        &s,
        json!({"operation": "summary", "ids": ["9500320", "99000003", "99000005"]}),
    );
    let docs = r["docs"].as_array().unwrap();
    assert_eq!(flags(&docs[0]), ["retracted", "expression_of_concern"]);
    assert_eq!(docs[0]["integrity"]["basis"], "record");
    assert_eq!(flags(&docs[1]), ["expression_of_concern"]);
    assert!(flags(&docs[2]).is_empty());
    assert!(
        text.contains("1. RETRACTED: retraction notice PMID 20137807"),
        "{text}"
    );
    // A search, by default: one request, its ids, and no word on retractions (the records
    // fetched or summarized next carry their flags).
    let before = replay.stats()["requests"].as_u64().unwrap();
    let (r, text) = query(
        &s,
        json!({"operation": "search", "term": "children[ti] AND 1998[dp]"}),
    );
    assert_eq!(r["ids"], json!(["9500320"]));
    assert!(r.get("flagged").is_none(), "{r}");
    assert!(!text.contains("RETRACTED"), "{text}");
    assert_eq!(replay.stats()["requests"].as_u64().unwrap() - before, 1);
    // Asked for: how many matches are retracted, and which of the ids returned.
    let before = replay.stats()["requests"].as_u64().unwrap();
    let (r, text) = query(
        &s,
        json!({"operation": "search", "term": "children[ti] AND 1998[dp]", "check_retractions": true}),
    );
    assert_eq!(r["ids"], json!(["9500320"]));
    assert_eq!(r["flagged"]["retracted_count"], 1);
    assert_eq!(r["flagged"]["retracted"], json!(["9500320"]));
    assert!(
        text.contains("RETRACTED: 1 of the matches are retracted publications."),
        "{text}"
    );
    assert_eq!(
        replay.stats()["requests"].as_u64().unwrap() - before,
        2,
        "the search and its check"
    );
    // A search with none retracted says nothing of it.
    let (r, _) = query(
        &s,
        json!({"operation": "search", "term": "replay-synthetic[all]", "retmax": 3, "check_retractions": "true"}),
    );
    assert_eq!(r["flagged"]["retracted_count"], 0);
    assert!(r["warnings"].as_array().unwrap().is_empty(), "{r}");
}

#[test]
fn thirty_concurrent_searches_send_thirty_requests_and_fetched_records_keep_their_flags() {
    // With a key (10 requests/s at the stand-in and in the pacer), so the 30 take about 3 s;
    // with a retraction check each, they would be 60 requests and about 6 s.
    let replay = Replay::start();
    let s = networked_server(&replay.eutils_base(), Some("test-key-0123456789"));
    let before = replay.stats();
    let answers: Vec<Value> = std::thread::scope(|scope| {
        let calls: Vec<_> = (0..30)
            .map(|i| {
                let s = &s;
                scope.spawn(move || {
                    call_tool(
                        s,
                        "entrez_query",
                        json!({"operation": "search", "term": format!("biopython {i}")}),
                    )
                })
            })
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    let after = replay.stats();
    let sent = |stats: &Value, key: &str| stats[key].as_u64().unwrap();
    assert_eq!(sent(&after, "requests") - sent(&before, "requests"), 30);
    assert_eq!(sent(&after, "rate_limited"), sent(&before, "rate_limited"));
    for a in &answers {
        assert_eq!(a["isError"], false, "{a}");
        assert!(a["structuredContent"].get("flagged").is_none(), "{a}");
    }
    // The record itself still says it is retracted, fetched or summarized.
    let (r, text) = query(
        &s,
        json!({"operation": "fetch", "ids": ["9500320"], "detail": "brief"}),
    );
    assert_eq!(flags(&r["records"][0])[0], "retracted", "{r}");
    assert!(
        text.contains("RETRACTED among them: PMID 9500320."),
        "{text}"
    );
    let (r, _) = query(&s, json!({"operation": "summary", "ids": ["9500320"]}));
    assert_eq!(flags(&r["docs"][0])[0], "retracted", "{r}");
}

#[test]
fn a_staged_dataset_holds_the_flags_and_the_links() {
    let replay = Replay::start();
    let (s, _, _) = crate::common::data::server(Some(&replay), Default::default());
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "ids": ["9500320", "20137807", "99000001", "99000005"]}),
    );
    let id = staged["data_access_id"].as_str().unwrap();
    let rows = sql(
        &s,
        id,
        "SELECT pmid, retracted, integrity FROM article ORDER BY pmid",
    );
    assert_eq!(
        rows["rows"],
        json!([
            [9500320, 1, "retracted; expression_of_concern"],
            [20137807, 0, "retraction_notice"],
            [99000001, 0, "corrected"],
            [99000005, 0, null]
        ])
    );
    let notices = sql(&s, id, "SELECT ref_pmid, ref_source FROM correction WHERE pmid = 9500320 AND ref_type = 'RetractionIn' ORDER BY ref_pmid");
    assert_eq!(notices["rows"][1][0], 20137807);
    // The example query the schema offers runs and finds the retracted article.
    let schema = ok(&s, json!({"operation": "schema", "data_access_id": id}));
    let example = schema["example_queries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["title"].as_str().unwrap().starts_with("Retracted"))
        .unwrap()["sql"]
        .as_str()
        .unwrap()
        .to_string();
    let found = sql(&s, id, &example);
    assert_eq!(found["rows"][0][0], 9500320, "{found}");
}

#[test]
fn a_reference_list_gets_one_verdict_each() {
    let replay = Replay::start();
    let s = server(&replay);
    let references = json!([
        // A real reference, Vancouver style, to a retracted paper.
        "Wakefield AJ, Murch SH, Anthony A, et al. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.",
        // A real PMID with a made-up title, year and author.
        {"key": "made-up", "pmid": "11748933", "title": "Machine learning predicts sperm motility after freezing", "year": 2021, "authors": ["Smith J"]},
        // A DOI.
        "doi:10.1136/gutjnl-2016-312510",
        // A made-up title.
        "Smith J, Doe A. Quantum entanglement of gut microbiota in marathon runners. Nature. 2020;580:1-5.",
        // A PMID alone, and a clean one by title.
        "PMID: 99000003",
        "Occupational pesticide exposure and subclinical hypothyroidism among male pesticide applicators",
        // Bad input.
        "",
        {"doi": "10.12/x"}
    ]);
    let (r, text) = query(
        &s,
        json!({"operation": "check_references", "references": references}),
    );
    let verdicts: Vec<(&str, &str)> = r["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["key"].as_str().unwrap(), v["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("ref1", "verified"),
            ("made-up", "mismatch"),
            ("ref3", "verified"),
            ("ref4", "not_found"),
            ("ref5", "verified"),
            ("ref6", "verified"),
            ("ref7", "invalid"),
            ("ref8", "invalid"),
        ],
        "{r}"
    );
    let refs = r["references"].as_array().unwrap();
    assert_eq!(refs[0]["pmid"], "9500320");
    assert_eq!(refs[0]["matched_by"], "citation_match");
    assert_eq!(flags(&refs[0]), ["retracted", "expression_of_concern"]);
    assert_eq!(
        refs[1]["disagreed"],
        json!(["title", "year", "first_author"])
    );
    assert_eq!(refs[2]["pmid"], "27797938");
    assert_eq!(refs[2]["matched_by"], "doi");
    assert_eq!(flags(&refs[4]), ["expression_of_concern"]);
    assert_eq!(refs[5]["pmid"], "28775130");
    assert_eq!(refs[5]["matched_by"], "title_search");
    assert!(refs[6]["message"].as_str().unwrap().contains("empty"));
    assert!(refs[7]["message"]
        .as_str()
        .unwrap()
        .contains("is not a DOI"));
    assert_eq!(
        r["summary"],
        json!({"verified": 4, "mismatch": 1, "ambiguous": 0, "not_found": 1, "unreadable": 0, "invalid": 2, "unchecked": 0, "retracted": 1})
    );
    assert!(
        text.starts_with("Checked 8 references: 4 verified, 1 mismatch, 0 ambiguous, 1 not found, 2 invalid; RETRACTED: ref1 (PMID 9500320)."),
        "{text}"
    );
    assert!(
        text.contains("   RETRACTED: retraction notice PMID 20137807"),
        "{text}"
    );
}

#[test]
fn a_hundred_citations_take_two_requests() {
    let replay = Replay::start();
    let s = server(&replay);
    // The recorded and documented articles' journal, year, volume and first page, over and
    // over: 100 references.
    let known = [
        ("Soc Justice", 1990, "17", "113"),
        ("Biochim Biophys Acta", 1976, "446", "179"),
        ("Cryobiology", 2001, "42", "244"),
        ("J Magn Reson", 2001, "153", "117"),
        ("Gut", 2017, "66", "1116"),
        ("Occup Environ Med", 2018, "75", "79"),
        ("Front Physiol", 2018, "9", "1034"),
        ("Lancet", 1998, "351", "637"),
    ];
    let references: Vec<Value> = (0..100)
        .map(|i| {
            let (j, y, v, p) = known[i % known.len()];
            json!({"journal": j, "year": y, "volume": v, "first_page": p, "key": format!("c{i}")})
        })
        .collect();
    let before = replay.stats()["requests"].as_u64().unwrap();
    let (r, _) = query(
        &s,
        json!({"operation": "check_references", "references": references}),
    );
    let sent = replay.stats()["requests"].as_u64().unwrap() - before;
    assert_eq!(r["summary"]["verified"], 100, "{}", r["summary"]);
    assert_eq!(
        r["summary"]["retracted"], 12,
        "every eighth (7, 15, ..., 95) is the retracted one"
    );
    // One ECitMatch for all of them, one ESummary for the eight records they name.
    assert_eq!(sent, 2, "requests made");
    assert_eq!(r["requests"], 2);
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
}
