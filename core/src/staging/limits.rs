//! The documented limits of staging, with their environment overrides.
//!
//! A dataset lives on the server's disk (natively) or in a Durable Object
//! (Workers), paid for by whoever runs the server, so every caller gets a
//! bounded share: records per staging call, rows and bytes per dataset,
//! datasets and bytes per owner, and a lifetime. Going over one is a clear
//! `limit_exceeded` error that leaves every other dataset as it was.

use crate::error::{Error, ErrorKind};

/// Most records one `fetch_and_stage` call stages (also the inputSchema maximum).
pub const MAX_RECORDS: u64 = 10_000;
/// Records staged when the caller does not say.
pub const DEFAULT_RECORDS: u64 = 1_000;
/// Default lifetime of a dataset: 24 hours.
pub const DEFAULT_TTL_SECS: u64 = 24 * 60 * 60;
/// Default datasets one owner may hold at once.
pub const DEFAULT_MAX_DATASETS: u64 = 20;
/// Default stagings one owner may have running at once (loading, or continued by the server).
pub const DEFAULT_MAX_RUNNING: u64 = 4;
/// Default rows (all tables together) one dataset may hold.
pub const DEFAULT_MAX_ROWS: u64 = 5_000_000;
/// Default size of one dataset on disk.
pub const DEFAULT_MAX_DATASET_BYTES: u64 = 512 * 1024 * 1024;
/// Default size of all of one owner's datasets together.
pub const DEFAULT_MAX_OWNER_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// Every staging limit in force: the datasets' own caps (what one call may spend is
/// [`crate::allowance::Allowance`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `ENTREZ_DATA_TTL_SECS`: seconds from a dataset's last write until it is dropped.
    pub ttl_secs: u64,
    /// `ENTREZ_DATA_MAX_DATASETS`: datasets per owner.
    pub max_datasets: u64,
    /// `ENTREZ_DATA_MAX_RUNNING`: stagings (and calls run in the background) one account has running at
    /// once, loading or continued by the server in the background; counted on the ledger.
    pub max_running: u64,
    /// `ENTREZ_DATA_MAX_ROWS`: rows per dataset.
    pub max_rows: u64,
    /// `ENTREZ_DATA_MAX_DATASET_BYTES`: bytes per dataset.
    pub max_dataset_bytes: u64,
    /// `ENTREZ_DATA_MAX_OWNER_BYTES`: bytes per owner.
    pub max_owner_bytes: u64,
    /// `ENTREZ_DATA_QUERY_TIMEOUT_MS`: wall-clock limit per query.
    pub query_time_limit_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            ttl_secs: DEFAULT_TTL_SECS,
            max_datasets: DEFAULT_MAX_DATASETS,
            max_running: DEFAULT_MAX_RUNNING,
            max_rows: DEFAULT_MAX_ROWS,
            max_dataset_bytes: DEFAULT_MAX_DATASET_BYTES,
            max_owner_bytes: DEFAULT_MAX_OWNER_BYTES,
            query_time_limit_ms: crate::staging::guard::DEFAULT_TIME_LIMIT_MS,
        }
    }
}

impl Limits {
    /// The lease a write at `now_ms` renews a dataset to: one lifetime from now.
    pub fn lease(&self, now_ms: u64) -> crate::staging::store::Lease {
        crate::staging::store::Lease {
            now_ms,
            expires_ms: now_ms.saturating_add(self.ttl_secs.saturating_mul(1000)),
        }
    }

    /// Defaults overridden by positive integers found through `lookup`.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Limits {
        let d = Limits::default();
        let get = |name: &str, default: u64| {
            lookup(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|v| *v > 0)
                .unwrap_or(default)
        };
        Limits {
            ttl_secs: get("ENTREZ_DATA_TTL_SECS", d.ttl_secs),
            max_datasets: get("ENTREZ_DATA_MAX_DATASETS", d.max_datasets),
            max_running: get("ENTREZ_DATA_MAX_RUNNING", d.max_running),
            max_rows: get("ENTREZ_DATA_MAX_ROWS", d.max_rows),
            max_dataset_bytes: get("ENTREZ_DATA_MAX_DATASET_BYTES", d.max_dataset_bytes),
            max_owner_bytes: get("ENTREZ_DATA_MAX_OWNER_BYTES", d.max_owner_bytes),
            query_time_limit_ms: get("ENTREZ_DATA_QUERY_TIMEOUT_MS", d.query_time_limit_ms),
        }
    }

    /// The limits as JSON with what one call may spend, for results that explain them.
    pub fn to_value(&self, allowance: &crate::allowance::Allowance) -> serde_json::Value {
        let mut value = crate::json!({
            "max_records_per_staging": MAX_RECORDS,
            "ttl_secs": self.ttl_secs,
            "max_datasets": self.max_datasets,
            "max_running_stagings": self.max_running,
            "max_rows_per_dataset": self.max_rows,
            "max_bytes_per_dataset": self.max_dataset_bytes,
            "max_bytes_per_owner": self.max_owner_bytes,
            "query_time_limit_ms": self.query_time_limit_ms,
            "max_rows_per_query": crate::staging::guard::MAX_LIMIT,
        });
        if let (Some(all), serde_json::Value::Object(spend)) =
            (value.as_object_mut(), allowance.to_value())
        {
            all.extend(spend);
        }
        value
    }
}

/// The error when an owner already holds as many datasets as they may.
pub fn too_many_datasets(held: u64) -> Error {
    Error::new(
        ErrorKind::LimitExceeded,
        format!("You already hold {held} datasets, the most one caller may hold."),
    )
    .with_code("dataset_quota_exceeded")
    .suggest("Drop datasets you no longer need with operation drop_dataset.")
}

/// The error when a batch would take a dataset over its row ceiling.
pub fn too_many_rows(rows: u64, max_rows: u64) -> Error {
    append_limit(format!(
        "This batch would bring the dataset to {rows} rows, over the limit of {max_rows} rows per dataset."
    ))
}

/// The error when a batch would take a dataset over its byte ceiling.
pub fn too_many_bytes(bytes: u64, max_bytes: u64) -> Error {
    append_limit(format!(
        "This batch would bring the dataset to {bytes} bytes, over the {max_bytes} bytes this dataset may take."
    ))
}

fn append_limit(message: String) -> Error {
    Error::new(ErrorKind::LimitExceeded, message)
        .suggest("Stage fewer records (max_records) or a narrower search; the limits are listed by operation list_datasets.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_overrides_defaults_and_ignores_nonsense() {
        let l = Limits::from_lookup(|n| match n {
            "ENTREZ_DATA_TTL_SECS" => Some(" 60 ".into()),
            "ENTREZ_DATA_MAX_ROWS" => Some("zero".into()),
            "ENTREZ_DATA_MAX_DATASETS" => Some("0".into()),
            _ => None,
        });
        assert_eq!(l.ttl_secs, 60);
        assert_eq!(l.max_rows, DEFAULT_MAX_ROWS);
        assert_eq!(l.max_datasets, DEFAULT_MAX_DATASETS);
    }

    #[test]
    fn the_limits_listed_name_what_a_call_may_spend() {
        let free = crate::allowance::Allowance::FREE_PLAN;
        let v = Limits::default().to_value(&free);
        assert_eq!(v["cpu_budget_ms_per_call"], 10);
        assert_eq!(v["subrequests_per_call"], 50);
        assert_eq!(v["max_datasets"], DEFAULT_MAX_DATASETS);
    }
}
