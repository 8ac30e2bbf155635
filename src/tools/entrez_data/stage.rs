//! `fetch_and_stage`: search if asked, then fetch, parse and append batch by batch.
//!
//! Only one batch is ever held in memory: each reply is parsed, turned into
//! rows and appended in its own transaction before the next request goes
//! out, through the same [`EntrezClient`](crate::entrez::EntrezClient) (and
//! so the same pacing and retries) as every other NCBI call. The dataset is
//! `loading` until the last batch is in, then `complete`; any failure marks
//! it `failed` with the reason, and the rows staged so far stay queryable.
//! When the client sent a progress token, each batch is reported as it lands.

use super::call::Stage;
use super::plan::{self, Fetch, Slice, Source};
use super::{render, schema_uri, staging};
use crate::entrez::EntrezClient;
use crate::error::{Error, ErrorKind, Result};
use crate::parse;
use crate::parse::records::Records;
use crate::protocol::progress::Progress as Notify;
use crate::staging::layouts::layout_for;
use crate::staging::limits::MAX_RECORDS;
use crate::staging::rows::{self, RowBatch};
use crate::staging::schema::Layout;
use crate::staging::store::{Caps, DatasetInfo, NewDataset, Status};
use crate::staging::{account_of, iso8601, new_dataset_id, owner_of, Staging};
use crate::tools::content::{Annotations, Content, Role};
use crate::tools::{ToolContext, ToolOutput};
use futures_util::future::join;
use serde_json::{json, Value};

/// Per-record warnings kept in one result; the rest are counted.
const MAX_WARNINGS: usize = 20;

/// What to fetch once the source is resolved.
enum Work {
    Ids(Vec<String>),
    History {
        webenv: String,
        query_key: u64,
        target: u64,
        // A known count means a short batch is NCBI dropping records, not the end.
        known_total: bool,
    },
}

/// One staging run's fixed facts.
struct Run<'a> {
    client: EntrezClient<'a>,
    staging: &'a Staging,
    id: String,
    db: String,
    layout: &'static Layout,
    fetch: Fetch,
    include_sequence: bool,
    caps: Caps,
    notify: Option<Notify<'a>>,
    // Batches planned; None where a history set's size is unknown.
    planned: Option<f64>,
}

/// What the batches did.
#[derive(Default)]
struct Progress {
    batches: usize,
    info: Option<DatasetInfo>,
    warnings: Vec<String>,
    more_warnings: usize,
}

impl Progress {
    fn warn(&mut self, w: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(w);
        } else {
            self.more_warnings += 1;
        }
    }
}

/// Stages the records the arguments name and returns the dataset.
pub async fn fetch_and_stage(ctx: &ToolContext<'_>, call: &Stage) -> Result<ToolOutput> {
    let staging = staging(ctx)?;
    let client = ctx.entrez()?;
    let limits = staging.limits;
    let db = call.database.clone();
    let layout = layout_for(&db);
    let fetch = Fetch::for_database(&db);
    let max_records = call.max_records;
    let owner = owner_of(ctx.request);
    let now = ctx.platform.now_unix_ms();
    staging.store.expire(now).await?;
    let mine = staging.store.list(&owner.key).await?;
    let used: u64 = mine.iter().map(|d| d.bytes).sum();
    let frees = mine.iter().map(|d| d.expires_ms).min();
    if mine.len() as u64 >= limits.max_datasets {
        return Err(over_quota(
            format!(
                "You already hold {} datasets, the most one caller may hold (ENTREZ_DATA_MAX_DATASETS).",
                mine.len()
            ),
            "owner_datasets",
            frees,
        ));
    }
    if used >= limits.max_owner_bytes {
        return Err(over_quota(
            format!(
                "Your datasets already take {} bytes, the most one caller may use ({}, ENTREZ_DATA_MAX_OWNER_BYTES).",
                used, limits.max_owner_bytes
            ),
            "owner_bytes",
            frees,
        ));
    }

    // The ledger first, before anything goes upstream: what this caller's account and the
    // deployment may still hold. Every way out below gives the slot back.
    let id = new_dataset_id(ctx.platform);
    let expires_ms = now.saturating_add(limits.ttl_secs.saturating_mul(1000));
    let account = account_of(ctx.request, &ctx.config.auth);
    let allowance = staging.ledger.admit(&id, &account, expires_ms, now).await?;

    let source = call.source.clone();
    let mut progress = Progress::default();
    let mut available = None;
    let planned_work: Result<Work> = async {
        Ok(match &source {
        Source::Ids { ids } => {
            if ids.len() as u64 > max_records {
                progress.warn(format!(
                    "{} ids were given; only the first {max_records} (max_records) were staged.",
                    ids.len()
                ));
            }
            available = Some(ids.len() as u64);
            Work::Ids(ids.iter().take(max_records as usize).cloned().collect())
        }
        Source::History { webenv, query_key } => Work::History {
            webenv: webenv.clone(),
            query_key: *query_key,
            target: max_records,
            known_total: false,
        },
        Source::Term { term } => {
            let reply = client.send(&plan::search(&db, term)).await?;
            let found = parse::esearch::parse_esearch_xml(&reply.body)?;
            if found.count == 0 {
                return Err(Error::new(
                    ErrorKind::NotFound,
                    format!("The search {term:?} matched no {db} records, so nothing was staged."),
                )
                .with_code("no_records")
                .suggest("Check the term with entrez_query (operation search or spell) first.")
                .with_details(json!({ "errors": found.errors, "error_list": found.error_list })));
            }
            let (Some(webenv), Some(key)) = (found.webenv, found.query_key) else {
                return Err(Error::new(
                    ErrorKind::Upstream,
                    "NCBI ran the search but returned no history (WebEnv/query_key) to fetch from.",
                )
                .suggest("Retry; or search with entrez_query and stage the ids it returns."));
            };
            available = Some(found.count);
            if found.count > max_records {
                progress.warn(format!(
                    "The search matched {} records; the first {max_records} were staged (max_records, at most {MAX_RECORDS}).",
                    found.count
                ));
            }
            Work::History {
                webenv,
                query_key: key.parse().unwrap_or(1),
                target: found.count.min(max_records),
                known_total: true,
            }
        }
        })
    }
    .await;

    let work = match planned_work {
        Ok(w) => w,
        Err(e) => {
            staging.ledger.release(&id).await;
            return Err(e);
        }
    };
    let created = NewDataset {
        id: id.clone(),
        owner: owner.key,
        database: db.clone(),
        layout,
        source: source.describe(),
        created_ms: now,
        expires_ms,
    };
    if let Err(e) = staging.store.create(created, limits.max_datasets).await {
        staging.ledger.release(&id).await;
        return Err(e);
    }
    let size = fetch.batch_size() as u64;
    let planned = match &work {
        Work::Ids(ids) => Some((ids.len() as u64).div_ceil(size) as f64),
        Work::History {
            target,
            known_total: true,
            ..
        } => Some(target.div_ceil(size) as f64),
        Work::History { .. } => None,
    };
    let run = Run {
        notify: ctx.progress,
        planned,
        client,
        staging,
        id: id.clone(),
        db,
        layout,
        fetch,
        include_sequence: call.include_sequence,
        caps: Caps {
            max_rows: limits.max_rows,
            max_bytes: limits
                .max_dataset_bytes
                .min(limits.max_owner_bytes.saturating_sub(used))
                .min(allowance.bytes_left.unwrap_or(u64::MAX))
                .min(allowance.total_bytes_left),
        },
    };
    match run.batches(&work, &mut progress).await {
        Ok(()) => {
            staging.store.finish(&id, Status::Complete).await?;
            let info = staging.store.get(&id).await?.ok_or_else(|| {
                Error::internal(format!("dataset {id} vanished right after staging"))
            })?;
            Ok(output(&run, &info, available, progress))
        }
        Err(e) => {
            let staged = progress.info.as_ref().map_or(0, |i| i.records);
            let reason = format!(
                "{} (after {} batch(es), {staged} records)",
                e.message, progress.batches
            );
            staging.store.finish(&id, Status::Failed(reason)).await?;
            Err(failed(e, &id, staged))
        }
    }
}

/// One fetched and parsed batch, not yet appended.
struct Fetched {
    batch: RowBatch,
    warnings: Vec<String>,
}

impl Run<'_> {
    /// Stages every batch, fetching and parsing the next one while the
    /// previous one is being appended: natively the append runs on a blocking
    /// thread beside the parse, on Workers the Durable Object call overlaps the
    /// NCBI request, so a batch costs the longer of the two, not their sum.
    async fn batches(&self, work: &Work, p: &mut Progress) -> Result<()> {
        let size = self.fetch.batch_size();
        match work {
            Work::Ids(ids) => {
                let mut chunks = ids.chunks(size);
                let mut ready = match chunks.next() {
                    Some(c) => Some(self.fetch_parse(Slice::Ids(c)).await?),
                    None => None,
                };
                while let Some(fetched) = ready.take() {
                    match chunks.next() {
                        Some(c) => {
                            let (committed, next) =
                                join(self.commit(fetched, p), self.fetch_parse(Slice::Ids(c)))
                                    .await;
                            committed?;
                            ready = Some(next?);
                        }
                        None => {
                            self.commit(fetched, p).await?;
                        }
                    }
                }
            }
            Work::History {
                webenv,
                query_key,
                target,
                known_total,
            } => {
                let slice = |retstart: u64| {
                    let retmax = (size as u64).min(target - retstart);
                    let s = Slice::History {
                        webenv,
                        query_key: *query_key,
                        retstart,
                        retmax,
                    };
                    (s, retmax)
                };
                if *target == 0 {
                    return Ok(());
                }
                let (first, retmax) = slice(0);
                let mut ready = Some((self.fetch_parse(first).await?, 0u64, retmax));
                while let Some((fetched, at, retmax)) = ready.take() {
                    let parsed = fetched.batch.records as u64;
                    let next_start = at + retmax;
                    // A short or empty page is the last one, whatever the count said.
                    if parsed == 0 || (!known_total && parsed < retmax) || next_start >= *target {
                        self.commit(fetched, p).await?;
                        break;
                    }
                    let (next, next_max) = slice(next_start);
                    let (committed, following) =
                        join(self.commit(fetched, p), self.fetch_parse(next)).await;
                    if committed? == 0 {
                        // A history server that ignores retstart would repeat itself forever.
                        p.warn(format!(
                            "Batch at retstart {at} added no new records; staging stopped there."
                        ));
                        break;
                    }
                    ready = Some((following?, next_start, next_max));
                }
            }
        }
        Ok(())
    }

    /// Fetches and parses one batch.
    async fn fetch_parse(&self, slice: Slice<'_>) -> Result<Fetched> {
        let reply = self
            .client
            .send(&plan::batch(&self.db, self.fetch, slice))
            .await?;
        let mut warnings = Vec::new();
        let batch = self.parse(&reply.body, &mut warnings)?;
        warnings.extend(batch.skipped.iter().map(|s| format!("Skipped: {s}.")));
        warnings.extend(batch.tables.iter().filter(|t| t.refused > 0).map(|t| {
            format!(
                "Skipped: {} row(s) of table {} that lacked a required value.",
                t.refused, t.table.name
            )
        }));
        Ok(Fetched { batch, warnings })
    }

    /// Appends one parsed batch and reports progress; returns the new records.
    async fn commit(&self, fetched: Fetched, p: &mut Progress) -> Result<u64> {
        for w in fetched.warnings {
            p.warn(w);
        }
        let appended = self
            .staging
            .store
            .append(&self.id, fetched.batch, self.caps)
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
        // The books follow the dataset's size; a ceiling passed meanwhile (by stagings
        // running beside this one) stops it here.
        self.staging
            .ledger
            .record(&self.id, appended.info.bytes)
            .await?;
        p.info = Some(appended.info);
        Ok(appended.new_records)
    }

    fn parse(&self, body: &[u8], warnings: &mut Vec<String>) -> Result<RowBatch> {
        Ok(match self.fetch {
            Fetch::Records(format) => match parse::records::parse(format, body)? {
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
                    return Err(parse::body_errors::ncbi_error(&messages));
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

fn output(run: &Run<'_>, info: &DatasetInfo, available: Option<u64>, p: Progress) -> ToolOutput {
    let mut warnings = p.warnings;
    if p.more_warnings > 0 {
        warnings.push(format!("... and {} more warnings.", p.more_warnings));
    }
    let uri = schema_uri(&info.id);
    let mut structured = render::dataset(info);
    structured["operation"] = json!("fetch_and_stage");
    structured["resource_uri"] = json!(uri);
    structured["available"] = json!(available);
    structured["truncated"] = json!(available.is_some_and(|a| a > info.records));
    structured["batches"] = json!(p.batches);
    structured["example_queries"] = render::examples(run.layout.examples);
    structured["warnings"] = json!(warnings);
    let example = run.layout.examples[0].sql;
    let text = format!(
        "Staged {} {} records into dataset {} ({} layout, {} rows, {} bytes, expires {}).\nTables: {}.\nQuery it: entrez_data operation query, data_access_id \"{}\", sql e.g. {example}\nSee operation schema for columns, keys and more examples.{}",
        render::thousands(info.records),
        run.db,
        info.id,
        run.layout.name,
        render::thousands(info.rows),
        render::thousands(info.bytes),
        iso8601(info.expires_ms),
        render::table_counts(info),
        info.id,
        if warnings.is_empty() { String::new() } else { format!("\nWarnings:\n- {}", warnings.join("\n- ")) },
    );
    ToolOutput::new(structured, text)
        .with_text_annotations(
            Annotations::for_audience(&[Role::User, Role::Assistant]).with_priority(1.0),
        )
        .with_content(dataset_link(info, run.layout))
}

/// The resource link every dataset result carries.
pub fn dataset_link(info: &DatasetInfo, layout: &Layout) -> Content {
    Content::ResourceLink {
        uri: schema_uri(&info.id),
        name: format!("dataset-{}", info.id),
        title: Some(format!(
            "{} dataset {} ({} layout)",
            info.database, info.id, layout.name
        )),
        description: Some(format!(
            "Schema of staged dataset {}: {}",
            info.id,
            render::table_counts(info)
        )),
        mime_type: Some("application/json".to_string()),
        size: None,
        annotations: None,
    }
}

/// The caller's own ceiling is reached: which one, and when their first dataset expires.
fn over_quota(message: String, limit: &str, frees: Option<u64>) -> Error {
    let when = frees
        .map(|t| {
            format!(
                " It frees up at {}, when your oldest dataset expires.",
                iso8601(t)
            )
        })
        .unwrap_or_default();
    Error::new(ErrorKind::LimitExceeded, format!("{message}{when}"))
        .with_code("dataset_quota_exceeded")
        .suggest(
            "Drop datasets you no longer need (operation drop_dataset; list_datasets shows them).",
        )
        .with_details(serde_json::json!({"limit": limit, "frees_at": frees.map(iso8601)}))
}

/// A staging failure, pointing at the partial dataset that now says `failed`.
fn failed(mut e: Error, id: &str, staged: u64) -> Error {
    e.message = format!(
        "{} Staging stopped; dataset {id} holds the {staged} records staged before that and is marked failed.",
        e.message
    );
    let mut details = e.details.take().unwrap_or_else(|| json!({}));
    if let Value::Object(map) = &mut details {
        map.insert("data_access_id".into(), json!(id));
        map.insert("status".into(), json!("failed"));
        map.insert("records_staged".into(), json!(staged));
    } else {
        details = json!({"data_access_id": id, "status": "failed", "records_staged": staged, "cause": details});
    }
    e.with_details(details)
        .suggest(format!("Query the partial data with data_access_id \"{id}\", or drop it with operation drop_dataset."))
}
