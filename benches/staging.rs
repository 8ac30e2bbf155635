//! Staging throughput and query latency of the native store, with no network.
//!
//! The issue sets a floor of 20,000 PubMed articles per second for parse plus
//! insert. Real articles are needed for that number to mean anything, so the
//! 10,000 articles are the recorded fixtures cloned round-robin with their
//! PMIDs rewritten, as the replay server's synthetic ids are. Each run stages
//! them the way `fetch_and_stage` does: 20 bodies of 500 articles, each
//! parsed, turned into rows and appended in its own transaction, into an
//! in-memory store and into a file store. Then typical queries are timed.
//! Run with `cargo bench --bench staging`.
//!
//! Everything runs on the main thread (no async runtime, so the store works
//! inline), and each phase is timed by the wall clock and by the thread's own
//! CPU time from `/proc/thread-self/schedstat`: on a shared machine the CPU
//! figure is the one that does not depend on the neighbours. An event scan of
//! the same bytes through the shared reader shows what the parser pays before
//! building records. A pipelined run then stages as `fetch_and_stage` really
//! does, parsing the next batch while the previous one is appended on the
//! store's blocking thread, and is timed by the wall clock.

use entrez_mcp::store::SqliteStore;
use entrez_mcp_core::parse::pubmed::parse_pubmed;
use entrez_mcp_core::parse::xml::Xml;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::layouts::PUBMED;
use entrez_mcp_core::staging::rows;
use entrez_mcp_core::staging::store::{Caps, DatasetStore, Lease, NewDataset, Status};
use futures_util::future::join;
use std::future::Future;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

const ARTICLES: usize = 10_000;
const BATCH: usize = 500;
const RUNS: usize = 3;
const PIPELINED_RUNS: usize = 5;
/// Every write's lease: the datasets never expire while the bench runs.
const LEASE: Lease = Lease {
    now_ms: 0,
    expires_ms: u64::MAX / 2,
};

/// The `<PubmedArticle>` elements of every PubMed fixture.
fn recorded() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ncbi/eutils");
    let mut out = Vec::new();
    for f in [
        "pubmed1", "pubmed2", "pubmed4", "pubmed5", "pubmed6", "pubmed7",
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{f}.xml")).unwrap();
        let mut rest = text.as_str();
        while let Some(start) = rest.find("<PubmedArticle>") {
            let end =
                rest[start..].find("</PubmedArticle>").unwrap() + start + "</PubmedArticle>".len();
            out.push(rest[start..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

/// 20 efetch-like bodies of 500 articles with PMIDs 90000001 upwards.
fn bodies(templates: &[String]) -> Vec<Vec<u8>> {
    let head = "<?xml version=\"1.0\" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC \"-//NLM//DTD PubMedArticle, 1st January 2025//EN\" \"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd\">\n<PubmedArticleSet>\n";
    (0..ARTICLES / BATCH)
        .map(|b| {
            let mut body = head.to_string();
            for i in 0..BATCH {
                let n = b * BATCH + i;
                let t = &templates[n % templates.len()];
                let open = t.find("<PMID").unwrap();
                let value = t[open..].find('>').unwrap() + open + 1;
                let close = t[value..].find("</PMID>").unwrap() + value;
                body.push_str(&t[..value]);
                body.push_str(&(90_000_001 + n).to_string());
                body.push_str(&t[close..]);
                body.push('\n');
            }
            body.push_str("</PubmedArticleSet>\n");
            body.into_bytes()
        })
        .collect()
}

/// Outside a runtime the store's futures complete on first poll.
fn now<F: Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => v,
        Poll::Pending => panic!("the store should not wait outside a runtime"),
    }
}

/// CPU time this thread has run, from the scheduler (Linux).
fn cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

/// Wall and CPU time of one phase.
#[derive(Clone, Copy, Default)]
struct Spent {
    wall: Duration,
    cpu: Duration,
}

impl Spent {
    fn measure<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let (w, c) = (Instant::now(), cpu());
        let out = f();
        self.wall += w.elapsed();
        self.cpu += cpu().saturating_sub(c);
        out
    }
}

#[derive(Default)]
struct Timing {
    parse: Spent,
    rows: Spent,
    insert: Spent,
    total: Spent,
}

/// A PubMed dataset that never expires.
fn dataset(id: &str) -> NewDataset {
    NewDataset {
        id: id.to_string(),
        owner: "bench".into(),
        database: "pubmed".into(),
        layout: &PUBMED,
        source: "bench".into(),
        created_ms: 0,
        expires_ms: u64::MAX / 2,
    }
}

fn stage(store: &SqliteStore, id: &str, bodies: &[Vec<u8>]) -> Timing {
    let caps = Caps {
        max_rows: u64::MAX,
        max_bytes: u64::MAX,
    };
    let mut t = Timing::default();
    let mut total = Spent::default();
    total.measure(|| {
        now(store.create(dataset(id), u64::MAX)).unwrap();
        for body in bodies {
            let articles = t.parse.measure(|| parse_pubmed(body).unwrap());
            let batch = t.rows.measure(|| rows::pubmed(articles));
            t.insert
                .measure(|| now(store.append(id, batch, caps, LEASE)).unwrap());
        }
        // Building the secondary indexes is part of staging.
        t.insert
            .measure(|| now(store.finish(id, Status::Complete, LEASE)).unwrap());
    });
    t.total = total;
    t
}

fn per_sec(n: usize, d: Duration) -> f64 {
    n as f64 / d.as_secs_f64()
}

fn report(label: &str, runs: &[Timing], mb: f64) {
    let best = runs.iter().min_by_key(|t| t.total.cpu).unwrap();
    let line = |what: &str, pick: fn(&Spent) -> Duration| {
        println!(
            "  {label} {what:<4}: {:>6.0} articles/s parse+insert; total {:.3}s = parse {:.3}s + rows {:.3}s + insert {:.3}s; parse alone {:.0}/s ({:.0} MB/s); rows+insert alone {:.0}/s",
            per_sec(ARTICLES, pick(&best.total)),
            pick(&best.total).as_secs_f64(),
            pick(&best.parse).as_secs_f64(),
            pick(&best.rows).as_secs_f64(),
            pick(&best.insert).as_secs_f64(),
            per_sec(ARTICLES, pick(&best.parse)),
            mb / pick(&best.parse).as_secs_f64(),
            per_sec(ARTICLES, pick(&best.rows) + pick(&best.insert)),
        );
    };
    line("cpu", |s| s.cpu);
    line("wall", |s| s.wall);
}

/// Every event of every body through the shared reader, read and dropped: what the
/// parser pays before it builds a single record.
fn scan(bodies: &[Vec<u8>]) -> Spent {
    let mut spent = Spent::default();
    spent.measure(|| {
        let mut events = 0u64;
        for body in bodies {
            let mut x = Xml::new(body, "PubMed XML").unwrap();
            while !matches!(x.event().unwrap(), quick_xml::events::Event::Eof) {
                events += 1;
            }
        }
        std::hint::black_box(events)
    });
    spent
}

/// Staged as `fetch_and_stage` stages: the next body is parsed on this thread while
/// the store appends the previous one on its blocking thread. Wall time.
fn stage_pipelined(store: &SqliteStore, id: &str, bodies: &[Vec<u8>]) -> Duration {
    let caps = Caps {
        max_rows: u64::MAX,
        max_bytes: u64::MAX,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let parse = |body: &[u8]| rows::pubmed(parse_pubmed(body).unwrap());
    let started = Instant::now();
    runtime.block_on(async {
        store.create(dataset(id), u64::MAX).await.unwrap();
        let mut ready = Some(parse(&bodies[0]));
        for next in 1..=bodies.len() {
            let batch = ready.take().unwrap();
            match bodies.get(next) {
                Some(body) => {
                    let (appended, parsed) =
                        join(store.append(id, batch, caps, LEASE), async { parse(body) }).await;
                    appended.unwrap();
                    ready = Some(parsed);
                }
                None => {
                    store.append(id, batch, caps, LEASE).await.unwrap();
                }
            }
        }
        store.finish(id, Status::Complete, LEASE).await.unwrap();
    });
    started.elapsed()
}

const QUERIES: &[(&str, &str)] = &[
    ("point lookup", "SELECT title, year FROM article WHERE pmid = 90005000"),
    ("authors of one article", "SELECT last_name, fore_name FROM author WHERE pmid = 90004321 ORDER BY position"),
    ("articles per year", "SELECT year, COUNT(*) FROM article GROUP BY year ORDER BY year"),
    ("top MeSH majors", "SELECT descriptor, COUNT(DISTINCT pmid) AS n FROM mesh WHERE major = 1 GROUP BY descriptor ORDER BY n DESC LIMIT 20"),
    ("author join + group", "SELECT au.last_name, COUNT(*) AS n, MIN(ar.year) FROM author au JOIN article ar ON ar.pmid = au.pmid GROUP BY au.last_name ORDER BY n DESC LIMIT 20"),
    ("1000 rows + count 10000", "SELECT pmid, title FROM article"),
];

/// How many statements one 500-article batch costs a Worker's dataset object: one per chunk
/// of JSON rows (`WireBatch`), against one per 100 bound values as it was before.
fn durable_object_statements(label: &str, body: &[u8]) {
    let batch = rows::pubmed(parse_pubmed(body).unwrap());
    let wire = entrez_mcp_wire::WireBatch::of(&batch).unwrap();
    let now: usize = wire.tables.iter().map(|t| t.chunks.len()).sum();
    let before: usize = batch
        .tables
        .iter()
        .map(|t| {
            let width = t.table.columns.len();
            let per_statement = (100 / width).max(1) * width;
            t.values.len().div_ceil(per_statement)
        })
        .sum();
    let rows: usize = batch.tables.iter().map(|t| t.len()).sum();
    let bytes: usize = wire
        .tables
        .iter()
        .flat_map(|t| &t.chunks)
        .map(String::len)
        .sum();
    println!(
        "durable object, {label}: one {}-article batch is {rows} rows in {} tables: {now} JSON statements ({:.1} MB bound) where rows of 100 bound values took {before}",
        batch.records,
        batch.tables.len(),
        bytes as f64 / 1e6
    );
}

fn main() {
    let templates = recorded();
    let bodies = bodies(&templates);
    let mb = bodies.iter().map(Vec::len).sum::<usize>() as f64 / 1e6;
    println!(
        "input: {ARTICLES} PubMed articles cloned from {} recorded ones: {mb:.1} MB of XML in {} bodies ({:.1} KB per article)",
        templates.len(),
        bodies.len(),
        mb * 1e3 / ARTICLES as f64
    );
    durable_object_statements("mixed", &bodies[0]);
    // The heaviest recorded article (PMID 27797938: 22 authors, 38 affiliations, 21 MeSH
    // headings), 500 times: the batch scripts/bench-staging-edges.sh stages.
    let heavy: Vec<String> = templates
        .iter()
        .filter(|t| t.contains("<PMID Version=\"1\">27797938</PMID>"))
        .cloned()
        .collect();
    durable_object_statements("heavy", &self::bodies(&heavy)[0]);
    let ceiling = (0..RUNS)
        .map(|_| scan(&bodies))
        .min_by_key(|s| s.cpu)
        .unwrap();
    println!(
        "  reader event scan (no records): {:.0} MB/s cpu = {:.0} articles/s (wall {:.0} MB/s)",
        mb / ceiling.cpu.as_secs_f64(),
        per_sec(ARTICLES, ceiling.cpu),
        mb / ceiling.wall.as_secs_f64()
    );

    let memory = SqliteStore::in_memory().unwrap();
    let runs: Vec<Timing> = (0..RUNS)
        .map(|r| stage(&memory, &format!("{r:032x}"), &bodies))
        .collect();
    report("memory", &runs, mb);

    let dir = std::env::temp_dir().join(format!("entrez-data-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = SqliteStore::open(&dir).unwrap();
    let runs: Vec<Timing> = (0..RUNS)
        .map(|r| stage(&file, &format!("{:032x}", r + 100), &bodies))
        .collect();
    report("file  ", &runs, mb);
    // Wall time on two cores moves with whatever else the machine runs, so the
    // pipelined figure is given as the median of five runs as well as the best.
    for (label, store, base) in [("memory", &memory, 200), ("file  ", &file, 300)] {
        let mut runs: Vec<Duration> = (0..PIPELINED_RUNS)
            .map(|r| stage_pipelined(store, &format!("{:032x}", base + r), &bodies))
            .collect();
        runs.sort();
        println!(
            "  {label} pipelined (parse beside append, as fetch_and_stage does): median {:>6.0} articles/s, best {:>6.0} (wall, {} runs: {})",
            per_sec(ARTICLES, runs[runs.len() / 2]),
            per_sec(ARTICLES, runs[0]),
            runs.len(),
            runs.iter()
                .map(|d| format!("{:.0}", per_sec(ARTICLES, *d)))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let id = format!("{:032x}", 100);
    let info = now(file.get(&id)).unwrap().unwrap();
    println!(
        "dataset: {} records, {} rows, {:.1} MB on disk ({})",
        info.records,
        info.rows,
        info.bytes as f64 / 1e6,
        info.tables
            .iter()
            .map(|t| format!("{} {}", t.name, t.rows))
            .collect::<Vec<_>>()
            .join(", ")
    );

    println!("query latency on the file store (guard on, limit 1000, 50 runs each, wall):");
    let policy = QueryPolicy::with_limit(Some(1000), 10_000);
    for (name, sql) in QUERIES {
        let mut times: Vec<Duration> = (0..50)
            .map(|_| {
                let t = Instant::now();
                now(file.query(&id, sql, policy)).unwrap();
                t.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "  {name:<26} median {:>8.3} ms  p95 {:>8.3} ms",
            times[25].as_secs_f64() * 1e3,
            times[47].as_secs_f64() * 1e3
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
