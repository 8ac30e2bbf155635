//! CPU per operation in wasm, for `scripts/bench-worker-cpu.sh` (feature `cpu-bench`).
//!
//! A Worker's CPU limit counts the time its wasm runs, not the time it waits
//! on NCBI or on a Durable Object, so what needs measuring is the core's own
//! work per request. This module exports it to JavaScript, built with the
//! Worker's compiler settings and run under Node's V8: parsing ([`bench_parse`]),
//! a batch ([`bench_batch`]), a request ([`Bench::call`]) and a staging step
//! ([`Bench::step`]). The Worker edge is left out of this build (it needs
//! `cloudflare:` modules).

use crate::platform::WorkerPlatform;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::http::{Endpoint, HttpRequest, Sessions};
use entrez_mcp_core::net::pacing::{Grant, Pacer};
use entrez_mcp_core::net::{HttpCall, HttpReply, Network, Transport};
use entrez_mcp_core::parse::pubmed::parse_pubmed;
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::rows;
use entrez_mcp_core::staging::rows::RowBatch;
use entrez_mcp_core::staging::store::{
    Appended, Caps, DatasetInfo, DatasetStore, Lease, NewDataset, QueryResult, Status, TableCount,
    TableInfo,
};
use entrez_mcp_core::staging::task_store::{StoredTask, TaskStore};
use entrez_mcp_core::staging::{Limits, Scheduler, Staging};
use entrez_mcp_wire::{DatasetCommand, WireBatch};
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::prelude::wasm_bindgen;

/// Parses a PubMed efetch body; returns the articles read.
#[wasm_bindgen]
pub fn bench_parse(body: &[u8]) -> u32 {
    parse_pubmed(body).map_or(0, |a| a.len() as u32)
}

/// Parses a PubMed efetch body into rows and encodes them as the Worker's append command;
/// returns the command's size in bytes. That is a batch's whole cost on the Worker.
#[wasm_bindgen]
pub fn bench_batch(body: &[u8]) -> u32 {
    let Ok(articles) = parse_pubmed(body) else {
        return 0;
    };
    let batch = rows::pubmed(articles);
    append_command(&batch).len() as u32
}

fn append_command(batch: &RowBatch) -> Vec<u8> {
    let command = DatasetCommand::Append {
        batch: WireBatch::of(batch).unwrap_or_else(|_| WireBatch {
            layout: String::new(),
            records: 0,
            tables: Vec::new(),
        }),
        caps: Caps {
            max_rows: u64::MAX,
            max_bytes: u64::MAX,
        },
        lease: Lease {
            now_ms: 0,
            expires_ms: u64::MAX,
        },
    };
    entrez_mcp_wire::to_wire(&command)
        .map(String::into_bytes)
        .unwrap_or_default()
}

/// A server whose NCBI and Durable Objects answer at once from memory. The store still
/// encodes every command as the Worker does, so a `fetch_and_stage` call runs exactly the
/// code it runs on Workers, minus the waiting.
#[wasm_bindgen]
pub struct Bench {
    endpoint: Endpoint,
    steps: Steps,
}

/// The steps the server asked for, in order; the benchmark runs them.
#[derive(Clone, Default)]
struct Steps(std::rc::Rc<RefCell<std::collections::VecDeque<String>>>);

impl Scheduler for Steps {
    fn schedule<'a>(&'a self, id: &'a str, _after_ms: u64) -> BoxFuture<'a, Result<()>> {
        self.0.borrow_mut().push_back(id.to_string());
        Box::pin(async { Ok(()) })
    }
}

#[wasm_bindgen]
impl Bench {
    /// `articles`: `<PubmedArticle>` elements, cycled to fill each efetch reply;
    /// `esearch`: the reply to every search; `cpu_budget_ms`: `ENTREZ_CPU_BUDGET_MS`.
    #[wasm_bindgen(constructor)]
    pub fn new(articles: String, esearch: Vec<u8>, cpu_budget_ms: u32, subrequests: u32) -> Bench {
        let templates: Vec<String> = articles
            .split("</PubmedArticle>")
            .filter(|a| a.contains("<PubmedArticle>"))
            .map(|a| format!("{}</PubmedArticle>", a.trim()))
            .collect();
        let limits = Limits {
            cpu_budget_ms: u64::from(cpu_budget_ms),
            subrequests: u64::from(subrequests),
            ..Limits::default()
        };
        let network = Network {
            transport: Box::new(Upstream {
                templates,
                esearch,
                replies: RefCell::new(HashMap::new()),
            }),
            pacer: Box::new(NoWait),
            cache: None,
        };
        let steps = Steps::default();
        let staging =
            Staging::new(Objects::default(), limits).with_scheduler(Box::new(steps.clone()));
        let server = Server::new(Config::defaults(), Box::new(WorkerPlatform))
            .expect("server builds")
            .with_network(network)
            .with_staging(staging)
            .expect("staging");
        let sessions = Sessions::new(b"bench-session-key".to_vec(), 3600, false);
        Bench {
            endpoint: Endpoint::new(server, sessions),
            steps,
        }
    }

    /// Runs the next step the server asked for; "" when none is waiting, else how it ended.
    /// On Workers such a step is an alarm of the dataset's Durable Object.
    pub fn step(&self) -> String {
        let Some(id) = self.steps.0.borrow_mut().pop_front() else {
            return String::new();
        };
        match run_now(self.endpoint.server.run_step(&id)) {
            Ok(step) => format!("{step:?}"),
            Err(e) => format!("error: {}", e.message),
        }
    }

    /// One stateless (2026-07-28) `POST /mcp` with this JSON-RPC body, under a caller's own key,
    /// through the same `Endpoint` the Worker serves; returns the reply body.
    pub fn call(&self, method: &str, name: &str, body: &[u8]) -> String {
        let request = HttpRequest {
            method: "POST".into(),
            path: "/mcp".into(),
            headers: vec![
                ("host".into(), "localhost".into()),
                ("content-type".into(), "application/json".into()),
                (
                    "accept".into(),
                    "application/json, text/event-stream".into(),
                ),
                ("mcp-protocol-version".into(), "2026-07-28".into()),
                ("mcp-method".into(), method.into()),
                ("mcp-name".into(), name.into()),
                // A caller's key makes its datasets listable (a stateless caller with neither
                // session nor key stages into the handle pool, which lists nothing).
                (
                    "x-ncbi-api-key".into(),
                    "bench-caller-key-0123456789abcdef".into(),
                ),
            ],
            body: body.to_vec(),
            client_ip: Some("127.0.0.1".into()),
        };
        let reply = run_now(self.endpoint.handle(request));
        String::from_utf8_lossy(&reply.body).into_owned()
    }
}

/// Runs a future whose every step is ready at once (no stand-in here ever waits).
fn run_now<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

struct NoWait;

impl Pacer for NoWait {
    fn reserve<'a>(&'a self, _: &'a str, _: u32, now: u64, _: u64) -> BoxFuture<'a, Result<Grant>> {
        Box::pin(async move { Ok(Grant::unpaced(now)) })
    }
}

/// NCBI from memory: an efetch reply holds as many articles as the request asks for.
struct Upstream {
    templates: Vec<String>,
    esearch: Vec<u8>,
    // Replies by size, built once: building them is not the Worker's work.
    replies: RefCell<HashMap<usize, Vec<u8>>>,
}

impl Upstream {
    fn efetch(&self, asked: usize) -> Vec<u8> {
        let mut replies = self.replies.borrow_mut();
        let reply = replies.entry(asked).or_insert_with(|| {
            let mut out = String::from("<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n");
            for a in self.templates.iter().cycle().take(asked) {
                out.push_str(a);
                out.push('\n');
            }
            out.push_str("</PubmedArticleSet>\n");
            out.into_bytes()
        });
        reply.clone()
    }
}

/// How many records a request asks for: its `retmax`, or its ids.
fn asked_for(call: &HttpCall) -> usize {
    let body = call
        .body
        .as_deref()
        .map(String::from_utf8_lossy)
        .unwrap_or_default();
    let query = call.url.split_once('?').map_or("", |(_, q)| q);
    let params = query.split('&').chain(body.split('&'));
    let mut retmax = None;
    let mut ids = None;
    for p in params {
        if let Some(v) = p.strip_prefix("retmax=") {
            retmax = v.parse().ok();
        } else if let Some(v) = p.strip_prefix("id=") {
            ids = Some(v.split("%2C").flat_map(|s| s.split(',')).count());
        }
    }
    retmax.or(ids).unwrap_or(1)
}

impl Transport for Upstream {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply>> {
        let body = if call.url.contains("esearch") {
            self.esearch.clone()
        } else {
            self.efetch(asked_for(&call))
        };
        Box::pin(async move {
            Ok(HttpReply {
                status: 200,
                headers: vec![("content-type".into(), "text/xml".into())],
                body,
            })
        })
    }
    fn sleep<'a>(&'a self, _ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// The Durable Objects from memory: every append is encoded as the Worker encodes it.
#[derive(Default, Clone)]
struct Objects {
    datasets: std::rc::Rc<RefCell<HashMap<String, DatasetInfo>>>,
}

fn unsupported<T>() -> BoxFuture<'static, Result<T>> {
    Box::pin(async { Err(Error::internal("not part of the benchmark")) })
}

impl TaskStore for Objects {
    fn save<'a>(&'a self, _: StoredTask) -> BoxFuture<'a, Result<()>> {
        Box::pin(async { Err(Error::internal("the benchmark keeps no task results")) })
    }

    fn load<'a>(&'a self, _: &'a str, _: u64) -> BoxFuture<'a, Result<Option<StoredTask>>> {
        Box::pin(async { Ok(None) })
    }
}

impl DatasetStore for Objects {
    fn create<'a>(&'a self, d: NewDataset, _max: u64) -> BoxFuture<'a, Result<()>> {
        let info = DatasetInfo {
            id: d.id.clone(),
            owner: d.owner,
            database: d.database,
            layout: d.layout.name.to_string(),
            source: d.source,
            status: Status::Loading,
            created_ms: d.created_ms,
            expires_ms: d.expires_ms,
            updated_ms: d.created_ms,
            records: 0,
            rows: 0,
            bytes: 0,
            tables: d
                .layout
                .empty_counts()
                .into_iter()
                .map(|(name, rows)| TableCount {
                    name: name.to_string(),
                    rows,
                })
                .collect(),
        };
        self.datasets.borrow_mut().insert(d.id, info);
        Box::pin(async { Ok(()) })
    }

    fn append<'a>(
        &'a self,
        id: &'a str,
        batch: RowBatch,
        _caps: Caps,
        lease: Lease,
    ) -> BoxFuture<'a, Result<Appended>> {
        let command = append_command(&batch);
        let per_table: Vec<u64> = batch.tables.iter().map(|t| t.len() as u64).collect();
        let mut datasets = self.datasets.borrow_mut();
        let result = match datasets.get_mut(id) {
            Some(info) => {
                let bytes = info.bytes + command.len() as u64;
                let new_records = info.add_batch(batch.layout, &per_table, bytes);
                info.renew(lease);
                // The Worker reads the object's answer back: the dataset's entry.
                let answer = serde_json::to_vec(&*info).unwrap_or_default();
                let info: DatasetInfo = serde_json::from_slice(&answer).unwrap_or(info.clone());
                Ok(Appended { new_records, info })
            }
            None => Err(Error::internal("no such dataset")),
        };
        Box::pin(async move { result })
    }

    fn finish<'a>(
        &'a self,
        id: &'a str,
        status: Status,
        lease: Lease,
    ) -> BoxFuture<'a, Result<DatasetInfo>> {
        let result = match self.datasets.borrow_mut().get_mut(id) {
            Some(info) => {
                info.status = status;
                info.renew(lease);
                Ok(info.clone())
            }
            None => Err(Error::internal("no such dataset")),
        };
        Box::pin(async move { result })
    }

    fn resume<'a>(&'a self, id: &'a str, lease: Lease) -> BoxFuture<'a, Result<Option<String>>> {
        let mut datasets = self.datasets.borrow_mut();
        let taken = match datasets.get_mut(id) {
            Some(info) => match std::mem::replace(&mut info.status, Status::Loading) {
                Status::Partial(position) => {
                    info.renew(lease);
                    Some(position)
                }
                other => {
                    info.status = other;
                    None
                }
            },
            None => None,
        };
        Box::pin(async move { Ok(taken) })
    }

    // Tasks are not what this benchmark measures.
    fn cancel<'a>(&'a self, _: &'a str, _: u64) -> BoxFuture<'a, Result<bool>> {
        Box::pin(async { Ok(false) })
    }

    fn get<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<DatasetInfo>>> {
        let info = self.datasets.borrow().get(id).cloned();
        Box::pin(async move { Ok(info) })
    }

    fn list<'a>(&'a self, owner: &'a str) -> BoxFuture<'a, Result<Vec<DatasetInfo>>> {
        let mine = self
            .datasets
            .borrow()
            .values()
            .filter(|d| d.owner == owner)
            .cloned()
            .collect();
        Box::pin(async move { Ok(mine) })
    }

    fn remove<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<bool>> {
        let removed = self.datasets.borrow_mut().remove(id).is_some();
        Box::pin(async move { Ok(removed) })
    }

    fn expire<'a>(&'a self, _now_ms: u64) -> BoxFuture<'a, Result<Vec<String>>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn query<'a>(
        &'a self,
        _: &'a str,
        _: &'a str,
        _: QueryPolicy,
    ) -> BoxFuture<'a, Result<QueryResult>> {
        unsupported()
    }

    fn describe<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Vec<TableInfo>>> {
        unsupported()
    }

    fn check<'a>(&'a self, _: &'a str, _: &'a str) -> BoxFuture<'a, Result<Vec<String>>> {
        unsupported()
    }
}
