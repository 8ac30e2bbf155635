//! What load tests need to judge a client: how many requests arrived, how
//! many were refused, and the most requests any caller packed into one
//! second. The maximum is kept exactly over every sliding one-second window
//! of arrival times (refused requests included, since NCBI sees those too),
//! and updated on arrival so it survives the cap on retained timestamps.
//! Every efetch answered with records is written down with the ids it asked
//! for, so a test can tell whether a client fetched anything twice.

use serde_json::{json, Map, Value};
use std::collections::{HashMap, VecDeque};

/// Most arrival timestamps kept for the stats report.
pub const MAX_TIMESTAMPS: usize = 100_000;
/// Most efetch requests written down (the oldest go first).
pub const MAX_FETCHES: usize = 10_000;
const WINDOW_US: u64 = 1_000_000;

/// What one efetch asked for.
#[derive(Debug)]
pub enum Fetched {
    /// The ids it named, in its order.
    Ids(Vec<String>),
    /// A slice of a history set.
    History {
        /// The first position.
        retstart: u64,
        /// How many.
        retmax: u64,
    },
}

#[derive(Debug, Default)]
struct PerCaller {
    window: VecDeque<u64>,
    max: usize,
}

/// Counters and arrival times since start or the last reset.
#[derive(Debug, Default)]
pub struct Stats {
    requests: u64,
    rate_limited: u64,
    faulted: u64,
    missing_tool: u64,
    posts: u64,
    gets: u64,
    callers: HashMap<String, PerCaller>,
    timestamps: VecDeque<(String, u64)>,
    pacing: VecDeque<Value>,
    fetches: VecDeque<Value>,
}

impl Stats {
    /// Records one E-utilities arrival at `at_us` microseconds since the epoch.
    pub fn arrival(&mut self, caller: &str, at_us: u64, post: bool, missing_tool: bool) {
        self.requests += 1;
        if post {
            self.posts += 1;
        } else {
            self.gets += 1;
        }
        if missing_tool {
            self.missing_tool += 1;
        }
        let c = self.callers.entry(caller.to_string()).or_default();
        while c
            .window
            .front()
            .is_some_and(|t| at_us.saturating_sub(*t) >= WINDOW_US)
        {
            c.window.pop_front();
        }
        c.window.push_back(at_us);
        c.max = c.max.max(c.window.len());
        if self.timestamps.len() == MAX_TIMESTAMPS {
            self.timestamps.pop_front();
        }
        self.timestamps
            .push_back((caller.to_string(), at_us / 1000));
    }

    /// Records the pacing trace a request in_background (`slot=..;asked=..;granted=..;woke=..;by=..`),
    /// with its arrival, so a benchmark can tell where a request's time went and a test which
    /// authority paced it.
    pub fn paced(&mut self, caller: &str, at_us: u64, trace: &str) {
        let mut entry = Map::new();
        entry.insert("caller".into(), json!(caller));
        entry.insert("arrived_us".into(), json!(at_us));
        for part in trace.split(';') {
            if let Some((k, v)) = part.split_once('=') {
                let v = v.trim();
                match v.parse::<u64>() {
                    Ok(n) => entry.insert(k.trim().to_string(), json!(n)),
                    Err(_) => entry.insert(k.trim().to_string(), json!(v)),
                };
            }
        }
        if self.pacing.len() == MAX_TIMESTAMPS {
            self.pacing.pop_front();
        }
        self.pacing.push_back(Value::Object(entry));
    }

    /// Writes down an efetch answered as NCBI would (not refused, not faulted): its
    /// database and either the ids it named or the history slice it asked for.
    pub fn fetched(&mut self, caller: &str, db: &str, what: Fetched) {
        let mut entry = Map::new();
        entry.insert("caller".into(), json!(caller));
        entry.insert("db".into(), json!(db));
        match what {
            Fetched::Ids(ids) => entry.insert("ids".into(), json!(ids)),
            Fetched::History { retstart, retmax } => {
                entry.insert("retstart".into(), json!(retstart));
                entry.insert("retmax".into(), json!(retmax))
            }
        };
        if self.fetches.len() == MAX_FETCHES {
            self.fetches.pop_front();
        }
        self.fetches.push_back(Value::Object(entry));
    }

    /// Counts a request answered 429 by the limiter.
    pub fn limited(&mut self) {
        self.rate_limited += 1;
    }

    /// Counts a request answered by fault injection.
    pub fn faulted(&mut self) {
        self.faulted += 1;
    }

    /// Starts over.
    pub fn clear(&mut self) {
        *self = Stats::default();
    }

    /// The report served at /__replay/stats.
    pub fn to_json(&self) -> Value {
        let mut max = Map::new();
        for (caller, c) in &self.callers {
            max.insert(caller.clone(), json!(c.max));
        }
        let mut times: Map<String, Value> = Map::new();
        for (caller, ms) in &self.timestamps {
            let list = times
                .entry(caller.clone())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(v) = list {
                v.push(json!(ms));
            }
        }
        json!({
            "requests": self.requests,
            "rate_limited": self.rate_limited,
            "faulted": self.faulted,
            "missing_tool": self.missing_tool,
            "posts": self.posts,
            "gets": self.gets,
            "max_in_any_1s_window": max,
            "timestamps_ms": times,
            "pacing": self.pacing.iter().cloned().collect::<Vec<_>>(),
            "efetch": self.fetches.iter().cloned().collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_is_taken_over_sliding_windows_not_calendar_seconds() {
        let mut s = Stats::default();
        // Two at the end of one calendar second and two at the start of the
        // next: four within 200 ms, which calendar buckets would call two.
        for us in [900_000, 950_000, 1_000_000, 1_100_000, 2_500_000] {
            s.arrival("ip:127.0.0.1", us, false, false);
        }
        s.arrival("key:ab12cd34", 0, true, true);
        let j = s.to_json();
        assert_eq!(j["max_in_any_1s_window"]["ip:127.0.0.1"], 4);
        assert_eq!(j["max_in_any_1s_window"]["key:ab12cd34"], 1);
        assert_eq!(j["timestamps_ms"]["ip:127.0.0.1"][0], 900);
        assert_eq!(
            (j["posts"].as_u64(), j["missing_tool"].as_u64()),
            (Some(1), Some(1))
        );
    }

    #[test]
    fn fetches_are_written_down_with_their_ids_or_slice() {
        let mut s = Stats::default();
        s.fetched(
            "ip:127.0.0.1",
            "pubmed",
            Fetched::Ids(vec!["1".into(), "2".into()]),
        );
        s.fetched(
            "key:ab12cd34",
            "pubmed",
            Fetched::History {
                retstart: 500,
                retmax: 250,
            },
        );
        let j = s.to_json();
        assert_eq!(j["efetch"][0]["ids"], json!(["1", "2"]));
        assert_eq!(j["efetch"][0]["caller"], "ip:127.0.0.1");
        assert_eq!(
            (
                j["efetch"][1]["retstart"].as_u64(),
                j["efetch"][1]["retmax"].as_u64()
            ),
            (Some(500), Some(250))
        );
        s.clear();
        assert_eq!(s.to_json()["efetch"], json!([]));
    }

    #[test]
    fn arrivals_exactly_one_second_apart_are_in_different_windows() {
        let mut s = Stats::default();
        for us in [0, 1_000_000, 2_000_000] {
            s.arrival("ip:127.0.0.1", us, false, false);
        }
        assert_eq!(s.to_json()["max_in_any_1s_window"]["ip:127.0.0.1"], 1);
    }
}
