//! Streamable HTTP requests as data: what a conforming client sends.

use crate::run::block_on;
use entrez_mcp_core::http::{Endpoint, HttpRequest, HttpResponse};
use serde_json::{json, Value};

/// A POST to /mcp with the headers a conforming client sends, `extra` replacing any of the
/// same name.
pub fn post(body: &str, extra: &[(&str, &str)]) -> HttpRequest {
    let mut headers = vec![
        ("Host".to_string(), "127.0.0.1:8787".to_string()),
        ("Content-Type".to_string(), "application/json".to_string()),
        (
            "Accept".to_string(),
            "application/json, text/event-stream".to_string(),
        ),
    ];
    for (k, v) in extra {
        headers.retain(|(name, _)| !name.eq_ignore_ascii_case(k));
        headers.push((k.to_string(), v.to_string()));
    }
    HttpRequest {
        method: "POST".into(),
        path: "/mcp".into(),
        headers,
        body: body.as_bytes().to_vec(),
        client_ip: Some("127.0.0.1".into()),
    }
}

/// An `initialize` request for protocol revision `version`.
pub fn initialize_body(version: &str) -> String {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}
    })
    .to_string()
}

/// Initializes a 2025-11-25 session and returns its id.
pub fn open_session(endpoint: &Endpoint) -> String {
    let r = block_on(endpoint.handle(post(&initialize_body("2025-11-25"), &[])));
    assert_eq!(r.status, 200);
    r.header("Mcp-Session-Id")
        .expect("session id issued")
        .to_string()
}

/// A request within `session`.
pub fn in_session(endpoint: &Endpoint, session: &str, body: &Value) -> HttpResponse {
    block_on(endpoint.handle(post(
        &body.to_string(),
        &[
            ("Mcp-Session-Id", session),
            ("MCP-Protocol-Version", "2025-11-25"),
        ],
    )))
}

/// The JSON-RPC error code of a response body, if any.
pub fn rpc_code(body: &Value) -> Option<i64> {
    body.pointer("/error/code").and_then(Value::as_i64)
}
