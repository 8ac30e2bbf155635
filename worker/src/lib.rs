//! # entrez-mcp on Cloudflare Workers
//!
//! The Worker edge, a byte pump around the pure core ([`entrez_mcp_core`]):
//! [`fetch`] turns a `worker::Request` into the core's `HttpRequest`, lets the
//! same `Endpoint` answer it, and writes the answer back (streaming progress
//! as server-sent events); [`net`] sends upstream requests with `fetch` and
//! paces them through one `EntrezPacer` Durable Object per bucket, and keeps
//! their answers in the Cache API ([`cache`]); [`data`]
//! is the client of the Durable Objects that keep each staged dataset in a SQLite
//! object of its own, with a catalog object per owner and one ledger for the
//! deployment ([`objects`], which run a dataset's background staging); [`verify`]
//! checks access-token signatures with WebCrypto. Queries are prepared first
//! on a schema replica, SQLite compiled to wasm (`entrez_mcp_sqlite`).
//!
//! With the feature `cpu-bench`, the crate is instead the CPU benchmark
//! `scripts/bench-worker-cpu.sh` runs under Node ([`cpu_bench`]): the core
//! built exactly as the Worker builds it, without the Worker's own edge.

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
