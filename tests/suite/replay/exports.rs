//! Exports of staged datasets (`entrez_data` export and bibliography, read with
//! `resources/read`): every format read back page by page and counted against the
//! dataset's own rows; the answer the model reads stays under 1 KB; exports belong to the
//! dataset's owner and go with the dataset; bad formats, styles, a dataset still loading
//! and the byte ceiling are refused or said so.

use crate::common::block_on;
use crate::common::data::*;
use crate::common::replay::Replay;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// `resources/read` as `ctx`: the result or the error.
fn read_as(s: &Server, uri: &str, ctx: &RequestContext) -> Value {
    let msg =
        json!({"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": uri}});
    block_on(s.handle_bytes(msg.to_string().as_bytes(), ctx)).expect("a reply")
}

/// Every page of the export linked in `result`, joined, with the number of pages read.
fn read_all(s: &Server, result: &Value, ctx: &RequestContext) -> (String, u64) {
    let link = result["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "resource_link")
        .unwrap_or_else(|| panic!("no resource_link: {result}"));
    let mut uri = link["uri"].as_str().unwrap().to_string();
    let mut text = String::new();
    let mut pages = 0;
    loop {
        let r = read_as(s, &uri, ctx);
        let contents = &r["result"]["contents"];
        assert_eq!(contents.as_array().map(Vec::len), Some(1), "{r}");
        assert_eq!(contents[0]["mimeType"], link["mimeType"]);
        text.push_str(contents[0]["text"].as_str().unwrap());
        pages += 1;
        let meta = &r["result"]["_meta"]["entrez-mcp/export-page"];
        assert_eq!(meta["page"], pages);
        match meta["next"].as_str() {
            Some(next) => uri = next.to_string(),
            None => break,
        }
    }
    if let Some(size) = link["size"].as_u64() {
        assert_eq!(size, text.len() as u64, "the link's size is the file's");
    }
    (text, pages)
}

fn export(s: &Server, id: &str, args: Value) -> Value {
    let mut a = json!({"operation": "export", "data_access_id": id});
    for (k, v) in args.as_object().unwrap() {
        a[k] = v.clone();
    }
    let r = data(s, a.clone());
    assert_eq!(r["isError"], false, "{a} → {r}");
    // What the model reads: the whole result, content and structuredContent, under 1 KB.
    let bytes = r.to_string().len();
    assert!(bytes < 1024, "{bytes} bytes: {r}");
    r
}

/// The PMIDs a file names, by format.
fn pmids_in(format: &str, text: &str) -> Vec<String> {
    let after = |prefix: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(|v| v.trim().to_string())
            .collect()
    };
    match format {
        "ris" => after("AN  - "),
        "medline" => after("PMID- "),
        "bibtex" => after("  pmid = {")
            .into_iter()
            .map(|v| v.trim_end_matches("},").to_string())
            .collect(),
        "csl_json" => serde_json::from_str::<Vec<Value>>(text)
            .unwrap()
            .iter()
            .map(|i| i["PMID"].as_str().unwrap().to_string())
            .collect(),
        "jsonl" => text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["pmid"].to_string())
            .collect(),
        "csv" => text
            .split("\r\n")
            .skip(1)
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect(),
        _ => unreachable!(),
    }
}

#[test]
fn every_format_reads_back_whole_page_by_page() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 450}),
    );
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    assert_eq!(staged["records"], 450);
    let want: BTreeSet<String> = sql(&s, &id, "SELECT pmid FROM article")["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[0].to_string())
        .collect();
    let me = RequestContext::default();
    for format in ["ris", "bibtex", "csl_json", "medline", "csv", "jsonl"] {
        let r = export(&s, &id, json!({"format": format}));
        let st = &r["structuredContent"];
        assert_eq!(st["export"]["items"], 450, "{format}");
        assert_eq!(st["export"]["pages"], 3, "{format}: 200 records a page");
        let (text, pages) = read_all(&s, &r, &me);
        assert_eq!(pages, 3);
        let got = pmids_in(format, &text);
        assert_eq!(got.len(), 450, "{format}");
        assert_eq!(
            got.iter().cloned().collect::<BTreeSet<_>>(),
            want,
            "{format}"
        );
    }
    // A bibliography of the dataset: numbered 1 to 450 in Vancouver.
    let r = export(&s, &id, json!({"format": "text", "style": "vancouver"}));
    let (text, _) = read_all(&s, &r, &me);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 450);
    assert!(lines[0].starts_with("1. ") && lines[449].starts_with("450. "));
    // An author-date bibliography through the bibliography operation: letters tell apart
    // the clones of one article (same authors, same year), in sort order.
    let r = data(
        &s,
        json!({"operation": "bibliography", "data_access_id": id, "style": "apa", "format": "text"}),
    );
    let (text, _) = read_all(&s, &r, &me);
    assert_eq!(text.lines().count(), 450);
    assert!(
        text.contains("(2017a)") && text.contains("(2017b)"),
        "{}",
        &text[..600]
    );
}

#[test]
fn a_query_chooses_the_records_or_its_rows_are_the_file() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    let me = RequestContext::default();
    // Records chosen and ordered by the statement.
    let r = export(
        &s,
        &id,
        json!({"format": "ris", "sql": "SELECT pmid FROM article WHERE year >= 2017 ORDER BY year DESC, pmid"}),
    );
    let (text, _) = read_all(&s, &r, &me);
    let want: Vec<String> = sql(
        &s,
        &id,
        "SELECT pmid FROM article WHERE year >= 2017 ORDER BY year DESC, pmid",
    )["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[0].to_string())
        .collect();
    assert!(!want.is_empty());
    assert_eq!(pmids_in("ris", &text), want);
    // A query's rows as CSV and JSON Lines, columns as the statement names them.
    let q = "SELECT a.pmid, a.title, COUNT(au.position) AS authors FROM article a JOIN author au ON au.pmid = a.pmid GROUP BY a.pmid ORDER BY authors DESC";
    let r = export(&s, &id, json!({"format": "csv", "sql": q}));
    let (csv, _) = read_all(&s, &r, &me);
    assert!(csv.starts_with("pmid,title,authors\r\n"), "{csv}");
    assert_eq!(csv.matches("\r\n").count(), 1 + 8);
    let r = export(&s, &id, json!({"format": "jsonl", "sql": q}));
    let (jl, _) = read_all(&s, &r, &me);
    let first: Value = serde_json::from_str(jl.lines().next().unwrap()).unwrap();
    assert_eq!(first["authors"], 22);
    assert!(jl
        .lines()
        .next()
        .unwrap()
        .starts_with("{\"pmid\":27797938,\"title\":"));
    // A statement without the key column cannot choose records.
    let e = err(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "bibtex", "sql": "SELECT title FROM article"}),
    );
    assert_eq!(e["code"], "sql_error");
    assert!(e["message"].as_str().unwrap().contains("pmid"), "{e}");
}

#[test]
fn exports_are_their_owners_and_go_with_the_dataset() {
    let (s, clock, store) = server(None, Limits::default());
    let alice = session("alice");
    let bob = session("bob");
    let owner = entrez_mcp_core::staging::owner_of(&alice).key;
    let id = stage_direct(&store, &owner, clock.now_unix_ms());
    let r = data_as(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "medline"}),
        &alice,
    );
    assert_eq!(r["isError"], false, "{r}");
    let uri = r["structuredContent"]["export"]["uri"]
        .as_str()
        .unwrap()
        .to_string();
    let prefix = format!("entrez-dataset://{id}/export/");
    assert!(uri.starts_with(&prefix) && uri.ends_with(".nbib"), "{uri}");
    let mine = read_as(&s, &uri, &alice);
    assert!(mine["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("PMID- "));
    // Bob reads exactly what an export nobody made reads.
    let theirs = read_as(&s, &uri, &bob);
    let nobodys = read_as(&s, &format!("{prefix}0123456789abcdef.nbib"), &alice);
    assert_eq!(theirs["error"]["code"], nobodys["error"]["code"]);
    for e in [&theirs, &nobodys] {
        assert!(
            e["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("Resource not found"),
            "{e}"
        );
    }
    assert!(!theirs.to_string().contains("PMID- "));
    // A page past the last is not found either.
    let past = read_as(&s, &format!("{uri}?page=9"), &alice);
    assert!(
        past["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no page 9"),
        "{past}"
    );
    // Dropped with its dataset.
    assert_eq!(
        ok_as(
            &s,
            json!({"operation": "drop_dataset", "data_access_id": id}),
            &alice
        )["dropped"],
        true
    );
    let after = read_as(&s, &uri, &alice);
    assert!(
        after["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Resource not found"),
        "{after}"
    );
}

#[test]
fn unknown_formats_and_styles_name_the_supported_ones() {
    let (s, clock, store) = server(None, Limits::default());
    let id = stage_direct(&store, "local", clock.now_unix_ms());
    let e = err(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "endnote-xml"}),
    );
    let details = e["details"]["errors"][0].clone();
    assert_eq!(details["code"], "unknown_format");
    assert_eq!(details["path"], "$.format");
    assert!(
        details["message"]
            .as_str()
            .unwrap()
            .ends_with("Supported: ris, bibtex, csl_json, medline, csv, jsonl, text, markdown."),
        "{e}"
    );
    let e = err(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "parquet"}),
    );
    assert!(e["details"]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("Parquet is not offered"));
    let e = err(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "text", "style": "mla"}),
    );
    assert_eq!(e["details"]["errors"][0]["code"], "unknown_style");
    assert!(e["details"]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("Built in: vancouver, apa, ama, harvard, chicago. Any other"));
    assert!(e["details"]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("exporting the records as csl_json or ris"));
    let e = err(
        &s,
        json!({"operation": "bibliography", "ids": ["1"], "format": "ris"}),
    );
    assert_eq!(e["details"]["errors"][0]["code"], "unknown_format");
    // Other names of a format are read as it: nbib is MEDLINE.
    let r = export(&s, &id, json!({"format": "NBIB"}));
    assert_eq!(r["structuredContent"]["export"]["format"], "medline");
}

#[test]
fn a_loading_dataset_exports_what_it_holds_and_the_ceiling_is_named() {
    let (s, clock, store) = server(None, Limits::default());
    let id = "00000000000000000000000000000abc";
    begin_direct(&store, id, "local", clock.now_unix_ms());
    let r = export(&s, id, json!({"format": "ris"}));
    let st = &r["structuredContent"];
    assert_eq!(st["status"], "loading");
    assert_eq!(st["export"]["items"], 8);
    let warnings = st["warnings"].to_string();
    assert!(
        warnings.contains("Still loading: holds the 8 records staged so far"),
        "{warnings}"
    );
    // A query's rows are not held still while the dataset grows.
    let e = err(
        &s,
        json!({"operation": "export", "data_access_id": id, "format": "csv", "sql": "SELECT * FROM article"}),
    );
    assert_eq!(e["code"], "dataset_busy");
    assert!(
        e["message"].as_str().unwrap().contains("8 records so far"),
        "{e}"
    );
    // An export past the dataset byte ceiling is refused with the limit named.
    let small = Limits {
        max_dataset_bytes: 20_000,
        ..Limits::default()
    };
    let (tight, _) = server_on(None, small, store.clone());
    let e = err(
        &tight,
        json!({"operation": "export", "data_access_id": id, "format": "jsonl"}),
    );
    assert_eq!(e["code"], "export_too_large");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("20,000 bytes a dataset may take (ENTREZ_DATA_MAX_DATASET_BYTES)"),
        "{e}"
    );
}

#[test]
fn a_bibliography_of_pmids_is_in_the_result_in_the_styles_order() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let recorded: Vec<String> = recorded_articles().iter().map(|a| a.pmid.clone()).collect();
    let mut ids = recorded.clone();
    ids.extend((90_000_001..=90_000_012).map(|p| p.to_string()));
    assert_eq!(ids.len(), 20);
    let r = data(
        &s,
        json!({"operation": "bibliography", "ids": ids, "style": "vancouver", "format": "text"}),
    );
    let st = &r["structuredContent"];
    assert_eq!(st["count"], 20, "{r}");
    let entries = st["entries"].as_array().unwrap();
    for (i, e) in entries.iter().enumerate() {
        assert_eq!(e["pmid"], ids[i], "numbered in the order given");
        assert!(e["text"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{}. ", i + 1)));
    }
    let text = r["content"][0]["text"].as_str().unwrap();
    assert_eq!(text.lines().count(), 20);
    // APA lists by author: sorted, never numbered.
    let r = data(
        &s,
        json!({"operation": "bibliography", "ids": ids, "style": "apa"}),
    );
    let names: Vec<String> = r["structuredContent"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_lowercase())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names.len(), 20);
    assert_eq!(names.first(), sorted.first());
    // Markdown links the DOI and the PubMed record.
    let first = r["structuredContent"]["entries"][0]["text"]
        .as_str()
        .unwrap();
    assert!(first.contains("](<https://doi.org/10."), "{first}");
    assert!(first.contains("[PMID: "), "{first}");
    // A PMID PubMed has no record for is named.
    let r = data(
        &s,
        json!({"operation": "bibliography", "ids": ["11748933", "1"]}),
    );
    assert_eq!(r["structuredContent"]["missing"], json!(["1"]), "{r}");
}

#[test]
fn integrity_flags_stand_beside_retracted_entries_and_travel_in_the_files() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    // tests/fixtures/ncbi/documented: retracted twice and under concern; under concern;
    // corrected; clean.
    let ids = ["9500320", "99000003", "99000001", "99000005"];
    let r = data(
        &s,
        json!({"operation": "bibliography", "ids": ids, "style": "vancouver", "format": "text"}),
    );
    let st = &r["structuredContent"];
    let entries: Vec<&str> = st["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert!(
        entries[0].ends_with(
            " [RETRACTED, see PMID 20137807, 15016483; EXPRESSION OF CONCERN, see PMID 21971344]"
        ),
        "{}",
        entries[0]
    );
    assert!(
        entries[1].ends_with(" [EXPRESSION OF CONCERN, see PMID 99000004]"),
        "{}",
        entries[1]
    );
    assert!(
        !entries[2].contains(" ["),
        "a correction is not flagged: {}",
        entries[2]
    );
    assert!(!entries[3].contains(" ["), "{}", entries[3]);
    let warnings = st["warnings"].to_string();
    assert!(
        warnings.contains("Retracted, marked [RETRACTED]"),
        "{warnings}"
    );
    assert!(warnings.contains("99000003"), "{warnings}");
    // Markdown links each notice.
    let r = data(
        &s,
        json!({"operation": "bibliography", "ids": ["9500320"], "style": "apa"}),
    );
    let md = r["structuredContent"]["entries"][0]["text"]
        .as_str()
        .unwrap();
    assert!(
        md.contains(
            "\\[RETRACTED, see PMID [20137807](<https://pubmed.ncbi.nlm.nih.gov/20137807/>)"
        ),
        "{md}"
    );
    // Staged, the files carry them: a RIS note, BibTeX note, MEDLINE's RIN/ECI tags, the
    // CSV's integrity column, JSON Lines' flags and links.
    let staged = ok(&s, json!({"operation": "fetch_and_stage", "ids": ids}));
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    let me = RequestContext::default();
    let file = |format: &str| read_all(&s, &export(&s, &id, json!({"format": format})), &me).0;
    let ris = file("ris");
    assert!(
        ris.contains("N1  - RETRACTED: retraction notice PMID 20137807"),
        "{ris}"
    );
    assert!(file("bibtex").contains("note = {RETRACTED: retraction notice PMID 20137807"));
    let nbib = file("medline");
    assert!(
        nbib.contains("\nRIN - Lancet. 2010 Feb 6;375(9713):445."),
        "{nbib}"
    );
    assert!(nbib.contains("\nECI - "), "{nbib}");
    assert!(file("csv").contains(",true,retracted; expression_of_concern,"));
    let jsonl = file("jsonl");
    let first: Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(
        first["integrity"],
        json!(["retracted", "expression_of_concern"]),
        "{first}"
    );
    assert_eq!(first["corrections"][1]["pmid"], 15016483, "{first}");
    let text = file_of_bibliography(&s, &id, &me);
    assert!(
        text.contains("[RETRACTED, see PMID 20137807, 15016483;"),
        "{text}"
    );
}

/// The Vancouver bibliography of a staged dataset, as its resource holds it.
fn file_of_bibliography(s: &Server, id: &str, me: &RequestContext) -> String {
    let r = data(
        s,
        json!({"operation": "bibliography", "data_access_id": id, "format": "text"}),
    );
    assert_eq!(r["isError"], false, "{r}");
    read_all(s, &r, me).0
}

#[test]
fn on_the_free_plans_ten_milliseconds_a_page_holds_what_fits_a_call() {
    let replay = Replay::start();
    let ten_ms = Allowance {
        cpu_budget_ms: 10,
        ..Allowance::default()
    };
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), ten_ms);
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 100}),
    );
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    // One call stages what its 10 ms pay for (a dataset's first call keeps a reserve); this
    // server has no scheduler, so the calls that continue it are made here.
    let mut status = staged["status"].as_str().unwrap().to_string();
    for _ in 0..20 {
        if status == "complete" {
            break;
        }
        let more = ok(
            &s,
            json!({"operation": "fetch_and_stage", "data_access_id": id}),
        );
        status = more["status"].as_str().unwrap().to_string();
    }
    assert_eq!(status, "complete");
    let r = export(&s, &id, json!({"format": "ris"}));
    let st = &r["structuredContent"]["export"];
    let items = st["items"].as_u64().unwrap();
    assert_eq!(items, 100, "{r}");
    // A call plans 8 of its 10 ms, 1 of them its own: 7,000 µs at 150 µs a record.
    let per_page = (10_000 * 8 / 10 - 1_000) / 150;
    assert_eq!(per_page, 46);
    assert_eq!(
        st["pages"].as_u64().unwrap(),
        items.div_ceil(per_page),
        "{r}"
    );
    let (text, pages) = read_all(&s, &r, &RequestContext::default());
    assert_eq!(pages, items.div_ceil(per_page));
    assert_eq!(pmids_in("ris", &text).len() as u64, items);
}
