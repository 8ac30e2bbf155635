//! Background work: MCP tasks, and what runs after the request that started it answered.
//! [`task`] is a task as data in both revisions' wire forms and [`methods`] answers
//! `tasks/*` and `tools/call` with a task; [`staging`] is a staging as a task (its task is its
//! dataset) and [`staging_step`] one step of a staging the server continues by itself;
//! [`calls`] the other tasks (a result kept at once, a PubChem call pending while PubChem
//! works, a call that runs in the background). The edges come in through
//! `staging::scheduler::Scheduler` (natively a task on the runtime, on Workers a Durable
//! Object alarm) and `staging::task_store::TaskStore`; `protocol::Server::run_step` is the
//! step.

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
