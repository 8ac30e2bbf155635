//! A staging as an MCP task: the task is its dataset (same id, same owner), `working` while it
//! loads, `completed` once complete, `cancelled` when its caller stopped it, a tool error when
//! staging stopped. A staging that was a task keeps the result its last step returned, so the
//! outcome a client polls for is what the call would have returned.

use crate::error::{ErrorKind, Result};
use crate::framework::Registry;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::platform::BoxFuture;
use crate::staging::store::{DatasetInfo, Status as Stored, CANCELLED};
use crate::staging::task_store::StoredTask;
use crate::staging::{owner_of, Staging};
use crate::tasks::calls;
use crate::tasks::task::{Status, Task};
use crate::tools::entrez_data::cursor::in_background;
use crate::tools::entrez_data::{finish, owned_dataset, staging, SPEC};
use serde_json::Value;

/// The caller's task `id`, if there is one they may see. Boxed: every task method and
/// answer reads it, and one copy of its code serves them all.
pub fn view<'a>(ctx: &'a ToolContext<'a>, id: &'a str) -> BoxFuture<'a, Result<Option<Task>>> {
    Box::pin(look_up(ctx, id))
}

async fn look_up(ctx: &ToolContext<'_>, id: &str) -> Result<Option<Task>> {
    let staging = staging(ctx)?;
    let now = ctx.platform.now_unix_ms();
    match owned_dataset(ctx, id).await {
        Ok(info) => {
            let kept = staging.tasks.load(id, now).await?;
            Ok(Some(of_dataset(ctx.registry, &info, kept)))
        }
        Err(e) if e.kind == ErrorKind::NotFound => calls::view(ctx, id).await,
        Err(e) => Err(e),
    }
}

/// The caller's stagings as tasks, newest first.
pub async fn list(ctx: &ToolContext<'_>) -> Result<Vec<Task>> {
    let staging = staging(ctx)?;
    let owner = owner_of(ctx.request);
    if !owner.can_list() {
        return Ok(Vec::new());
    }
    let datasets = staging.store.list(&owner.key).await?;
    Ok(datasets
        .iter()
        .map(|d| of_dataset(ctx.registry, d, None))
        .map(|mut t| {
            // A list says where each stands; the outcome is tasks/result's.
            t.result = None;
            t
        })
        .collect())
}

/// Stops the caller's task `id` if it is working: the task as it then stands, and whether
/// this stopped it (false for one that had ended); None for no task of the caller's.
pub async fn cancel(ctx: &ToolContext<'_>, id: &str) -> Result<Option<(Task, bool)>> {
    // A pending call first, before any view: a view could look (ask PubChem) or start a call
    // run in the background again, which a cancel has no use for.
    if let Some(cancelled) = calls::cancel(ctx, id).await? {
        return Ok(Some((cancelled, true)));
    }
    let Some(task) = view(ctx, id).await? else {
        return Ok(None);
    };
    if task.status.terminal() {
        return Ok(Some((task, false)));
    }
    let staging = staging(ctx)?;
    let now = ctx.platform.now_unix_ms();
    staging.store.cancel(id, now).await?;
    let info = owned_dataset(ctx, id).await?;
    // One cancelled between two steps runs no more: its slot among the stagings running frees
    // now (one cancelled mid-step frees it as the step ends).
    if matches!(info.status, Stored::Failed(_)) {
        let _ = staging
            .ledger
            .record(id, info.bytes, info.expires_ms, 0)
            .await;
    }
    let kept = staging.tasks.load(id, now).await?;
    Ok(Some((of_dataset(ctx.registry, &info, kept), true)))
}

/// Keeps the outcome of a staging task's last step under its dataset's id.
pub async fn save_final_result(
    staging: &Staging,
    registry: &Registry,
    now: u64,
    info: &DatasetInfo,
    outcome: Result<ToolOutput>,
) -> Result<()> {
    let result = registry.result_of(SPEC.name, outcome);
    let kept = StoredTask {
        id: info.id.clone(),
        owner: info.owner.clone(),
        result: result.to_string(),
        created_ms: now,
        expires_ms: info.expires_ms.max(now + calls::RESULT_TTL_MS),
    };
    staging.tasks.save(kept).await
}

fn of_dataset(registry: &Registry, info: &DatasetInfo, kept: Option<StoredTask>) -> Task {
    let in_background = in_background(&info.status);
    let remaining = in_background.as_ref().map(|r| r.work.remaining());
    let (status, message) = match (&info.status, remaining) {
        (Stored::Loading, _) => (
            Status::Working,
            format!("{} records staged so far", info.records),
        ),
        (Stored::Partial(_), Some(left)) => (
            Status::Working,
            match in_background.and_then(|r| r.fault) {
                Some(paused) => format!(
                    "{} records staged, {left} to go; {}",
                    info.records,
                    paused.describe()
                ),
                None => format!("{} records staged, {left} to go", info.records),
            },
        ),
        (Stored::Complete, _) => (
            Status::Completed,
            format!("{} records staged", info.records),
        ),
        (Stored::Failed(reason), _) if reason == CANCELLED => (Status::Cancelled, reason.clone()),
        (Stored::Failed(reason), _) => (Status::Failed, reason.clone()),
        (Stored::Partial(_), None) => (
            Status::Failed,
            "stopped by a passing fault; fetch_and_stage with this data_access_id continues it"
                .to_string(),
        ),
    };
    let result = match status {
        Status::Working | Status::Cancelled => None,
        _ => Some(match kept {
            Some(k) => serde_json::from_str(&k.result).unwrap_or(Value::Null),
            None => {
                registry.result_of(SPEC.name, finish::described(info, status == Status::Failed))
            }
        }),
    };
    Task {
        id: info.id.clone(),
        status: if status == Status::Failed {
            Status::Completed
        } else {
            status
        },
        message: Some(message),
        created_ms: info.created_ms,
        updated_ms: info.updated_ms,
        ttl_ms: info.expires_ms.saturating_sub(info.created_ms),
        result,
    }
}
