//! Any bytes as one JSON-RPC message to the dispatcher (no network, no store).
#![no_main]
use entrez_mcp_core::config::Config;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::caller::RequestContext;
use libfuzzer_sys::fuzz_target;
use std::future::Future;
use std::sync::OnceLock;
use std::task::{Context, Poll, Waker};

/// A fixed clock and a counter for entropy: the fuzzer's runs stay reproducible.
struct Fixed(std::sync::atomic::AtomicU64);

impl Platform for Fixed {
    fn now_unix_ms(&self) -> u64 {
        1_767_225_600_000
    }
    fn fill_random(&self, buf: &mut [u8]) {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (n as u8).wrapping_add(i as u8).wrapping_mul(31);
        }
    }
}

fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| Server::new(Config::defaults(), Box::new(Fixed(Default::default()))).unwrap())
}

/// Without a network nothing waits on I/O, so a few polls finish any call.
fn run<F: Future>(f: F) -> Option<F::Output> {
    let mut f = std::pin::pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return Some(v);
        }
    }
    None
}

fuzz_target!(|data: &[u8]| {
    let reply = run(server().handle_bytes(data, &RequestContext::default()));
    assert!(reply.is_some(), "a call without network did not finish");
    if let Some(Some(v)) = reply {
        // Every reply serializes, and is a JSON-RPC 2.0 response.
        assert_eq!(v["jsonrpc"], "2.0", "{v}");
        let _ = serde_json::to_vec(&v).unwrap();
    }
});
