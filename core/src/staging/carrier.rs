//! Staging the server carries on by itself, once the call that started it has answered.
//!
//! A call's CPU budget (`ENTREZ_CPU_BUDGET_MS`, 10 ms on the Workers Free plan)
//! pays for a few batches; the rest of a large staging used to wait for the
//! model to call again with the dataset's id, and a model that stopped calling
//! left the dataset `partial` for good. An edge that can run work after a
//! request has answered gives the core a [`Carrier`]: when a step ends with
//! records left, the core stores the cursor with the dataset (marked as carried
//! on) and asks the carrier for another step. Natively a step is a task on the
//! runtime; on Workers it is an alarm of the dataset's own Durable Object, so
//! each step has an invocation (and a CPU budget) of its own and the staging
//! survives the request, the isolate and a restart.
//!
//! A step is `protocol::Server::carry_on`: it takes the dataset up from its
//! stored cursor, stages what one budget pays for through the same pacing as
//! every other request, and stores the cursor again. Records are appended with
//! `INSERT OR IGNORE` on their keys and counted by the rows that changed, so a
//! step that is repeated after a crash adds nothing twice.

use crate::error::Result;
use crate::platform::{BoxFuture, MaybeSendSync};

/// How long a step that is `loading` may write nothing before it counts as stopped (its
/// process or isolate gone) and the staging is taken up again from its stored cursor. A step
/// writes after every batch; one batch waits at most for pacing, a request's timeout and its
/// retries, well inside this.
pub const RETAKE_MS: u64 = 120_000;

/// Whether a stored position (a dataset's reason column while partial or loading) says the
/// server carries its staging on: the cursor's `carried_on` (`tools::entrez_data::cursor`),
/// read here so that the stores need not know the cursor's shape.
pub fn is_carried(stored: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(stored)
        .is_ok_and(|v| v.get("carried_on") == Some(&serde_json::Value::Bool(true)))
}

/// Somewhere a partial staging's next step runs without its caller.
pub trait Carrier: MaybeSendSync {
    /// Asks for one more step of dataset `id`'s staging, soon; an error when this
    /// edge cannot take it now (the dataset then waits, `partial`, for a caller).
    fn carry_on<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<()>>;
}

/// What one step left behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing to do: the dataset is gone, complete, failed, or no longer carried on.
    Idle,
    /// Batches were staged and records remain; the next step has been asked for.
    More,
    /// The staging ended (complete, or stopped with its reason stored).
    Ended,
}
