//! What one call may spend, what its work costs, and the one rule for what fits.
//!
//! A Workers request may spend only so much CPU and make only so many subrequests (Free plan:
//! 10 ms and 50), which `ENTREZ_CPU_BUDGET_MS` and `ENTREZ_SUBREQUESTS` tell the server
//! ([`Allowance`]). A Worker cannot read its own CPU clock, so a call plans by a model: the
//! costs measured in the Worker's wasm (this file's constants and [`reply_cost`]), and
//! [`Allowance::fits`], the one rule: how many items of a plan fit in 80% of the CPU (the rest
//! absorbs the model's error) and in the subrequests, each request counted at every attempt.
//! Staging, exports and bibliographies, `count_by_year`, reference checks, full text,
//! citations and citation networks ask it.

/// Default CPU one call may spend, ms: the Workers Paid plan's default per request.
pub const DEFAULT_CPU_BUDGET_MS: u64 = 30_000;
/// Default external subrequests one call may make: the Workers Paid plan's default.
pub const DEFAULT_SUBREQUESTS: u64 = 10_000;
/// The share of the CPU a plan spends, percent; the rest absorbs the model's error.
pub const PLANNED_SHARE_PERCENT: u64 = 80;

/// What a call costs before and besides the items it plans, µs of wasm CPU: reading and
/// checking the arguments, the result (a staging: the dataset's creation and finish).
pub const PER_CALL_US: u64 = 1_000;
/// What a dataset's first call costs besides [`PER_CALL_US`], µs: its search, the dataset's
/// creation and admission, and, in an isolate's first staging, code V8 has not yet optimized.
/// Measured in wasm (docs/src/workers-plans.md): after the start-up rehearsal, a fresh
/// isolate's first free-plan call ran 3-4 ms over a warm one's; with this much set aside it
/// takes 6.3-6.7 ms of CPU (8-10 ms wall on a busy machine), the steps after it 4.4 ms median.
pub const FIRST_CALL_EXTRA_US: u64 = 4_500;
/// What each staging batch costs besides its bytes, µs: the request, the append's envelope.
pub const PER_BATCH_US: u64 = 200;
/// What writing one record of an export costs, µs: the costliest format measured in the
/// Worker's wasm (`bench_export`, worker/src/cpu_bench.rs: 43 µs for CSV to 149 µs for a
/// Chicago bibliography in Markdown, the records read from JSON included; docs/src/export.md).
pub const CPU_US_PER_RECORD: u64 = 150;
/// The same for one row of a query's CSV or JSON Lines: an estimate, not measured.
pub const CPU_US_PER_ROW: u64 = 10;
/// What counting one year of `count_by_year` costs, µs: the search's request, its pacing and
/// cache lookups, its reply's parsing and its bar (measured at 80 µs, docs/src/charts.md;
/// half again for what the stand-ins there do not cost).
pub const CPU_US_PER_YEAR: u64 = 120;
/// What drawing a chart costs, µs, with reading the call and writing its PNG (measured at
/// 2 ms for `count_by_year` with one year, 0.7-2.7 ms for the named charts, docs/src/charts.md).
pub const CPU_US_TO_DRAW: u64 = 2_500;

/// What one citation look-up of 200 papers costs, µs (iCite's JSON, about 1 KB a paper, read
/// into rows): an estimate from PubMed's JSON rate per byte, not measured.
pub const CPU_US_PER_LOOKUP: u64 = 2_500;

/// What one paper of `entrez_query` `citations` costs, µs: its iCite record (about 1 KB)
/// and its esummary (2.5 KB, [`reply_cost`]'s typical summary) read at the summaries' 12 ns
/// a byte: an estimate, not measured. The Free plan's 7 ms after the call pays for 166.
pub const CPU_US_PER_CITATION: u64 = 42;

/// The kinds of reply a staging parses, each with its measured cost ([`reply_cost`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// PubMed's efetch XML.
    PubmedXml,
    /// PMC's JATS XML.
    PmcXml,
    /// GenBank's GBSeq XML.
    GbseqXml,
    /// Any other efetch format.
    OtherRecords,
    /// esummary's JSON.
    Summary,
}

/// The measured cost of one kind of reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyCost {
    /// Nanoseconds of wasm CPU per byte of reply: parse, rows, and the append's encoding.
    pub ns_per_byte: u64,
    /// Bytes one record typically takes in the reply, before any has been seen.
    pub typical_record_bytes: u64,
}

/// What parsing each kind of reply into rows costs.
pub fn reply_cost(reply: Reply) -> ReplyCost {
    // PubMed is measured: 11-12.4 ns per byte for parse, rows and the append's JSON texts
    // (92-104 ms for a 500-article reply of 8.35 MB), 16.7 KB per article in the recorded
    // replies (docs/src/workers-plans.md; the 7.3 ns measured before the append became JSON
    // texts let free-plan steps run to 14-16 ms). The other forms are not benchmarked in
    // wasm; they are priced a little above PubMed's rate, and the bytes-per-record estimate
    // gives way to the bytes seen after the first batch.
    let (ns_per_byte, typical_record_bytes) = match reply {
        Reply::PubmedXml => (11, 17_000),
        Reply::PmcXml => (12, 120_000),
        Reply::GbseqXml => (12, 20_000),
        Reply::OtherRecords => (12, 4_000),
        Reply::Summary => (12, 2_500),
    };
    ReplyCost {
        ns_per_byte,
        typical_record_bytes,
    }
}

/// What one call may spend: `ENTREZ_CPU_BUDGET_MS` and `ENTREZ_SUBREQUESTS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    /// CPU one call may spend, ms (Workers: the plan's CPU limit per request); what a call
    /// cannot do within it, a later call or a step the server runs by itself continues.
    pub cpu_budget_ms: u64,
    /// Upstream requests one call may make, every attempt counted (Workers: subrequests).
    pub subrequests: u64,
}

impl Default for Allowance {
    fn default() -> Self {
        Allowance {
            cpu_budget_ms: DEFAULT_CPU_BUDGET_MS,
            subrequests: DEFAULT_SUBREQUESTS,
        }
    }
}

/// What a plan needs of a call: a part paid once, and a part per item (a batch, a year, a
/// record written, an article read), in CPU and in upstream requests. A zero per-item cost
/// means that resource does not bound the items.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Need {
    /// CPU spent once (or already), ns.
    pub once_ns: u64,
    /// CPU per item, ns.
    pub each_ns: u64,
    /// Requests made once (a search before the batches).
    pub once_requests: u64,
    /// Requests per item.
    pub each_requests: u64,
    /// How many times the client may try each request; every try is a subrequest.
    pub attempts: u32,
}

impl Need {
    /// Items that cost `each_us` µs of CPU apiece after `once_us`.
    pub fn cpu_us(once_us: u64, each_us: u64) -> Need {
        Need {
            once_ns: once_us.saturating_mul(1000),
            each_ns: each_us.saturating_mul(1000),
            ..Need::default()
        }
    }

    /// The same items, each also making `each` requests (after `once`), tried `attempts` times.
    pub fn requests(self, once: u64, each: u64, attempts: u32) -> Need {
        Need {
            once_requests: once,
            each_requests: each,
            attempts,
            ..self
        }
    }
}

impl Allowance {
    /// The Workers Free plan's setting: 10 ms of CPU and 50 subrequests per call.
    pub const FREE_PLAN: Allowance = Allowance {
        cpu_budget_ms: 10,
        subrequests: 50,
    };

    /// Defaults overridden by positive integers found through `lookup`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Allowance {
        let d = Allowance::default();
        let get = |name: &str, default: u64| {
            lookup(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|v| *v > 0)
                .unwrap_or(default)
        };
        Allowance {
            cpu_budget_ms: get("ENTREZ_CPU_BUDGET_MS", d.cpu_budget_ms),
            subrequests: get("ENTREZ_SUBREQUESTS", d.subrequests),
        }
    }

    /// The CPU a call plans to spend, µs: [`PLANNED_SHARE_PERCENT`] of its budget.
    pub fn planned_us(&self) -> u64 {
        self.cpu_budget_ms
            .saturating_mul(1000)
            .saturating_mul(PLANNED_SHARE_PERCENT)
            / 100
    }

    /// What fits this call: how many items of `need` its planned CPU and its subrequests pay
    /// for, after the part paid once. Every "how much may this call do" asks this.
    pub fn fits(&self, need: &Need) -> u64 {
        let by_cpu = match need.each_ns {
            0 => u64::MAX,
            each => {
                self.planned_us()
                    .saturating_mul(1000)
                    .saturating_sub(need.once_ns)
                    / each
            }
        };
        let by_requests = match need.each_requests {
            0 => u64::MAX,
            each => {
                (self.subrequests / u64::from(need.attempts.max(1)))
                    .saturating_sub(need.once_requests)
                    / each
            }
        };
        by_cpu.min(by_requests)
    }

    /// The allowance as JSON, for results that explain the limits.
    pub fn to_value(&self) -> serde_json::Value {
        crate::json!({
            "cpu_budget_ms_per_call": self.cpu_budget_ms,
            "subrequests_per_call": self.subrequests,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_spends_four_fifths_of_the_cpu() {
        assert_eq!(Allowance::FREE_PLAN.planned_us(), 8_000);
        assert_eq!(Allowance::default().planned_us(), 24_000_000);
        // 8 ms hold 53 items of 150 µs, not the 66 of the whole 10 ms nor the 33 of half.
        assert_eq!(Allowance::FREE_PLAN.fits(&Need::cpu_us(0, 150)), 53);
        // What is paid once comes first: 7 ms left, 46 items.
        assert_eq!(Allowance::FREE_PLAN.fits(&Need::cpu_us(1_000, 150)), 46);
        // Nothing once the fixed part is over the plan.
        assert_eq!(Allowance::FREE_PLAN.fits(&Need::cpu_us(9_000, 1)), 0);
    }

    #[test]
    fn each_request_is_counted_at_every_attempt() {
        let free = Allowance::FREE_PLAN;
        // 50 subrequests at 4 attempts: 12 requests; one kept for a search, 11 batches.
        assert_eq!(free.fits(&Need::default().requests(0, 1, 4)), 12);
        assert_eq!(free.fits(&Need::default().requests(1, 1, 4)), 11);
        // At 3 attempts, 16 requests: 4 once, then 3 per article, 4 articles.
        assert_eq!(free.fits(&Need::default().requests(4, 3, 3)), 4);
        // Attempts of 0 count as one.
        assert_eq!(free.fits(&Need::default().requests(0, 1, 0)), 50);
    }

    #[test]
    fn the_scarcer_resource_decides() {
        let free = Allowance::FREE_PLAN;
        // count_by_year on the Free plan: CPU pays for 45 years, requests for 12.
        let years = Need::cpu_us(CPU_US_TO_DRAW, CPU_US_PER_YEAR).requests(0, 1, 4);
        assert_eq!(
            free.fits(&Need::cpu_us(CPU_US_TO_DRAW, CPU_US_PER_YEAR)),
            45
        );
        assert_eq!(free.fits(&years), 12);
        let plenty = Allowance {
            subrequests: 10_000,
            ..free
        };
        assert_eq!(plenty.fits(&years), 45);
        // Neither bounding: everything fits.
        assert_eq!(free.fits(&Need::default()), u64::MAX);
    }

    #[test]
    fn environment_overrides_defaults_and_ignores_nonsense() {
        let a = Allowance::from_lookup(|n| match n {
            "ENTREZ_CPU_BUDGET_MS" => Some(" 10 ".into()),
            "ENTREZ_SUBREQUESTS" => Some("0".into()),
            _ => None,
        });
        assert_eq!(a.cpu_budget_ms, 10);
        assert_eq!(a.subrequests, DEFAULT_SUBREQUESTS);
        assert_eq!(
            Allowance::from_lookup(|_| Some("many".into())),
            Allowance::default()
        );
    }
}
