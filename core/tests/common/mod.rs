//! Shared helpers for the core's integration tests: a controllable platform, request
//! builders, and stand-ins for the network. The native suite (`tests/suite/common`) uses
//! them too.

#![allow(dead_code)]

pub(crate) mod offline;

use entrez_mcp_core::config::Config;
use entrez_mcp_core::http::{Endpoint, HttpRequest, HttpResponse, Sessions};
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;

/// A clock tests can move and an entropy source that counts.
#[derive(Default)]
pub(crate) struct TestPlatform {
    pub now_ms: AtomicU64,
    counter: AtomicU8,
}

impl Platform for TestPlatform {
    fn now_unix_ms(&self) -> u64 {
        self.now_ms.load(Ordering::SeqCst)
    }
    fn fill_random(&self, buf: &mut [u8]) {
        let n = self.counter.fetch_add(1, Ordering::SeqCst);
        buf.iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = n ^ i as u8);
    }
}

pub(crate) const T0: u64 = 1_763_000_000_000;

/// A server with `config`, and the platform handle to move its clock.
pub(crate) fn server_with(config: Config) -> (Server, Arc<TestPlatform>) {
    let platform = Arc::new(TestPlatform::default());
    platform.now_ms.store(T0, Ordering::SeqCst);
    let server = Server::new(config, Box::new(platform.clone())).expect("server builds");
    (server, platform)
}

/// An endpoint with default config and a 60-second session TTL.
pub(crate) fn endpoint() -> (Endpoint, Arc<TestPlatform>) {
    endpoint_with(Config::defaults(), true)
}

pub(super) fn endpoint_with(config: Config, termination: bool) -> (Endpoint, Arc<TestPlatform>) {
    let (server, platform) = server_with(config);
    (
        Endpoint::new(server, Sessions::new(b"test-key".to_vec(), 60, termination)),
        platform,
    )
}

/// Runs a future to its end on this thread: the core's futures wait on nothing but each
/// other here (no network), so a thread parked until woken is the whole executor.
pub(super) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Arc::new(Unpark(std::thread::current())).into();
    let mut cx = std::task::Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

/// A POST to /mcp with the headers a conforming client sends.
pub(crate) fn post(body: &str, extra: &[(&str, &str)]) -> HttpRequest {
    let mut headers = vec![
        ("Host".to_string(), "127.0.0.1:8787".to_string()),
        ("Content-Type".to_string(), "application/json".to_string()),
        (
            "Accept".to_string(),
            "application/json, text/event-stream".to_string(),
        ),
    ];
    for (k, v) in extra {
        headers.retain(|(name, _)| !name.eq_ignore_ascii_case(k));
        headers.push((k.to_string(), v.to_string()));
    }
    HttpRequest {
        method: "POST".into(),
        path: "/mcp".into(),
        headers,
        body: body.as_bytes().to_vec(),
        client_ip: Some("127.0.0.1".into()),
    }
}

pub(crate) fn initialize_body(version: &str) -> String {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}
    })
    .to_string()
}

/// Initializes and returns the session id.
pub(super) fn open_session(endpoint: &Endpoint) -> String {
    let r = block_on(endpoint.handle(post(&initialize_body("2025-11-25"), &[])));
    assert_eq!(r.status, 200);
    r.header("Mcp-Session-Id")
        .expect("session id issued")
        .to_string()
}

/// A request within a session.
pub(super) fn in_session(endpoint: &Endpoint, session: &str, body: &Value) -> HttpResponse {
    block_on(endpoint.handle(post(
        &body.to_string(),
        &[
            ("Mcp-Session-Id", session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
    )))
}

/// The JSON-RPC error code of a response body, if any.
pub(crate) fn rpc_code(body: &Value) -> Option<i64> {
    body.pointer("/error/code").and_then(Value::as_i64)
}

/// Calls a tool through the dispatcher and checks the result against the tool's outputSchema.
pub(super) fn call_tool(server: &Server, name: &str, arguments: Value) -> Value {
    call_tool_with(
        server,
        name,
        arguments,
        &entrez_mcp_core::caller::RequestContext::default(),
    )
}

pub(super) fn call_tool_with(
    server: &Server,
    name: &str,
    arguments: Value,
    ctx: &entrez_mcp_core::caller::RequestContext,
) -> Value {
    let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    let reply = block_on(server.handle_bytes(msg.to_string().as_bytes(), ctx)).expect("a reply");
    let result = reply
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {reply}"));
    let violations = server.registry.output_violations(name, &result);
    assert!(
        violations.is_empty(),
        "{name} broke its outputSchema: {violations:?}\n{result}"
    );
    assert_eq!(
        result["content"][0]["type"], "text",
        "text block first: {result}"
    );
    result
}
