//! Every integration test of the native crate, in one binary, tier by tier:
//!
//! - [`construction`]: calls to requests, as exact URLs and bodies, and the
//!   tools' schemas and results; no network (a transport that records).
//! - [`parsing`]: the parsers on recorded NCBI responses.
//! - [`validation`]: the validation corpus through `validate` and `tools/call`,
//!   SQL checks against real datasets, and the runtime level.
//! - [`replay`]: tool calls end to end against the stand-ins for NCBI,
//!   PubChem and PMC, started in process (`entrez_mcp_replay`), and the dataset
//!   stores on disk.
//! - [`http`]: the HTTP endpoint, its limits and authorization, and stdio
//!   through the real binary.
//!
//! Tests that need live services are `#[ignore]`d and say why.

mod common;
mod construction;
mod http;
mod parsing;
mod replay;
mod validation;
