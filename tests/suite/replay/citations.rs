//! The citation client (iCite first, elink behind it) against the in-process stand-ins.
//! Expected values come from the stand-ins' own graph definition
//! (`entrez_mcp_replay::ncbi::graph`), never from the client's answer.

use crate::common::block_on;
use crate::common::external_replay::ExternalReplay;
use crate::common::replay::Replay;
use entrez_mcp::transport::ReqwestTransport;
use entrez_mcp::SystemPlatform;
use entrez_mcp_core::citations::{CitationClient, Source};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::entrez::EntrezClient;
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::retry::RetryPolicy;
use entrez_mcp_replay::ncbi::graph;

struct Machine {
    config: Config,
    transport: ReqwestTransport,
    pacer: MemoryPacer,
}

impl Machine {
    fn new(ncbi: &Replay, external: &ExternalReplay) -> Machine {
        let eutils = ncbi.eutils_base();
        let icite = external.env("ICITE_URL");
        Machine {
            config: Config::from_lookup(move |k| match k {
                "EUTILS_BASE_URL" => Some(eutils.clone()),
                "ICITE_URL" => icite.clone(),
                _ => None,
            }),
            transport: ReqwestTransport::new().unwrap(),
            pacer: MemoryPacer::new(),
        }
    }

    fn client(&self) -> CitationClient<'_> {
        CitationClient::new(EntrezClient {
            config: &self.config,
            transport: &self.transport,
            pacer: &self.pacer,
            platform: &SystemPlatform,
            api_key: None,
            retry: RetryPolicy::default(),
            cache: None,
        })
    }
}

fn requests(r: &Replay, service: &str) -> u64 {
    r.stats()["requests"][service].as_u64().unwrap_or(0)
}

#[test]
fn seeds_come_from_icite_with_the_graph_links_and_unknown_ids_from_no_one() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let m = Machine::new(&ncbi, &external);
    let g = graph::graph();
    let mut asked = graph::SEEDS.to_vec();
    asked.push(graph::RETRACTED);
    asked.push(1); // no record anywhere
    let found = block_on(m.client().lookup(&asked));
    assert_eq!(found.icite_requests, 1);
    assert!(found.failures.is_empty(), "{:?}", found.failures);
    for p in &found.papers[..6] {
        assert_eq!(p.source, Source::Icite, "{}", p.pmid);
        let mut cited_by = p.cited_by.clone();
        cited_by.sort();
        assert_eq!(cited_by, g.citers(p.pmid));
        let count = p.icite.as_ref().unwrap().citation_count;
        assert_eq!(count, Some(g.citers(p.pmid).len() as u64));
    }
    // iCite leaves PMID 1 out; elink names it with no links.
    let last = found.papers.last().unwrap();
    assert_eq!((last.pmid, last.source), (1, Source::Elink));
    assert!(last.cited_by.is_empty() && last.references.is_empty());
    assert_eq!(requests(&external, "icite"), 1);
}

#[test]
fn two_hundred_pmids_take_one_icite_request_and_missing_ones_go_to_elink() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let m = Machine::new(&ncbi, &external);
    // The last 200 citers of the network: the ten iCite lacks among them.
    let last = graph::CITER_BASE + 709;
    let asked: Vec<u64> = (last - 199..=last).collect();
    let found = block_on(m.client().lookup(&asked));
    assert_eq!(requests(&external, "icite"), 1);
    assert_eq!(found.papers.len(), 200);
    let g = graph::graph();
    for p in &found.papers {
        let expected = if graph::ICITE_MISSING.contains(&p.pmid) || p.pmid == graph::ICITE_MALFORMED
        {
            Source::Elink
        } else {
            Source::Icite
        };
        assert_eq!(p.source, expected, "{}", p.pmid);
        let mut refs = p.references.clone();
        refs.sort();
        // elink's lists where elink answered (some of them partial), iCite's elsewhere.
        let want = if expected == Source::Elink {
            g.elink_references(p.pmid)
        } else {
            g.references(p.pmid)
        };
        assert_eq!(refs, want, "{}", p.pmid);
    }
    // One elink request a direction for the ten and the one whose iCite record lacked its
    // lists, which the failures name (malformed, not uncited).
    assert_eq!(found.elink_requests, 2);
    let f: Vec<(&str, usize, &str)> = found
        .failures
        .iter()
        .map(|f| (f.code.as_str(), f.pmids, f.fallback.unwrap_or("")))
        .collect();
    assert_eq!(f, vec![("icite_malformed", 1, "elink")]);
    assert!(found.failures[0]
        .message
        .contains(&graph::ICITE_MALFORMED.to_string()));
}

#[test]
fn icite_down_falls_back_to_elink_and_says_so() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let m = Machine::new(&ncbi, &external);
    // Both attempts of the one iCite request fail.
    external.control(
        "POST",
        "/__replay/fail",
        r#"{"service":"icite","status":503,"count":2}"#,
    );
    let found = block_on(m.client().lookup(&graph::SEEDS));
    assert_eq!(found.failures.len(), 1, "{:?}", found.failures);
    let f = &found.failures[0];
    assert_eq!(
        (f.source, f.code.as_str(), f.fallback),
        ("icite", "icite_unavailable", Some("elink"))
    );
    assert_eq!(f.pmids, 5);
    let g = graph::graph();
    for p in &found.papers {
        assert_eq!(p.source, Source::Elink);
        let mut cited_by = p.cited_by.clone();
        cited_by.sort();
        assert_eq!(cited_by, g.citers(p.pmid));
        assert!(p.icite.is_none());
    }
    assert_eq!(found.papers.len(), 5);
    assert_eq!(requests(&external, "icite"), 2);
}

fn server(ncbi: &Replay, external: &ExternalReplay) -> entrez_mcp_core::protocol::Server {
    server_on(ncbi, external, false)
}

/// A server on the stand-ins; `free` sets the Workers Free plan's allowance (10 ms of CPU
/// and 50 subrequests a call) through the settings, as a deployment does.
fn server_on(
    ncbi: &Replay,
    external: &ExternalReplay,
    free: bool,
) -> entrez_mcp_core::protocol::Server {
    let eutils = ncbi.eutils_base();
    let icite = external.env("ICITE_URL");
    let config = Config::from_lookup(move |k| match k {
        "EUTILS_BASE_URL" => Some(eutils.clone()),
        "ICITE_URL" => icite.clone(),
        "ENTREZ_CPU_BUDGET_MS" if free => Some("10".into()),
        "ENTREZ_SUBREQUESTS" if free => Some("50".into()),
        _ => None,
    });
    crate::common::live_server(config)
}

#[test]
fn the_operation_answers_each_pmid_with_its_source_counts_and_retraction() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let g = graph::graph();
    let seed = graph::SEEDS[0].to_string();
    let retracted = graph::RETRACTED.to_string();
    // call_tool checks the result against the outputSchema.
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        serde_json::json!({"operation": "citations", "ids": [seed, retracted, "99999999"]}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let sc = &r["structuredContent"];
    let papers = sc["papers"].as_array().unwrap();
    assert_eq!(papers.len(), 3);
    let p = &papers[0];
    assert_eq!(
        (p.get("status"), p["source"].as_str()),
        (None, Some("icite"))
    );
    assert_eq!(p["cited_by_count"], g.citers(graph::SEEDS[0]).len());
    assert_eq!(p["references_count"], g.references(graph::SEEDS[0]).len());
    // Every id fits the default budget for two papers.
    assert_eq!(p["cited_by"].as_array().unwrap().len(), 150);
    assert_eq!(p["retracted"], false);
    assert_eq!(papers[1]["retracted"], true);
    assert_eq!(papers[2]["status"], "unknown");
    // A PMID that is not one is refused at the door, as for every operation on PMIDs.
    let bad = crate::common::call_tool(
        &s,
        "entrez_query",
        serde_json::json!({"operation": "citations", "ids": ["x1"]}),
    );
    assert_eq!(bad["structuredContent"]["error"]["code"], "invalid_id");
    assert_eq!(sc["summary"]["retracted"], 1);
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("RETRACTED"), "{text}");
}

#[test]
fn metrics_for_two_hundred_pmids_take_one_icite_request_and_fit_the_default_budget() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let asked: Vec<String> = (0..200)
        .map(|i| (graph::CITER_BASE + i).to_string())
        .collect();
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        serde_json::json!({"operation": "citations", "ids": asked}),
    );
    assert_eq!(r["isError"], false);
    let sc = &r["structuredContent"];
    let text = r["content"][0]["text"].as_str().unwrap();
    eprintln!(
        "200 PMIDs: text {} chars, structured {} chars",
        text.chars().count(),
        sc.to_string().chars().count()
    );
    assert_eq!(requests(&external, "icite"), 1);
    // And one esummary for the titles and retraction flags; no elink.
    assert_eq!(sc["sources"]["esummary"]["requests"], 1);
    assert_eq!(sc["sources"]["elink"]["requests"], 0);
    assert_eq!(sc["papers"].as_array().unwrap().len(), 200);
    assert!(sc.get("budget").is_none(), "{}", sc["budget"]);
    let g = graph::graph();
    for p in sc["papers"].as_array().unwrap() {
        let pmid: u64 = p["pmid"].as_str().unwrap().parse().unwrap();
        assert_eq!(p["cited_by_count"], g.citers(pmid).len());
        assert_eq!(p["references_count"], g.references(pmid).len());
        assert!(p["relative_citation_ratio"].is_number(), "{p}");
    }
}

#[test]
fn a_small_budget_cuts_the_id_lists_first_and_names_the_call_for_them() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let seeds: Vec<String> = graph::SEEDS.iter().map(u64::to_string).collect();
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        serde_json::json!({"operation": "citations", "ids": seeds, "max_characters": 8000}),
    );
    let sc = &r["structuredContent"];
    let papers = sc["papers"].as_array().unwrap();
    // Every paper is shown, with its counts; the lists are cut to the same length.
    assert_eq!(papers.len(), 5, "{sc}");
    let cap = sc["ids_cut_to"].as_u64().unwrap() as usize;
    assert!(cap < 60, "{cap}");
    for p in papers {
        let pmid: u64 = p["pmid"].as_str().unwrap().parse().unwrap();
        assert_eq!(p["cited_by_count"], graph::graph().citers(pmid).len());
        assert!(p["cited_by"].as_array().map_or(0, Vec::len) <= cap);
    }
    let next = &sc["ids_next_call"]["arguments"];
    assert_eq!(next["operation"], "citations");
    assert_eq!(
        next["fields"],
        serde_json::json!(["cited_by", "references"])
    );
    assert_eq!(next["ids"].as_array().unwrap().len(), 5);
}

#[test]
fn on_the_free_plan_a_call_reads_only_the_papers_its_cpu_pays_for() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server_on(&ncbi, &external, true);
    // 300 citers: on the Free plan the subrequests would pay for every batch, but the CPU
    // (8 ms planned, 1 ms for the call, 42 µs a paper's iCite record and summary) for 166.
    let asked: Vec<String> = (0..300)
        .map(|i| (graph::CITER_BASE + i).to_string())
        .collect();
    let r = crate::common::call_tool(
        &s,
        "entrez_query",
        serde_json::json!({"operation": "citations", "ids": asked, "detail": "brief"}),
    );
    let sc = &r["structuredContent"];
    let papers = sc["papers"].as_array().unwrap();
    let found: Vec<&str> = papers
        .iter()
        .filter(|p| p.get("status").is_none())
        .map(|p| p["pmid"].as_str().unwrap())
        .collect();
    let n = (8_000 - 1_000) / 42;
    assert_eq!(
        found,
        asked[..n].iter().map(String::as_str).collect::<Vec<_>>()
    );
    // One iCite request, of exactly those; the rest left to next_call, in order.
    assert_eq!(requests(&external, "icite"), 1);
    let next: Vec<&str> = sc["next_call"]["arguments"]["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        next,
        asked[n..].iter().map(String::as_str).collect::<Vec<_>>()
    );
}

#[test]
fn a_thousand_pmids_keep_to_icites_pace_in_five_requests() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let m = Machine::new(&ncbi, &external);
    let g = graph::graph();
    let asked: Vec<u64> = g.papers().into_iter().take(1_000).collect();
    assert_eq!(asked.len(), 977);
    let found = block_on(m.client().lookup(&asked));
    let stats = external.stats();
    assert_eq!(stats["requests"]["icite"], 5);
    // The stand-in refuses a fourth request within a second; none was refused or needed.
    assert_eq!(stats["throttled"], 0);
    assert!(stats["max_in_any_1s_window"]["icite"].as_u64().unwrap() <= 3);
    assert_eq!(found.papers.len(), 977);
    let from_elink = found.papers.iter().filter(|p| p.source == Source::Elink);
    assert_eq!(
        from_elink.count(),
        graph::ICITE_MISSING.count() + 1,
        "and the malformed one"
    );
}

#[test]
fn an_icite_too_slow_to_answer_falls_back_to_elink() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let eutils = ncbi.eutils_base();
    let icite = external.env("ICITE_URL");
    let m = Machine {
        config: Config::from_lookup(move |k| match k {
            "EUTILS_BASE_URL" => Some(eutils.clone()),
            "ICITE_URL" => icite.clone(),
            "ENTREZ_UPSTREAM_TIMEOUT_MS" => Some("1000".into()),
            _ => None,
        }),
        transport: ReqwestTransport::new().unwrap(),
        pacer: MemoryPacer::new(),
    };
    // Both attempts answered 3 s late, past the 1 s an attempt may take.
    external.control(
        "POST",
        "/__replay/fail",
        r#"{"service":"icite","delay_ms":3000,"count":2}"#,
    );
    let found = block_on(m.client().lookup(&graph::SEEDS[..2]));
    assert_eq!(found.failures.len(), 1, "{:?}", found.failures);
    assert_eq!(
        (found.failures[0].source, found.failures[0].fallback),
        ("icite", Some("elink"))
    );
    assert!(found.papers.iter().all(|p| p.source == Source::Elink));
    assert_eq!(
        found.papers[0].cited_by.len(),
        graph::graph().citers(graph::SEEDS[0]).len()
    );
}

#[test]
fn made_a_task_more_than_two_hundred_pmids_run_in_the_background() {
    use super::background_staging::Asked;
    use super::tasks::handshake;
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let asked = Asked::default();
    let s = server(&ncbi, &external)
        .with_staging(super::pending_tasks::task_staging(&asked, None))
        .unwrap();
    let ids: Vec<String> = (0..300)
        .map(|i| (graph::CITER_BASE + i).to_string())
        .collect();
    let call = serde_json::json!({"name": "entrez_query", "task": {},
        "arguments": {"operation": "citations", "ids": ids, "detail": "brief"}});
    let created = handshake(&s, "a", "tools/call", call);
    let id = created["result"]["task"]["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no task: {created}"))
        .to_string();
    assert_eq!(
        requests(&external, "icite"),
        0,
        "nothing sent before the run"
    );
    assert_eq!(asked.take(), vec![id.clone()]);
    assert_eq!(
        block_on(s.run_step(&id)).unwrap(),
        entrez_mcp_core::tasks::Step::Finished
    );
    assert_eq!(requests(&external, "icite"), 2);
    let result = handshake(&s, "a", "tasks/result", serde_json::json!({"taskId": id}));
    let r = &result["result"];
    assert_eq!(r["isError"], false, "{result}");
    // What the call returns: the papers within the budget, the rest named with their call.
    let sc = &r["structuredContent"];
    let shown = sc["papers"].as_array().unwrap().len();
    assert_eq!(
        shown as u64 + sc["budget"]["left_out"].as_u64().unwrap_or(0),
        300
    );
    assert!(shown >= 200, "{shown}");
    // Two hundred or fewer run in the request, task or not.
    let few = serde_json::json!({"name": "entrez_query", "task": {},
        "arguments": {"operation": "citations", "ids": [graph::SEEDS[0].to_string()]}});
    let now = handshake(&s, "a", "tools/call", few);
    assert!(asked.take().is_empty(), "{now}");
}

#[test]
fn a_repeated_call_is_answered_from_the_cache() {
    use entrez_mcp::cache::SqliteAnswers;
    use entrez_mcp_core::net::cache::ResponseCache;
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let eutils = ncbi.eutils_base();
    let icite = external.env("ICITE_URL");
    let config = Config::from_lookup(move |k| match k {
        "EUTILS_BASE_URL" => Some(eutils.clone()),
        "ICITE_URL" => icite.clone(),
        "ENTREZ_CACHE" => Some("on".into()),
        _ => None,
    });
    let settings = config.cache;
    let store = SqliteAnswers::from_lookup(
        |k| (k == "ENTREZ_DATA_DIR").then(|| ":memory:".into()),
        settings.max_bytes,
    )
    .unwrap();
    let s = entrez_mcp_core::protocol::Server::new(config, Box::new(SystemPlatform))
        .unwrap()
        .with_network(entrez_mcp_core::net::Network {
            transport: Box::new(ReqwestTransport::new().unwrap()),
            pacer: Box::new(MemoryPacer::new()),
            cache: Some(ResponseCache::new(Box::new(store), settings)),
        });
    let args =
        serde_json::json!({"operation": "citations", "ids": graph::SEEDS.map(|p| p.to_string())});
    let first = crate::common::call_tool(&s, "entrez_query", args.clone());
    let ncbi_after_first = ncbi.stats()["requests"].as_u64().unwrap();
    let again = crate::common::call_tool(&s, "entrez_query", args);
    assert_eq!(requests(&external, "icite"), 1);
    assert_eq!(ncbi.stats()["requests"].as_u64().unwrap(), ncbi_after_first);
    assert_eq!(
        first["structuredContent"]["papers"],
        again["structuredContent"]["papers"]
    );
    assert!(
        again["structuredContent"]["cache"]["hits"]
            .as_u64()
            .unwrap()
            >= 2,
        "{}",
        again["structuredContent"]["cache"]
    );
}

#[test]
fn an_icite_refusal_falls_back_for_its_batch_only() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let m = Machine::new(&ncbi, &external);
    // The first batch's request is refused (a 400 is not retried); the second is served.
    external.control(
        "POST",
        "/__replay/fail",
        r#"{"service":"icite","status":400,"count":1}"#,
    );
    let asked: Vec<u64> = (0..201).map(|i| graph::CITER_BASE + i).collect();
    let found = block_on(m.client().lookup(&asked));
    assert_eq!(found.icite_requests, 2);
    assert_eq!(found.failures.len(), 1, "{:?}", found.failures);
    let f = &found.failures[0];
    assert_eq!(
        (f.source, f.code.as_str(), f.pmids, f.fallback),
        ("icite", "icite_error", 200, Some("elink"))
    );
    let sources: Vec<Source> = found.papers.iter().map(|p| p.source).collect();
    assert!(sources[..200].iter().all(|s| *s == Source::Elink));
    assert_eq!(sources[200], Source::Icite);
}
