//! Background work: MCP tasks and what runs without a caller waiting.

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
    /// passing fault put the next try off (see [`retry_after_ms`]).
    MoreToDo,
    /// The staging ended (complete, or stopped with its reason stored).
    Finished,
}
