//! The batch loop of `fetch_and_stage`: fetch, parse, append, within the call's budget.
//!
//! Only one batch is ever held in memory: each reply is parsed, turned into
//! rows and appended in its own transaction, while the next request is out
//! (natively the append runs on a blocking thread beside the parse; on
//! Workers the Durable Object call overlaps the NCBI request), so a batch
//! costs the longer of the two, not their sum. Every batch goes through the
//! same [`EntrezClient`] (and so the same pacing and retries) as every other
//! NCBI call. The [`Meter`] decides how many records each batch asks for and
//! when the call has spent its budget; the [`Work`] cursor keeps the rest.

use crate::entrez::{EntrezClient, EutilsRequest};
use crate::error::{Error, Result};
use crate::mcp::progress::Progress as Notify;
use crate::parse;
use crate::parse::records::Records;
use crate::platform::Platform;
use crate::staging::layouts::NETWORK;
use crate::staging::rows;
use crate::staging::rows::RowBatch;
use crate::staging::schema::Layout;
use crate::staging::store::{Caps, DatasetInfo};
use crate::staging::Staging;
use crate::tools::entrez_data::budget::Meter;
use crate::tools::entrez_data::cursor::Work;
use crate::tools::entrez_data::plan::Fetch;
use futures_util::future::join;

/// Per-record warnings kept in one result; the rest are counted.
const MAX_WARNINGS: usize = 20;

/// One staging call's fixed facts.
pub struct Run<'a> {
    /// NCBI, paced.
    pub client: EntrezClient<'a>,
    /// The store and ledger.
    pub staging: &'a Staging,
    /// The dataset.
    pub id: String,
    /// Its database.
    pub db: String,
    /// Its tables.
    pub layout: &'static Layout,
    /// How its records are fetched.
    pub fetch: Fetch,
    /// Whether sequence residues are stored.
    pub include_sequence: bool,
    /// Ceilings after each append.
    pub caps: Caps,
    /// Where batches are reported, if the client asked.
    pub notify: Option<Notify<'a>>,
    /// Batches this call expects; None where the size is unknown.
    pub planned: Option<f64>,
    /// The clock each write's lease is taken from.
    pub platform: &'a dyn Platform,
}

/// What the batches did.
#[derive(Default)]
pub struct Progress {
    /// Batches appended.
    pub batches: usize,
    /// The dataset after the last append.
    pub info: Option<DatasetInfo>,
    /// Warnings kept.
    pub warnings: Vec<String>,
    /// Warnings counted but not kept.
    pub more_warnings: usize,
    /// Where the source stands once everything committed so far is counted: a call that
    /// fails on a passing fault leaves its dataset partial from here.
    pub committed: Option<Work>,
}

impl Progress {
    /// Keeps a warning, or counts it past [`MAX_WARNINGS`].
    pub fn warn(&mut self, w: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(w);
        } else {
            self.more_warnings += 1;
        }
    }
}

/// One fetched and parsed batch, not yet appended.
pub(crate) struct Fetched {
    /// Its rows.
    pub batch: RowBatch,
    /// The reply's bytes.
    pub bytes: u64,
    /// What it warned of.
    pub warnings: Vec<String>,
}

impl Run<'_> {
    /// Stages batches off `work` while the meter pays for them; `work` keeps what is left.
    pub async fn batches(
        &self,
        work: &mut Work,
        meter: &mut Meter,
        p: &mut Progress,
    ) -> Result<()> {
        let largest = self.fetch.batch_size() as u64;
        p.committed = Some(work.clone());
        // A citation network looks its papers' citations up before it fetches them.
        if let Work::Network(n) = work {
            if !n.looked_up_all() {
                self.look_up(n, meter, p).await?;
                if !n.looked_up_all() {
                    return Ok(());
                }
            }
        }
        let mut asked = meter.next_batch(largest, work.remaining());
        if asked == 0 {
            return Ok(());
        }
        let mut fetched = self
            .fetch_parse(work.take(asked, &self.db, self.fetch))
            .await?;
        loop {
            let parsed = fetched.batch.records as u64;
            meter.charge(fetched.bytes, parsed);
            if work.ended_by(asked, parsed) {
                work.finish();
            }
            let after_this = work.clone();
            let next = meter.next_batch(largest, work.remaining());
            if next == 0 {
                self.commit(fetched, p).await?;
                p.committed = Some(after_this);
                return Ok(());
            }
            let request = work.take(next, &self.db, self.fetch);
            let (committed, following) =
                join(self.commit(fetched, p), self.fetch_parse(request)).await;
            let committed = committed?;
            p.committed = Some(after_this);
            if committed == 0 && matches!(work, Work::History { .. }) {
                // A history server that ignores retstart would repeat itself forever.
                p.warn("A batch added no new records; staging stopped there.".to_string());
                work.finish();
                return Ok(());
            }
            fetched = following?;
            asked = next;
        }
    }

    /// Fetches and parses one batch.
    async fn fetch_parse(&self, request: EutilsRequest) -> Result<Fetched> {
        let reply = self.client.send(&request).await?;
        let mut warnings = Vec::new();
        let batch = self.parse(&reply.body, &mut warnings)?;
        warnings.extend(batch.skipped.iter().map(|s| format!("Skipped: {s}.")));
        warnings.extend(batch.tables.iter().filter(|t| t.refused > 0).map(|t| {
            format!(
                "Skipped: {} row(s) of table {} that lacked a required value.",
                t.refused, t.table.name
            )
        }));
        Ok(Fetched {
            batch,
            bytes: reply.body.len() as u64,
            warnings,
        })
    }

    /// Appends one parsed batch and reports progress; returns the new records.
    pub(crate) async fn commit(&self, fetched: Fetched, p: &mut Progress) -> Result<u64> {
        for w in fetched.warnings {
            p.warn(w);
        }
        let lease = self.staging.limits.lease(self.platform.now_unix_ms());
        let appended = self
            .staging
            .store
            .append(&self.id, fetched.batch, self.caps, lease)
            .await?;
        p.batches += 1;
        if let Some(n) = self.notify {
            n.report(
                p.batches as f64,
                self.planned,
                &format!(
                    "batch {} staged: {} records so far",
                    p.batches, appended.info.records
                ),
            );
        }
        // The books follow the dataset's size and lifetime, and count it running; a ceiling
        // passed meanwhile (by stagings running beside this one) stops it here.
        let until = crate::staging::ledger::running_until(Some(lease.now_ms));
        self.staging
            .ledger
            .record(
                &self.id,
                appended.info.bytes,
                appended.info.expires_ms,
                until,
            )
            .await?;
        p.info = Some(appended.info);
        Ok(appended.new_records)
    }

    fn parse(&self, body: &[u8], warnings: &mut Vec<String>) -> Result<RowBatch> {
        Ok(match self.fetch {
            Fetch::Records(format) => match parse::records::parse(format, body)? {
                Records::Pubmed(articles) if self.layout.name == NETWORK.name => {
                    rows::network::widen(rows::pubmed(articles))
                }
                Records::Pubmed(articles) => rows::pubmed(articles),
                Records::Pmc(articles) => rows::pmc(articles),
                Records::Sequences(records) => rows::sequences(records, self.include_sequence),
                Records::Taxa(taxa) => rows::taxa(taxa),
                Records::Medline(_) | Records::Ipg(_) | Records::Generic(_) | Records::Raw => {
                    return Err(Error::internal(format!(
                        "{format:?} records have no staging layout; this is a server bug."
                    )))
                }
            },
            Fetch::Summary => {
                let r = parse::esummary::parse_esummary_xml(body)?;
                if r.docs.is_empty() && !r.errors.is_empty() {
                    let messages: Vec<String> =
                        r.errors.iter().map(|e| e.message.clone()).collect();
                    return Err(crate::entrez::faults::ncbi_error(&messages));
                }
                for e in &r.errors {
                    warnings.push(format!(
                        "{}: {}",
                        e.uid.as_deref().unwrap_or("request"),
                        e.message
                    ));
                }
                rows::docsums(self.layout, r.docs)
            }
        })
    }
}
