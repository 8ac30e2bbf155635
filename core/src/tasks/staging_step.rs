//! One step of a staging the server continues by itself, run by the edge's scheduler (through
//! `protocol::Server::run_step`) with no request behind it: it acts for the dataset, takes it
//! up only where its stored cursor says the server continues it, and spends the server's NCBI
//! key only where the caller that started it could have.

use crate::config::Config;
use crate::entrez::EntrezClient;
use crate::error::Result;
use crate::framework::Registry;
use crate::net::cache::CallLog;
use crate::net::retry::RetryPolicy;
use crate::net::Network;
use crate::platform::Platform;
use crate::staging::store::Status;
use crate::staging::Staging;
use crate::tasks::staging;
use crate::tasks::Step;
use crate::tools::entrez_data::batches::Progress;
use crate::tools::entrez_data::cursor;
use crate::tools::entrez_data::finish::stage;
use crate::tools::entrez_data::stage::take_up;

/// What a step runs with: the server's own parts, no caller's.
pub struct Parts<'a> {
    /// Base URLs, tool, email and the server's key.
    pub config: &'a Config,
    /// NCBI, paced and cached as every other request.
    pub network: &'a Network,
    /// The clock.
    pub platform: &'a dyn Platform,
    /// The store, its limits, the ledger and the scheduler.
    pub staging: &'a Staging,
    /// The tools, to write a task's final result as `tools/call` would.
    pub registry: &'a Registry,
}

/// Stages what one budget pays for of dataset `id`, if the server continues it; the next
/// step is asked for inside, while records remain. None where there is no such dataset.
pub async fn step(parts: Parts<'_>, id: &str) -> Result<Option<Step>> {
    let Some(info) = parts.staging.store.get(id).await? else {
        return Ok(None);
    };
    step_of(parts, info).await.map(Some)
}

async fn step_of(parts: Parts<'_>, info: crate::staging::store::DatasetInfo) -> Result<Step> {
    let id = info.id.as_str();
    let Some(stored) = cursor::in_background(&info.status) else {
        return Ok(Step::NothingToDo);
    };
    let now = parts.platform.now_unix_ms();
    if info.expired(now) {
        parts.staging.store.remove(id).await?;
        return Ok(Step::NothingToDo);
    }
    // A step asked for before a paused staging's next try is due (a restarted process takes
    // every in_background staging up at once; an alarm may fire early) puts itself off to that time.
    if let (Some(paused), Some(scheduler)) = (&stored.fault, parts.staging.scheduler.as_ref()) {
        if paused.retry_at_ms > now {
            scheduler.schedule(id, paused.retry_at_ms - now).await?;
            return Ok(Step::MoreToDo);
        }
    }
    let log = CallLog::default();
    let client = EntrezClient {
        config: parts.config,
        transport: parts.network.transport.as_ref(),
        pacer: parts.network.pacer.as_ref(),
        platform: parts.platform,
        api_key: parts.config.api_key.as_ref().filter(|_| stored.server_key),
        retry: RetryPolicy::default(),
        cache: parts.network.cache.as_ref().map(|c| (c, &log)),
    };
    // Boxed, as in a caller's continuation: one copy of the staging's code serves both paths
    // (inlined here, it doubled the Worker bundle's growth).
    let taken = Box::pin(take_up(parts.staging, client, parts.platform, &info)).await?;
    let Some((run, resume)) = taken else {
        // Another step or a caller took it up first; whoever did asks for the next one.
        return Ok(Step::NothingToDo);
    };
    let task = resume.task;
    // An error has been recorded with the dataset (partial for a caller, or failed with the
    // reason) before it comes back here.
    let outcome = Box::pin(stage(run, resume, Progress::default(), info.records, false)).await;
    let after = parts.staging.store.get(id).await?;
    let step = match &after {
        Some(a) if cursor::in_background(&a.status).is_some() => Step::MoreToDo,
        Some(a) if matches!(a.status, Status::Loading) => Step::MoreToDo,
        _ => Step::Finished,
    };
    let error = outcome.as_ref().err().cloned();
    if let (true, Step::Finished, Some(after)) = (task, step, &after) {
        // What the call would have returned, for the task's caller to read.
        let now = parts.platform.now_unix_ms();
        staging::save_final_result(parts.staging, parts.registry, now, after, outcome).await?;
    }
    // A passing fault the server outlasts comes back as a result (the dataset says why it
    // waits, and until when); an error here ended the step otherwise, and the edge logs it.
    match error {
        Some(e) => Err(e),
        None => Ok(step),
    }
}
