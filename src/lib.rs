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
//!   ([`protocol::Server`]) that answers `initialize`, `ping`, `tools/list`
//!   and `tools/call`.
//! - [`http`]: Streamable HTTP as plain data. [`http::Endpoint::handle`] takes
//!   an [`http::HttpRequest`] and returns an [`http::HttpResponse`]; status
//!   codes, `Host`/`Origin` checks, protocol-version headers and signed session
//!   ids are all decided there.
//! - [`tools`]: the registry table, schema validation of every call, the
//!   result and content model, and one file per tool.
//! - [`error`]: the one error type. Its kind decides whether it becomes a
//!   JSON-RPC error (protocol faults) or an `isError` tool result with a
//!   stable code and suggestions (everything else).
//!
//! The machine comes in through small traits: [`platform::Platform`] supplies
//! the clock and entropy. Tests pass fixed ones.
//!
//! The edges are byte pumps. The Worker edge (`edge::worker`, wasm32 only)
//! turns a `worker::Request` into an `HttpRequest` and back. The native edge
//! (`edge::native`) does the same for axum on tokio, and feeds stdin lines to
//! [`protocol::Server::handle_bytes`] for the stdio transport.
//!
//! ## Schemas are the source of truth
//!
//! Each tool's inputSchema and outputSchema is a JSON file under `schemas/`,
//! embedded with `include_str!`, compiled once with the `jsonschema` crate and
//! served verbatim by `tools/list`. Arguments are validated before a tool runs,
//! and results are validated against the outputSchema before they leave, so a
//! client that validates never sees a result that breaks its schema.

pub mod config;
pub mod entrez;
pub mod error;
pub mod http;
pub mod net;
pub mod parse;
pub mod platform;
pub mod protocol;
pub mod secret;
pub mod staging;
pub mod suggest;
pub mod tools;
pub mod validation;

#[doc(hidden)]
pub mod edge;

/// The server's name in `serverInfo`.
pub const SERVER_NAME: &str = "entrez-mcp";
/// The server's version, from Cargo.toml.
pub const SERVER_VERSION: &str = env!("CARGO_PKG_VERSION");
