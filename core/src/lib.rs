//! # entrez-mcp
//!
//! A Model Context Protocol server for NCBI Entrez. One crate builds two ways:
//! to WebAssembly for Cloudflare Workers, and natively into the `entrez-mcp`
//! binary with stdio and HTTP transports.
//!
//! ## A pure core and two thin edges
//!
//! Everything that decides anything lives in the core, which compiles for
//! `wasm32-unknown-unknown` and for the host alike and never names `worker`,
//! `tokio`, `reqwest` or `rusqlite`:
//!
//! - [`protocol`]: JSON-RPC framing, version negotiation and the dispatcher
//!   ([`protocol::Server`]) that answers `initialize`, `ping`, `tools/list`,
//!   `tools/call` and the `resources/*` methods for staged datasets.
//! - [`http`]: Streamable HTTP as plain data. [`http::Endpoint::handle`] takes
//!   an [`http::HttpRequest`] and returns an [`http::HttpResponse`]; status
//!   codes, `Host`/`Origin` checks, protocol-version headers and signed session
//!   ids are all decided there.
//! - [`tools`]: the registry table, schema validation of every call, the
//!   result and content model, and one file per tool.
//! - [`auth`]: who is calling over HTTP (none, bearer tokens, or OAuth 2.1
//!   access tokens as the MCP authorization specification defines them).
//! - [`error`]: the one error type. Its kind decides whether it becomes a
//!   JSON-RPC error (protocol faults) or an `isError` tool result with a
//!   stable code and suggestions (everything else).
//! - [`entrez`] and [`parse`]: E-utilities requests as data, pacing under
//!   NCBI's limit, retries, and streaming parsers over one byte-level XML
//!   tokenizer that never expands entities.
//! - [`validation`]: the semantic rules both `validate` and `tools/call` apply.
//! - [`staging`]: what `entrez_data` is without a database: table layouts,
//!   records to rows, the read-only policy, limits, and the
//!   [`staging::SqlStore`] trait a backend implements.
//!
//! The machine comes in through small traits: [`platform::Platform`] supplies
//! the clock and entropy, [`net::Transport`] sends HTTP and sleeps, and
//! [`staging::SqlStore`] keeps datasets. Tests pass fixed or local ones.
//!
//! The edges are byte pumps. The Worker edge (`edge::worker`, wasm32 only)
//! turns a `worker::Request` into an `HttpRequest` and back, sends NCBI
//! requests with `fetch`, paces them through a Durable Object, and keeps
//! datasets in one SQLite Durable Object each (`edge::worker_data`). The
//! native edge (`edge::native`) does the same for axum on tokio, feeds stdin
//! lines to [`protocol::Server::handle_bytes`] for the stdio transport, and
//! keeps datasets in rusqlite files. SQL both edges need (the read-only policy
//! as a SQLite authorizer, schema description) is in `edge::sqlite`.
//!
//! ## Schemas are the source of truth
//!
//! Each tool's inputSchema and outputSchema is a JSON file under `schemas/`,
//! embedded with `include_str!`, compiled once with the `jsonschema` crate and
//! served verbatim by `tools/list`. Arguments are validated before a tool runs,
//! and results are validated against the outputSchema before they leave, so a
//! client that validates never sees a result that breaks its schema.

pub mod auth;
pub mod caller;
pub mod calls;
pub mod config;
pub mod entrez;
pub mod error;
pub mod hex;
pub mod http;
pub mod mcp;
pub mod net;
pub mod platform;
pub mod protocol;
pub mod pubchem;
pub mod secret;
pub mod staging;
pub mod suggest;
pub mod tools;
pub mod validation;

/// The parsers, a crate of their own (entrez-mcp-parse).
pub use entrez_mcp_parse as parse;

/// The server's name in `serverInfo`.
pub const SERVER_NAME: &str = "entrez-mcp";
/// The server's version, from Cargo.toml.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");
