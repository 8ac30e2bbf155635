//! Stagings running, on the books: how many one account and the deployment may have at once.
//!
//! A staging that runs holds a share of NCBI's small budget (every staging goes through the
//! same pacer) and, on Workers, a Durable Object stepping through alarms; so does a call run
//! apart from its request as a task (`tasks::calls`), counted here from its kept entry.
//! Checked from a caller's own list of datasets, a ceiling would be neither atomic (two
//! calls at once both see room) nor deployment-wide (owners are cheap to make), so the
//! count lives in the ledger, which admits one staging at a time ([`LedgerState::may_run`]).
//! How long a staging counts as running is told on [`RUNNING_MARK_MS`].

use crate::error::{Error, ErrorKind};
use crate::staging::ledger::{Account, LedgerState, Quotas};

/// How long one write keeps its staging counted as running (a batch takes seconds; the
/// longest pause between two tries after a fault is 8 minutes, and counts from its end).
///
/// A staging counts from its admission (or a caller's continuation of a partial dataset,
/// which is admitted again) until the write that records how it ended. Each batch renews the
/// mark, and a pause after a passing fault holds it until the next try is due; a mark left
/// unrenewed this long lapses by itself, so a staging whose process died between two writes
/// does not hold its slot for good.
pub const RUNNING_MARK_MS: u64 = 10 * 60 * 1000;

/// The mark a write leaves: running until `from_ms` plus [`RUNNING_MARK_MS`], or, for a
/// staging that ended (or waits for its caller), not running.
pub fn running_until(from_ms: Option<u64>) -> u64 {
    from_ms.map_or(0, |t| t.saturating_add(RUNNING_MARK_MS))
}

impl LedgerState {
    /// Refuses to run staging `id` (not counted itself) when `account` or the deployment
    /// already has its most stagings running: [`Quotas::running`] (`ENTREZ_DATA_MAX_RUNNING`)
    /// per account, the machine's own user (stdio, local HTTP) included, and
    /// [`Quotas::total_running`] (`ENTREZ_DATA_TOTAL_MAX_RUNNING`) in the deployment. The
    /// server's own steps of a staging it continues are never refused: that staging was
    /// admitted once already.
    pub(super) fn may_run(
        &self,
        id: &str,
        account: Option<&Account>,
        quotas: &Quotas,
        now_ms: u64,
    ) -> Result<(), Error> {
        let running: Vec<Option<&Account>> = self
            .datasets
            .iter()
            .filter(|(k, e)| *k != id && e.running_until_ms > now_ms)
            .map(|(_, e)| e.account.as_ref())
            .collect();
        let mine = running.iter().filter(|a| a.is_some() && **a == account);
        let (limit, message) = if running.len() as u64 >= quotas.total_running {
            (
                "total_running",
                format!(
                    "This deployment runs its most stagings and background calls at once, {} (ENTREZ_DATA_TOTAL_MAX_RUNNING).",
                    quotas.total_running
                ),
            )
        } else if mine.count() as u64 >= quotas.running {
            (
                "account_running",
                format!(
                    "{}: {} stagings and background calls running at once, the most allowed (ENTREZ_DATA_MAX_RUNNING).",
                    crate::staging::ledger::capital(account.map_or("this machine", Account::label)),
                    quotas.running
                ),
            )
        } else {
            return Ok(());
        };
        Err(Error::new(ErrorKind::LimitExceeded, message)
            .with_code("quota_exceeded")
            .suggest("Wait for one to end (list_datasets shows the stagings loading), or cancel its task; a dataset dropped stops its staging too.")
            .with_details(crate::json!({ "limit": limit })))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::quotas;
    use super::super::Entry;
    use super::*;

    #[test]
    fn stagings_running_are_bounded_per_account_and_in_total_until_they_end() {
        let q = Quotas {
            running: 2,
            total_running: 3,
            identity_datasets: 10,
            total_datasets: 10,
            ..quotas()
        };
        let mut b = LedgerState::default();
        let ann = Account::Identity("ann".into());
        let bob = Account::Identity("bob".into());
        b.admit("a1", &ann, u64::MAX, &q, 0).unwrap();
        b.admit("a2", &ann, u64::MAX, &q, 1).unwrap();
        let e = b.admit("a3", &ann, u64::MAX, &q, 2).unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "account_running");
        assert!(
            e.message.starts_with("Your identity: 2 stagings"),
            "{}",
            e.message
        );
        // Another account has its own; the deployment's total binds them all.
        b.admit("b1", &bob, u64::MAX, &q, 3).unwrap();
        let e = b.admit("b2", &bob, u64::MAX, &q, 4).unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "total_running");
        // A staging that ends frees its slot at once; its dataset stays on the books.
        b.record("a1", 10, u64::MAX, running_until(None), &q)
            .unwrap();
        b.admit("b2", &bob, u64::MAX, &q, 5).unwrap();
        assert_eq!(b.datasets.len(), 4);
        // A caller's continuation of a2 while ann has a2 running is not refused (it is a2);
        // continuing a1 again is, once the deployment is full.
        b.admit("a2", &ann, u64::MAX, &q, 6).unwrap();
        let e = b.admit("a1", &ann, u64::MAX, &q, 7).unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "total_running");
        assert_eq!(
            b.stagings["id:ann"].len(),
            2,
            "a continuation is no new staging"
        );
        // A mark nobody renews lapses (b2's, a2's); a renewed one holds (b1's).
        b.record("b1", 10, u64::MAX, running_until(Some(7)), &q)
            .unwrap();
        let later = 6 + RUNNING_MARK_MS;
        b.admit("b3", &bob, u64::MAX, &q, later).unwrap();
        let e = b.admit("b4", &bob, u64::MAX, &q, later).unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "account_running");
        // A call run in the background counts from its kept entry, and is refused like a staging.
        let mut b = LedgerState::default();
        b.admit("s1", &ann, u64::MAX, &q, 0).unwrap();
        b.charge_task("r1", &ann, (10, u64::MAX, running_until(Some(0))), &q, 0)
            .unwrap();
        let e = b
            .charge_task("r2", &ann, (10, u64::MAX, running_until(Some(0))), &q, 0)
            .unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "account_running");
        // Its end (kept again, not running) frees the slot.
        b.charge_task("r1", &ann, (10, u64::MAX, 0), &q, 1).unwrap();
        b.charge_task("r2", &ann, (10, u64::MAX, running_until(Some(1))), &q, 1)
            .unwrap();
        // A continuation of a dataset found on disk with no account becomes its caller's.
        b.datasets.insert(
            "old".into(),
            Entry {
                account: None,
                bytes: 0,
                expires_ms: u64::MAX,
                kept: false,
                running_until_ms: 0,
            },
        );
        let e = b.admit("old", &ann, u64::MAX, &q, 2).unwrap_err();
        assert_eq!(e.details.unwrap()["limit"], "account_running");
        b.admit("old", &bob, u64::MAX, &q, 2).unwrap();
        assert_eq!(b.datasets["old"].account, Some(bob.clone()));
        // The machine's own user is one account like any other here.
        let mut b = LedgerState::default();
        b.admit("l1", &Account::Local, u64::MAX, &q, 0).unwrap();
        b.admit("l2", &Account::Local, u64::MAX, &q, 0).unwrap();
        let e = b.admit("l3", &Account::Local, u64::MAX, &q, 0).unwrap_err();
        assert!(e.message.starts_with("This machine: 2"), "{}", e.message);
    }
}
