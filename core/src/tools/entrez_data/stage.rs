//! `fetch_and_stage`: search if asked, then fetch, parse and append batch by batch.
//!
//! A new staging checks the caller's quotas and the ledger, resolves its
//! source (running the search if one was asked for), creates the dataset
//! `loading` and hands the batches to [`Run::batches`]. It ends `complete`,
//! or `partial` when the call's CPU budget ran out first (see [`budget`](crate::tools::entrez_data::budget)),
//! or `failed` with the reason; the rows staged so far always stay queryable.
//! A call naming a partial dataset's `data_access_id` continues it from the
//! position its last call stored. When the client sent a progress token, each
//! batch is reported as it lands.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::parse;
use crate::staging::layouts::layout_for;
use crate::staging::limits::MAX_RECORDS;
use crate::staging::store::{Caps, DatasetInfo, NewDataset, Status};
use crate::staging::{account_of, iso8601, new_dataset_id, owner_of};
use crate::tools::entrez_data::batches::{Progress, Run};
use crate::tools::entrez_data::call::Stage;
use crate::tools::entrez_data::cursor::{Resume, Work};
use crate::tools::entrez_data::finish::{described, stage};
use crate::tools::entrez_data::plan;
use crate::tools::entrez_data::plan::Fetch;
use crate::tools::entrez_data::plan::Source;
use crate::tools::entrez_data::{owned_dataset, staging, wait};
use crate::validation::codes;

/// Stages the records the arguments name, or continues a partial dataset, and returns it.
pub async fn fetch_and_stage(
    ctx: &ToolContext<'_>,
    call: &Stage,
    wait_ms: u64,
) -> Result<ToolOutput> {
    let (id, out) = match &call.source {
        Source::Continue { data_access_id } => (
            data_access_id.clone(),
            continue_staging(ctx, data_access_id, call).await?,
        ),
        _ => Box::pin(stage_new(ctx, call)).await?,
    };
    Box::pin(waited(ctx, &id, out, wait_ms)).await
}

/// Stages a new dataset; its id and the staging's answer.
async fn stage_new(ctx: &ToolContext<'_>, call: &Stage) -> Result<(String, ToolOutput)> {
    let staging = staging(ctx)?;
    let client = ctx.entrez()?;
    let limits = staging.limits;
    let db = call.database.clone();
    let layout = match call.network {
        Some(_) => &crate::staging::layouts::NETWORK,
        None => layout_for(&db),
    };
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
    // deployment may still hold, and how many stagings they may run at once (stagings
    // running hold NCBI's shared budget). Every way out below gives the slot back.
    let id = new_dataset_id(ctx.platform);
    let expires_ms = limits.lease(now).expires_ms;
    let account = account_of(ctx.request, &ctx.config.auth);
    let allowance = staging.ledger.admit(&id, &account, expires_ms, now).await?;

    let source = call.source.clone();
    let mut progress = Progress::default();
    let mut available = None;
    let planned_work: Result<Work> = async {
        if let Some(network) = call.network {
            let (seeds, warnings) =
                crate::tools::entrez_data::network::seeds(ctx, &source, max_records).await?;
            for w in warnings {
                progress.warn(w);
            }
            return Ok(Work::Network(crate::tools::entrez_data::network::NetworkWork::new(
                network,
                &seeds,
                max_records,
            )));
        }
        Ok(match &source {
        Source::Ids { ids } => {
            if ids.len() as u64 > max_records {
                progress.warn(format!(
                    "{} ids were given; only the first {max_records} (max_records) were staged.",
                    ids.len()
                ));
            }
            available = Some(ids.len() as u64);
            Work::Ids { ids: ids.iter().take(max_records as usize).cloned().collect() }
        }
        Source::History { webenv, query_key } => Work::History {
            webenv: webenv.clone(),
            query_key: *query_key,
            retstart: 0,
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
                retstart: 0,
                target: found.count.min(max_records),
                known_total: true,
            }
        }
        Source::Continue { .. } => unreachable!("continuations return above"),
        Source::Dataset { .. } => {
            return Err(Error::internal("a dataset's papers are only ever the seeds of a network"))
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
        source: match call.network {
            Some(n) => n.describe(&source),
            None => source.describe(),
        },
        created_ms: now,
        expires_ms,
    };
    if let Err(e) = staging.store.create(created, limits.max_datasets).await {
        staging.ledger.release(&id).await;
        return Err(e);
    }
    let run = Run {
        notify: ctx.progress,
        planned: None,
        platform: ctx.platform,
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
    let resume = Resume {
        work,
        include_sequence: call.include_sequence,
        available,
        in_background: false,
        server_key: ctx.may_use_server_key(),
        task: ctx.task,
        batches: 0,
        faults: 0,
        fault: None,
    };
    let defer = ctx.task && staging.scheduler.is_some();
    let out = Box::pin(stage(run, resume, progress, 0, defer)).await?;
    Ok((id, out))
}

/// A staging's answer `out` once the server's own continuation of dataset `id` has ended, or
/// `wait_ms` passed (`wait_seconds`); `out` itself when there is nothing to wait for.
/// A task's caller waits on the task instead.
pub async fn waited(
    ctx: &ToolContext<'_>,
    id: &str,
    out: ToolOutput,
    wait_ms: u64,
) -> Result<ToolOutput> {
    if wait_ms == 0 || ctx.task {
        return Ok(out);
    }
    let info = owned_dataset(ctx, id).await?;
    if !wait::staging_goes_on(&info) {
        return Ok(out);
    }
    let (info, note) = wait::after(ctx, info, wait_ms).await?;
    let note = note.unwrap_or_default();
    if wait::staging_goes_on(&info) {
        let mut out = out;
        if let Some(list) = out
            .structured
            .get_mut("warnings")
            .and_then(|w| w.as_array_mut())
        {
            list.insert(0, json!(note));
        }
        out.text = format!("{note}\n{}", out.text);
        return Ok(out);
    }
    let failed = matches!(info.status, Status::Failed(_));
    let mut done = described(&info, failed)?;
    if let Some(list) = done
        .structured
        .get_mut("warnings")
        .and_then(|w| w.as_array_mut())
    {
        list.insert(0, json!(note));
    }
    done.text = format!("{note}\n{}", done.text);
    Ok(done)
}

/// Continues the partial dataset `id` from where its last call stopped.
async fn continue_staging(ctx: &ToolContext<'_>, id: &str, call: &Stage) -> Result<ToolOutput> {
    let staging = staging(ctx)?;
    let info = owned_dataset(ctx, id).await?;
    // One the server continues by itself is busy: its steps hold it, a caller does not.
    if !matches!(info.status, Status::Partial(_))
        || crate::tools::entrez_data::cursor::in_background(&info.status).is_some()
    {
        return Err(not_partial(&info));
    }
    let client = ctx.entrez()?;
    // Admitted to run again like a new staging (the ledger counts the stagings running); a
    // take-up that fails gives the slot back.
    let account = account_of(ctx.request, &ctx.config.auth);
    let now = ctx.platform.now_unix_ms();
    staging
        .ledger
        .admit(&info.id, &account, info.expires_ms, now)
        .await?;
    let taken = match Box::pin(take_up(staging, client, ctx.platform, &info)).await {
        Ok(taken) => taken,
        Err(e) => {
            let ledger = &staging.ledger;
            let _ = ledger
                .record(&info.id, info.bytes, info.expires_ms, 0)
                .await;
            return Err(e);
        }
    };
    let Some((mut run, mut resume)) = taken else {
        return Err(not_partial(&info));
    };
    run.notify = ctx.progress;
    // Settings the first call fixed: one given otherwise is ignored, and said to be.
    let ignored: Vec<&str> = call
        .given
        .iter()
        .copied()
        .filter(|k| match *k {
            "database" => call.database != info.database,
            "include_sequence" => call.include_sequence != resume.include_sequence,
            _ => true,
        })
        .collect();
    let mut progress = Progress::default();
    if !ignored.is_empty() {
        progress.warn(format!(
            "{} ignored: a continuation stages the rest of dataset {}'s own source ({}, as its first call set it).",
            ignored.join(", "),
            info.id,
            info.database
        ));
    }
    // A caller who asks for a task gets the rest staged by the server, from now.
    resume.task |= ctx.task;
    let defer = ctx.task && staging.scheduler.is_some();
    Box::pin(stage(run, resume, progress, info.records, defer)).await
}

/// Takes the partial dataset `info` up again (`loading` from now) with its stored cursor, for a
/// caller's continuation or a step the server continues by itself; None when another call
/// took it up first. A cursor that cannot be read fails the dataset, with the reason.
pub(crate) async fn take_up<'a>(
    staging: &'a crate::staging::Staging,
    client: crate::entrez::EntrezClient<'a>,
    platform: &'a dyn crate::platform::Platform,
    info: &DatasetInfo,
) -> Result<Option<(Run<'a>, Resume)>> {
    let limits = staging.limits;
    let id = info.id.as_str();
    let now = platform.now_unix_ms();
    // The dataset's owner's other datasets (in the handle pool, another caller may continue
    // it); the ledger charges each batch to the account that staged it, whoever continues,
    // and any account's allowance names what the deployment as a whole has left.
    let others: u64 = staging
        .store
        .list(&info.owner)
        .await?
        .iter()
        .filter(|d| d.id != info.id)
        .map(|d| d.bytes)
        .sum();
    let total_left = staging
        .ledger
        .allowance(&crate::staging::ledger::Account::Local, now)
        .await?
        .total_bytes_left;
    // Nothing can fail between taking the dataset up and staging it: it is never left loading.
    let Some(stored) = staging.store.resume(id, limits.lease(now)).await? else {
        return Ok(None);
    };
    let resume = match Resume::decode(&stored) {
        Ok(r) => r,
        Err(e) => {
            let lease = limits.lease(platform.now_unix_ms());
            let failed = staging
                .store
                .finish(id, Status::Failed(e.message.clone()), lease)
                .await?;
            let _ = staging
                .ledger
                .record(id, failed.bytes, failed.expires_ms, 0)
                .await;
            return Err(e);
        }
    };
    let run = Run {
        notify: None,
        planned: None,
        platform,
        client,
        staging,
        id: info.id.clone(),
        fetch: Fetch::for_database(&info.database),
        db: info.database.clone(),
        layout: crate::staging::layouts::named(&info.layout)
            .unwrap_or_else(|_| layout_for(&info.database)),
        include_sequence: resume.include_sequence,
        caps: Caps {
            max_rows: limits.max_rows,
            max_bytes: limits
                .max_dataset_bytes
                .min(limits.max_owner_bytes.saturating_sub(others))
                .min(total_left.saturating_add(info.bytes)),
        },
    };
    Ok(Some((run, resume)))
}

/// Why a dataset with this status cannot be continued now: a code and a reason. A partial
/// one that another call has just taken up is busy.
pub fn cannot_continue(status: &Status) -> (&'static str, &'static str) {
    match status {
        Status::Complete => (
            codes::DATASET_COMPLETE,
            "is complete: every record of its source is staged",
        ),
        Status::Loading | Status::Partial(_) => (
            codes::DATASET_BUSY,
            "is being staged by another call right now",
        ),
        Status::Failed(_) => (codes::DATASET_FAILED, "failed, so it cannot be continued"),
    }
}

/// A dataset named to continue that has nothing to continue (or another call took it up).
fn not_partial(info: &DatasetInfo) -> Error {
    let (code, why) = cannot_continue(&info.status);
    Error::new(
        ErrorKind::InvalidArguments,
        format!("Dataset {} {why}; only a partial dataset can be continued.", info.id),
    )
    .with_code(code)
    .suggest("Query it with operation query, or stage a new dataset with ids, webenv with query_key, or term.")
    .with_details(json!({"data_access_id": info.id, "status": info.status.as_str()}))
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
        .with_details(crate::json!({"limit": limit, "frees_at": frees.map(iso8601)}))
}
