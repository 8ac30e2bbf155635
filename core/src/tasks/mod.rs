//! Background work: MCP tasks, and what runs after the request that started it answered.
//!
//! - [`task`]: a task as data (its status: `working`, `input_required`, `completed`, `failed`,
//!   `cancelled`) in both revisions' wire forms; [`methods`]: `tasks/*` and `tools/call`
//!   answered with a task.
//! - [`staging`]: a staging as a task (its task is its dataset); [`staging_step`]: one step of
//!   a staging the server continues by itself.
//! - [`calls`]: the other tasks: a result kept at once, a PubChem call pending while PubChem
//!   works, a call that runs in the background.
//! - Where the edges come in: `staging::scheduler::Scheduler` runs a step later (natively a
//!   task on the runtime, on Workers a Durable Object alarm), `staging::task_store::TaskStore`
//!   keeps what tasks hold, `protocol::Server::run_step` is the step.

pub mod calls;
pub mod methods;
pub mod staging;
pub mod staging_step;
pub mod task;

/// What one background step left behind (`protocol::Server::run_step`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing to do: the dataset is gone, complete, failed, or no longer continued.
    NothingToDo,
    /// Records remain and the next step has been asked for: batches were staged, or a
    /// passing fault put the next try off (see [`crate::staging::scheduler::retry_after_ms`]).
    MoreToDo,
    /// The staging ended (complete, or stopped with its reason stored).
    Finished,
}
