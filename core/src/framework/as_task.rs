//! What a tool knows of the MCP task its call may run as (the tasks themselves, and how they
//! are kept, looked at and run, are in `crate::tasks`): whether the caller asked for one
//! ([`crate::framework::ToolContext::task`]), a PubChem ListKey to collect when a pending call
//! runs again, and how a call says it should run in the background instead of in its request.

use crate::error::{Error, ErrorKind};
use crate::framework::ToolContext;

/// The code of the error a tool answers, made a task, for a call that runs in the background.
pub const RUNS_IN_BACKGROUND: &str = "runs_in_background";

/// A pending call's ListKey, for the call run again to collect instead of asking afresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resume {
    /// The ListKey PubChem named when it took the request.
    pub listkey: String,
    /// Polls made for it so far.
    pub polls: u32,
    /// When the call was first made, Unix ms.
    pub since_ms: u64,
}

/// The answer of a tool whose call, made a task, runs in the background, where the server has a scheduler
/// to run it; None where it runs in the request as any other. Only for calls that spend no
/// NCBI key and read nothing of their caller's but the arguments: the run acts for nobody.
pub fn in_background(ctx: &ToolContext<'_>) -> Option<Error> {
    let in_background = ctx.staging.is_some_and(|s| s.scheduler.is_some());
    (ctx.task && in_background).then(|| {
        Error::new(
            ErrorKind::Internal,
            "This call runs in the background, as a task.",
        )
        .with_code(RUNS_IN_BACKGROUND)
    })
}
