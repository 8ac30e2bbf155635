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

/// Times in a row a staging the server carries on is tried again after a passing fault (NCBI
/// unreachable, or rate limiting that outlasted a request's own retries) before it is left,
/// `partial`, for a caller to continue.
pub const FAULT_RETRIES: u32 = 5;

/// How long after its `faults`-th passing fault in a row a carried staging is tried again:
/// 30 s, doubling each time, at most 8 min; None once [`FAULT_RETRIES`] are spent. A fault
/// outlasted a request's own retries (up to a minute), so the next try waits longer still,
/// and the five tries span about a quarter of an hour.
pub fn retry_after_ms(faults: u32) -> Option<u64> {
    (faults > 0 && faults <= FAULT_RETRIES).then(|| (30_000u64 << (faults - 1)).min(480_000))
}

/// Whether a stored position (a dataset's reason column while partial or loading) says the
/// server carries its staging on: the cursor's `carried_on` (`tools::entrez_data::cursor`),
/// read here so that the stores need not know the cursor's shape.
pub fn is_carried(stored: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(stored)
        .is_ok_and(|v| v.get("carried_on") == Some(&serde_json::Value::Bool(true)))
}

/// Somewhere a partial staging's next step runs without its caller.
pub trait Carrier: MaybeSendSync {
    /// Asks for one more step of dataset `id`'s staging, `after_ms` from now (0: soon); an
    /// error when this edge cannot take it (the dataset then waits, `partial`, for a caller).
    fn carry_on<'a>(&'a self, id: &'a str, after_ms: u64) -> BoxFuture<'a, Result<()>>;
}

/// What one step left behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Nothing to do: the dataset is gone, complete, failed, or no longer carried on.
    Idle,
    /// Records remain and the next step has been asked for: batches were staged, or a
    /// passing fault put the next try off (see [`retry_after_ms`]).
    More,
    /// The staging ended (complete, or stopped with its reason stored).
    Ended,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_carried_staging_backs_off_after_passing_faults_then_stops_trying() {
        let waits: Vec<Option<u64>> = (0..=FAULT_RETRIES + 1).map(retry_after_ms).collect();
        assert_eq!(
            waits,
            vec![
                None,
                Some(30_000),
                Some(60_000),
                Some(120_000),
                Some(240_000),
                Some(480_000),
                None
            ]
        );
    }
}
