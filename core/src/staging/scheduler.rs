//! Stagings the server continues by itself once the call that started them has answered.
//!
//! A call's CPU budget (`ENTREZ_CPU_BUDGET_MS`, 10 ms on the Workers Free plan) pays for a
//! few batches. Where the edge can run work after a request has answered, it gives the core a
//! [`Scheduler`] (natively a task on the runtime, on Workers an alarm of the dataset's own
//! Durable Object): a staging with records left stores its cursor marked as continued in the
//! background and asks for another step, which `protocol::Server::run_step` runs (see
//! `crate::tasks`). Records go in with `INSERT OR IGNORE` on their keys, so a step repeated
//! after a crash adds nothing twice.

use crate::error::Result;
use crate::platform::{BoxFuture, MaybeSendSync};

/// How long a step that is `loading` may write nothing before it counts as stopped (its
/// process or isolate gone) and the staging is taken up again from its stored cursor. A step
/// writes after every batch; one batch waits at most for pacing, a request's timeout and its
/// retries, well inside this.
pub const RETAKE_MS: u64 = 120_000;

/// Times in a row a staging the server continues is tried again after a passing fault (NCBI
/// unreachable, or rate limiting that outlasted a request's own retries) before it is left,
/// `partial`, for a caller to continue.
pub const FAULT_RETRIES: u32 = 5;

/// How long after its `faults`-th passing fault in a row a in_background staging is tried again:
/// 30 s, doubling each time, at most 8 min; None once [`FAULT_RETRIES`] are spent. A fault
/// outlasted a request's own retries (up to a minute), so the next try waits longer still,
/// and the five tries span about a quarter of an hour.
pub fn retry_after_ms(faults: u32) -> Option<u64> {
    (faults > 0 && faults <= FAULT_RETRIES).then(|| (30_000u64 << (faults - 1)).min(480_000))
}

/// Whether a stored position (a dataset's reason column while partial or loading) says the
/// server carries its staging on: the cursor's `carried_on` (`tools::entrez_data::cursor`),
/// read here so that the stores need not know the cursor's shape.
pub fn in_background(stored: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(stored)
        .is_ok_and(|v| v.get("carried_on") == Some(&serde_json::Value::Bool(true)))
}

/// How the edge runs a background step later: a partial staging's next step, or a call that
/// runs in the background (see `crate::tasks`).
pub trait Scheduler: MaybeSendSync {
    /// Asks for one more step of dataset `id`'s staging, `after_ms` from now (0: soon); an
    /// error when this edge cannot take it (the dataset then waits, `partial`, for a caller).
    fn schedule<'a>(&'a self, id: &'a str, after_ms: u64) -> BoxFuture<'a, Result<()>>;
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
