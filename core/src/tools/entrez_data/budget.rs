//! How much one `fetch_and_stage` call stages: batches sized to a CPU budget.
//!
//! A Worker request may spend only so much CPU (10 ms on the Workers Free plan,
//! 30 s by default on Paid) and make only so many subrequests (50 and 10,000).
//! Waiting on NCBI costs no CPU; parsing a reply, turning it into rows and
//! encoding them for the dataset's Durable Object does, in proportion to the
//! reply's bytes. A Worker cannot read its own CPU clock (its clock stands still
//! while code runs), so the call meters itself by a model instead ([`Meter`]).
//! What does not fit stays on the source's cursor: the dataset is `partial`,
//! and the next call with its `data_access_id` continues from there.

use crate::allowance::{reply_cost, Allowance, Need, Reply, ReplyCost};
use crate::allowance::{FIRST_CALL_EXTRA_US, PER_BATCH_US, PER_CALL_US};
use crate::tools::entrez_data::plan::Fetch;
use crate::tools::entrez_query::plan::Format;

/// The measured cost of each kind of reply staging reads ([`reply_cost`]).
pub fn cost_of(fetch: Fetch) -> ReplyCost {
    reply_cost(match fetch {
        Fetch::Records(Format::PubmedXml) => Reply::PubmedXml,
        Fetch::Records(Format::PmcXml) => Reply::PmcXml,
        Fetch::Records(Format::GbseqXml) => Reply::GbseqXml,
        Fetch::Records(_) => Reply::OtherRecords,
        Fetch::Summary => Reply::Summary,
    })
}

/// One call's meter: what it has spent by the model, and what the next batch may be.
///
/// The model is a fixed cost per call and per batch ([`PER_CALL_US`], [`PER_BATCH_US`]), and
/// a cost per byte of reply ([`cost_of`]), measured in wasm by `scripts/bench-worker-cpu.sh`
/// (docs/src/workers-plans.md); what fits is [`Allowance::fits`]. With the default budget nothing up to 10,000 records comes
/// near it, and every call stages its source whole, as it always did.
#[derive(Debug, Clone)]
pub struct Meter {
    allowance: Allowance,
    spent_us: u64,
    cost: ReplyCost,
    batches_left: u64,
    bytes: u64,
    records: u64,
}

impl Meter {
    /// A meter for one call under `allowance`, for replies costing `cost`. One subrequest is
    /// kept for a search, and each batch is counted at every attempt the client may make.
    pub fn new(allowance: &Allowance, cost: ReplyCost) -> Meter {
        let attempts = crate::net::retry::RetryPolicy::default().max_attempts;
        Meter {
            allowance: *allowance,
            spent_us: PER_CALL_US,
            cost,
            batches_left: allowance
                .fits(&Need::default().requests(1, 1, attempts))
                .max(1),
            bytes: 0,
            records: 0,
        }
    }

    /// The meter of a dataset's first call, the one a caller waits on: [`FIRST_CALL_EXTRA_US`]
    /// is spent before any batch, so it stages fewer records and the steps after it the rest.
    pub fn first_call(mut self) -> Meter {
        self.spent_us = self.spent_us.saturating_add(FIRST_CALL_EXTRA_US);
        self
    }

    /// Records in the next batch: at most `largest` and `remaining`, as many as the budget
    /// left pays for; 0 when it pays for none. The first batch of a call has at least one
    /// record, so every call moves its dataset forward. The first batch is sized from a
    /// typical record; each later one from the bytes per record seen so far, so long records
    /// make smaller batches.
    pub fn next_batch(&self, largest: u64, remaining: u64) -> u64 {
        if remaining == 0 || self.batches_left == 0 {
            return 0;
        }
        let per_record_bytes = if self.records > 0 {
            self.bytes.div_ceil(self.records)
        } else {
            self.cost.typical_record_bytes
        };
        let per_record_ns = per_record_bytes
            .saturating_mul(self.cost.ns_per_byte)
            .max(1);
        let affordable = self.allowance.fits(&Need {
            once_ns: self
                .spent_us
                .saturating_add(PER_BATCH_US)
                .saturating_mul(1000),
            each_ns: per_record_ns,
            ..Need::default()
        });
        let floor = if self.records == 0 && self.bytes == 0 {
            1
        } else {
            0
        };
        affordable.max(floor).min(largest).min(remaining)
    }

    /// Charges one batch of `bytes` holding `records`.
    pub fn charge(&mut self, bytes: u64, records: u64) {
        self.bytes = self.bytes.saturating_add(bytes);
        self.records = self.records.saturating_add(records);
        self.spent_us = self
            .spent_us
            .saturating_add(PER_BATCH_US)
            .saturating_add(bytes.saturating_mul(self.cost.ns_per_byte) / 1000);
        self.batches_left = self.batches_left.saturating_sub(1);
    }

    /// Whether the budget left pays for work beside the batches (a citation look-up) expected
    /// to cost `us` and to send at most `requests` requests (each counted at every attempt, as
    /// a batch is).
    pub fn affords_side(&self, us: u64, requests: u64) -> bool {
        let side = Need::cpu_us(self.spent_us.saturating_add(PER_BATCH_US), us.max(1));
        self.batches_left >= requests.max(1) && self.allowance.fits(&side) >= 1
    }

    /// Charges a request beside the batches: `bytes` of JSON (parsed at PubMed's rate per
    /// byte) over `requests` subrequests; the records-per-byte estimate of batches is kept.
    pub fn charge_side(&mut self, bytes: u64, requests: u64) {
        self.spent_us = self
            .spent_us
            .saturating_add(PER_BATCH_US)
            .saturating_add(bytes.saturating_mul(self.cost.ns_per_byte) / 1000);
        self.batches_left = self.batches_left.saturating_sub(requests.max(1));
    }

    /// CPU spent so far by the model, µs.
    pub fn spent_us(&self) -> u64 {
        self.spent_us
    }

    /// The budget the plan spends, µs.
    pub fn budget_us(&self) -> u64 {
        self.allowance.planned_us()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(cpu_budget_ms: u64, subrequests: u64) -> Allowance {
        Allowance {
            cpu_budget_ms,
            subrequests,
        }
    }

    #[test]
    fn the_default_budget_never_shrinks_a_batch() {
        let fetch = Fetch::Records(Format::PubmedXml);
        let mut m = Meter::new(&Allowance::default(), cost_of(fetch));
        for _ in 0..20 {
            assert_eq!(m.next_batch(500, 10_000), 500);
            m.charge(500 * 17_000, 500);
        }
        assert_eq!(m.next_batch(500, 0), 0, "nothing remaining");
    }

    #[test]
    fn a_free_plan_budget_sizes_batches_by_the_bytes_seen() {
        let fetch = Fetch::Records(Format::PubmedXml);
        let mut m = Meter::new(&limits(10, 50), cost_of(fetch));
        let first = m.next_batch(500, 1_000);
        assert!(first > 10 && first < 500, "first batch {first}");
        let mut typical = m.clone();
        typical.charge(first * 17_000, first);
        assert!(
            typical.spent_us() <= typical.budget_us(),
            "typical records fit the plan"
        );
        assert!(typical.budget_us() <= 10_000);
        // Records twice as long as typical: the call stops instead of taking another batch.
        m.charge(first * 34_000, first);
        assert_eq!(m.next_batch(500, 1_000 - first), 0);
    }

    #[test]
    fn a_datasets_first_call_plans_for_its_search_and_a_cold_isolate() {
        let cost = cost_of(Fetch::Records(Format::PubmedXml));
        let step = Meter::new(&limits(10, 50), cost).next_batch(500, 1_000);
        let first = Meter::new(&limits(10, 50), cost).first_call();
        let planned = first.next_batch(500, 1_000);
        assert!(
            planned >= 10 && planned < step,
            "first call {planned}, a step {step}"
        );
        let mut typical = first.clone();
        typical.charge(planned * 17_000, planned);
        assert!(typical.spent_us() <= typical.budget_us());
        assert_eq!(
            Meter::new(&Allowance::default(), cost)
                .first_call()
                .next_batch(500, 10_000),
            500,
            "the default budget is untouched"
        );
    }

    #[test]
    fn every_call_stages_at_least_one_record() {
        let mut m = Meter::new(&limits(1, 50), cost_of(Fetch::Records(Format::PmcXml)));
        assert_eq!(m.next_batch(100, 5), 1);
        m.charge(2_000_000, 1);
        assert_eq!(m.next_batch(100, 4), 0);
    }

    #[test]
    fn subrequests_bound_the_batches() {
        let mut m = Meter::new(&limits(30_000, 16), cost_of(Fetch::Summary));
        let mut batches = 0;
        while m.next_batch(500, 10_000) > 0 {
            m.charge(1_000, 500);
            batches += 1;
        }
        assert_eq!(
            batches, 3,
            "7 subrequests: one search, three batches and their retries"
        );
    }
}
