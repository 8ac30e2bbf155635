//! The integration tests of the native edge, in one binary, tier by tier (the core's and the
//! parser's own tiers, which need no runtime, are in `core/tests` and `parse/tests`):
//!
//! - [`construction`]: the tools' results through a server with a dataset store, and
//!   the loose-call corpus.
//! - [`validation`]: SQL checks against real datasets, and the runtime level.
//! - [`replay`]: tool calls end to end against the stand-ins for NCBI,
//!   PubChem and PMC, started in process (`entrez_mcp_replay`), and the dataset
//!   stores on disk.
//! - [`http`]: the native HTTP server's limits and authorization, and stdio through
//!   the real binary.
//!
//! Tests that need live services are `#[ignore]`d and say why.

mod common;
mod construction;
mod http;
mod replay;
mod validation;
