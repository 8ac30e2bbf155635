//! The tasks that are not stagings, kept as [`StoredTask`]s owned like a dataset and charged
//! on the ledger: a call that ended at once (2025-11-25 makes every call of a task tool a task
//! when asked) keeps its result; a PubChem call PubChem still works on after the hand-off is
//! pending, and each look at its task once due runs the call again to collect the ListKey
//! (nothing runs between looks); a BioC call made a task runs in the background, through the
//! scheduler, with no request behind it. Details on [`wait_on_pubchem`], [`view`] and
//! [`run_in_background`].

use crate::error::{Error, ErrorKind, Result};
pub use crate::framework::as_task::{Resume, RUNS_IN_BACKGROUND};
use crate::framework::ToolContext;
use crate::json;
use crate::platform::BoxFuture;
use crate::staging::ledger::running_until;
use crate::staging::task_store::StoredTask;
use crate::staging::{account_of, new_dataset_id, owner_of};
use crate::tasks::task::{Status, Task};
use crate::tasks::Step;
use crate::tools::entrez_data::staging;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How long the result of a call that ended at once is kept for its task, ms.
pub const RESULT_TTL_MS: u64 = 60 * 60 * 1000;
/// How long a pending call waits on PubChem before it ends as the call would have, ms.
pub const PUBCHEM_WAIT_MS: u64 = 30 * 60 * 1000;
/// The first wait between two looks at a pending call's ListKey, ms; it grows by half each time.
pub const LOOK_FIRST_MS: u64 = 4_000;
/// The longest wait between two looks, ms.
pub const LOOK_MAX_MS: u64 = 30_000;
/// How long a call run in the background may take before a look counts it lost and starts it again, ms.
pub const RUN_RETAKE_MS: u64 = 5 * 60 * 1000;
/// How many times a call run in the background is started before it ends as lost.
pub const RUN_STARTS: u32 = 3;
/// A call waiting on PubChem, or run in the background: what to run again, and when.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PendingCall {
    tool: String,
    arguments: Value,
    /// PubChem's ListKey; empty for a call run in the background.
    listkey: String,
    /// Polls of its ListKey so far, the call's own included; a call run in the background's starts.
    polls: u32,
    next_ms: u64,
    wait_ms: u64,
    looked_ms: u64,
}

impl PendingCall {
    /// A call run in the background has no ListKey (PubChem's are never empty: `pubchem_listkey`).
    fn runs_in_background(&self) -> bool {
        self.listkey.is_empty()
    }

    /// As it is stored (`{"held": …}` in a kept entry); None for anything else.
    fn read(v: &Value) -> Option<PendingCall> {
        PendingCall::deserialize(v).ok()
    }

    fn write(&self) -> Value {
        crate::json::value(self)
    }
}

/// What a kept entry holds: a `CallToolResult` and when it was kept, a pending call, or a held
/// call its caller cancelled and when. A result never has `done`, `held` or `cancelled` at
/// its top level; one kept bare (before pending calls were) reads as kept when created.
enum Entry {
    Result(Value, Option<u64>),
    Pending(PendingCall),
    Cancelled(u64),
}

impl Entry {
    fn read(text: &str) -> Entry {
        let mut value: Value = crate::json::from_str(text).unwrap_or(Value::Null);
        if let Some(held) = value.get("held").and_then(PendingCall::read) {
            return Entry::Pending(held);
        }
        if let Some(at) = value.get("cancelled") {
            return Entry::Cancelled(at.as_u64().unwrap_or(0));
        }
        match value.get_mut("done").map(Value::take) {
            Some(result) => Entry::Result(result, value["at"].as_u64()),
            None => Entry::Result(value, None),
        }
    }

    fn write(&self) -> String {
        match self {
            Entry::Result(v, at) => json!({ "done": v, "at": at }).to_string(),
            Entry::Pending(h) => json!({ "held": h.write() }).to_string(),
            Entry::Cancelled(at) => json!({ "cancelled": at }).to_string(),
        }
    }

    /// When it last changed, if it says.
    fn changed_ms(&self) -> Option<u64> {
        match self {
            Entry::Result(_, at) => *at,
            Entry::Pending(h) => Some(h.looked_ms),
            Entry::Cancelled(at) => Some(*at),
        }
    }
}

/// The ListKey of a result that says PubChem is still working (`pubchem_search_pending`), and
/// the polls made for it.
pub fn pubchem_listkey(result: &Value) -> Option<(String, u32)> {
    let error = result.get("structuredContent")?.get("error")?;
    if error.get("code")? != "pubchem_search_pending" {
        return None;
    }
    let details = error.get("details")?;
    let polls = details.get("polls").and_then(Value::as_u64).unwrap_or(0);
    let listkey = details.get("listkey")?.as_str().filter(|k| !k.is_empty())?;
    Some((listkey.to_string(), polls as u32))
}

/// Whether a result is a tool's [`RUNS_IN_BACKGROUND`] answer.
pub fn runs_in_background(result: &Value) -> bool {
    result
        .pointer("/structuredContent/error/code")
        .and_then(Value::as_str)
        == Some(RUNS_IN_BACKGROUND)
}

/// Keeps `tool`'s call with `arguments` to run in the background (a call that may outlast a
/// client's patience with no asynchronous answer to hold: BioC's full texts, one request per
/// id), and asks the scheduler to run it. The run acts for nobody, so only calls that spend no
/// NCBI key run in the background; its result is exactly what the call would have returned.
pub async fn run_in_background(
    ctx: &ToolContext<'_>,
    tool: &str,
    arguments: Value,
) -> Result<Task> {
    let now = ctx.platform.now_unix_ms();
    let held = PendingCall {
        tool: tool.to_string(),
        arguments,
        listkey: String::new(),
        polls: 1,
        next_ms: now + RUN_RETAKE_MS,
        wait_ms: RUN_RETAKE_MS,
        looked_ms: now,
    };
    let task = keep(ctx, new_record(ctx, now), Entry::Pending(held)).await?;
    start(ctx, &task.id).await;
    Ok(task)
}

/// Asks the scheduler to run call `id` now. One not asked is started again by a later look.
async fn start(ctx: &ToolContext<'_>, id: &str) {
    if let Some(scheduler) = ctx.staging.and_then(|s| s.scheduler.as_ref()) {
        let _ = scheduler.schedule(id, 0).await;
    }
}

/// Runs call `id` held apart from its request, for the edge's scheduler, with no request behind
/// it (`ctx` is the server's own), and keeps its result unless it ended meanwhile (another
/// run, a cancel). Idle where there is none to run.
pub async fn run_step(ctx: &ToolContext<'_>, id: &str) -> Result<Step> {
    let store = &staging(ctx)?.tasks;
    let now = ctx.platform.now_unix_ms();
    let Some(kept) = store.load(id, now).await? else {
        return Ok(Step::NothingToDo);
    };
    let held = match Entry::read(&kept.result) {
        Entry::Pending(h) if h.runs_in_background() => h,
        _ => return Ok(Step::NothingToDo),
    };
    let result = ctx.registry.call(ctx, &held.tool, held.arguments).await?;
    let now = ctx.platform.now_unix_ms();
    match store.load(id, now).await? {
        Some(current) if matches!(Entry::read(&current.result), Entry::Pending(_)) => {
            keep(ctx, kept, Entry::Result(result, Some(now))).await?;
            Ok(Step::Finished)
        }
        _ => Ok(Step::NothingToDo),
    }
}

/// Keeps a result of a call made a task that ended at once; returns its new task.
pub async fn save_result(ctx: &ToolContext<'_>, result: &Value) -> Result<Task> {
    let now = ctx.platform.now_unix_ms();
    keep(
        ctx,
        new_record(ctx, now),
        Entry::Result(result.clone(), Some(now)),
    )
    .await
}

/// Keeps `tool`'s call with `arguments` pending, which PubChem is still working on under
/// `listkey`: made a task, a PubChem call waits `TASK_HANDOFF_MS` (a few seconds), and if PubChem
/// is still working answers with this task instead of holding its request for a minute. It
/// ends as the call would have, with `pubchem_search_pending` naming the ListKey, after
/// [`PUBCHEM_WAIT_MS`].
pub async fn wait_on_pubchem(
    ctx: &ToolContext<'_>,
    tool: &str,
    arguments: Value,
    (listkey, polls): (String, u32),
) -> Result<Task> {
    let now = ctx.platform.now_unix_ms();
    let held = PendingCall {
        tool: tool.to_string(),
        arguments,
        listkey,
        polls,
        next_ms: now + LOOK_FIRST_MS,
        wait_ms: LOOK_FIRST_MS,
        looked_ms: now,
    };
    keep(ctx, new_record(ctx, now), Entry::Pending(held)).await
}

fn new_record(ctx: &ToolContext<'_>, now: u64) -> StoredTask {
    StoredTask {
        id: new_dataset_id(ctx.platform),
        owner: owner_of(ctx.request).key,
        result: String::new(),
        created_ms: now,
        expires_ms: now + RESULT_TTL_MS,
    }
}

/// Charges `kept` holding `entry` to the caller's account (`staging::ledger::kept`), then
/// keeps it. Boxed: every way a task is kept shares one copy.
fn keep<'a>(
    ctx: &'a ToolContext<'a>,
    kept: StoredTask,
    entry: Entry,
) -> BoxFuture<'a, Result<Task>> {
    Box::pin(charge_and_save(ctx, kept, entry))
}

async fn charge_and_save(
    ctx: &ToolContext<'_>,
    mut kept: StoredTask,
    entry: Entry,
) -> Result<Task> {
    kept.result = entry.write();
    let staging = staging(ctx)?;
    let now = ctx.platform.now_unix_ms();
    let account = account_of(ctx.request, &ctx.config.auth);
    let bytes = kept.result.len() as u64;
    // A call run in the background counts among the calls running until it ends (a start renews it).
    let running = matches!(&entry, Entry::Pending(h) if h.runs_in_background()).then_some(now);
    let charge = (bytes, kept.expires_ms, running_until(running));
    staging
        .ledger
        .charge_task(&kept.id, &account, charge, now)
        .await?;
    staging.tasks.save(kept.clone()).await?;
    Ok(task_of(&kept, entry, now))
}

/// The caller's stored task `id`, if there is one they may see; a pending call whose next look
/// is due looks first: it runs the same call again with the ListKey to collect (once, not
/// afresh), and keeps what it then stands at. Looks come 4 s after the last, the gap growing
/// by half up to 30 s, whatever the client's poll rate, so a task nobody polls asks PubChem
/// nothing. A call in the background that has not ended [`RUN_RETAKE_MS`] after its start is
/// counted lost and started again, at most [`RUN_STARTS`] times.
pub async fn view(ctx: &ToolContext<'_>, id: &str) -> Result<Option<Task>> {
    let now = ctx.platform.now_unix_ms();
    let Some(kept) = owned(ctx, id, now).await? else {
        return Ok(None);
    };
    match Entry::read(&kept.result) {
        Entry::Pending(held) if now >= held.next_ms && held.runs_in_background() => {
            start_again(ctx, kept, held, now).await.map(Some)
        }
        Entry::Pending(held) if now >= held.next_ms => look(ctx, kept, held).await.map(Some),
        entry => Ok(Some(task_of(&kept, entry, now))),
    }
}

/// A call run in the background that has not ended in [`RUN_RETAKE_MS`] is taken for lost (the process or
/// object that ran it stopped): it starts again, or after [`RUN_STARTS`] starts ends as lost.
/// (It writes over what the view read just before, with nothing awaited between: a re-read
/// here could see no more; the stores have no compare-and-set.)
async fn start_again(
    ctx: &ToolContext<'_>,
    kept: StoredTask,
    mut held: PendingCall,
    now: u64,
) -> Result<Task> {
    let again = held.polls < RUN_STARTS;
    let entry = if again {
        held.polls += 1;
        held.next_ms = now + RUN_RETAKE_MS;
        held.looked_ms = now;
        Entry::Pending(held)
    } else {
        let lost = Error::new(
            ErrorKind::Unavailable,
            format!(
                "The server started this call {RUN_STARTS} times and none of the runs ended; it was given up."
            ),
        )
        .with_code("task_lost")
        .suggest("Call again, without a task, or with fewer ids.");
        Entry::Result(ctx.registry.result_of(&held.tool, Err(lost)), Some(now))
    };
    let id = kept.id.clone();
    let task = keep(ctx, kept, entry).await?;
    if again {
        start(ctx, &id).await;
    }
    Ok(task)
}

/// The caller's kept entry `id`, if they own it.
async fn owned(ctx: &ToolContext<'_>, id: &str, now: u64) -> Result<Option<StoredTask>> {
    let owner = owner_of(ctx.request).key;
    let kept = staging(ctx)?.tasks.load(id, now).await?;
    Ok(kept.filter(|k| k.owner == owner))
}

/// Runs a pending call again to collect its ListKey once, and keeps what it then stands at,
/// unless the entry changed meanwhile (another look, a cancel): an ended task stays ended.
/// (Two looks at the very same moment may both ask PubChem; the store has no compare-and-set.)
async fn look(ctx: &ToolContext<'_>, kept: StoredTask, mut held: PendingCall) -> Result<Task> {
    let looked_before = held.looked_ms;
    let resumed = ToolContext {
        progress: None,
        cache_log: Default::default(),
        task: true,
        resume: Some(Resume {
            listkey: held.listkey.clone(),
            polls: held.polls,
            since_ms: kept.created_ms,
        }),
        ..*ctx
    };
    // Not boxed: a boxed copy would repeat the whole call's state machine in the bundle.
    let arguments = held.arguments.clone();
    let result = ctx.registry.call(&resumed, &held.tool, arguments).await?;
    let now = ctx.platform.now_unix_ms();
    let entry = match pubchem_listkey(&result) {
        Some((listkey, polls)) if now < kept.created_ms + PUBCHEM_WAIT_MS => {
            held.listkey = listkey;
            held.polls = polls;
            held.wait_ms = (held.wait_ms + held.wait_ms / 2).min(LOOK_MAX_MS);
            held.next_ms = now + held.wait_ms;
            held.looked_ms = now;
            Entry::Pending(held)
        }
        _ => Entry::Result(result, Some(now)),
    };
    if let Some(changed) = changed(ctx, &kept.id, looked_before, now).await? {
        return Ok(changed);
    }
    keep(ctx, kept, entry).await
}

/// The task as it now stands if held entry `id` changed since its look or start at
/// `looked_before` (another look, a run's end, a cancel): what ended stays ended.
async fn changed(
    ctx: &ToolContext<'_>,
    id: &str,
    looked_before: u64,
    now: u64,
) -> Result<Option<Task>> {
    let Some(current) = owned(ctx, id, now).await? else {
        return Ok(None);
    };
    let entry = Entry::read(&current.result);
    Ok(
        (!matches!(&entry, Entry::Pending(h) if h.looked_ms == looked_before))
            .then(|| task_of(&current, entry, now)),
    )
}

/// Cancels the caller's pending call `id`; its task, cancelled, if it was one (None for a
/// staging's task or anything else).
pub async fn cancel(ctx: &ToolContext<'_>, id: &str) -> Result<Option<Task>> {
    let now = ctx.platform.now_unix_ms();
    match owned(ctx, id, now).await? {
        Some(kept) if matches!(Entry::read(&kept.result), Entry::Pending(_)) => {
            keep(ctx, kept, Entry::Cancelled(now)).await.map(Some)
        }
        _ => Ok(None),
    }
}

fn task_of(kept: &StoredTask, entry: Entry, now: u64) -> Task {
    let updated_ms = entry.changed_ms().unwrap_or(kept.created_ms);
    let (status, message, result) = match entry {
        Entry::Result(v, _) => (Status::Completed, None, Some(v)),
        Entry::Pending(h) if h.runs_in_background() => (
            Status::Working,
            Some(format!(
                "running in the background ({} start(s)); {} s since the last",
                h.polls,
                now.saturating_sub(h.looked_ms) / 1000
            )),
            None,
        ),
        Entry::Pending(h) => (
            Status::Working,
            Some(format!(
                "PubChem is still working on it (ListKey {}, polled {} time(s)); the next look is in {} s",
                h.listkey,
                h.polls,
                h.next_ms.saturating_sub(now).div_ceil(1000)
            )),
            None,
        ),
        Entry::Cancelled(_) => (
            Status::Cancelled,
            Some("cancelled by its caller; its answer was not collected".to_string()),
            None,
        ),
    };
    Task {
        id: kept.id.clone(),
        status,
        message,
        created_ms: kept.created_ms,
        updated_ms: updated_ms.max(kept.created_ms),
        ttl_ms: kept.expires_ms.saturating_sub(kept.created_ms),
        result,
    }
}
