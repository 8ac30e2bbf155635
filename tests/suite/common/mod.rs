//! Shared helpers for the integration tests: a controllable platform and request builders.

#![allow(dead_code)]

pub(crate) mod data;
pub(crate) mod external_replay;
pub(crate) mod replay;

#[path = "../../../core/tests/common/mod.rs"]
mod core_common;

pub(crate) use core_common::offline;
pub(crate) use core_common::{
    endpoint, initialize_body, post, rpc_code, server_with, TestPlatform, T0,
};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};

/// Runs a future on a runtime of its own: the native transport needs tokio's.
pub(crate) fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// Calls a tool through the dispatcher and checks the result against the tool's outputSchema.
pub(crate) fn call_tool(server: &Server, name: &str, arguments: Value) -> Value {
    call_tool_with(
        server,
        name,
        arguments,
        &entrez_mcp_core::caller::RequestContext::default(),
    )
}

/// [`call_tool`] for the caller `ctx`.
pub(crate) fn call_tool_with(
    server: &Server,
    name: &str,
    arguments: Value,
    ctx: &entrez_mcp_core::caller::RequestContext,
) -> Value {
    let msg = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": name, "arguments": arguments}});
    let reply = block_on(server.handle_bytes(msg.to_string().as_bytes(), ctx)).expect("a reply");
    let result = reply
        .get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {reply}"));
    let violations = server.registry.output_violations(name, &result);
    assert!(
        violations.is_empty(),
        "{name} broke its outputSchema: {violations:?}\n{result}"
    );
    assert_eq!(
        result["content"][0]["type"], "text",
        "text block first: {result}"
    );
    result
}

/// Sends any JSON-RPC message straight to the dispatcher.
pub(crate) fn rpc(server: &Server, msg: Value) -> Value {
    block_on(server.handle_bytes(msg.to_string().as_bytes(), &Default::default())).expect("a reply")
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
    Server::new(config, Box::new(entrez_mcp::SystemPlatform))
        .unwrap()
        .with_network(entrez_mcp_core::net::Network {
            transport: Box::new(entrez_mcp::transport::ReqwestTransport::new().unwrap()),
            pacer: Box::new(entrez_mcp_core::net::pacing::MemoryPacer::new()),
            cache: None,
        })
}
