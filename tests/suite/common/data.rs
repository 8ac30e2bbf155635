//! Helpers shared by the entrez_data tests: a server with an in-memory store,
//! a real clock that tests can move forward, and direct staging of fixtures.

#![allow(dead_code)]

use crate::common::replay::Replay;
use crate::common::{block_on, call_tool_with, fixtures};
use entrez_mcp::store::SqliteStore;
use entrez_mcp::transport::ReqwestTransport;
use entrez_mcp::SystemPlatform;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::{HttpCall, HttpReply, Network, Transport};
use entrez_mcp_core::platform::{BoxFuture, Platform};
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::layouts::PUBMED;
use entrez_mcp_core::staging::rows;
use entrez_mcp_core::staging::store::{Caps, DatasetStore, Lease, NewDataset, Status};
use entrez_mcp_core::staging::{Limits, Staging};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The system clock plus an offset a test can move; real entropy.
#[derive(Default)]
pub(crate) struct Clock {
    pub offset_ms: AtomicU64,
}

impl Clock {
    pub(crate) fn advance_secs(&self, secs: u64) {
        self.offset_ms.fetch_add(secs * 1000, Ordering::SeqCst);
    }
}

impl Platform for Clock {
    fn now_unix_ms(&self) -> u64 {
        SystemPlatform.now_unix_ms() + self.offset_ms.load(Ordering::SeqCst)
    }
    fn fill_random(&self, buf: &mut [u8]) {
        SystemPlatform.fill_random(buf)
    }
}

/// A server with an in-memory store; with network to `replay` when given.
pub(crate) fn server(replay: Option<&Replay>, limits: Limits) -> (Server, Arc<Clock>, SqliteStore) {
    let store = SqliteStore::in_memory().expect("in-memory store");
    let (server, clock) = server_on(replay, limits, store.clone());
    (server, clock, store)
}

/// [`server`] under `allowance`, what one call may spend (the default is the Paid plan's).
pub(crate) fn server_spending(
    replay: Option<&Replay>,
    limits: Limits,
    allowance: Allowance,
) -> (Server, Arc<Clock>, SqliteStore) {
    let (mut server, clock, store) = server(replay, limits);
    server.config.allowance = allowance;
    (server, clock, store)
}

/// A server on an existing store.
pub(crate) fn server_on(
    replay: Option<&Replay>,
    limits: Limits,
    store: SqliteStore,
) -> (Server, Arc<Clock>) {
    server_ticking(replay, limits, store, 0)
}

/// Moves a test's clock forward by `step_ms` at every upstream request, so that a staging
/// takes as long on the clock as the test wants, whatever the machine's speed.
pub(crate) struct Ticking {
    inner: ReqwestTransport,
    clock: Arc<Clock>,
    step_ms: u64,
}

impl Transport for Ticking {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
        self.clock
            .offset_ms
            .fetch_add(self.step_ms, Ordering::SeqCst);
        self.inner.send(call)
    }
    fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()> {
        self.inner.sleep(ms)
    }
}

/// [`server_on`] whose clock moves `step_ms` forward at every upstream request.
pub(crate) fn server_ticking(
    replay: Option<&Replay>,
    limits: Limits,
    store: SqliteStore,
    step_ms: u64,
) -> (Server, Arc<Clock>) {
    let base = replay.map(Replay::eutils_base);
    let config = Config::from_lookup(move |k| match k {
        "EUTILS_BASE_URL" => base.clone(),
        "NCBI_EMAIL" => Some("tests@example.org".into()),
        _ => None,
    });
    let clock = Arc::new(Clock::default());
    let mut server = Server::new(config, Box::new(clock.clone())).unwrap();
    if replay.is_some() {
        server = server.with_network(Network {
            transport: Box::new(Ticking {
                inner: ReqwestTransport::new().unwrap(),
                clock: clock.clone(),
                step_ms,
            }),
            pacer: Box::new(MemoryPacer::new()),
            cache: None,
        });
    }
    let server = server.with_staging(Staging::new(store, limits)).unwrap();
    (server, clock)
}

/// A request in session `name`.
pub(crate) fn session(name: &str) -> RequestContext {
    RequestContext {
        session_id: Some(name.to_string()),
        ..Default::default()
    }
}

/// Calls entrez_data (outputSchema checked) and returns the whole result.
pub(crate) fn data(server: &Server, args: Value) -> Value {
    data_as(server, args, &RequestContext::default())
}

/// Calls entrez_data as `ctx`.
pub(crate) fn data_as(server: &Server, args: Value, ctx: &RequestContext) -> Value {
    call_tool_with(server, "entrez_data", args, ctx)
}

/// Calls entrez_data and returns structuredContent, failing on an error result.
pub(crate) fn ok(server: &Server, args: Value) -> Value {
    ok_as(server, args, &RequestContext::default())
}

/// [`ok`] as `ctx`.
pub(crate) fn ok_as(server: &Server, args: Value, ctx: &RequestContext) -> Value {
    let r = data_as(server, args.clone(), ctx);
    assert_eq!(r["isError"], false, "{args} → {r}");
    r["structuredContent"].clone()
}

/// Calls entrez_data expecting an error; returns the error object.
pub(crate) fn err(server: &Server, args: Value) -> Value {
    err_as(server, args, &RequestContext::default())
}

/// [`err`] as `ctx`.
pub(crate) fn err_as(server: &Server, args: Value, ctx: &RequestContext) -> Value {
    let r = data_as(server, args.clone(), ctx);
    assert_eq!(r["isError"], true, "{args} should fail: {r}");
    r["structuredContent"]["error"].clone()
}

/// Runs one query and returns its structuredContent.
pub(crate) fn sql(server: &Server, id: &str, sql: &str) -> Value {
    ok(
        server,
        json!({"operation": "query", "data_access_id": id, "sql": sql, "limit": 1000}),
    )
}

/// The single integer a query returns.
pub(crate) fn scalar(server: &Server, id: &str, query: &str) -> i64 {
    let r = sql(server, id, query);
    r["rows"][0][0]
        .as_i64()
        .unwrap_or_else(|| panic!("{query} → {r}"))
}

/// A recorded E-utilities reply's bytes (`tests/fixtures/ncbi/eutils/{name}`).
pub(crate) fn fixture(name: &str) -> Vec<u8> {
    fixtures::ncbi(&format!("eutils/{name}"))
}

/// Every recorded PubMed article, in the replay's corpus order.
pub(crate) fn recorded_articles() -> Vec<entrez_mcp_core::parse::pubmed::PubmedArticle> {
    fixtures::RECORDED_PUBMED
        .iter()
        .flat_map(|f| entrez_mcp_core::parse::pubmed::parse_pubmed(&fixture(f)).unwrap())
        .collect()
}

/// Stages the recorded PubMed articles straight into `store` for `owner` (no network).
pub(crate) fn stage_direct(store: &SqliteStore, owner: &str, now_ms: u64) -> String {
    let id = format!("{:032x}", now_ms as u128 * 7919 + owner.len() as u128);
    begin_direct(store, &id, owner, now_ms);
    block_on(store.finish(&id, Status::Complete, lease(now_ms))).unwrap();
    id
}

/// Creates dataset `id` and appends the recorded PubMed articles, leaving it `loading`
/// as a staging still under way (or one whose process stopped) leaves it.
pub(crate) fn begin_direct(store: &SqliteStore, id: &str, owner: &str, now_ms: u64) {
    block_on(async {
        store
            .create(
                NewDataset {
                    id: id.to_string(),
                    owner: owner.to_string(),
                    database: "pubmed".into(),
                    layout: &PUBMED,
                    source: "fixtures".into(),
                    created_ms: now_ms,
                    expires_ms: now_ms + 3_600_000,
                },
                100,
            )
            .await
            .unwrap();
        let caps = Caps {
            max_rows: u64::MAX,
            max_bytes: u64::MAX,
        };
        store
            .append(id, rows::pubmed(recorded_articles()), caps, lease(now_ms))
            .await
            .unwrap();
    });
}

/// The lease of a write at `now_ms` under the default lifetime.
pub(crate) fn lease(now_ms: u64) -> Lease {
    Limits::default().lease(now_ms)
}
