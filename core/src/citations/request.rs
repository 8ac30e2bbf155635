//! iCite and elink requests for citations, as data (tested by exact URL).

use crate::entrez::{EutilsRequest, Utility};
use crate::net::{HttpCall, Method};

/// PMIDs one iCite request carries: the limit its help page documents ("up to 200 at a
/// time"; older pages said 1,000).
pub const ICITE_BATCH: usize = 200;
/// PMIDs one elink fallback request carries (one `id=` parameter each, so one LinkSet
/// each; from 200 ids the request is POSTed, as NCBI asks).
pub const ELINK_BATCH: usize = 200;
/// How long one iCite attempt may take.
pub const ICITE_TIMEOUT_MS: u64 = 20_000;
/// The most reply bytes one iCite request may read (200 records with their citation lists
/// are a few MB at most).
pub const ICITE_MAX_BYTES: u64 = 32 * 1024 * 1024;
/// The fields asked of iCite (`fl`): everything a paper's citations and metrics need.
pub const ICITE_FIELDS: &str = "pmid,year,title,authors,journal,doi,is_research_article,\
relative_citation_ratio,nih_percentile,human,animal,molecular_cellular,apt,is_clinical,\
citation_count,citations_per_year,expected_citations_per_year,field_citation_rate,\
provisional,cited_by_clin,cited_by,references";

/// The same fields without the citers (`cited_by`, `cited_by_clin`): for papers whose
/// citers are not followed, where a highly cited paper's list would be megabytes.
pub const ICITE_FIELDS_NO_CITERS: &str = "pmid,year,title,authors,journal,doi,\
is_research_article,relative_citation_ratio,nih_percentile,human,animal,molecular_cellular,\
apt,is_clinical,citation_count,citations_per_year,expected_citations_per_year,\
field_citation_rate,provisional,references";

/// Which way along the citations.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The papers citing it.
    CitedBy,
    /// The papers it cites.
    References,
}

impl Direction {
    /// elink's link name for it.
    pub fn linkname(self) -> &'static str {
        match self {
            Direction::CitedBy => "pubmed_pubmed_citedin",
            Direction::References => "pubmed_pubmed_refs",
        }
    }
}

/// `GET {base}/api/pubs?pmids=…&fl=…&legacy=true`: PMIDs and fields comma-separated as
/// iCite's examples write them (digits, letters and underscores only: nothing to encode);
/// `legacy=true` asked explicitly, so the fields keep the names `fl` gives (`cited_by`,
/// `references`) whatever iCite's default layout becomes.
pub fn icite_call(base_url: &str, pmids: &[u64]) -> HttpCall {
    icite_call_with(base_url, pmids, ICITE_FIELDS)
}

/// [`icite_call`] asking for the fields `fl` ([`ICITE_FIELDS`] or [`ICITE_FIELDS_NO_CITERS`]).
pub fn icite_call_with(base_url: &str, pmids: &[u64], fl: &str) -> HttpCall {
    let ids: Vec<String> = pmids.iter().map(u64::to_string).collect();
    HttpCall {
        method: Method::Get,
        url: format!(
            "{}/api/pubs?pmids={}&fl={fl}&legacy=true",
            base_url.trim_end_matches('/'),
            ids.join(",")
        ),
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
        timeout_ms: ICITE_TIMEOUT_MS,
        max_bytes: ICITE_MAX_BYTES,
        follow_redirects: true,
    }
}

/// elink `cmd=neighbor` from PubMed to PubMed along `direction`, one `id=` per PMID so
/// that each gets its own LinkSet (a comma list would merge them), in JSON.
pub fn elink_request(pmids: &[u64], direction: Direction) -> EutilsRequest {
    let mut r = EutilsRequest::new(Utility::Link)
        .param("dbfrom", "pubmed")
        .param("db", "pubmed")
        .param("cmd", "neighbor")
        .param("linkname", direction.linkname())
        .param("retmode", "json");
    for id in pmids {
        r = r.param("id", id.to_string());
    }
    r
}
