//! # entrez-mcp on Cloudflare Workers
//!
//! The Worker edge, a byte pump around the pure core ([`entrez_mcp_core`]): [`fetch`]
//! turns a `worker::Request` into the core's `HttpRequest`, lets the same `Endpoint`
//! answer it, and writes the answer back (streaming progress as server-sent events);
//! [`net`] sends and paces upstream requests, and [`cache`] keeps their answers;
//! [`data`] and [`objects`] keep staged datasets in Durable Objects; [`verify`]
//! checks access-token signatures with WebCrypto. With the feature `cpu-bench`, the
//! crate is instead the CPU benchmark `scripts/bench-worker-cpu.sh` runs under Node
//! ([`cpu_bench`]): the core built exactly as the Worker builds it.

#[cfg(not(feature = "cpu-bench"))]
pub mod cache;
#[cfg(feature = "cpu-bench")]
pub mod cpu_bench;
#[cfg(not(feature = "cpu-bench"))]
pub mod data;
#[cfg(not(feature = "cpu-bench"))]
pub mod fetch;
#[cfg(not(feature = "cpu-bench"))]
pub mod net;
#[cfg(not(feature = "cpu-bench"))]
pub mod objects;
pub mod platform;
#[cfg(not(feature = "cpu-bench"))]
pub mod verify;

use std::cell::RefCell;

thread_local! {
    static STARTED: RefCell<Option<entrez_mcp_rehearsal::Rehearsal>> = const { RefCell::new(None) };
}

/// What an isolate does once, when the Worker's module is first evaluated (global scope),
/// before any request: the rehearsal of every tool ([`entrez_mcp_rehearsal`] says why). Random bytes
/// drawn meanwhile come from start-up's own source (`entrez_mcp_random`): Workers refuse
/// Web Crypto here. The CPU benchmark calls it itself, to time it.
#[cfg_attr(not(feature = "cpu-bench"), wasm_bindgen::prelude::wasm_bindgen(start))]
pub fn startup() {
    console_error_panic_hook::set_once();
    let report = entrez_mcp_random::during_startup(|| {
        // A build without the start-up source (getrandom's own wasm_js back end) has no seed
        // here, and the first hash map would abort the module: its requests do the work.
        if getrandom::fill(&mut [0u8; 1]).is_err() {
            return entrez_mcp_rehearsal::Rehearsal {
                calls: 0,
                failed: vec!["start-up: no random source at global scope (getrandom_backend is not \"custom\")".into()],
            };
        }
        entrez_mcp_rehearsal::rehearse(|| Box::new(platform::WorkerPlatform))
    });
    STARTED.with(|s| *s.borrow_mut() = Some(report));
}

/// How this isolate's start-up went: `calls=N failed=M`, then each failure; `none` before it ran.
pub fn startup_report() -> String {
    STARTED.with(|s| match &*s.borrow() {
        None => "none".to_string(),
        Some(r) => {
            let mut out = format!("calls={} failed={}", r.calls, r.failed.len());
            for f in &r.failed {
                out.push_str("; ");
                out.push_str(f);
            }
            out
        }
    })
}
