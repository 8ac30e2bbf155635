//! The ledger's ceilings, read from the environment: per account (by kind) and for the
//! deployment.

use crate::staging::ledger::Account;

/// The ceilings, from the environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotas {
    /// `ENTREZ_DATA_MAX_DATASETS`: datasets one identity holds.
    pub identity_datasets: u64,
    /// `ENTREZ_DATA_MAX_OWNER_BYTES`: bytes one identity stores.
    pub identity_bytes: u64,
    /// `ENTREZ_IDENTITY_STAGINGS_PER_HOUR`.
    pub identity_stagings_per_hour: u64,
    /// `ENTREZ_ANONYMOUS_MAX_DATASETS`: datasets anonymous callers from one address hold.
    pub anonymous_datasets: u64,
    /// `ENTREZ_ANONYMOUS_MAX_BYTES`.
    pub anonymous_bytes: u64,
    /// `ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR`.
    pub anonymous_stagings_per_hour: u64,
    /// `ENTREZ_DATA_TOTAL_MAX_DATASETS`: datasets the deployment holds.
    pub total_datasets: u64,
    /// `ENTREZ_DATA_TOTAL_MAX_BYTES`.
    pub total_bytes: u64,
    /// `ENTREZ_DATA_MAX_RUNNING`: stagings one account runs at once, any account.
    pub running: u64,
    /// `ENTREZ_DATA_TOTAL_MAX_RUNNING`: stagings the deployment runs at once.
    pub total_running: u64,
}

impl Quotas {
    /// Defaults overridden by positive integers found through `lookup`; identities get the
    /// per-owner limits.
    pub fn from_lookup(
        lookup: impl Fn(&str) -> Option<String>,
        limits: &crate::staging::Limits,
    ) -> Quotas {
        let get = |name: &str, default: u64| {
            lookup(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|v| *v > 0)
                .unwrap_or(default)
        };
        Quotas {
            identity_datasets: limits.max_datasets,
            identity_bytes: limits.max_owner_bytes,
            identity_stagings_per_hour: get("ENTREZ_IDENTITY_STAGINGS_PER_HOUR", 120),
            anonymous_datasets: get("ENTREZ_ANONYMOUS_MAX_DATASETS", 5),
            anonymous_bytes: get("ENTREZ_ANONYMOUS_MAX_BYTES", 256 * 1024 * 1024),
            anonymous_stagings_per_hour: get("ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR", 20),
            total_datasets: get("ENTREZ_DATA_TOTAL_MAX_DATASETS", 1_000),
            total_bytes: get("ENTREZ_DATA_TOTAL_MAX_BYTES", 20 * 1024 * 1024 * 1024),
            running: limits.max_running,
            total_running: get("ENTREZ_DATA_TOTAL_MAX_RUNNING", 25),
        }
    }

    /// (datasets, bytes, stagings per hour) for an account; `None` for no per-account limit.
    pub(super) fn of(&self, account: &Account) -> Option<(u64, u64, u64)> {
        match account {
            Account::Identity(_) => Some((
                self.identity_datasets,
                self.identity_bytes,
                self.identity_stagings_per_hour,
            )),
            Account::Address(_) => Some((
                self.anonymous_datasets,
                self.anonymous_bytes,
                self.anonymous_stagings_per_hour,
            )),
            Account::Local => None,
        }
    }
}
