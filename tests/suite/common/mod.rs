//! The native suite's helpers: the shared kit (`testkit/`) with its futures run on tokio,
//! which the native transport needs, and a server over real HTTP.

#![allow(dead_code)]

pub(crate) mod data;
pub(crate) mod external_replay;
pub(crate) mod replay;

use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_testkit::{call_tool_on, rpc_on, Runner};
pub(crate) use entrez_mcp_testkit::{
    endpoint, fixtures, initialize_body, offline, post, rpc_code, server_with, TestPlatform, T0,
};
use serde_json::Value;

/// Each future on a tokio runtime of its own: the native transport needs one.
pub(crate) struct Tokio;

impl Runner for Tokio {
    fn block_on<F: std::future::Future>(&self, f: F) -> F::Output {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(f)
    }
}

/// Runs a future on [`Tokio`].
pub(crate) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    Tokio.block_on(f)
}

/// Calls a tool through the dispatcher, its result checked against the tool's outputSchema.
pub(crate) fn call_tool(server: &Server, name: &str, arguments: Value) -> Value {
    call_tool_on(&Tokio, server, name, arguments, &RequestContext::default())
}

/// [`call_tool`] for the caller `ctx`.
pub(crate) fn call_tool_with(
    server: &Server,
    name: &str,
    arguments: Value,
    ctx: &RequestContext,
) -> Value {
    call_tool_on(&Tokio, server, name, arguments, ctx)
}

/// Sends any JSON-RPC message straight to the dispatcher.
pub(crate) fn rpc(server: &Server, msg: Value) -> Value {
    rpc_on(&Tokio, server, msg)
}

/// A server configured by `config`, over real HTTP to whatever its settings name (local
/// stand-ins), paced in memory, without a response cache or a store.
pub(crate) fn live_server(config: Config) -> Server {
    Server::new(config, Box::new(entrez_mcp::SystemPlatform))
        .unwrap()
        .with_network(entrez_mcp_core::net::Network {
            transport: Box::new(entrez_mcp::transport::ReqwestTransport::new().unwrap()),
            pacer: Box::new(entrez_mcp_core::net::pacing::MemoryPacer::new()),
            cache: None,
        })
}

/// A server whose E-utilities are at `eutils_base` (a local stand-in), over real HTTP, paced in memory.
pub(crate) fn networked_server(eutils_base: &str, api_key: Option<&str>) -> Server {
    let base = eutils_base.to_string();
    let key = api_key.map(String::from);
    let config = Config::from_lookup(move |k| match k {
        "EUTILS_BASE_URL" => Some(base.clone()),
        "NCBI_EMAIL" => Some("tests@example.org".into()),
        "NCBI_API_KEY" => key.clone(),
        _ => None,
    });
    live_server(config)
}
