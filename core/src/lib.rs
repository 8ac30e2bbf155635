//! # entrez-mcp-core
//!
//! Everything entrez-mcp decides, with no runtime of its own: it builds for
//! `wasm32-unknown-unknown` and the host alike and names none of `worker`, `tokio`,
//! `axum`, `hyper`, `reqwest`, `rusqlite`, `ring` or `mimalloc` (`scripts/test.sh`
//! checks its dependency tree). The edges (the native crate at the top of the workspace,
//! and `worker/`) pump bytes through it and hand it the machine through small traits:
//! [`platform::Platform`] (clock, entropy), [`net::Transport`], [`net::pacing::Pacer`],
//! [`net::cache::ResponseStore`], [`staging::DatasetStore`] and [`auth::SignatureVerifier`].
//! Each tool's schemas are JSON files under `schemas/`, the source of truth.
//!
//! ## Layers, lowest first
//!
//! A module imports only from its own layer and those above it in this list
//! (`scripts/layers.py` checks it in every test run):
//!
//! - `json`, `error`, `secret`, `hex`, `suggest`, `platform`: a smaller `json!`, the one
//!   error type, a key that cannot be printed, the clock and entropy the edge supplies.
//! - `net`: outbound HTTP as data, pacing, retries, the cache of upstream answers.
//! - `auth`: who may call (access tokens, their signatures, the authorization server).
//! - `config`, `caller`: settings (the same names on both edges) and who is calling.
//! - `entrez`: E-utilities requests as data, NCBI's database table and limits, the client.
//! - `citations`: who cites a paper and what it cites, with its metrics (NIH iCite, elink
//!   behind it).
//! - `mcp`: the protocol's revisions, request `_meta`, progress and log messages.
//! - `apps`: the MCP Apps extension: the `ui://` view, and which clients are shown it.
//! - `staging`: datasets without a database: layouts, rows, the read-only policy, the
//!   store trait, the ledger.
//! - `export`: a dataset's records as RIS, BibTeX, CSL JSON, MEDLINE, CSV and JSON Lines,
//!   and bibliographies in five styles, written page by page from the store.
//! - `validation`: findings and reports, and the rules several tools share (databases,
//!   ids, search terms).
//! - `chart`: labelled numbers drawn as PNG pictures with an embedded font, the named
//!   charts of a staged dataset, and what a chart does with rows that do not fit.
//! - `framework`: what every tool is built on: the intake, the registry, results and budgets.
//! - `tools`: one folder (or file) per tool, and the catalog that lists them.
//! - `tasks`: background work: MCP tasks, calls held while PubChem works or run in the
//!   background, stagings that go on by themselves.
//! - `protocol`, `http`: JSON-RPC and the dispatcher; Streamable HTTP as plain data.

pub mod apps;
pub mod auth;
pub mod caller;
pub mod chart;
pub mod citations;
pub mod config;
pub mod entrez;
pub mod error;
pub mod export;
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
