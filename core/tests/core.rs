//! The core's integration tests, in one binary, tier by tier; they build without tokio,
//! axum or rusqlite (the native crate's own tests are in `tests/suite`):
//!
//! - `construction`: calls to requests, as exact URLs and bodies, against NCBI's documented
//!   calls and the schemas; no network (a transport that records).
//! - `parsing`: the parsers on recorded NCBI responses, their errors as the core reports them.
//! - `validation`: the validation corpus through `validate` and `tools/call`.
//! - `http`: Streamable HTTP as plain data: the endpoint, sessions, the stateless revision.

mod common;
mod construction;
mod http;
mod parsing;
mod validation;
