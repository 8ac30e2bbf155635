//! `wait_seconds`: a call that waits, at no cost, for a staging the server continues by itself.
//!
//! A client without MCP tasks would otherwise ask `list_datasets` again and again until a
//! dataset reads `complete`. Instead `query` and `schema` (before they answer) and
//! `fetch_and_stage` (after its own batches) may wait up to `wait_seconds` for the staging to
//! end. Waiting is sleeping between looks at the dataset (on Workers, wall time: no CPU); the
//! answer says how long it waited and, when the limit passed first, that it covers only the
//! records staged so far.

use crate::error::Result;
use crate::framework::ToolContext;
use crate::staging::store::{DatasetInfo, Status};
use crate::tools::entrez_data::{cursor, owned_dataset};

/// The longest a call may wait, in seconds (a client's request timeout is a minute or two).
pub const MAX_WAIT_SECS: u64 = 120;

/// The first gap between two looks at the dataset, ms; it grows by half each time.
const FIRST_LOOK_MS: u64 = 500;
/// The longest gap between two looks, ms: on Workers each look is a subrequest to the
/// dataset's Durable Object, so two minutes of waiting cost at most about 30 of the
/// Free plan's 50.
const LONGEST_LOOK_MS: u64 = 5_000;

/// How long a call waits, ms, from its `wait_seconds` (none by default, at most
/// [`MAX_WAIT_SECS`]).
pub fn wait_ms(wait_seconds: Option<u64>) -> u64 {
    wait_seconds.unwrap_or(0).min(MAX_WAIT_SECS) * 1000
}

/// Whether the dataset's staging is still going on: loading in a call or a step, or partial
/// with the server continuing it by itself.
pub fn staging_goes_on(info: &DatasetInfo) -> bool {
    matches!(info.status, Status::Loading) || cursor::in_background(&info.status).is_some()
}

/// The caller's dataset `id` once its staging has ended or `wait_ms` has passed, whichever
/// comes first, and a sentence saying what the wait did (none when the call did not wait).
pub async fn dataset(
    ctx: &ToolContext<'_>,
    id: &str,
    wait_ms: u64,
) -> Result<(DatasetInfo, Option<String>)> {
    let info = owned_dataset(ctx, id).await?;
    after(ctx, info, wait_ms).await
}

/// [`dataset`] for a dataset already read.
pub async fn after(
    ctx: &ToolContext<'_>,
    mut info: DatasetInfo,
    wait_ms: u64,
) -> Result<(DatasetInfo, Option<String>)> {
    let Some(network) = ctx
        .network
        .filter(|_| wait_ms > 0 && staging_goes_on(&info))
    else {
        return Ok((info, None));
    };
    let started = ctx.platform.now_unix_ms();
    let deadline = started.saturating_add(wait_ms);
    let mut gap = FIRST_LOOK_MS;
    loop {
        let now = ctx.platform.now_unix_ms();
        if now >= deadline {
            break;
        }
        network.transport.sleep(gap.min(deadline - now)).await;
        info = owned_dataset(ctx, &info.id).await?;
        if let Some(progress) = ctx.progress {
            progress.report(
                info.records as f64,
                None,
                &format!("waiting for the staging: {} records so far", info.records),
            );
        }
        if !staging_goes_on(&info) {
            break;
        }
        gap = (gap + gap / 2).min(LONGEST_LOOK_MS);
    }
    let waited_s = (ctx.platform.now_unix_ms().saturating_sub(started) + 500) / 1000;
    let note = if staging_goes_on(&info) {
        format!(
            "Waited {waited_s} s (wait_seconds {}): the staging goes on, {} records so far; this answer covers those. Call again with wait_seconds to wait longer.",
            wait_ms / 1000,
            info.records
        )
    } else {
        format!("Waited {waited_s} s for the staging to end.")
    };
    Ok((info, Some(note)))
}
