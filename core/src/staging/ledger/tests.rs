//! The books' tests: accounts, the deployment, bytes, the hourly window, seeding.

use crate::staging::ledger::*;

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
    let mut b = LedgerState::default();
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
    let mut b = LedgerState::default();
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
    let mut b = LedgerState::default();
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
    let mine = futures_util::FutureExt::now_or_never(l.admit("a3", &alice, u64::MAX, 0)).unwrap();
    assert_eq!(
        mine.unwrap_err().details.unwrap()["limit"],
        "account_datasets"
    );
}
