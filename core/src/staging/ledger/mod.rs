//! Who may spend how much of the deployment's storage: the ledger every staging passes.
//!
//! Per-owner limits bound one owner, but an owner is cheap to make (an MCP session, a
//! stateless request), so on a public deployment they alone bound nothing. The ledger
//! charges each new dataset to an *account* — an authenticated identity, or for an
//! anonymous caller the network address it came from — and to the deployment as a whole,
//! and refuses a staging that would take either past its ceiling:
//!
//! - datasets held and bytes stored, per account and in total;
//! - stagings started per hour, per account (a sliding window);
//! - stagings running at once, per account and in total ([`Book::may_run`], in `running.rs`).
//!
//! The results of calls served as MCP tasks are kept for their callers too; they are
//! charged to the same account and the deployment, in bytes and in number, though they are
//! not datasets ([`Book::keep`], in `kept.rs`).
//!
//! Every refusal names the limit and when it frees up. The [`Book`] is plain data with
//! the rules; natively one lives in the process ([`MemoryLedger`], seeded at start-up
//! from the datasets on disk), on Workers in one Durable Object, so every isolate sees
//! the same book. Entries past their expiry count for nothing, so a dataset's alarm needs
//! to tell the ledger nothing.

use super::iso8601;
use crate::error::{Error, ErrorKind};
use crate::platform::{BoxFuture, MaybeSendSync};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Mutex;

mod kept;
mod running;
pub use kept::{kept_key, KEPT_PER_ACCOUNT, KEPT_TOTAL};
pub use running::{running_until, RUNNING_MARK_MS};

/// An hour, the window stagings are counted in.
pub const WINDOW_MS: u64 = 60 * 60 * 1000;

/// Who is charged.
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
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>, limits: &super::Limits) -> Quotas {
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
    fn of(&self, account: &Account) -> Option<(u64, u64, u64)> {
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    /// Reads one back from its JSON (the ledger object's answer). By hand: a derived
    /// deserializer would cost the Worker's bundle a kilobyte for five numbers.
    pub fn read(v: &serde_json::Value) -> Option<Allowance> {
        let left = |k: &str| v.get(k).and_then(serde_json::Value::as_u64);
        Some(Allowance {
            datasets_left: left("datasets_left"),
            bytes_left: left("bytes_left"),
            stagings_left: left("stagings_left"),
            total_datasets_left: left("total_datasets_left")?,
            total_bytes_left: left("total_bytes_left")?,
        })
    }
}

/// The books: every live dataset, and the stagings of the last hour per account.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Book {
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

impl Book {
    /// Forgets what has expired or left the window.
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
            self.may_run(id, staged_by.as_ref(), quotas, now_ms)?;
            if let Some(e) = self.datasets.get_mut(id) {
                e.running_until_ms = running_until_ms;
            }
            return Ok(self.allowance(staged_by.as_ref().unwrap_or(account), quotas, now_ms));
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
    /// Admits a new dataset for `account` and says what it has left (see [`Book::admit`]).
    fn admit<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        expires_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Allowance, Error>>;
    /// Records a dataset's size, renewed expiry and running mark (see [`Book::record`]).
    fn record<'a>(
        &'a self,
        id: &'a str,
        bytes: u64,
        expires_ms: u64,
        running_until_ms: u64,
    ) -> BoxFuture<'a, Result<(), Error>>;
    /// Charges kept task result `id` of `bytes` to `account` until `expires_ms` (see
    /// [`Book::keep`]).
    fn keep<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        bytes: u64,
        expires_ms: u64,
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
    book: Mutex<Book>,
    quotas: Quotas,
}

impl MemoryLedger {
    /// An empty ledger under `quotas`.
    pub fn new(quotas: Quotas) -> MemoryLedger {
        MemoryLedger {
            book: Mutex::new(Book::default()),
            quotas,
        }
    }

    /// Counts what already exists (found on disk at start-up): each dataset in the totals,
    /// and to its account where the owner names one (an identity's datasets do); `kept`
    /// entries are task results, counted as [`Book::keep`] counts them.
    pub fn seed(
        &self,
        held: impl IntoIterator<Item = (String, Option<Account>, u64, u64)>,
        kept: bool,
    ) {
        if let Ok(mut b) = self.book.lock() {
            for (id, account, bytes, expires_ms) in held {
                let key = if kept { kept_key(&id) } else { id };
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

    fn with<T>(&self, f: impl FnOnce(&mut Book) -> T) -> Result<T, Error> {
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

    fn keep<'a>(
        &'a self,
        id: &'a str,
        account: &'a Account,
        bytes: u64,
        expires_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<(), Error>> {
        Box::pin(async move {
            self.with(|b| b.keep(id, account, (bytes, expires_ms), &self.quotas, now_ms))?
        })
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
mod tests {
    use super::*;

    /// Small ceilings, for the books' tests here and in `kept`.
    pub(super) fn quotas() -> Quotas {
        Quotas {
            identity_datasets: 3,
            identity_bytes: 1_000,
            identity_stagings_per_hour: 10,
            anonymous_datasets: 2,
            anonymous_bytes: 500,
            anonymous_stagings_per_hour: 3,
            total_datasets: 5,
            total_bytes: 2_000,
            running: 100,
            total_running: 100,
        }
    }

    #[test]
    fn accounts_and_the_deployment_are_each_bounded() {
        let q = quotas();
        let mut b = Book::default();
        let ip = Account::Address("a".into());
        assert!(b.admit("d1", &ip, 10_000, &q, 0).is_ok());
        assert!(b.admit("d2", &ip, 10_000, &q, 1).is_ok());
        // A third anonymous dataset from the same address, whatever session it comes from.
        let e = b.admit("d3", &ip, 10_000, &q, 2).unwrap_err();
        assert_eq!(e.code, "quota_exceeded");
        assert!(
            e.message.contains("callers from your address") && e.message.contains("1970-01-01"),
            "{}",
            e.message
        );
        // Another address is its own account; the deployment's total still binds everyone.
        let other = Account::Address("b".into());
        b.admit("d4", &other, 10_000, &q, 3).unwrap();
        b.admit("d5", &Account::Identity("u".into()), 10_000, &q, 4)
            .unwrap();
        b.admit("d6", &Account::Local, 10_000, &q, 5).unwrap();
        let full = b
            .admit("d7", &Account::Identity("v".into()), 10_000, &q, 6)
            .unwrap_err();
        assert!(
            full.message.contains("maximum of 5 datasets"),
            "{}",
            full.message
        );
        // Expiry frees the books by itself; a drop frees at once.
        b.release("d6");
        assert!(b
            .admit("d7", &Account::Identity("v".into()), 10_000, &q, 7)
            .is_ok());
        assert!(
            b.admit("d8", &ip, 20_000, &q, 10_000).is_ok(),
            "d1 and d2 expired at 10,000"
        );
    }

    #[test]
    fn bytes_and_stagings_per_hour_are_bounded() {
        let q = quotas();
        let mut b = Book::default();
        let ip = Account::Address("a".into());
        b.admit("d1", &ip, u64::MAX, &q, 0).unwrap();
        assert!(b.record("d1", 400, 0, 0, &q).is_ok());
        assert!(b
            .record("d1", 600, 0, 0, &q)
            .unwrap_err()
            .message
            .contains("past 500 bytes"));
        // What was stored stays on the books, so nothing more is admitted until space frees up.
        let full = b.admit("d2", &ip, u64::MAX, &q, 1).unwrap_err();
        assert!(full.message.contains("bytes allowed"), "{}", full.message);
        b.release("d1");
        b.admit("d2", &ip, u64::MAX, &q, 1).unwrap();
        b.release("d2");
        b.admit("d3", &ip, u64::MAX, &q, 2).unwrap();
        b.release("d3");
        // Three stagings this hour, though none is held any more.
        let e = b.admit("d4", &ip, u64::MAX, &q, 3).unwrap_err();
        assert!(
            e.message.contains("stagings allowed in an hour"),
            "{}",
            e.message
        );
        // Admission answers with what is left after it, as allowance would.
        let after = b.admit("d4", &ip, u64::MAX, &q, WINDOW_MS + 1).unwrap();
        assert_eq!(after, b.allowance(&ip, &q, WINDOW_MS + 1));
        let a = b.allowance(&ip, &q, WINDOW_MS + 2);
        assert_eq!((a.datasets_left, a.stagings_left), (Some(1), Some(2)));
        assert_eq!(b.allowance(&Account::Local, &q, 0).datasets_left, None);
        // Two datasets alike in every field are still two datasets.
        let later = WINDOW_MS * 3;
        b.release("d4");
        b.admit("d5", &ip, u64::MAX, &q, later).unwrap();
        b.admit("d6", &ip, u64::MAX, &q, later).unwrap();
        b.record("d5", 300, 0, 0, &q).unwrap();
        let e = b.record("d6", 300, 0, 0, &q).unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "account_bytes");
    }

    #[test]
    fn an_allowance_reads_back_what_it_wrote() {
        let mut b = Book::default();
        let q = quotas();
        for account in [Account::Address("a".into()), Account::Local] {
            let a = b.admit("d1", &account, u64::MAX, &q, 0).unwrap();
            let v = serde_json::to_value(&a).unwrap();
            assert_eq!(Allowance::read(&v), Some(a));
            b.release("d1");
        }
        assert_eq!(
            Allowance::read(&serde_json::json!({"datasets_left": 1})),
            None
        );
    }

    #[test]
    fn the_memory_ledger_counts_what_it_was_seeded_with() {
        let l = MemoryLedger::new(quotas());
        l.seed(
            (0..5).map(|i| (format!("old{i}"), None, 10, u64::MAX)),
            false,
        );
        let refused =
            futures_util::FutureExt::now_or_never(l.admit("new", &Account::Local, u64::MAX, 0))
                .unwrap();
        assert!(refused.is_err());
        // An identity's datasets are its own again after a restart.
        let l = MemoryLedger::new(quotas());
        let alice = Account::Identity("k".into());
        l.seed(
            (0..3).map(|i| (format!("a{i}"), Some(alice.clone()), 10, u64::MAX)),
            false,
        );
        let mine =
            futures_util::FutureExt::now_or_never(l.admit("a3", &alice, u64::MAX, 0)).unwrap();
        assert_eq!(
            mine.unwrap_err().details.unwrap()["limit"],
            "account_datasets"
        );
    }
}
