//! The core's integration tests, in one binary, tier by tier; they build without tokio,
//! axum or rusqlite (the native crate's own tests are in `tests/suite`):
//!
//! - `construction`: calls to requests, as exact URLs and bodies, against NCBI's documented
//!   calls and the schemas; no network (a transport that records).
//! - `replies`: NCBI's replies as the core reports them when a parser refuses them or NCBI
//!   says no (codes and advice), and which of them the cache keeps; the parsers' own tests
//!   are in `parse/tests`.
//! - `validation`: the validation corpus through `validate` and `tools/call`.
//! - `http`: Streamable HTTP as plain data: the endpoint, sessions, the stateless revision.

mod common;
mod construction;
mod http;
mod replies;
mod validation;
