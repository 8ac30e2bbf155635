//! `entrez_data` `fetch_and_stage` with `network` against the in-process stand-ins (#56): the
//! five seeds' network staged in the fewest requests, in one call and across Free-plan calls,
//! and its questions answered. Expected values come from the stand-ins' graph definition
//! (`entrez_mcp_replay::ncbi::graph`), never from the server's answer.

use crate::common::data::{err, ok, sql};
use crate::common::external_replay::ExternalReplay;
use crate::common::replay::{fetch_counts, Replay};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::{Limits, Staging};
use entrez_mcp_replay::ncbi::graph;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

/// A server on the stand-ins; `free` sets the Workers Free plan's budget (10 ms of CPU and 50
/// subrequests a call) as a deployment does, through its settings.
pub(super) fn server(ncbi: &Replay, external: &ExternalReplay, free: bool) -> Server {
    let eutils = ncbi.eutils_base();
    let icite = external.env("ICITE_URL");
    let lookup = move |k: &str| match k {
        "NCBI_EMAIL" => Some("tests@example.org".into()),
        "EUTILS_BASE_URL" => Some(eutils.clone()),
        "ICITE_URL" => icite.clone(),
        "ENTREZ_CPU_BUDGET_MS" if free => Some("10".into()),
        "ENTREZ_SUBREQUESTS" if free => Some("50".into()),
        _ => None,
    };
    let limits = Limits::from_lookup(&lookup);
    let config = Config::from_lookup(lookup);
    let store = entrez_mcp::store::SqliteStore::in_memory().unwrap();
    crate::common::live_server(config)
        .with_staging(Staging::new(store, limits))
        .unwrap()
}

pub(super) fn seeds() -> Vec<String> {
    graph::SEEDS.iter().map(u64::to_string).collect()
}

/// The network of the seeds, one step: their references, and their citers with `citers`
/// (both ways, every paper of the graph).
pub(super) fn papers(citers: bool) -> BTreeSet<u64> {
    let g = graph::graph();
    let mut all: BTreeSet<u64> = graph::SEEDS.iter().copied().collect();
    for s in graph::SEEDS {
        all.extend(g.references(s));
        if citers {
            all.extend(g.citers(s));
        }
    }
    all
}

pub(super) fn column(r: &Value, i: usize) -> Vec<i64> {
    r["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[i].as_i64().unwrap())
        .collect()
}

/// The requests of a staged network at the stand-ins, and every paper fetched once.
fn assert_fewest_requests(ncbi: &Replay, external: &ExternalReplay, all: &BTreeSet<u64>) {
    let n = all.len();
    let counts = fetch_counts(&ncbi.stats());
    let fetched: BTreeSet<u64> = counts.keys().map(|k| k.parse().unwrap()).collect();
    assert_eq!(&fetched, all, "every paper asked of PubMed");
    assert!(counts.values().all(|c| *c == 1), "none twice");
    // One look-up for the seeds, then 971 papers at 200 a look-up.
    let icite = external.stats()["requests"]["icite"].as_u64().unwrap();
    assert_eq!(icite as usize, 1 + (n - 5).div_ceil(200));
}

#[test]
fn five_seeds_stage_their_network_in_the_fewest_requests_and_answer_its_questions() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external, false);
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "both", "ids": seeds()}),
    );
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    assert_eq!(staged["status"], "complete", "{staged}");
    let all = papers(true);
    // Five seeds, 260 references, 710 citers, the retracted record and its notice.
    assert_eq!(all.len(), 977);
    assert_fewest_requests(&ncbi, &external, &all);
    assert_eq!(
        ncbi.stats()["efetch"].as_array().unwrap().len(),
        2,
        "500 a batch"
    );
    // iCite was asked for the citers only in the seeds' look-up: the others are all at the
    // last step, where citers are not followed (a hub's list would be megabytes).
    let fields: Vec<bool> = external.stats()["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["service"] == "icite")
        .map(|e| e["query"].as_str().unwrap().contains("cited_by"))
        .collect();
    assert_eq!(fields, vec![true, false, false, false, false, false]);
    // NCBI saw those two and one elink for the eleven papers iCite did not answer (one
    // look-up): their references only, for they are at the last step (citers not followed).
    assert_eq!(ncbi.stats()["requests"], 3, "{}", ncbi.stats());
    let count = |q: &str| sql(&s, &id, q)["rows"][0][0].as_i64().unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM node") as usize, all.len());
    assert_eq!(count("SELECT COUNT(*) FROM node WHERE step = 0"), 5);
    assert_eq!(count("SELECT COUNT(*) FROM article") as usize, all.len());
    // Each paper's whole reference list, as the graph has it.
    let g = graph::graph();
    let edges: usize = all.iter().map(|p| g.references(*p).len()).sum();
    assert_eq!(count("SELECT COUNT(*) FROM citation") as usize, edges);
    // The papers iCite lacks, and the one whose record came without its lists.
    let missing = graph::ICITE_MISSING.count() as i64 + 1;
    assert_eq!(
        count("SELECT COUNT(*) FROM metrics WHERE source = 'elink'"),
        missing
    );

    // Co-citation with the seeds, from the graph.
    let mut co: BTreeMap<(u64, u64), i64> = BTreeMap::new();
    for seed in graph::SEEDS {
        for c in g.citers(seed) {
            for x in g.references(c).into_iter().filter(|x| *x != seed) {
                *co.entry((seed, x)).or_default() += 1;
            }
        }
    }
    let mut want: Vec<(i64, u64, u64)> = co.into_iter().map(|((s, x), n)| (n, s, x)).collect();
    want.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    want.truncate(20);
    let example = |starts: &str| {
        staged["example_queries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["title"].as_str().unwrap().starts_with(starts))
            .unwrap()["sql"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let r = sql(&s, &id, &example("Most cited together"));
    let got: Vec<(i64, u64, u64)> = column(&r, 2)
        .into_iter()
        .zip(column(&r, 0).into_iter().zip(column(&r, 1)))
        .map(|(n, (s, x))| (n, s as u64, x as u64))
        .collect();
    assert_eq!(got, want);
    // The reference every third citer adds is the most co-cited, as the graph says.
    assert_eq!(got[0].2, graph::REF_BASE);

    // Retractions inside the trail: the seeds and citers citing the retracted record, but
    // not its retraction notice, which NLM links to it (read from the stand-in's records).
    let r = sql(&s, &id, &example("Retractions inside the trail"));
    let citing: BTreeSet<i64> = column(&r, 0).into_iter().collect();
    let citers = g.citers(graph::RETRACTED);
    let linked = linked_pairs(&ncbi, &[&citers[..], &[graph::RETRACTED]].concat());
    let want: BTreeSet<i64> = citers
        .iter()
        .filter(|c| {
            !linked.contains(&(**c, graph::RETRACTED)) && !linked.contains(&(graph::RETRACTED, **c))
        })
        .map(|p| *p as i64)
        .collect();
    assert!(citers.contains(&graph::RETRACTION_NOTICE));
    assert!(
        !want.contains(&(graph::RETRACTION_NOTICE as i64)),
        "the notice is linked"
    );
    assert_eq!(citing, want);
    assert_eq!(
        count("SELECT retracted FROM article WHERE pmid = 9500320"),
        1
    );

    // The seeds' citers per year, drawn: the bars add up to the distinct papers citing a seed
    // (every citer of a seed is a paper of the network; one citing two seeds counts once),
    // and the named charts read a network.
    let chart = ok(
        &s,
        json!({"operation": "chart", "data_access_id": id, "chart": "line",
            "sql": example("Papers citing the seeds, per year")}),
    );
    let drawn: f64 = chart["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["value"].as_f64().unwrap())
        .sum();
    let citers: BTreeSet<u64> = graph::SEEDS.iter().flat_map(|s| g.citers(*s)).collect();
    let citations: usize = graph::SEEDS.iter().map(|s| g.citers(*s).len()).sum();
    assert!(citers.len() < citations, "some papers cite two seeds");
    assert_eq!(drawn as usize, citers.len());
    ok(
        &s,
        json!({"operation": "chart", "data_access_id": id, "chart": "per_year"}),
    );

    // Exports carry the metrics: CSV's columns after the record's, JSON Lines' metrics
    // object, with iCite's own RCR (asked of its stand-in here).
    let csv = export_text(&s, &id, "csv");
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with(",pubmed_url,relative_citation_ratio,nih_percentile,citation_count,citations_per_year,expected_citations_per_year,field_citation_rate,apt,is_clinical,provisional,metrics_source"),
        "{header}"
    );
    let pmids: Vec<String> = graph::SEEDS.iter().map(u64::to_string).collect();
    let icite: Value = {
        let body = external.control("GET", &format!("/api/pubs?pmids={}", pmids.join(",")), "");
        serde_json::from_str(&body[body.find('{').unwrap()..=body.rfind('}').unwrap()]).unwrap()
    };
    let jsonl = export_text(&s, &id, "jsonl");
    let mut checked = 0;
    for line in jsonl.lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let Some(paper) = icite["data"].as_array().unwrap().iter().find(|d| {
            let pmid = d["pmid"].as_str().and_then(|p| p.parse().ok());
            d["pmid"].as_i64().or(pmid) == record["pmid"].as_i64()
        }) else {
            continue;
        };
        assert_eq!(
            record["metrics"]["relative_citation_ratio"], paper["relative_citation_ratio"],
            "{line}"
        );
        assert_eq!(record["metrics"]["source"], "icite");
        checked += 1;
    }
    assert_eq!(checked, 5, "every seed's record");

    // A seed that is no PMID is refused by name, before anything goes upstream.
    let e = err(
        &s,
        json!({"operation": "fetch_and_stage", "network": "both", "ids": ["12x"]}),
    );
    assert!(e.to_string().contains("12x"), "{e}");
}

/// The pairs (record, linked PMID) NLM's CommentsCorrections make among `pmids`' PubMed
/// records (notices, errata, comments; not the reference list, RefType "Cites"), as the
/// NCBI stand-in's efetch gives them.
fn linked_pairs(ncbi: &Replay, pmids: &[u64]) -> BTreeSet<(u64, u64)> {
    let ids: Vec<String> = pmids.iter().map(u64::to_string).collect();
    let path = format!(
        "/entrez/eutils/efetch.fcgi?db=pubmed&retmode=xml&id={}",
        ids.join(",")
    );
    // The stand-in paces keyless callers at 3 a second: wait out a refusal (a few tries).
    let mut xml = ncbi.control("GET", &path, "");
    for _ in 0..10 {
        if !xml.contains("API rate limit exceeded") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(400));
        xml = ncbi.control("GET", &path, "");
    }
    assert!(xml.contains("<PubmedArticle>"), "{xml}");
    let mut pairs = BTreeSet::new();
    for article in xml.split("<PubmedArticle>").skip(1) {
        let pmid_at = article.find("<PMID").unwrap();
        let pmid = &article[pmid_at..];
        let pmid: u64 = pmid[pmid.find('>').unwrap() + 1..pmid.find("</PMID>").unwrap()]
            .parse()
            .unwrap();
        for link in article.split("<CommentsCorrections ").skip(1) {
            let link = &link[..link.find("</CommentsCorrections>").unwrap()];
            if link.starts_with("RefType=\"Cites\"") {
                continue;
            }
            if let Some(at) = link.find("<PMID") {
                let l = &link[at..];
                let other: u64 = l[l.find('>').unwrap() + 1..l.find("</PMID>").unwrap()]
                    .parse()
                    .unwrap();
                pairs.insert((pmid, other));
            }
        }
    }
    pairs
}

/// Every page of an export of dataset `id` in `format`, joined.
fn export_text(s: &Server, id: &str, format: &str) -> String {
    let r = crate::common::data::data(
        s,
        json!({"operation": "export", "data_access_id": id, "format": format}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let link = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "resource_link")
        .unwrap();
    let mut uri = link["uri"].as_str().unwrap().to_string();
    let mut text = String::new();
    for _ in 0..100 {
        let msg =
            json!({"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": uri}});
        let page = crate::common::block_on(s.handle_bytes(
            msg.to_string().as_bytes(),
            &entrez_mcp_core::caller::RequestContext::default(),
        ))
        .expect("a reply");
        text.push_str(page["result"]["contents"][0]["text"].as_str().unwrap());
        match page["result"]["_meta"]["entrez-mcp/export-page"]["next"].as_str() {
            Some(next) => uri = next.to_string(),
            None => return text,
        }
    }
    panic!("more than 100 pages")
}

#[test]
fn a_free_plan_network_goes_on_call_by_call_and_fetches_nothing_twice() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external, true);
    // The seeds' references alone (266 papers, three look-ups), to keep the test short.
    let mut r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "references", "ids": seeds()}),
    );
    let id = r["data_access_id"].as_str().unwrap().to_string();
    let mut calls = 1;
    while r["status"] != "complete" {
        assert_eq!(r["status"], "partial", "{r}");
        assert!(calls < 200, "bounded: {r}");
        r = ok(
            &s,
            json!({"operation": "fetch_and_stage", "data_access_id": id}),
        );
        calls += 1;
    }
    eprintln!("free-plan network: {calls} calls");
    assert!(calls > 3, "the Free plan's budget splits it: {calls} calls");
    let all = papers(false);
    assert_fewest_requests(&ncbi, &external, &all);
    let n = sql(&s, &id, "SELECT COUNT(*) FROM node")["rows"][0][0]
        .as_i64()
        .unwrap();
    assert_eq!(n as usize, all.len());
}

#[test]
fn with_icite_down_elink_answers_and_says_so_and_an_unknown_seed_is_named() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    // Every iCite request fails (two attempts a look-up, three look-ups).
    external.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "icite", "status": 503, "count": 20}"#,
    );
    let s = server(&ncbi, &external, false);
    let mut ids = seeds();
    ids.push("1".into()); // no record anywhere
    let r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "references", "ids": ids}),
    );
    let id = r["data_access_id"].as_str().unwrap().to_string();
    assert_eq!(r["status"], "complete", "{r}");
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains("icite failed") && warnings.contains("elink answered instead"),
        "{warnings}"
    );
    assert!(warnings.contains("Seed PMID 1:"), "{warnings}");
    let all = papers(false);
    let g = graph::graph();
    let count = |q: &str| sql(&s, &id, q)["rows"][0][0].as_i64().unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM node") as usize, all.len() + 1);
    assert_eq!(
        count("SELECT COUNT(*) FROM metrics WHERE source = 'elink' AND relative_citation_ratio IS NULL")
            as usize,
        all.len() + 1
    );
    let edges: usize = all.iter().map(|p| g.references(*p).len()).sum();
    assert_eq!(count("SELECT COUNT(*) FROM citation") as usize, edges);
    // elink's count is the cited-by list it gave.
    let seed = graph::SEEDS[0];
    assert_eq!(
        count(&format!(
            "SELECT citation_count FROM metrics WHERE pmid = {seed}"
        )) as usize,
        g.citers(seed).len()
    );
}

#[test]
fn a_network_cut_off_by_an_outage_keeps_what_it_staged_and_goes_on_from_there() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    // The seeds' look-up is answered; the next finds iCite down and NCBI too (every attempt).
    external.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "icite", "delay_ms": 1, "count": 1}"#,
    );
    external.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "icite", "status": 503, "count": 2}"#,
    );
    ncbi.control("POST", "/__replay/fail", r#"{"status": 503, "count": 4}"#);
    let s = server(&ncbi, &external, false);
    let e = crate::common::data::data(
        &s,
        json!({"operation": "fetch_and_stage", "network": "references", "ids": seeds()}),
    );
    assert_eq!(e["isError"], true, "{e}");
    let error = &e["structuredContent"]["error"];
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("icite failed") && message.contains("elink failed"),
        "{message}"
    );
    assert_eq!(error["details"]["status"], "partial", "{error}");
    let id = error["details"]["data_access_id"]
        .as_str()
        .unwrap()
        .to_string();
    // The seeds' look-up stays.
    let count = |q: &str| sql(&s, &id, q)["rows"][0][0].as_i64().unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM node WHERE step = 0"), 5);
    assert_eq!(
        count("SELECT COUNT(*) FROM metrics WHERE source = 'icite'"),
        5
    );
    let r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(r["status"], "complete", "{r}");
    let all = papers(false);
    assert_eq!(count("SELECT COUNT(*) FROM node") as usize, all.len());
    assert_eq!(
        count("SELECT COUNT(*) FROM metrics WHERE source = 'icite'") as usize,
        all.len()
    );
    // Nothing looked up or fetched twice: the seeds once, then the rest.
    let counts = fetch_counts(&ncbi.stats());
    assert!(counts.values().all(|c| *c == 1));
    assert_eq!(counts.len(), all.len());
    // Three look-ups answered, and the two attempts iCite refused.
    assert_eq!(external.stats()["requests"]["icite"], 3 + 2);
}

#[test]
fn two_steps_stop_at_max_records_and_say_how_many_were_left_out() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external, false);
    let seed = graph::SEEDS[0];
    let r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "both", "steps": 2,
            "ids": [seed.to_string()], "max_records": 300}),
    );
    let id = r["data_access_id"].as_str().unwrap().to_string();
    assert_eq!(r["status"], "complete", "{r}");
    // One step: the seed's references and citers; the second step reaches past 300.
    let g = graph::graph();
    let first: BTreeSet<u64> = g
        .references(seed)
        .into_iter()
        .chain(g.citers(seed))
        .collect();
    let mut second: BTreeSet<u64> = BTreeSet::new();
    for p in &first {
        second.extend(g.references(*p));
        second.extend(g.citers(*p));
    }
    second.retain(|p| *p != seed && !first.contains(p));
    let left_out = 1 + first.len() + second.len() - 300;
    assert!(
        r["warnings"]
            .to_string()
            .contains(&format!("reached {left_out} more papers")),
        "{}",
        r["warnings"]
    );
    let count = |q: &str| sql(&s, &id, q)["rows"][0][0].as_i64().unwrap();
    assert_eq!(count("SELECT COUNT(*) FROM node"), 300);
    assert_eq!(
        count("SELECT COUNT(*) FROM node WHERE step = 1") as usize,
        first.len()
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM node WHERE step = 2") as usize,
        300 - 1 - first.len()
    );
    // 300 papers: the seed's look-up, then 299 at 200 a look-up, and one more for the few
    // places the step-one papers' shares left unused, given to papers left out before.
    assert_eq!(external.stats()["requests"]["icite"], 4);
}
