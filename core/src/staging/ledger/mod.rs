//! Who may spend how much of the deployment's storage: the ledger every staging passes.
//!
//! Per-owner limits bound one owner, but an owner is cheap to make (an MCP session, a
//! stateless request), so on a public deployment they alone bound nothing. The ledger
//! charges each new dataset to an [`Account`] and to the deployment as a whole, and
//! refuses a staging that would take either past its ceiling ([`LedgerState::admit`]);
//! every refusal names the limit and when it frees up. The [`LedgerState`] is plain data
//! with the rules; natively one lives in the process ([`MemoryLedger`]), on Workers in one
//! Durable Object, so every isolate sees the same book. Task results are charged too
//! ([`LedgerState::charge_task`]), and stagings running at once are counted (`running.rs`).

use crate::error::{Error, ErrorKind};
use crate::platform::{BoxFuture, MaybeSendSync};
use crate::staging::iso8601;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Mutex;

mod quotas;
mod running;
mod tasks;
pub use quotas::Quotas;
pub use running::{running_until, RUNNING_MARK_MS};
pub use tasks::{task_key, TASKS_PER_ACCOUNT, TASKS_TOTAL};

/// An hour, the window stagings are counted in.
pub const WINDOW_MS: u64 = 60 * 60 * 1000;

/// Who is charged: an authenticated identity, or for an anonymous caller the network
/// address it came from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Account {
    /// An authenticated identity (its principal key).
    Identity(String),
    /// An anonymous caller's network address (hashed).
    Address(String),
    /// The machine's own user (stdio, or HTTP on loopback without auth): only the totals apply.
    Local,
}

impl Account {
    fn label(&self) -> &'static str {
        match self {
            Account::Identity(_) => "your identity",
            Account::Address(_) => "anonymous callers from your address",
            Account::Local => "this machine",
        }
    }
}

/// One dataset on the books.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Charged to (none for datasets found on disk at start-up, which count in the totals).
    pub account: Option<Account>,
    /// Bytes it takes.
    pub bytes: u64,
    /// When it expires, Unix ms.
    pub expires_ms: u64,
    /// A kept task result: it counts in bytes and among kept results, not among datasets.
    #[serde(default)]
    pub kept: bool,
    /// Until when its staging counts as running, Unix ms (see `running.rs`).
    #[serde(default)]
    pub running_until_ms: u64,
}

/// What an account has left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Allowance {
    /// Datasets it may still create (None: no per-account limit).
    pub datasets_left: Option<u64>,
    /// Bytes it may still store.
    pub bytes_left: Option<u64>,
    /// Stagings it may still start this hour.
    pub stagings_left: Option<u64>,
    /// Datasets the deployment may still hold.
    pub total_datasets_left: u64,
    /// Bytes the deployment may still store.
    pub total_bytes_left: u64,
}

impl Allowance {
    /// Reads one back from its JSON (the ledger object's answer); None if it is not one.
    pub fn read(v: &serde_json::Value) -> Option<Allowance> {
        Allowance::deserialize(v).ok()
    }
}

/// The books: every live dataset, and the stagings of the last hour per account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LedgerState {
    /// Datasets by id.
    pub datasets: BTreeMap<String, Entry>,
    /// Start times of recent stagings, per account.
    pub stagings: BTreeMap<String, Vec<u64>>,
}

fn key(account: &Account) -> String {
    match account {
        Account::Identity(k) => format!("id:{k}"),
        Account::Address(a) => format!("ip:{a}"),
        Account::Local => "local".into(),
    }
}

fn refusal(message: String, frees: Option<u64>, limit: &str) -> Error {
    let when = frees
        .map(|t| format!(" It frees up at {}.", iso8601(t)))
        .unwrap_or_default();
    Error::new(ErrorKind::LimitExceeded, format!("{message}{when}"))
        .with_code("quota_exceeded")
        .suggest("Drop datasets you no longer need with operation drop_dataset, or wait until one expires.")
        .with_details(crate::json!({"limit": limit, "frees_at": frees.map(iso8601)}))
}

impl LedgerState {
    /// Forgets what has expired or left the window. Entries past their expiry count for
    /// nothing, so a dataset's alarm needs to tell the ledger nothing.
    pub fn prune(&mut self, now_ms: u64) {
        self.datasets.retain(|_, e| e.expires_ms > now_ms);
        for times in self.stagings.values_mut() {
            times.retain(|t| now_ms < t.saturating_add(WINDOW_MS));
        }
        self.stagings.retain(|_, t| !t.is_empty());
    }

    fn held<'a>(&'a self, account: &'a Account) -> impl Iterator<Item = &'a Entry> + 'a {
        self.datasets
            .values()
            .filter(move |e| e.account.as_ref() == Some(account))
    }

    /// Admits a new dataset for `account` and says what it has left then, or refuses it
    /// naming the full limit. A dataset already on the books is a caller's continuation: it
    /// is admitted to run again, charged to the account that staged it.
    ///
    /// The ceilings: datasets held and bytes stored, per account and in total; stagings
    /// started per hour, per account (a sliding window of [`WINDOW_MS`]); stagings running at
    /// once, per account and in total (see `running.rs`).
    pub fn admit(
        &mut self,
        id: &str,
        account: &Account,
        expires_ms: u64,
        quotas: &Quotas,
        now_ms: u64,
    ) -> Result<Allowance, Error> {
        self.prune(now_ms);
        let running_until_ms = running_until(Some(now_ms));
        if let Some(staged_by) = self.datasets.get(id).map(|e| e.account.clone()) {
            // One found on disk at start-up with no account becomes the continuing caller's.
            let staged_by = staged_by.unwrap_or_else(|| account.clone());
            self.may_run(id, Some(&staged_by), quotas, now_ms)?;
            if let Some(e) = self.datasets.get_mut(id) {
                e.running_until_ms = running_until_ms;
                e.account = Some(staged_by.clone());
            }
            return Ok(self.allowance(&staged_by, quotas, now_ms));
        }
        let earliest = |entries: Vec<&Entry>| entries.iter().map(|e| e.expires_ms).min();
        let total: Vec<&Entry> = self.datasets.values().filter(|e| !e.kept).collect();
        if total.len() as u64 >= quotas.total_datasets {
            return Err(refusal(format!("This deployment holds its maximum of {} datasets (ENTREZ_DATA_TOTAL_MAX_DATASETS).", quotas.total_datasets), earliest(total), "total_datasets"));
        }
        let total_bytes: u64 = self.datasets.values().map(|e| e.bytes).sum();
        if total_bytes >= quotas.total_bytes {
            return Err(refusal(
                format!(
                    "This deployment stores its maximum of {} bytes (ENTREZ_DATA_TOTAL_MAX_BYTES).",
                    quotas.total_bytes
                ),
                earliest(self.datasets.values().collect()),
                "total_bytes",
            ));
        }
        if let Some((datasets, bytes, per_hour)) = quotas.of(account) {
            let mine: Vec<&Entry> = self.held(account).collect();
            let mine_datasets: Vec<&Entry> = mine.iter().copied().filter(|e| !e.kept).collect();
            if mine_datasets.len() as u64 >= datasets {
                return Err(refusal(
                    format!(
                        "{} hold the most datasets allowed, {datasets}.",
                        capital(account.label())
                    ),
                    earliest(mine_datasets),
                    "account_datasets",
                ));
            }
            let used: u64 = mine.iter().map(|e| e.bytes).sum();
            if used >= bytes {
                return Err(refusal(
                    format!(
                        "{} store the most bytes allowed, {bytes}.",
                        capital(account.label())
                    ),
                    earliest(mine),
                    "account_bytes",
                ));
            }
            let started = self
                .stagings
                .get(&key(account))
                .cloned()
                .unwrap_or_default();
            if started.len() as u64 >= per_hour {
                let frees = started.iter().min().map(|t| t.saturating_add(WINDOW_MS));
                return Err(refusal(
                    format!(
                        "{} started the most stagings allowed in an hour, {per_hour}.",
                        capital(account.label())
                    ),
                    frees,
                    "stagings_per_hour",
                ));
            }
        }
        self.may_run(id, Some(account), quotas, now_ms)?;
        self.stagings.entry(key(account)).or_default().push(now_ms);
        self.datasets.insert(
            id.to_string(),
            Entry {
                account: Some(account.clone()),
                bytes: 0,
                expires_ms,
                kept: false,
                running_until_ms,
            },
        );
        Ok(self.allowance(account, quotas, now_ms))
    }

    /// The bytes a dataset takes now, the expiry its last write renewed it to and until when
    /// its staging counts as running ([`running_until`]), always written down (the books
    /// follow what is stored and how long it stays); an error when that took its account or
    /// the deployment past a byte ceiling, which stops the staging: the dataset keeps what it
    /// committed, and nothing more is admitted until space frees up.
    pub fn record(
        &mut self,
        id: &str,
        bytes: u64,
        expires_ms: u64,
        running_until_ms: u64,
        quotas: &Quotas,
    ) -> Result<(), Error> {
        let Some(entry) = self.datasets.get_mut(id) else {
            return Ok(());
        };
        entry.bytes = bytes;
        entry.expires_ms = entry.expires_ms.max(expires_ms);
        entry.running_until_ms = running_until_ms;
        let account = entry.account.clone();
        let others = |same_account: bool| -> u64 {
            self.datasets
                .iter()
                .filter(|(k, e)| *k != id && (!same_account || e.account == account))
                .map(|(_, e)| e.bytes)
                .sum()
        };
        if others(false).saturating_add(bytes) > quotas.total_bytes {
            return Err(refusal(
                format!(
                    "This batch took the deployment past its {} bytes (ENTREZ_DATA_TOTAL_MAX_BYTES).",
                    quotas.total_bytes
                ),
                None,
                "total_bytes",
            ));
        }
        if let Some((a, (_, max, _))) = account.as_ref().and_then(|a| Some((a, quotas.of(a)?))) {
            if others(true).saturating_add(bytes) > max {
                return Err(refusal(
                    format!("This batch took {} past {max} bytes.", a.label()),
                    None,
                    "account_bytes",
                ));
            }
        }
        Ok(())
    }

    /// Forgets a dropped dataset.
    pub fn release(&mut self, id: &str) {
        self.datasets.remove(id);
    }

    /// What `account` has left now.
    pub fn allowance(&mut self, account: &Account, quotas: &Quotas, now_ms: u64) -> Allowance {
        self.prune(now_ms);
        let total_bytes: u64 = self.datasets.values().map(|e| e.bytes).sum();
        let per = quotas.of(account).map(|(datasets, bytes, per_hour)| {
            let mine: Vec<&Entry> = self.held(account).collect();
            let used: u64 = mine.iter().map(|e| e.bytes).sum();
            let started = self
                .stagings
                .get(&key(account))
                .map_or(0, |t| t.len() as u64);
            let datasets_held = mine.iter().filter(|e| !e.kept).count() as u64;
            (
                datasets.saturating_sub(datasets_held),
                bytes.saturating_sub(used),
                per_hour.saturating_sub(started),
            )
        });
        Allowance {
            datasets_left: per.map(|p| p.0),
            bytes_left: per.map(|p| p.1),
            stagings_left: per.map(|p| p.2),
            total_datasets_left: quotas
                .total_datasets
                .saturating_sub(self.datasets.values().filter(|e| !e.kept).count() as u64),
            total_bytes_left: quotas.total_bytes.saturating_sub(total_bytes),
        }
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The ledger of a deployment; supplied by the edge like the store.
pub trait Ledger: MaybeSendSync {
    /// Admits a new dataset for `account` and says what it has left (see [`LedgerState::admit`]).
    fn admit<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        expires_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance, Error>>;
    /// Records a dataset's size, renewed expiry and running mark (see [`LedgerState::record`]).
    fn record<'a>(
        &'a self,
        id: &'a str,
        bytes: u64,
        expires_ms: u64,
        running_until_ms: u64,
    ) -> BoxFuture<'a, Result<(), Error>>;
    /// Charges kept task result `id` to `account`: `charge` is its bytes, when it expires and
    /// until when it counts as running, Unix ms (see [`LedgerState::charge_task`]). The
    /// results of calls served as MCP tasks are charged to the same account and the
    /// deployment, in bytes and in number, though they are not datasets.
    fn charge_task<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        charge: (u64, u64, u64),
        now_ms: u64,
    ) -> BoxFuture<'a, Result<(), Error>>;
    /// Forgets a dropped dataset.
    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, ()>;
    /// What `account` has left.
    fn allowance<'a>(
        &'a self,
        account: &'a Account,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance, Error>>;
}

/// A ledger held in this process (the native edge, tests).
pub struct MemoryLedger {
    book: Mutex<LedgerState>,
    quotas: Quotas,
}

impl MemoryLedger {
    /// An empty ledger under `quotas`.
    pub fn new(quotas: Quotas) -> MemoryLedger {
        MemoryLedger {
            book: Mutex::new(LedgerState::default()),
            quotas,
        }
    }

    /// Counts what already exists (found on disk at start-up): each dataset in the totals,
    /// and to its account where the owner names one (an identity's datasets do); `kept`
    /// entries are task results, counted as [`LedgerState::charge_task`] counts them.
    pub fn seed(
        &self,
        held: impl IntoIterator<Item = (String, Option<Account>, u64, u64)>,
        kept: bool,
    ) {
        if let Ok(mut b) = self.book.lock() {
            for (id, account, bytes, expires_ms) in held {
                let key = if kept { task_key(&id) } else { id };
                b.datasets.insert(
                    key,
                    Entry {
                        account,
                        bytes,
                        expires_ms,
                        kept,
                        running_until_ms: 0,
                    },
                );
            }
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut LedgerState) -> T) -> Result<T, Error> {
        self.book
            .lock()
            .map(|mut b| f(&mut b))
            .map_err(|_| Error::internal("the staging ledger is unavailable"))
    }
}

impl Ledger for MemoryLedger {
    fn admit<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        expires_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance, Error>> {
        Box::pin(
            async move { self.with(|b| b.admit(id, account, expires_ms, &self.quotas, now_ms))? },
        )
    }

    fn record<'a>(
        &'a self,
        id: &'a str,
        bytes: u64,
        expires_ms: u64,
        running_until_ms: u64,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            self.with(|b| b.record(id, bytes, expires_ms, running_until_ms, &self.quotas))?
        })
    }

    fn charge_task<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        charge: (u64, u64, u64),
        now_ms: u64,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(
            async move { self.with(|b| b.charge_task(id, account, charge, &self.quotas, now_ms))? },
        )
    }

    fn release<'a>(&'a self, id: &'a str) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let _ = self.with(|b| b.release(id));
        })
    }

    fn allowance<'a>(
        &'a self,
        account: &'a Account,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance, Error>> {
        Box::pin(async move { self.with(|b| b.allowance(account, &self.quotas, now_ms)) })
    }
}

#[cfg(test)]
mod tests;
