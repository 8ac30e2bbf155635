//! How a staging ends, whoever ran it (a caller's call, a continuation, a step the server
//! continues by itself): the batches one budget pays for, then the status recorded with the
//! dataset and the result or error the call returns.
//!
//! The dataset ends `complete`; or `partial` with its cursor when the budget ran out first
//! (continued by the server where the edge has a [`Scheduler`](crate::staging::Scheduler), else
//! left for the caller's next call); or `partial` from its last committed batch after a
//! passing fault (NCBI unreachable or rate limited); or `failed` with the reason. The rows
//! staged so far always stay queryable, and the error a caller reads names the dataset and
//! what it holds.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::content::{Annotations, Content, Role};
use crate::framework::ToolOutput;
use crate::json;
use crate::staging::iso8601;
use crate::staging::scheduler::retry_after_ms;
use crate::staging::schema::Layout;
use crate::staging::store::{DatasetInfo, Status};
use crate::tools::entrez_data::batches::{Progress, Run};
use crate::tools::entrez_data::budget::{cost_of, Meter};
use crate::tools::entrez_data::cursor::{Paused, Resume, Work};
use crate::tools::entrez_data::{render, schema_uri, status_warnings};
use crate::validation::codes;
use serde_json::Value;

/// Runs the batches one call's budget pays for and records how the dataset ended. Where the
/// budget ran out first and the server has a scheduler, the scheduler is asked for the next step.
/// `defer` stages nothing here and leaves every batch to the scheduler (a call made a task).
pub(crate) async fn stage(
    mut run: Run<'_>,
    mut resume: Resume,
    mut progress: Progress,
    staged_before: u64,
    defer: bool,
) -> Result<ToolOutput> {
    let staging = run.staging;
    let mut meter = Meter::new(&run.client.config.allowance, cost_of(run.fetch));
    if staged_before == 0 {
        meter = meter.first_call();
    }
    let size = run.fetch.batch_size() as u64;
    let known = match &resume.work {
        Work::History {
            known_total: false, ..
        } => None,
        w => Some(w.remaining()),
    };
    run.planned = known.map(|n| n.div_ceil(size).max(1) as f64);
    let id = run.id.clone();
    let lease = |run: &Run<'_>| staging.limits.lease(run.platform.now_unix_ms());
    let outcome = if defer {
        Ok(())
    } else {
        run.batches(&mut resume.work, &mut meter, &mut progress)
            .await
    };
    resume.batches += progress.batches as u64;
    let staged = progress.info.as_ref().map_or(staged_before, |i| i.records);
    let ended = match outcome {
        Ok(()) => {
            let more = resume.work.remaining() > 0;
            resume.in_background = more && staging.scheduler.is_some();
            if progress.batches > 0 {
                // Staged again: whatever paused it has passed.
                resume.faults = 0;
                resume.fault = None;
            }
            let status = if more {
                Status::Partial(resume.encode())
            } else {
                Status::Complete
            };
            staging.store.finish(&id, status, lease(&run)).await
        }
        Err(e) => Err(e),
    };
    let ended = match ended {
        // Only one that is still partial goes on: a cancel may have ended it meanwhile.
        Ok(info) if resume.in_background && matches!(info.status, Status::Partial(_)) => {
            match Box::pin(run_step(&run, &mut resume, 0)).await {
                Ok(None) => Ok(info),
                Ok(Some((info, why))) => {
                    progress.warn(format!(
                        "The server could not go on staging by itself ({why})."
                    ));
                    Ok(info)
                }
                Err(e) => Err(e),
            }
        }
        ended => ended,
    };
    match ended {
        Ok(info) => {
            // The books take the finished size (indexes included) and its renewed expiry;
            // a ceiling passed by the indexes alone does not undo a staging that completed.
            // Continued by the server: running still, from now or from its next try.
            let now = run.platform.now_unix_ms();
            let runs_from = crate::tools::entrez_data::cursor::in_background(&info.status)
                .map(|r| r.fault.map_or(now, |p| p.retry_at_ms));
            book(&run, &info, runs_from).await;
            Ok(output(&run, &info, &resume, &meter, progress))
        }
        // The dataset itself is gone: there is nothing left to mark.
        Err(e) if e.code == codes::DATASET_NOT_FOUND => Err(vanished(
            &id,
            staged,
            progress.info.as_ref(),
            run.platform.now_unix_ms(),
        )),
        Err(e) => {
            // A passing fault (NCBI unreachable, rate limited) leaves the dataset partial from
            // its last committed batch, so that it continues instead of starting over: by
            // itself a while later where the server carries stagings on (a few times, each
            // longer after the last), else with the caller's next call.
            let passing = matches!(e.kind, ErrorKind::Unavailable | ErrorKind::RateLimited);
            if let (true, Some(work)) = (passing, progress.committed.take()) {
                if work.remaining() > 0 {
                    resume.work = work;
                    // Faults in a row: one after batches that landed counts as the first.
                    resume.faults = if progress.batches > 0 {
                        1
                    } else {
                        resume.faults + 1
                    };
                    let now = run.platform.now_unix_ms();
                    let retry = staging
                        .scheduler
                        .as_ref()
                        .and(retry_after_ms(resume.faults));
                    resume.in_background = retry.is_some();
                    resume.fault = retry.map(|after| Paused {
                        error: e.message.clone(),
                        retry_at_ms: now.saturating_add(after),
                    });
                    if retry.is_none() {
                        // Left for a caller, whose continuation counts afresh.
                        resume.faults = 0;
                    }
                    let info = staging
                        .store
                        .finish(&id, Status::Partial(resume.encode()), lease(&run))
                        .await?;
                    let retrying = match retry {
                        Some(after) if matches!(info.status, Status::Partial(_)) => {
                            Box::pin(run_step(&run, &mut resume, after))
                                .await?
                                .is_none()
                        }
                        _ => false,
                    };
                    // Paused, it runs on once its next try is due; else it waits for its caller.
                    let paused = resume.fault.as_ref().filter(|_| retrying);
                    book(&run, &info, paused.map(|p| p.retry_at_ms)).await;
                    if retrying {
                        // The server outlasts the fault by itself: the call answers as one
                        // whose budget ran out, the pause said in its warnings.
                        return Ok(output(&run, &info, &resume, &meter, progress));
                    }
                    return Err(match info.status {
                        // Cancelled while this step ran: it ends so, not partial.
                        Status::Failed(_) => failed(e, &id, staged),
                        _ => interrupted(e, &id, staged),
                    });
                }
            }
            let reason = format!(
                "{} (after {} batch(es), {staged} records)",
                e.message, progress.batches
            );
            let info = staging
                .store
                .finish(&id, Status::Failed(reason), lease(&run))
                .await?;
            book(&run, &info, None).await;
            Err(failed(e, &id, staged))
        }
    }
}

/// Writes down what the dataset takes now and whether its staging still counts as running
/// (from `runs_from`, see `staging::ledger::running_until`). A ceiling this passes has no
/// batch left to stop.
async fn book(run: &Run<'_>, info: &DatasetInfo, runs_from: Option<u64>) {
    let until = crate::staging::ledger::running_until(runs_from);
    let _ = run
        .staging
        .ledger
        .record(&info.id, info.bytes, info.expires_ms, until)
        .await;
}

/// Asks the scheduler for the staging's next step `after_ms` from now: None once asked. Where
/// it cannot take it, nobody will go on by itself, so the dataset is stored partial for a
/// caller instead: the dataset as it then stands, and why.
async fn run_step(
    run: &Run<'_>,
    resume: &mut Resume,
    after_ms: u64,
) -> Result<Option<(DatasetInfo, String)>> {
    let staging = run.staging;
    let asked = match staging.scheduler.as_ref() {
        Some(scheduler) => scheduler.schedule(&run.id, after_ms).await,
        None => Err(Error::internal("this server carries no staging on")),
    };
    let Err(e) = asked else {
        return Ok(None);
    };
    resume.in_background = false;
    resume.fault = None;
    let lease = staging.limits.lease(run.platform.now_unix_ms());
    let info = staging
        .store
        .finish(&run.id, Status::Partial(resume.encode()), lease)
        .await?;
    Ok(Some((info, e.message)))
}

/// The dataset disappeared under its own staging: its lifetime ran out (no write for a whole
/// lifetime, or a stager reported gone), or its owner dropped it. Either way the records
/// staged are lost with it, and the error says which happened.
fn vanished(id: &str, staged: u64, last: Option<&DatasetInfo>, now: u64) -> Error {
    let expired_at = last.map(|i| i.expires_ms).filter(|t| *t <= now);
    let (code, what) = match expired_at {
        Some(t) => (
            codes::DATASET_EXPIRED,
            format!("expired at {} while it was being staged", iso8601(t)),
        ),
        None => (
            codes::DATASET_DROPPED,
            "was dropped while it was being staged".to_string(),
        ),
    };
    Error::new(
        ErrorKind::NotFound,
        format!("Dataset {id} {what}; the {staged} records staged into it are gone with it."),
    )
    .with_code(code)
    .suggest("Stage the records again with fetch_and_stage (a dataset lives ENTREZ_DATA_TTL_SECS from its last write).")
    .with_details(json!({"data_access_id": id, "records_staged": staged}))
}

fn output(
    run: &Run<'_>,
    info: &DatasetInfo,
    resume: &Resume,
    meter: &Meter,
    p: Progress,
) -> ToolOutput {
    let mut warnings = p.warnings;
    let remaining = resume.work.remaining();
    let partial = remaining > 0;
    // A history set of unknown size says only how many more max_records allows.
    let size_known = !matches!(
        resume.work,
        Work::History {
            known_total: false,
            ..
        }
    );
    let left = if size_known {
        render::thousands(remaining)
    } else {
        format!("up to {}", render::thousands(remaining))
    };
    let next_call = json!({"operation": "fetch_and_stage", "data_access_id": info.id});
    // Continued by the server, nothing is asked of the caller; else the call that goes on.
    let in_background = partial && resume.in_background;
    if let (true, Some(paused)) = (in_background, &resume.fault) {
        warnings.push(format!(
            "This call staged {} batch(es), then was {}; the {left} records left follow by themselves, and nothing needs to be called again (query or schema with wait_seconds waits for them).",
            p.batches,
            paused.describe()
        ));
    } else if in_background && p.batches == 0 {
        warnings.push(format!(
            "The server stages the {left} records by itself, one budget per step: query or schema with wait_seconds waits for them (no polling), and queries without it see the records staged so far."
        ));
    } else if partial {
        // A cap the caller did not ask for is said in the result, with what lifts it.
        let then = if in_background {
            "the server stages them by itself, one budget per step: query or schema with wait_seconds waits for them (no polling), and queries without it see the records staged so far.".to_string()
        } else {
            format!(
                "Call fetch_and_stage with data_access_id \"{}\" to stage the next ones.",
                info.id
            )
        };
        warnings.push(format!(
            "This call staged {} batch(es) within its CPU budget ({} ms per call, ENTREZ_CPU_BUDGET_MS; about {} ms planned, {} ms spent by the model); {} records remain: {then}",
            p.batches,
            run.client.config.allowance.cpu_budget_ms,
            meter.budget_us() / 1000,
            meter.spent_us().div_ceil(1000),
            left,
        ));
    }
    if p.more_warnings > 0 {
        warnings.push(format!("... and {} more warnings.", p.more_warnings));
    }
    let available = resume.available;
    let uri = schema_uri(&info.id);
    let mut structured = render::dataset(info);
    json::set(&mut structured, "operation", json!("fetch_and_stage"));
    json::set(&mut structured, "resource_uri", json!(uri));
    json::set(&mut structured, "available", json!(available));
    json::set(
        &mut structured,
        "truncated",
        json!(available.is_some_and(|a| a > info.records)),
    );
    // A task's result is about the whole staging; a call's, about what it staged itself.
    let batches = if resume.task {
        resume.batches
    } else {
        p.batches as u64
    };
    json::set(&mut structured, "batches", json!(batches));
    structured["remaining"] = match (partial, size_known) {
        (false, _) => json!(0),
        (true, true) => json!(remaining),
        (true, false) => Value::Null,
    };
    structured["next_call"] = if partial && !in_background {
        next_call.clone()
    } else {
        Value::Null
    };
    json::set(
        &mut structured,
        "example_queries",
        render::examples(run.layout.examples),
    );
    json::set(&mut structured, "warnings", json!(warnings));
    let example = run.layout.examples[0].sql;
    let continuation = if in_background {
        format!("\nLoading: {left} records remain; the server stages them by itself (query or schema with wait_seconds waits for them).")
    } else if partial {
        format!("\nPartial: {left} records remain; continue with entrez_data {next_call}.")
    } else {
        String::new()
    };
    let text = format!(
        "Staged {} {} records into dataset {} ({} layout, {} rows, {} bytes, expires {}).\nTables: {}.{continuation}\nQuery it: entrez_data operation query, data_access_id \"{}\", sql e.g. {example}\nSee operation schema for columns, keys and more examples.{}",
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
/// A dataset whose staging ended, as a `fetch_and_stage` result (none was kept for it).
pub fn described(info: &DatasetInfo, has_failed: bool) -> Result<ToolOutput> {
    if has_failed {
        let reason = info.status.reason().unwrap_or("staging stopped");
        return Err(failed(
            Error::new(ErrorKind::Upstream, format!("{reason}.")).with_code("staging_failed"),
            &info.id,
            info.records,
        ));
    }
    let layout = crate::staging::layouts::named(&info.layout)
        .unwrap_or_else(|_| crate::staging::layouts::layout_for(&info.database));
    let mut structured = render::dataset(info);
    structured["operation"] = json!("fetch_and_stage");
    structured["resource_uri"] = json!(schema_uri(&info.id));
    structured["available"] = Value::Null;
    structured["truncated"] = json!(false);
    structured["batches"] = json!(0);
    structured["remaining"] = json!(0);
    structured["next_call"] = Value::Null;
    structured["example_queries"] = render::examples(layout.examples);
    structured["warnings"] = json!(status_warnings(info));
    let text = format!(
        "Dataset {} holds {} {} records ({} layout, {} rows, {} bytes, expires {}).\nTables: {}.\nQuery it: entrez_data operation query, data_access_id \"{}\", sql e.g. {}",
        info.id,
        render::thousands(info.records),
        info.database,
        layout.name,
        render::thousands(info.rows),
        render::thousands(info.bytes),
        iso8601(info.expires_ms),
        render::table_counts(info),
        info.id,
        layout.examples[0].sql,
    );
    Ok(ToolOutput::new(structured, text).with_content(dataset_link(info, layout)))
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

/// A passing fault mid-staging: the dataset is partial and the next call continues it.
fn interrupted(e: Error, id: &str, staged: u64) -> Error {
    about_dataset(
        e,
        id,
        "partial",
        staged,
        format!("Staging paused; dataset {id} holds {staged} records and is partial: fetch_and_stage with its data_access_id continues it."),
    )
    .suggest(format!(
        "Continue later with {{\"operation\": \"fetch_and_stage\", \"data_access_id\": \"{id}\"}}."
    ))
}

/// A staging failure, pointing at the partial dataset that now says `failed`.
pub(crate) fn failed(e: Error, id: &str, staged: u64) -> Error {
    about_dataset(
        e,
        id,
        "failed",
        staged,
        format!("Staging stopped; dataset {id} holds the {staged} records staged before that and is marked failed."),
    )
    .suggest(format!("Query the partial data with data_access_id \"{id}\", or drop it with operation drop_dataset."))
}

/// A staging error that names the dataset it left behind: `tail` after its message, and the
/// dataset's id, status and records in its details (beside what the error already in_background).
fn about_dataset(mut e: Error, id: &str, status: &str, staged: u64, tail: String) -> Error {
    e.message = format!("{} {tail}", e.message);
    let mut details = e.details.take().unwrap_or_else(|| json!({}));
    if let Value::Object(map) = &mut details {
        map.insert("data_access_id".into(), json!(id));
        map.insert("status".into(), json!(status));
        map.insert("records_staged".into(), json!(staged));
    } else {
        details = json!({"data_access_id": id, "status": status, "records_staged": staged, "cause": details});
    }
    e.with_details(details)
}
