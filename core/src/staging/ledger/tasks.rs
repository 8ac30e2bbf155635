//! Kept task results on the books.
//!
//! A call served as an MCP task keeps its result (or, while PubChem works, the
//! call itself) for its caller to read, for an hour (`tasks::calls`). A caller
//! keeps at most `TASKS_PER_OWNER` of them, but an owner is cheap to make (an
//! MCP session), so that alone would let a stranger store without end. Each
//! result kept for a call is therefore charged, until it expires, to its
//! caller's account and to the deployment ([`LedgerState::charge_task`]). A kept
//! result is not a dataset and counts against no dataset count. The final
//! result of a staging task is not charged: its dataset already is.

use crate::error::Error;
use crate::staging::ledger::{capital, refusal, Account, Entry, LedgerState, Quotas};

/// Results kept for one account's calls at once (its sessions together), each for an hour:
/// two owners' worth of `TASKS_PER_OWNER`.
pub const TASKS_PER_ACCOUNT: usize = 400;

/// Results kept for the deployment's calls at once. This also bounds the books themselves:
/// on Workers they are one Durable Object's value, written whole on every change.
pub const TASKS_TOTAL: usize = 2_000;

/// The books' key for a kept result: apart from a staging's dataset, which shares its id.
pub fn task_key(id: &str) -> String {
    format!("kept-{id}")
}

impl LedgerState {
    /// Charges kept result `id` of `bytes` to `account` until `expires_ms`, counted among the
    /// calls running until `running_until_ms` (a call run in the background, see `running.rs`); refuses a
    /// new one that would take the account or the deployment past a ceiling. One kept again
    /// (a pending call looked at, ended or cancelled) is charged what it takes now, to the
    /// account first charged, and never refused: refusing would strand a task that was
    /// admitted.
    ///
    /// Bytes count against the same byte ceilings as datasets (`ENTREZ_ANONYMOUS_MAX_BYTES`,
    /// `ENTREZ_DATA_MAX_OWNER_BYTES`, `ENTREZ_DATA_TOTAL_MAX_BYTES`); the number of results
    /// against [`TASKS_PER_ACCOUNT`] and [`TASKS_TOTAL`].
    pub fn charge_task(
        &mut self,
        id: &str,
        account: &Account,
        (bytes, expires_ms, running_until_ms): (u64, u64, u64),
        quotas: &Quotas,
        now_ms: u64,
    ) -> Result<(), Error> {
        self.prune(now_ms);
        let key = task_key(id);
        let again = self.datasets.contains_key(&key);
        let others: Vec<&Entry> = self
            .datasets
            .iter()
            .filter(|(k, _)| **k != key)
            .map(|(_, e)| e)
            .collect();
        let earliest = |entries: &[&Entry]| entries.iter().map(|e| e.expires_ms).min();
        let kept: Vec<&Entry> = others.iter().copied().filter(|e| e.kept).collect();
        let total_bytes: u64 = others.iter().map(|e| e.bytes).sum();
        let refused = if again {
            None
        } else if kept.len() >= TASKS_TOTAL {
            Some((
                format!("This deployment keeps its maximum of {TASKS_TOTAL} task results."),
                earliest(&kept),
                "total_kept",
            ))
        } else if total_bytes.saturating_add(bytes) > quotas.total_bytes {
            Some((
                format!(
                    "This deployment stores its maximum of {} bytes (ENTREZ_DATA_TOTAL_MAX_BYTES).",
                    quotas.total_bytes
                ),
                earliest(&others),
                "total_bytes",
            ))
        } else {
            let mine: Vec<&Entry> = others
                .iter()
                .copied()
                .filter(|e| e.account.as_ref() == Some(account))
                .collect();
            let mine_kept: Vec<&Entry> = mine.iter().copied().filter(|e| e.kept).collect();
            let used: u64 = mine.iter().map(|e| e.bytes).sum();
            match quotas.of(account) {
                Some(_) if mine_kept.len() >= TASKS_PER_ACCOUNT => Some((
                    format!(
                        "{} keep the most task results allowed, {TASKS_PER_ACCOUNT}.",
                        capital(account.label())
                    ),
                    earliest(&mine_kept),
                    "account_kept",
                )),
                Some((_, max, _)) if used.saturating_add(bytes) > max => Some((
                    format!(
                        "{} store the most bytes allowed, {max}.",
                        capital(account.label())
                    ),
                    earliest(&mine),
                    "account_bytes",
                )),
                _ => None,
            }
        };
        if let Some((why, frees, limit)) = refused {
            return Err(
                refusal(format!("{why} Its task cannot be kept."), frees, limit).suggest(
                    "Call again without asking for a task to have the result in the reply.",
                ),
            );
        }
        if !again && running_until_ms > now_ms {
            self.may_run(&key, Some(account), quotas, now_ms)?;
        }
        // One kept again stays charged to whom it was first (a call run in the background is kept again
        // by the server, with no caller behind it).
        let account = match self.datasets.get(&key) {
            Some(first) => first.account.clone(),
            None => Some(account.clone()),
        };
        self.datasets.insert(
            key,
            Entry {
                account,
                bytes,
                expires_ms,
                kept: true,
                running_until_ms,
            },
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quotas() -> Quotas {
        Quotas {
            anonymous_datasets: 1,
            total_datasets: 10,
            ..super::super::tests::quotas()
        }
    }

    fn limit(e: &Error) -> &str {
        e.details
            .as_ref()
            .and_then(|d| d["limit"].as_str())
            .unwrap_or("")
    }

    #[test]
    fn kept_results_count_per_account_and_in_total_but_not_as_datasets() {
        let q = quotas();
        let mut book = LedgerState::default();
        let a = Account::Address("a".into());
        // Results kept by any number of sessions of one address share the address's bytes.
        book.charge_task("t1", &a, (300, 10_000, 0), &q, 0).unwrap();
        let e = book
            .charge_task("t2", &a, (300, 10_000, 0), &q, 0)
            .unwrap_err();
        assert_eq!(e.code, "quota_exceeded");
        assert!(e.message.contains("cannot be kept"), "{}", e.message);
        assert_eq!(limit(&e), "account_bytes");
        // Kept again (a pending call's look), a result replaces its own charge, and is never
        // refused: its task was admitted.
        book.charge_task("t1", &a, (600, 10_000, 0), &q, 0).unwrap();
        book.charge_task("t1", &a, (450, 10_000, 0), &q, 0).unwrap();
        // Kept again by the server for nobody's request (a call run in the background ending), it stays
        // charged to the account that asked for it.
        book.charge_task("t1", &Account::Local, (450, 10_000, 0), &q, 0)
            .unwrap();
        assert_eq!(book.datasets[&task_key("t1")].account, Some(a.clone()));
        // Not a dataset: the address may still stage its one.
        let allowance = book.admit("d1", &a, 10_000, &q, 0).unwrap();
        assert_eq!(allowance.datasets_left, Some(0));
        assert_eq!(allowance.bytes_left, Some(50));
        assert_eq!(allowance.total_datasets_left, 9);
        // The deployment's bytes bound every account's results together.
        book.charge_task(
            "t3",
            &Account::Identity("c".into()),
            (900, 10_000, 0),
            &q,
            0,
        )
        .unwrap();
        book.charge_task("t4", &Account::Address("b".into()), (400, 10_000, 0), &q, 0)
            .unwrap();
        let e = book
            .charge_task("t5", &Account::Local, (300, 10_000, 0), &q, 0)
            .unwrap_err();
        assert_eq!(limit(&e), "total_bytes");
        // Expired, they count for nothing; a staging task's result is apart from its dataset.
        book.charge_task("t5", &Account::Local, (300, 20_000, 0), &q, 10_000)
            .unwrap();
        book.charge_task("d2", &a, (10, 20_000, 0), &q, 10_000)
            .unwrap();
        assert!(book.datasets.contains_key(&task_key("d2")));
        assert!(!book.datasets.contains_key("d2"));
    }

    #[test]
    fn kept_results_are_bounded_in_number_per_account_and_in_total() {
        let q = Quotas {
            total_bytes: u64::MAX,
            ..quotas()
        };
        let mut book = LedgerState::default();
        let a = Account::Identity("a".into());
        for i in 0..TASKS_PER_ACCOUNT {
            book.charge_task(&format!("a{i}"), &a, (0, 10_000, 0), &q, 0)
                .unwrap();
        }
        let e = book
            .charge_task("one-more", &a, (0, 10_000, 0), &q, 0)
            .unwrap_err();
        assert_eq!(limit(&e), "account_kept");
        // The local user has no account limit, only the deployment's.
        for i in TASKS_PER_ACCOUNT..TASKS_TOTAL {
            book.charge_task(&format!("l{i}"), &Account::Local, (0, 10_000, 0), &q, 0)
                .unwrap();
        }
        let e = book
            .charge_task("one-more", &Account::Local, (0, 10_000, 0), &q, 0)
            .unwrap_err();
        assert_eq!(limit(&e), "total_kept");
        assert!(
            e.message.contains(&format!("{TASKS_TOTAL} task results")),
            "{}",
            e.message
        );
        // Nor are they datasets: a dataset is still admitted.
        book.admit("d", &a, 10_000, &q, 0).unwrap();
    }
}
