//! Stagings the server continues by itself (`staging::scheduler`): one call under the Workers
//! Free plan's budget stages 2,000 records, with the steps run as the native edge runs them
//! (here driven one at a time by the test); a step is never run twice at once; and a staging
//! a stopped process was continuing is taken up again from its cursor after a restart.

use crate::common::block_on;
use crate::common::data::*;
use crate::common::replay::{assert_each_fetched_once, Replay};
use entrez_mcp::store::SqliteStore;
use entrez_mcp::transport::ReqwestTransport;
use entrez_mcp::SystemPlatform;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::Result;
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::Network;
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::store::{DatasetStore, Lease};
use entrez_mcp_core::staging::{Limits, Scheduler, Staging};
use entrez_mcp_core::tasks::Step;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A scheduler that only writes down the steps asked for, and how long from then; the test
/// runs them, and lets the time they were put off pass on the server's clock ([`Later`]).
#[derive(Clone, Default)]
pub(super) struct Asked(pub Arc<Mutex<Vec<(String, u64)>>>, Arc<AtomicU64>);

/// The system clock, moved on by the time a test let pass ([`Asked::pass`]).
pub(super) struct Later(Arc<AtomicU64>);

impl Platform for Later {
    fn now_unix_ms(&self) -> u64 {
        SystemPlatform.now_unix_ms() + self.0.load(Ordering::SeqCst)
    }
    fn fill_random(&self, buf: &mut [u8]) {
        SystemPlatform.fill_random(buf)
    }
}

impl Asked {
    /// Lets `ms` pass on the clock of the servers this scheduler serves.
    pub(super) fn pass(&self, ms: u64) {
        self.1.fetch_add(ms, Ordering::SeqCst);
    }

    /// The clock of a server this scheduler serves.
    pub(super) fn clock(&self) -> Later {
        Later(self.1.clone())
    }

    /// The steps asked for since the last take, each as soon as asked.
    pub(super) fn take(&self) -> Vec<String> {
        self.take_timed().into_iter().map(|(id, _)| id).collect()
    }

    /// The steps asked for since the last take, with how long each was put off.
    pub(super) fn take_timed(&self) -> Vec<(String, u64)> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

impl Scheduler for Asked {
    fn schedule<'a>(&'a self, id: &'a str, after_ms: u64) -> BoxFuture<'a, Result<()>> {
        Box::pin(async move {
            self.0.lock().unwrap().push((id.to_string(), after_ms));
            Ok(())
        })
    }
}

/// A server on `store` whose stagings are continued through `asked`.
pub(super) fn carried_server(replay: &Replay, store: SqliteStore, asked: &Asked) -> Server {
    carried_server_with(
        replay,
        store,
        asked,
        Limits::default(),
        Allowance::FREE_PLAN,
    )
}

/// [`carried_server`] under `limits`, each call spending `allowance`.
pub(super) fn carried_server_with(
    replay: &Replay,
    store: SqliteStore,
    asked: &Asked,
    limits: Limits,
    allowance: Allowance,
) -> Server {
    let base = replay.eutils_base();
    let mut config = Config::from_lookup(move |k| match k {
        "EUTILS_BASE_URL" => Some(base.clone()),
        "NCBI_EMAIL" => Some("tests@example.org".into()),
        _ => None,
    });
    config.allowance = allowance;
    let network = Network {
        transport: Box::new(ReqwestTransport::new().unwrap()),
        pacer: Box::new(MemoryPacer::new()),
        cache: None,
    };
    let staging = Staging::new(store, limits).with_scheduler(Box::new(asked.clone()));
    Server::new(config, Box::new(asked.clock()))
        .unwrap()
        .with_network(network)
        .with_staging(staging)
        .unwrap()
}

/// Runs every step asked for until none is, each once the time it was put off has passed;
/// returns how many ran.
pub(super) fn drive(s: &Server, asked: &Asked) -> usize {
    let mut steps = 0;
    loop {
        let ids = asked.take_timed();
        if ids.is_empty() {
            return steps;
        }
        for (id, after_ms) in ids {
            asked.pass(after_ms);
            let step = block_on(s.run_step(&id)).expect("a step");
            assert_ne!(
                step,
                Step::NothingToDo,
                "a step was asked for with nothing to do"
            );
            steps += 1;
            assert!(steps < 200, "no end");
        }
    }
}

fn stage(s: &Server, args: Value) -> Value {
    let mut args = args;
    args["operation"] = json!("fetch_and_stage");
    ok(s, args)
}

/// A server with a scheduler on a replay and store of its own, and the staging of 600
/// synthetic records its first call started (the steps not yet run): where the tests of
/// single steps begin.
struct Started {
    s: Server,
    asked: Asked,
    store: SqliteStore,
    id: String,
    first: Value,
    replay: Replay,
}

fn started() -> Started {
    let replay = Replay::start();
    let asked = Asked::default();
    let store = SqliteStore::in_memory().unwrap();
    let s = carried_server(&replay, store.clone(), &asked);
    let ids: Vec<u64> = (90_000_001..=90_000_600).collect();
    let first = stage(&s, json!({"ids": ids}));
    let id = first["data_access_id"].as_str().unwrap().to_string();
    assert_eq!(first["status"], "loading", "{first}");
    Started {
        s,
        asked,
        store,
        id,
        first,
        replay,
    }
}

#[test]
fn one_call_stages_two_thousand_records_on_the_free_plan_budget() {
    let replay = Replay::start();
    let asked = Asked::default();
    let s = carried_server(&replay, SqliteStore::in_memory().unwrap(), &asked);
    let first = stage(
        &s,
        json!({"term": "replay-synthetic[all]", "max_records": 2000}),
    );
    let id = first["data_access_id"].as_str().unwrap().to_string();
    // Nothing is asked of the caller: the dataset is loading and the server goes on.
    assert_eq!(first["status"], "loading", "{first}");
    assert_eq!(first["next_call"], Value::Null, "{first}");
    let staged_first = first["records"].as_u64().unwrap();
    assert!(staged_first > 0 && staged_first < 500, "{first}");
    assert_eq!(first["remaining"], 2000 - staged_first);
    assert!(
        first["warnings"].as_array().unwrap().iter().any(|w| w
            .as_str()
            .unwrap()
            .contains("the server stages them by itself")),
        "{first}"
    );
    assert_eq!(*asked.0.lock().unwrap(), vec![(id.clone(), 0)]);
    // Meanwhile it answers queries, and says it is loading.
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    assert_eq!(q["status"], "loading", "{q}");
    assert!(
        q["warnings"][0].as_str().unwrap().contains("by itself"),
        "{q}"
    );
    // Its steps hold it: a caller's continuation is told it is busy, and changes nothing.
    let busy = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(busy["code"], "dataset_busy", "{busy}");
    let steps = drive(&s, &asked);
    assert!(
        steps >= 3,
        "2,000 records cannot fit a few budgets: {steps}"
    );
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    let d = &listed["datasets"][0];
    assert_eq!(d["status"], "complete", "{listed}");
    assert_eq!(d["records"], 2000, "{listed}");
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        2000
    );
    assert_eq!(scalar(&s, &id, "SELECT COUNT(*) FROM article"), 2000);
    assert_eq!(
        scalar(&s, &id, "SELECT MAX(pmid) - MIN(pmid) + 1 FROM article"),
        2000
    );
    // A complete dataset takes no more steps.
    assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    // NCBI was asked for each of the 2,000 positions of the search's history once: no batch
    // twice (the primary key would hide a batch stored twice, not one fetched twice).
    assert_each_fetched_once(&stats, (0..2000).map(|p| format!("@{p}")));
    eprintln!("background staging: 1 call and {steps} steps for 2,000 records; replay {stats}");
}

#[test]
fn a_call_waits_for_the_staging_it_names_and_says_how_long() {
    let Started {
        s,
        asked,
        id,
        replay: _replay,
        ..
    } = started();
    let count = |wait: u64| json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article", "wait_seconds": wait});
    // Nothing runs the steps: a wait of one second runs out, and the answer says it covers
    // only what is staged so far.
    let q = ok(&s, count(1));
    assert_eq!(q["status"], "loading", "{q}");
    let note = q["warnings"][0].as_str().unwrap();
    assert!(
        note.starts_with("Waited 1 s (wait_seconds 1): the staging goes on,"),
        "{q}"
    );
    assert!(
        q["warnings"][1].as_str().unwrap().contains("still loading"),
        "{q}"
    );
    // While a call waits, the steps run (here on this thread, natively on the runtime): it
    // answers once the staging has ended, on all 600 records.
    let answered = std::thread::scope(|scope| {
        let waiting = scope.spawn(|| ok(&s, count(60)));
        std::thread::sleep(std::time::Duration::from_millis(300));
        let steps = drive(&s, &asked);
        assert!(steps > 0);
        waiting.join().unwrap()
    });
    assert_eq!(answered["status"], "complete", "{answered}");
    assert_eq!(answered["rows"][0][0], 600, "{answered}");
    let note = answered["warnings"][0].as_str().unwrap();
    assert!(
        note.starts_with("Waited ") && note.ends_with(" s for the staging to end."),
        "{answered}"
    );
    // A staging that has ended is answered at once, without a word about waiting.
    let q = ok(&s, count(60));
    assert_eq!(q["warnings"], json!([]), "{q}");
    // schema waits the same way; an operation that waits for nothing says it ignores it.
    let schema = ok(
        &s,
        json!({"operation": "schema", "data_access_id": id, "wait_seconds": 5}),
    );
    assert_eq!(schema["status"], "complete", "{schema}");
    let listed = data(&s, json!({"operation": "list_datasets", "wait_seconds": 5}));
    let warned = listed["structuredContent"]["call_warnings"].to_string();
    assert!(warned.contains("wait_seconds is ignored"), "{listed}");
}

#[test]
fn two_steps_at_once_stage_nothing_twice() {
    // The replay is bound: dropped, it would stop answering.
    let Started {
        s,
        asked,
        id,
        replay,
        ..
    } = started();
    asked.take();
    // The store hands the cursor to one of them; the other finds the dataset taken.
    let (a, b) = block_on(futures_util::future::join(s.run_step(&id), s.run_step(&id)));
    let both = [a.unwrap(), b.unwrap()];
    let idle = both.iter().filter(|s| **s == Step::NothingToDo).count();
    assert_eq!(idle, 1, "exactly one found nothing to do: {both:?}");
    drive(&s, &asked);
    assert_eq!(scalar(&s, &id, "SELECT COUNT(*) FROM article"), 600);
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(listed["datasets"][0]["records"], 600, "{listed}");
    // The step that found the dataset taken fetched nothing either.
    assert_each_fetched_once(
        &replay.stats(),
        (90_000_001..=90_000_600).map(|p| p.to_string()),
    );
}

#[test]
fn a_staging_a_stopped_process_carried_on_resumes_from_its_cursor() {
    let replay = Replay::start();
    let dir = std::env::temp_dir().join(format!("entrez-background-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let id = {
        let asked = Asked::default();
        let store = SqliteStore::open(&dir).unwrap();
        let s = carried_server(&replay, store.clone(), &asked);
        let ids: Vec<u64> = (90_000_001..=90_000_500).collect();
        let first = stage(&s, json!({"ids": ids}));
        let id = first["data_access_id"].as_str().unwrap().to_string();
        assert_eq!(first["status"], "loading", "{first}");
        // A step takes it up, and the process stops before the step ends.
        let now = SystemPlatform.now_unix_ms();
        let lease = Lease {
            now_ms: now,
            expires_ms: now + 600_000,
        };
        assert!(block_on(store.resume(&id, lease)).unwrap().is_some());
        id
    };
    // The next process finds it waiting for a step, not failed.
    let store = SqliteStore::open(&dir).unwrap();
    assert_eq!(store.in_background().unwrap(), vec![id.clone()]);
    let asked = Asked::default();
    let s = carried_server(&replay, store, &asked);
    let before = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(before["datasets"][0]["status"], "loading", "{before}");
    assert!(block_on(s.run_step(&id)).unwrap() != Step::NothingToDo);
    drive(&s, &asked);
    let after = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(after["datasets"][0]["status"], "complete", "{after}");
    assert_eq!(after["datasets"][0]["records"], 500, "{after}");
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        500
    );
    // The next process began at the cursor: what the first call staged was not fetched again.
    assert_each_fetched_once(
        &replay.stats(),
        (90_000_001..=90_000_500).map(|p| p.to_string()),
    );
    drop(s);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_passing_fault_puts_the_next_step_off_and_the_staging_still_ends_by_itself() {
    let Started {
        s,
        asked,
        id,
        first,
        replay,
        ..
    } = started();
    assert_eq!(asked.take_timed(), vec![(id.clone(), 0)]);
    // NCBI answers 503 to every attempt of the step's next request.
    replay.control("POST", "/__replay/fail", r#"{"status": 503, "count": 4}"#);
    assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::MoreToDo);
    // Not left for a caller: the next step is asked for, half a minute on.
    assert_eq!(asked.take_timed(), vec![(id.clone(), 30_000)]);
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    let d = &listed["datasets"][0];
    assert_eq!(d["status"], "loading", "{listed}");
    assert_eq!(d["records"], first["records"], "{listed}");
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    let warning = q["warnings"][0].as_str().unwrap();
    assert!(
        warning.contains("paused by a passing fault (") && warning.contains("tries again at"),
        "{q}"
    );
    let busy = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(busy["code"], "dataset_busy", "{busy}");
    // A step asked for before the try is due (a restarted process queues every in_background
    // staging at once; an alarm may fire early) stages nothing and puts itself off to it.
    let before = replay.stats()["requests"].as_u64().unwrap();
    asked.pass(10_000);
    assert_eq!(block_on(s.run_step(&id)).unwrap(), Step::MoreToDo);
    let put_off = asked.take_timed();
    assert_eq!(put_off.len(), 1, "{put_off:?}");
    // The rest of the 30 s, less the real time the test has taken since the pause.
    assert!(
        put_off[0].0 == id && (10_000..=20_000).contains(&put_off[0].1),
        "{put_off:?}"
    );
    assert_eq!(
        replay.stats()["requests"].as_u64().unwrap(),
        before,
        "NCBI was not asked"
    );
    // The step put off runs when due; once it stages again, the pause is over.
    asked.pass(20_000);
    assert_ne!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    let warning = q["warnings"][0].as_str().unwrap();
    assert!(
        !warning.contains("paused") && warning.contains("by itself"),
        "{q}"
    );
    // And the staging ends with every record once.
    drive(&s, &asked);
    let after = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(after["datasets"][0]["status"], "complete", "{after}");
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        600
    );
    assert_eq!(scalar(&s, &id, "SELECT COUNT(*) FROM article"), 600);
    // The 503s served nothing; every record was fetched once, after them.
    assert_each_fetched_once(
        &replay.stats(),
        (90_000_001..=90_000_600).map(|p| p.to_string()),
    );
}

#[test]
fn a_staging_that_keeps_meeting_faults_is_left_for_a_caller_after_its_retries() {
    let Started {
        s,
        asked,
        store,
        id,
        replay,
        ..
    } = started();
    asked.take();
    // As if the retries were spent: the stored cursor counts the faults so far.
    let Some(info) = block_on(store.get(&id)).unwrap() else {
        panic!("no dataset")
    };
    let entrez_mcp_core::staging::store::Status::Partial(stored) = info.status else {
        panic!("not partial: {:?}", info.status)
    };
    let mut cursor: Value = serde_json::from_str(&stored).unwrap();
    cursor["faults"] = json!(entrez_mcp_core::staging::scheduler::FAULT_RETRIES);
    let now = SystemPlatform.now_unix_ms();
    let lease = Lease {
        now_ms: now,
        expires_ms: now + 600_000,
    };
    let status = entrez_mcp_core::staging::store::Status::Partial(cursor.to_string());
    block_on(store.finish(&id, status, lease)).unwrap();
    replay.control("POST", "/__replay/fail", r#"{"status": 503, "count": 4}"#);
    assert!(
        block_on(s.run_step(&id)).is_err(),
        "the step ends with the fault"
    );
    assert!(asked.take_timed().is_empty(), "no step is asked for");
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(listed["datasets"][0]["status"], "partial", "{listed}");
    // Its caller's continuation counts faults afresh.
    let Some(info) = block_on(store.get(&id)).unwrap() else {
        panic!("no dataset")
    };
    let entrez_mcp_core::staging::store::Status::Partial(stored) = info.status else {
        panic!("not partial: {:?}", info.status)
    };
    let cursor: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(cursor["faults"], 0, "{cursor}");
    // The caller continues it, and it ends.
    let next = ok(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_ne!(next["status"], "partial", "{next}");
    drive(&s, &asked);
    assert_eq!(scalar(&s, &id, "SELECT COUNT(*) FROM article"), 600);
}

#[test]
fn a_caller_has_at_most_four_stagings_running_at_once() {
    let replay = Replay::start();
    let asked = Asked::default();
    let s = carried_server(&replay, SqliteStore::in_memory().unwrap(), &asked);
    let batch =
        |n: u64| -> Vec<u64> { (90_000_001 + n * 1_000..=90_000_600 + n * 1_000).collect() };
    let mut running = Vec::new();
    for n in 0..4 {
        let started = stage(&s, json!({"ids": batch(n)}));
        assert_eq!(started["status"], "loading", "{started}");
        running.push(started["data_access_id"].as_str().unwrap().to_string());
    }
    // The ledger counts them (one account: the machine's own user), so a fifth is refused
    // before anything goes upstream.
    let refused = err(&s, json!({"operation": "fetch_and_stage", "ids": batch(4)}));
    assert_eq!(refused["code"], "quota_exceeded", "{refused}");
    assert_eq!(refused["details"]["limit"], "account_running", "{refused}");
    // A dataset dropped stops its staging and frees its slot at once.
    ok(
        &s,
        json!({"operation": "drop_dataset", "data_access_id": running[0]}),
    );
    let fifth = stage(&s, json!({"ids": batch(4)}));
    assert_eq!(fifth["status"], "loading", "{fifth}");
    assert_eq!(
        err(&s, json!({"operation": "fetch_and_stage", "ids": batch(5)}))["details"]["limit"],
        "account_running"
    );
    // Once they end, the caller may start another: the last write of each frees its slot.
    // (The dropped one's next step, asked for before the drop, has nothing to do.)
    asked.0.lock().unwrap().retain(|(id, _)| *id != running[0]);
    drive(&s, &asked);
    let next = stage(&s, json!({"ids": batch(5)}));
    assert_eq!(next["status"], "loading", "{next}");
}

#[test]
fn a_call_whose_batch_meets_a_passing_fault_answers_loading_and_the_server_goes_on() {
    let replay = Replay::start();
    let asked = Asked::default();
    let s = carried_server(&replay, SqliteStore::in_memory().unwrap(), &asked);
    // NCBI answers 503 to every attempt of the call's first batch.
    replay.control("POST", "/__replay/fail", r#"{"status": 503, "count": 4}"#);
    let ids: Vec<u64> = (90_000_001..=90_000_300).collect();
    let first = stage(&s, json!({"ids": ids}));
    let id = first["data_access_id"].as_str().unwrap().to_string();
    // Not an error to retry (a second dataset): the server goes on by itself, and says so.
    assert_eq!(first["status"], "loading", "{first}");
    assert_eq!(first["records"], 0, "{first}");
    assert_eq!(first["next_call"], Value::Null, "{first}");
    assert!(
        first["warnings"].as_array().unwrap().iter().any(|w| {
            let w = w.as_str().unwrap();
            w.contains("paused by a passing fault") && w.contains("nothing needs to be called")
        }),
        "{first}"
    );
    assert_eq!(asked.take_timed(), vec![(id.clone(), 30_000)]);
    assert_ne!(block_on(s.run_step(&id)).unwrap(), Step::NothingToDo);
    drive(&s, &asked);
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        300
    );
}
