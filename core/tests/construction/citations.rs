//! iCite and elink citation requests, by exact URL, and how the cache classifies them.

use entrez_mcp_core::citations::request::{
    elink_request, icite_call, icite_call_with, Direction, ICITE_FIELDS, ICITE_FIELDS_NO_CITERS,
};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::net::cache::policy::rule_for;
use entrez_mcp_core::net::Method;

const FIELDS: &str = "pmid,year,title,authors,journal,doi,is_research_article,relative_citation_ratio,nih_percentile,human,animal,molecular_cellular,apt,is_clinical,citation_count,citations_per_year,expected_citations_per_year,field_citation_rate,provisional,cited_by_clin,cited_by,references";

#[test]
fn icite_is_one_get_with_the_pmids_and_fields_comma_separated() {
    assert_eq!(ICITE_FIELDS, FIELDS);
    let call = icite_call("https://icite.od.nih.gov", &[23456789, 27599104]);
    assert_eq!(call.method, Method::Get);
    assert_eq!(
        call.url,
        format!(
            "https://icite.od.nih.gov/api/pubs?pmids=23456789,27599104&fl={FIELDS}&legacy=true"
        )
    );
    assert!(call.body.is_none());
    // A base with a trailing slash (a mirror's) gives the same path.
    let call = icite_call("http://127.0.0.1:9/", &[1]);
    assert_eq!(
        call.url,
        format!("http://127.0.0.1:9/api/pubs?pmids=1&fl={FIELDS}&legacy=true")
    );
    // Without the citers (papers at a network's last step): the same fields but cited_by and
    // cited_by_clin.
    let call = icite_call_with("https://icite.od.nih.gov", &[1], ICITE_FIELDS_NO_CITERS);
    let no_citers = FIELDS.replace(",cited_by_clin,cited_by", "");
    assert_eq!(
        call.url,
        format!("https://icite.od.nih.gov/api/pubs?pmids=1&fl={no_citers}&legacy=true")
    );
    // Two hundred PMIDs still go as one GET (about 2 KB of URL).
    let many: Vec<u64> = (90_000_001..=90_000_200).collect();
    let call = icite_call("https://icite.od.nih.gov", &many);
    assert!(call.url.contains("pmids=90000001,90000002,"));
    assert!(call.url.contains(",90000200&fl="));
    // Kept for a day by the cache of upstream answers.
    assert_eq!(
        rule_for(&call).map(|r| (r.kind, r.ttl_s)),
        Some(("icite", 86_400))
    );
}

#[test]
fn the_base_url_is_configurable() {
    let default = Config::from_lookup(|_| None);
    assert_eq!(default.icite_url, "https://icite.od.nih.gov");
    let mirror = Config::from_lookup(|k| (k == "ICITE_URL").then(|| "http://127.0.0.1:9/".into()));
    assert_eq!(mirror.icite_url, "http://127.0.0.1:9");
}

#[test]
fn elink_asks_one_linkset_per_pmid_in_json() {
    let call = elink_request(&[90050001, 90050002], Direction::CitedBy).build(
        "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/",
        "entrez-mcp",
        None,
        None,
    );
    assert_eq!(call.method, Method::Get);
    assert_eq!(
        call.url,
        "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/elink.fcgi?dbfrom=pubmed&db=pubmed&cmd=neighbor&linkname=pubmed_pubmed_citedin&retmode=json&id=90050001&id=90050002&tool=entrez-mcp"
    );
    let refs = elink_request(&[1], Direction::References).build("https://e/", "t", None, None);
    assert!(refs.url.contains("linkname=pubmed_pubmed_refs&"));
    // Two hundred ids are POSTed, as NCBI asks.
    let many: Vec<u64> = (1..=200).collect();
    let call = elink_request(&many, Direction::References).build("https://e/", "t", None, None);
    assert_eq!(call.method, Method::Post);
    let body = String::from_utf8(call.body.unwrap()).unwrap();
    assert_eq!(body.matches("&id=").count(), 200);
}
