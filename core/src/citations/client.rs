//! Sending citation requests: iCite in batches of 200, elink for what iCite could not say.

use crate::citations::request::{
    elink_request, icite_call_with, Direction, ELINK_BATCH, ICITE_BATCH, ICITE_FIELDS,
    ICITE_FIELDS_NO_CITERS,
};
use crate::entrez::EntrezClient;
use crate::error::{Error, ErrorKind};
use crate::net::pacing::ANONYMOUS_RATE_LIMIT;
use crate::net::retry::{is_transient, RetryPolicy};
use crate::net::send::{Judged, Sender, Upstream};
use crate::net::HttpReply;
use crate::parse::icite::{parse_icite, IciteRecord};
use crate::platform::BoxFuture;
use std::collections::{BTreeMap, BTreeSet};

/// The pacing bucket of iCite's requests: its own, so it never eats NCBI's budget.
pub const ICITE_BUCKET: &str = "icite";
/// Requests per second to iCite. It publishes no limit; this is NCBI's keyless rate.
pub const ICITE_RATE_LIMIT: u32 = ANONYMOUS_RATE_LIMIT;
/// Retries for iCite: few and short, since elink stands behind it.
pub const ICITE_RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 2,
    base_ms: 500,
    max_backoff_ms: 2_000,
    deadline_ms: 30_000,
    max_retry_after_ms: 5_000,
};

/// Which service answered for a paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// NIH iCite (metrics, and the NIH Open Citation Collection's links).
    Icite,
    /// PubMed's own links through elink (no metrics).
    Elink,
}

impl Source {
    /// Its name in results.
    pub fn name(self) -> &'static str {
        match self {
            Source::Icite => "icite",
            Source::Elink => "elink",
        }
    }
}

/// One paper's citations.
#[derive(Debug, Clone, PartialEq)]
pub struct Paper {
    /// Its PMID.
    pub pmid: u64,
    /// Who answered.
    pub source: Source,
    /// PMIDs citing it, as the source lists them.
    pub cited_by: Vec<u64>,
    /// PMIDs it cites.
    pub references: Vec<u64>,
    /// iCite's whole record (metrics, title, year), when iCite answered.
    pub icite: Option<IciteRecord>,
}

/// A source that failed for some PMIDs, and what stood in for it.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceFailure {
    /// "icite" or "elink".
    pub source: &'static str,
    /// How many PMIDs it failed for.
    pub pmids: usize,
    /// The error's stable code.
    pub code: String,
    /// Its sentence.
    pub message: String,
    /// The source asked instead, if any.
    pub fallback: Option<&'static str>,
}

/// What a lookup found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Citations {
    /// Papers answered, in the order asked.
    pub papers: Vec<Paper>,
    /// PMIDs no source could answer for (every source failed).
    pub unanswered: Vec<u64>,
    /// What failed.
    pub failures: Vec<SourceFailure>,
    /// iCite requests sent (cache hits included).
    pub icite_requests: u32,
    /// elink requests sent.
    pub elink_requests: u32,
}

/// Citations for one caller, on its E-utilities client's transport, pacer and cache.
pub struct CitationClient<'a> {
    /// The caller's E-utilities client (elink, and the machine iCite's calls go through).
    pub entrez: EntrezClient<'a>,
}

struct Icite;

impl Upstream for Icite {
    fn bucket(&self) -> &str {
        ICITE_BUCKET
    }

    fn limit(&self) -> u32 {
        ICITE_RATE_LIMIT
    }

    fn judge<'a>(&'a self, reply: HttpReply, _attempt: u32) -> BoxFuture<'a, Judged> {
        Box::pin(async move {
            let said = excerpt(&reply.body);
            match reply.status {
                200 => Judged::Done(Ok(reply)),
                s if is_transient(Some(s)) => Judged::Retry {
                    status: s,
                    retry_after: reply.header("retry-after").map(str::to_string),
                    min_wait_ms: 0,
                    error: Error::new(
                        ErrorKind::Unavailable,
                        format!("iCite failed with HTTP {s}{said}."),
                    )
                    .with_code("icite_unavailable")
                    .suggest(
                        "iCite may be down or busy; PubMed's links (elink) answer without metrics.",
                    ),
                },
                s => Judged::Done(Err(Error::new(
                    ErrorKind::Upstream,
                    format!("iCite refused the request with HTTP {s}{said}."),
                )
                .with_code("icite_error"))),
            }
        })
    }
}

/// A short excerpt of an error body (not of an HTML page), for a sentence.
fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(400)]);
    let cleaned: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if cleaned.is_empty() || cleaned.starts_with('<') {
        return String::new();
    }
    format!(": {}", cleaned.chars().take(160).collect::<String>())
}

impl<'a> CitationClient<'a> {
    /// A client over the caller's E-utilities client.
    pub fn new(entrez: EntrezClient<'a>) -> Self {
        CitationClient { entrez }
    }

    fn sender(&self) -> Sender<'_> {
        Sender {
            transport: self.entrez.transport,
            pacer: self.entrez.pacer,
            platform: self.entrez.platform,
            trace: self.entrez.config.pacing_trace,
            cache: self.entrez.cache,
        }
    }

    /// One iCite request for at most [`ICITE_BATCH`] PMIDs: the records iCite holds.
    pub async fn icite(&self, pmids: &[u64]) -> Result<Vec<IciteRecord>, Error> {
        self.icite_with(pmids, true).await
    }

    /// [`Self::icite`], with or without each paper's citers.
    async fn icite_with(&self, pmids: &[u64], citers: bool) -> Result<Vec<IciteRecord>, Error> {
        let fl = if citers {
            ICITE_FIELDS
        } else {
            ICITE_FIELDS_NO_CITERS
        };
        let mut call = icite_call_with(&self.entrez.config.icite_url, pmids, fl);
        call.timeout_ms = self.entrez.config.attempt_timeout_ms(call.timeout_ms);
        let reply = self.sender().send(&call, &Icite, ICITE_RETRY).await?;
        parse_icite(&reply.body).map_err(|e| {
            let mut e = Error::from(e).with_code("icite_error");
            e.message = e.message.replacen("NCBI's reply", "iCite's reply", 1);
            e
        })
    }

    /// One elink request for at most [`ELINK_BATCH`] PMIDs along `direction`: each PMID's
    /// linked PMIDs (a PMID elink names without links maps to an empty list).
    pub async fn elink(
        &self,
        pmids: &[u64],
        direction: Direction,
    ) -> Result<BTreeMap<u64, Vec<u64>>, Error> {
        let reply = self.entrez.send(&elink_request(pmids, direction)).await?;
        let parsed = crate::parse::elink::parse_elink_json(&reply.body)?;
        let mut out = BTreeMap::new();
        for set in parsed.linksets {
            let links: Vec<u64> = set
                .linksetdbs
                .iter()
                .filter(|d| d.linkname == direction.linkname())
                .flat_map(|d| d.links.iter().filter_map(|l| l.id.parse().ok()))
                .collect();
            for id in set.ids.iter().filter_map(|i| i.parse::<u64>().ok()) {
                out.entry(id).or_insert_with(Vec::new).extend(links.iter());
            }
        }
        Ok(out)
    }

    /// Citations for `pmids` (duplicates asked once): iCite in batches of 200; elink, in
    /// batches of 200 per direction, for every PMID iCite does not hold or could not answer
    /// for. Once iCite is unreachable after its retries, the rest go to elink at once.
    pub async fn lookup(&self, pmids: &[u64]) -> Citations {
        self.lookup_with(pmids, true).await
    }

    /// [`Self::lookup`], with or without each paper's citers: without them iCite is not asked
    /// for `cited_by` and elink only for references (`cited_by` stays empty).
    pub async fn lookup_with(&self, pmids: &[u64], citers: bool) -> Citations {
        let mut seen = BTreeSet::new();
        let asked: Vec<u64> = pmids.iter().copied().filter(|p| seen.insert(*p)).collect();
        let mut out = Citations::default();
        let mut found: BTreeMap<u64, Paper> = BTreeMap::new();
        let mut icite_down = false;
        for batch in asked.chunks(ICITE_BATCH) {
            if icite_down {
                if let Some(f) = out.failures.last_mut() {
                    f.pmids += batch.len();
                }
                continue;
            }
            out.icite_requests += 1;
            match self.icite_with(batch, citers).await {
                Ok(records) => {
                    // A record without the lists asked for is malformed: elink answers for
                    // it, as for a PMID iCite lacks, and the failure says so.
                    let (records, malformed): (Vec<IciteRecord>, Vec<IciteRecord>) = records
                        .into_iter()
                        .filter(|r| batch.contains(&r.pmid))
                        .partition(|r| r.has_references && (r.has_cited_by || !citers));
                    if !malformed.is_empty() {
                        let named: Vec<String> = malformed
                            .iter()
                            .take(5)
                            .map(|r| r.pmid.to_string())
                            .collect();
                        out.failures.push(SourceFailure {
                            source: "icite",
                            pmids: malformed.len(),
                            code: "icite_malformed".into(),
                            message: format!(
                                "iCite's record of PMID {} came without the citation lists asked for.",
                                named.join(", ")
                            ),
                            fallback: Some("elink"),
                        });
                    }
                    for r in records {
                        found.insert(
                            r.pmid,
                            Paper {
                                pmid: r.pmid,
                                source: Source::Icite,
                                cited_by: r.cited_by.clone(),
                                references: r.references.clone(),
                                icite: Some(r),
                            },
                        );
                    }
                }
                Err(e) => {
                    icite_down = e.kind == ErrorKind::Unavailable;
                    out.failures.push(SourceFailure {
                        source: "icite",
                        pmids: batch.len(),
                        code: e.code.clone(),
                        message: e.message.clone(),
                        fallback: Some("elink"),
                    });
                }
            }
        }
        let missing: Vec<u64> = asked
            .iter()
            .copied()
            .filter(|p| !found.contains_key(p))
            .collect();
        for batch in missing.chunks(ELINK_BATCH) {
            let mut links = Vec::new();
            if !citers {
                links.push(BTreeMap::new());
            }
            let directions: &[Direction] = if citers {
                &[Direction::CitedBy, Direction::References]
            } else {
                &[Direction::References]
            };
            for direction in directions.iter().copied() {
                out.elink_requests += 1;
                match self.elink(batch, direction).await {
                    Ok(map) => links.push(map),
                    Err(e) => {
                        out.failures.push(SourceFailure {
                            source: "elink",
                            pmids: batch.len(),
                            code: e.code.clone(),
                            message: e.message.clone(),
                            fallback: None,
                        });
                        break;
                    }
                }
            }
            if let [cited_by, references] = links.as_slice() {
                for p in batch {
                    found.insert(
                        *p,
                        Paper {
                            pmid: *p,
                            source: Source::Elink,
                            cited_by: cited_by.get(p).cloned().unwrap_or_default(),
                            references: references.get(p).cloned().unwrap_or_default(),
                            icite: None,
                        },
                    );
                }
            }
        }
        for p in asked {
            match found.remove(&p) {
                Some(paper) => out.papers.push(paper),
                None => out.unanswered.push(p),
            }
        }
        out
    }
}
