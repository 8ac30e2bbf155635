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
        let expected = if graph::ICITE_MISSING.contains(&p.pmid) {
            Source::Elink
        } else {
            Source::Icite
        };
        assert_eq!(p.source, expected, "{}", p.pmid);
        let mut refs = p.references.clone();
        refs.sort();
        assert_eq!(refs, g.references(p.pmid), "{}", p.pmid);
    }
    // One elink request a direction for the ten.
    assert_eq!(found.elink_requests, 2);
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
