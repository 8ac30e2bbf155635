//! One look-up of a network's papers through [`crate::citations`]: their citations and
//! metrics (iCite, elink where it fails) as [`Found`] rows, with what it cost and said.

use crate::citations::{CitationClient, Citations};
use crate::error::{Error, ErrorKind, Result};
use crate::json;
use crate::staging::rows::network::MetricsRow;
use crate::tools::entrez_data::batches::Run;
use crate::tools::entrez_data::network::Found;

/// What one look-up found and cost.
#[derive(Debug, Default)]
pub struct LookedUp {
    /// One per paper a source answered for.
    pub found: Vec<Found>,
    /// Bytes of the replies, estimated from what they held (the client keeps no bodies).
    pub bytes: u64,
    /// Requests sent.
    pub requests: u64,
    /// Sources that failed and what stood in for them.
    pub warnings: Vec<String>,
}

/// Bytes a paper's JSON takes in iCite's reply besides its lists, and per listed PMID.
const RECORD_BYTES: u64 = 600;
const LISTED_PMID_BYTES: u64 = 10;

/// Looks `pmids` up (at most 200: one iCite request, elink for what iCite lacks), with their
/// citers or, where none of them is followed further (`citers` false), without: a highly
/// cited paper at the last step then costs no megabyte list. A paper no source could answer
/// for fails the look-up as a passing fault, so that nothing of the chunk is committed and
/// the staging goes on from it later.
pub async fn look_up(run: &Run<'_>, pmids: &[u64], citers: bool) -> Result<LookedUp> {
    let e = &run.client;
    let client = CitationClient::new(crate::entrez::EntrezClient {
        config: e.config,
        transport: e.transport,
        pacer: e.pacer,
        platform: e.platform,
        api_key: e.api_key,
        retry: e.retry,
        cache: e.cache,
    });
    let c = client.lookup_with(pmids, citers).await;
    of(c, citers)
}

/// The rows and cost of a look-up's answer.
pub fn of(c: Citations, citers: bool) -> Result<LookedUp> {
    let failed: Vec<String> = c
        .failures
        .iter()
        .map(|f| {
            let instead = f
                .fallback
                .map(|s| format!("; {s} answered instead"))
                .unwrap_or_default();
            format!(
                "{} failed for {} PMID(s) ({}: {}){instead}.",
                f.source,
                f.pmids,
                f.code,
                f.message.trim_end_matches('.')
            )
        })
        .collect();
    if !c.unanswered.is_empty() {
        let first: Vec<String> = c.unanswered.iter().take(5).map(u64::to_string).collect();
        return Err(Error::new(
            ErrorKind::Unavailable,
            format!(
                "No citation source answered for {} paper(s) of the network (PMID {}{}): {}",
                c.unanswered.len(),
                first.join(", "),
                if c.unanswered.len() > 5 { ", …" } else { "" },
                failed.join(" ")
            ),
        )
        .with_code("citations_unavailable")
        .suggest("The network staged so far stays; continue it later with fetch_and_stage and its data_access_id.")
        .with_details(json!({ "unanswered": c.unanswered.len() })));
    }
    let mut bytes = 0;
    let found = c
        .papers
        .into_iter()
        .map(|p| {
            bytes +=
                RECORD_BYTES + LISTED_PMID_BYTES * (p.references.len() + p.cited_by.len()) as u64;
            let m = p.icite.as_ref();
            Found {
                metrics: MetricsRow {
                    pmid: p.pmid,
                    relative_citation_ratio: m.and_then(|m| m.relative_citation_ratio),
                    nih_percentile: m.and_then(|m| m.nih_percentile),
                    // elink's count is the cited-by list it gave, when it was asked for one.
                    citation_count: m
                        .and_then(|m| m.citation_count)
                        .or(citers.then_some(p.cited_by.len() as u64)),
                    citations_per_year: m.and_then(|m| m.citations_per_year),
                    expected_citations_per_year: m.and_then(|m| m.expected_citations_per_year),
                    field_citation_rate: m.and_then(|m| m.field_citation_rate),
                    apt: m.and_then(|m| m.apt),
                    is_clinical: m.and_then(|m| m.is_clinical),
                    provisional: m.and_then(|m| m.provisional),
                    source: p.source.name(),
                },
                references: p.references,
                citers: p.cited_by,
            }
        })
        .collect();
    Ok(LookedUp {
        found,
        bytes,
        requests: u64::from(c.icite_requests + c.elink_requests),
        warnings: failed,
    })
}
