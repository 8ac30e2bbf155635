//! Where a network's seeds come from, and how they leave room for their neighbours (#56):
//! ids, a search and a dataset's papers, cut to a tenth of `max_records` and said so.
//! Expected values come from the stand-ins' graph definition, never from the server's answer.

use super::citation_network::{column, papers, seeds, server};
use crate::common::data::{err, ok, sql};
use crate::common::external_replay::ExternalReplay;
use crate::common::replay::Replay;
use entrez_mcp_replay::ncbi::graph;
use serde_json::json;
use std::collections::BTreeSet;

#[test]
fn seeds_leave_room_for_their_neighbours_and_a_cut_is_said() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external, false);
    // Five seeds, forty papers at most: a tenth of the cap, four seeds, are kept and said so.
    let r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "citers", "ids": seeds(),
            "max_records": 40}),
    );
    let id = r["data_access_id"].as_str().unwrap().to_string();
    let warnings = r["warnings"].to_string();
    assert!(
        warnings.contains("5 seeds were named; only the first 4 are the seeds"),
        "{warnings}"
    );
    let got: Vec<i64> = column(
        &sql(
            &s,
            &id,
            "SELECT pmid FROM node WHERE step = 0 ORDER BY pmid",
        ),
        0,
    );
    let want: Vec<i64> = graph::SEEDS[..4].iter().map(|p| *p as i64).collect();
    assert_eq!(got, want);
    // The 36 other places are shared: each of the four seeds keeps nine of its citers (the
    // graph gives each more than nine), and the warning names every seed cut.
    let g = graph::graph();
    for seed in &graph::SEEDS[..4] {
        let citers: Vec<String> = g.citers(*seed).iter().map(u64::to_string).collect();
        let kept = sql(
            &s,
            &id,
            &format!(
                "SELECT COUNT(*) FROM node WHERE step = 1 AND pmid IN ({})",
                citers.join(",")
            ),
        )["rows"][0][0]
            .as_i64()
            .unwrap();
        assert!(kept >= 9, "seed {seed} kept {kept} citers");
    }
    let named: Vec<String> = graph::SEEDS[..4].iter().map(u64::to_string).collect();
    assert!(
        warnings.contains(&format!("were cut: {}.", named.join(", "))),
        "{warnings}"
    );
}

#[test]
fn seeds_come_from_a_dataset_or_a_search_too() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external, false);
    // A PubMed dataset of the five seeds, then the network of its papers.
    let pubmed = ok(&s, json!({"operation": "fetch_and_stage", "ids": seeds()}));
    let from = pubmed["data_access_id"].as_str().unwrap();
    let r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "references", "data_access_id": from}),
    );
    assert_eq!(r["status"], "complete", "{r}");
    assert_ne!(
        r["data_access_id"], pubmed["data_access_id"],
        "a new dataset"
    );
    let id = r["data_access_id"].as_str().unwrap().to_string();
    let count = |id: &str, q: &str| sql(&s, id, q)["rows"][0][0].as_i64().unwrap();
    assert_eq!(
        count(&id, "SELECT COUNT(*) FROM node") as usize,
        papers(false).len()
    );
    // A search's results as seeds: the ids the stand-in's esearch gives for the term.
    let term = "citation network seeds";
    let body = ncbi.control(
        "GET",
        &format!(
            "/entrez/eutils/esearch.fcgi?db=pubmed&term={}&retmax=1000",
            term.replace(' ', "+")
        ),
        "",
    );
    let want: BTreeSet<i64> = body
        .split("<Id>")
        .skip(1)
        .map(|x| x[..x.find("</Id>").unwrap()].parse().unwrap())
        .collect();
    assert!(!want.is_empty());
    let r = ok(
        &s,
        json!({"operation": "fetch_and_stage", "network": "citers", "term": term}),
    );
    let id = r["data_access_id"].as_str().unwrap().to_string();
    let got: BTreeSet<i64> = column(&sql(&s, &id, "SELECT pmid FROM node WHERE step = 0"), 0)
        .into_iter()
        .collect();
    assert_eq!(got, want);

    // A dataset of seeds that is not there: validate and the call say so alike.
    let args = json!({"operation": "fetch_and_stage", "network": "both",
        "data_access_id": "0123456789abcdef0123456789abcdef"});
    let v = crate::common::call_tool_with(
        &s,
        "validate",
        json!({"tool": "entrez_data", "arguments": args}),
        &entrez_mcp_core::caller::RequestContext::default(),
    );
    assert_eq!(
        v["structuredContent"]["details"]["errors"][0]["code"], "dataset_not_found",
        "{v}"
    );
    assert_eq!(err(&s, args)["code"], "dataset_not_found");
}
