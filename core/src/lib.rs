//! # entrez-mcp-core
//!
//! Everything entrez-mcp decides, with no runtime of its own. The crate builds
//! for `wasm32-unknown-unknown` and for the host alike, and its `Cargo.toml`
//! names none of `worker`, `tokio`, `axum`, `hyper`, `reqwest`, `rusqlite`,
//! `ring` or `mimalloc` (`scripts/test.sh` checks its dependency tree). Two
//! edges pump bytes through it: the native binary (the `entrez-mcp` crate at
//! the top of the workspace) and the Worker (`worker/`).
//!
//! ## Layers, lowest first
//!
//! Each module imports only from the ones above it in this list; `layers.py`
//! finds no circle between them.
//!
//! - [`error`], [`secret`], [`hex`], [`mod@json`], [`suggest`], [`platform`]: the
//!   one error type (its kind decides between a JSON-RPC error and an `isError`
//!   result with a stable code and suggestions), a key that cannot be printed,
//!   a smaller `json!`, the clock and entropy the edge supplies.
//! - [`parse`] (the `entrez-mcp-parse` crate): NCBI's replies read into typed
//!   records; [`pubchem`]: PUG REST's documented grammar, options and request.
//! - [`net`]: outbound HTTP as data, the [`net::Transport`] trait each edge
//!   implements, pacing under a rate limit ([`net::pacing`]), retries with
//!   `Retry-After` and jitter ([`net::retry`]), the one send loop every
//!   upstream shares ([`net::send`]), and the cache of upstream answers with
//!   its one policy table and in-flight coalescing ([`net::cache`]).
//! - [`entrez`]: E-utilities requests as data, the table of databases, NCBI's
//!   rate limits and the client; [`config`], [`caller`]: settings (the same
//!   names on both edges) and who is calling (which key a request spends).
//! - [`mcp`]: the protocol's revisions and progress, below every tool.
//! - [`calls`]: each tool call read once into typed arguments, the typed call
//!   made from them, and the requests it becomes (tested by exact URL).
//! - [`validation`]: the semantic rules, over the typed arguments.
//! - [`staging`]: `entrez_data` without a database: layouts, rows, the
//!   read-only policy, limits, lifetimes, and the [`staging::SqlStore`] trait.
//! - [`tools`]: the registry table (each row: schemas, annotations, reader,
//!   handler), the intake that reads loose calls, the result model, one
//!   module per tool.
//! - [`protocol`], [`auth`], [`http`]: JSON-RPC and the dispatcher, who may
//!   call, and Streamable HTTP as plain data ([`http::Endpoint::handle`] takes
//!   an `HttpRequest` and returns an `HttpResponse`).
//!
//! The machine comes in through small traits: [`platform::Platform`] (clock,
//! entropy), [`net::Transport`] (send, sleep), [`net::pacing::Pacer`] (a slot
//! under a rate limit), [`net::cache::ResponseStore`] (kept answers),
//! [`staging::SqlStore`] (datasets), and the access-token
//! [`auth::SignatureVerifier`]. Tests pass fixed or local ones.
//!
//! ## Schemas are the source of truth
//!
//! Each tool's inputSchema and outputSchema is a JSON file under `schemas/`,
//! embedded with `include_str!`, compiled with the `jsonschema` crate and
//! served verbatim by `tools/list`. Arguments are checked against it before a
//! tool runs, and results before they leave, so a client that validates never
//! sees a result that breaks its schema.

pub mod auth;
pub mod caller;
pub mod config;
pub mod entrez;
pub mod error;
pub mod framework;
pub mod hex;
pub mod http;
pub mod json;
pub mod mcp;
pub mod net;
pub mod platform;
pub mod protocol;
pub mod secret;
pub mod staging;
pub mod suggest;
pub mod tasks;
pub mod tools;
pub mod validation;

/// The parsers, a crate of their own (entrez-mcp-parse).
pub use entrez_mcp_parse as parse;

/// The server's name in `serverInfo`.
pub const SERVER_NAME: &str = "entrez-mcp";
/// The server's version, from Cargo.toml.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");
