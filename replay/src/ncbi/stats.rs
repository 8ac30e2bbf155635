//! What load tests need to judge a client: how many requests arrived, how
//! many were refused, and the most requests any caller packed into one
//! second. The maximum is kept exactly over every sliding one-second window
//! of arrival times (refused requests included, since NCBI sees those too),
//! and updated on arrival so it survives the cap on retained timestamps.

use serde_json::{json, Map, Value};
use std::collections::{HashMap, VecDeque};

/// Most arrival timestamps kept for the stats report.
pub const MAX_TIMESTAMPS: usize = 100_000;
const WINDOW_US: u64 = 1_000_000;

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

    /// Records the pacing trace a request carried (`slot=..;asked=..;granted=..;woke=..`),
    /// with its arrival, so a benchmark can tell where a request's time went.
    pub fn paced(&mut self, caller: &str, at_us: u64, trace: &str) {
        let mut entry = Map::new();
        entry.insert("caller".into(), json!(caller));
        entry.insert("arrived_us".into(), json!(at_us));
        for part in trace.split(';') {
            if let Some((k, v)) = part.split_once('=') {
                if let Ok(n) = v.trim().parse::<u64>() {
                    entry.insert(k.trim().to_string(), json!(n));
                }
            }
        }
        if self.pacing.len() == MAX_TIMESTAMPS {
            self.pacing.pop_front();
        }
        self.pacing.push_back(Value::Object(entry));
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
    fn arrivals_exactly_one_second_apart_are_in_different_windows() {
        let mut s = Stats::default();
        for us in [0, 1_000_000, 2_000_000] {
            s.arrival("ip:127.0.0.1", us, false, false);
        }
        assert_eq!(s.to_json()["max_in_any_1s_window"]["ip:127.0.0.1"], 1);
    }
}
