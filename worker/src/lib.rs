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
