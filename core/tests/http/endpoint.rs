//! Every HTTP status and JSON-RPC error path of the Streamable HTTP endpoint.

use crate::common::*;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::http::HttpRequest;
use serde_json::{json, Value};
use std::sync::atomic::Ordering;

#[test]
fn initialize_issues_a_session_and_negotiates_the_version() {
    let (ep, _) = endpoint();
    let r = block_on(ep.handle(post(&initialize_body("2025-06-18"), &[])));
    assert_eq!(r.status, 200);
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    assert!(r.header("Mcp-Session-Id").is_some());
    let body = r.json_body();
    assert_eq!(body["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(body["result"]["serverInfo"]["name"], "entrez-mcp");
    for key in ["title", "version", "description"] {
        assert!(
            body["result"]["serverInfo"][key]
                .as_str()
                .is_some_and(|s| !s.is_empty()),
            "{key}"
        );
    }
    assert!(body["result"]["instructions"]
        .as_str()
        .unwrap()
        .contains("entrez_capabilities"));
    let old = block_on(ep.handle(post(&initialize_body("2024-11-05"), &[]))).json_body();
    assert_eq!(old["result"]["protocolVersion"], "2025-11-25");
}

#[test]
fn initialize_without_protocol_version_is_invalid_params_and_opens_no_session() {
    let (ep, _) = endpoint();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}).to_string();
    let r = block_on(ep.handle(post(&body, &[])));
    assert_eq!(rpc_code(&r.json_body()), Some(-32602));
    assert!(r.header("Mcp-Session-Id").is_none());
}

#[test]
fn requests_in_a_session_work_and_notifications_get_202() {
    let (ep, _) = endpoint();
    let s = open_session(&ep);
    let n = in_session(
        &ep,
        &s,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!(n.status, 202);
    assert!(n.body.is_empty());
    let ping = in_session(
        &ep,
        &s,
        &json!({"jsonrpc": "2.0", "id": "p", "method": "ping"}),
    );
    assert_eq!(ping.status, 200);
    assert_eq!(
        ping.json_body(),
        json!({"jsonrpc": "2.0", "id": "p", "result": {}})
    );
    let resp = in_session(&ep, &s, &json!({"jsonrpc": "2.0", "id": 9, "result": {}}));
    assert_eq!(resp.status, 202);
}

#[test]
fn malformed_json_is_400_with_parse_error() {
    let (ep, _) = endpoint();
    let r = block_on(ep.handle(post("{\"jsonrpc\": ", &[])));
    assert_eq!(r.status, 400);
    let b = r.json_body();
    assert_eq!(rpc_code(&b), Some(-32700));
    assert_eq!(b["id"], Value::Null);
}

#[test]
fn batches_and_invalid_requests_are_400_with_invalid_request() {
    let (ep, _) = endpoint();
    let batch = block_on(ep.handle(post(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, &[])));
    assert_eq!(batch.status, 400);
    assert_eq!(rpc_code(&batch.json_body()), Some(-32600));
    assert!(batch.json_body()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("batch"));
    let bad = block_on(ep.handle(post(r#"{"jsonrpc":"2.0","id":4,"method":7}"#, &[])));
    assert_eq!(bad.status, 400);
    assert_eq!(rpc_code(&bad.json_body()), Some(-32600));
    assert_eq!(bad.json_body()["id"], 4);
}

#[test]
fn unknown_methods_are_32601_even_without_a_session() {
    let (ep, _) = endpoint();
    let s = open_session(&ep);
    let r = in_session(
        &ep,
        &s,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/list"}),
    );
    assert_eq!(r.status, 200);
    assert_eq!(rpc_code(&r.json_body()), Some(-32601));
    // server/discover without its _meta is a malformed 2026-07-28 request: 400, -32602,
    // and the suggestions name both ways in (the _meta, or initialize).
    let probe =
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}).to_string();
    let r = block_on(ep.handle(post(&probe, &[("MCP-Protocol-Version", "2026-07-28")])));
    assert_eq!(r.status, 400);
    let b = r.json_body();
    assert_eq!(rpc_code(&b), Some(-32602));
    assert_eq!(b["id"], 1);
    assert!(b["error"]["data"]["suggestions"]
        .to_string()
        .contains("initialize"));
}

#[test]
fn unsupported_protocol_version_header_is_400() {
    let (ep, _) = endpoint();
    let s = open_session(&ep);
    let r = block_on(ep.handle(post(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}).to_string(),
        &[
            ("Mcp-Session-Id", &s),
            ("MCP-Protocol-Version", "1999-01-01"),
        ],
    )));
    assert_eq!(r.status, 400);
    assert!(r.json_body()["error"]["message"]
        .as_str()
        .unwrap()
        .contains("1999-01-01"));
    for v in ["2025-11-25", "2025-06-18", "2025-03-26"] {
        let ok = block_on(ep.handle(post(
            &json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}).to_string(),
            &[("Mcp-Session-Id", &s), ("MCP-Protocol-Version", v)],
        )));
        assert_eq!(ok.status, 200, "{v}");
    }
}

#[test]
fn missing_session_is_400_and_unknown_or_expired_is_404() {
    let (ep, platform) = endpoint();
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    assert_eq!(block_on(ep.handle(post(&ping, &[]))).status, 400);
    assert_eq!(
        block_on(ep.handle(post(&ping, &[("Mcp-Session-Id", "forged")]))).status,
        404
    );
    let s = open_session(&ep);
    assert_eq!(
        block_on(ep.handle(post(&ping, &[("Mcp-Session-Id", &s)]))).status,
        200
    );
    platform.now_ms.fetch_add(61_000, Ordering::SeqCst);
    let expired = block_on(ep.handle(post(&ping, &[("Mcp-Session-Id", &s)])));
    assert_eq!(expired.status, 404);
    assert_eq!(
        expired.json_body()["error"]["data"]["code"],
        "session_not_found"
    );
}

#[test]
fn delete_terminates_natively_and_is_405_where_sessions_are_stateless() {
    let (ep, _) = endpoint();
    let s = open_session(&ep);
    let del = |ep: &entrez_mcp_core::http::Endpoint, id: &str| {
        block_on(ep.handle(HttpRequest {
            method: "DELETE".into(),
            path: "/mcp".into(),
            headers: vec![("Mcp-Session-Id".into(), id.into())],
            body: vec![],
            ..Default::default()
        }))
    };
    assert_eq!(del(&ep, &s).status, 204);
    assert_eq!(
        in_session(
            &ep,
            &s,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        )
        .status,
        404
    );
    assert_eq!(del(&ep, &s).status, 404);
    let (stateless, _) = endpoint_with(Config::defaults(), false);
    let s2 = open_session(&stateless);
    let r = del(&stateless, &s2);
    assert_eq!(r.status, 405);
    assert_eq!(
        in_session(
            &stateless,
            &s2,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        )
        .status,
        200
    );
}

#[test]
fn get_is_405_and_other_paths_404() {
    let (ep, _) = endpoint();
    let get = |path: &str| {
        block_on(ep.handle(HttpRequest {
            method: "GET".into(),
            path: path.into(),
            headers: vec![("Accept".into(), "text/event-stream".into())],
            body: vec![],
            ..Default::default()
        }))
    };
    let r = get("/mcp");
    assert_eq!(r.status, 405);
    assert!(r.header("Allow").unwrap().contains("POST"));
    assert_eq!(get("/nope").status, 404);
    assert_eq!(get("/").status, 200);
}

#[test]
fn foreign_host_and_origin_are_403_localhost_passes() {
    let (ep, _) = endpoint();
    let init = initialize_body("2025-11-25");
    let evil_host = block_on(ep.handle(post(&init, &[("Host", "evil.example.com")])));
    assert_eq!(evil_host.status, 403);
    assert!(evil_host.header("Mcp-Session-Id").is_none());
    let evil_origin = block_on(ep.handle(post(&init, &[("Origin", "https://evil.example.com")])));
    assert_eq!(evil_origin.status, 403);
    for host in ["localhost:8787", "127.0.0.1", "[::1]:9000"] {
        assert_eq!(
            block_on(ep.handle(post(&init, &[("Host", host)]))).status,
            200,
            "{host}"
        );
    }
    let local = block_on(ep.handle(post(&init, &[("Origin", "http://localhost:6274")])));
    assert_eq!(local.status, 200);
    assert_eq!(
        local.header("Access-Control-Allow-Origin"),
        Some("http://localhost:6274")
    );
    assert!(local
        .header("Access-Control-Expose-Headers")
        .unwrap()
        .contains("Mcp-Session-Id"));
}

#[test]
fn allow_lists_are_configurable() {
    let config = Config::from_lookup(|k| match k {
        "ALLOWED_ORIGINS" => Some("https://app.example.org".into()),
        "ALLOWED_HOSTS" => Some("mcp.example.org".into()),
        _ => None,
    });
    let (ep, _) = endpoint_with(config, true);
    let init = initialize_body("2025-11-25");
    let ok = block_on(ep.handle(post(
        &init,
        &[
            ("Host", "mcp.example.org"),
            ("Origin", "https://app.example.org"),
        ],
    )));
    assert_eq!(ok.status, 200);
    assert_eq!(
        block_on(ep.handle(post(&init, &[("Host", "localhost")]))).status,
        403
    );
}

#[test]
fn wrong_content_type_accept_and_size_are_refused() {
    let (ep, _) = endpoint();
    let init = initialize_body("2025-11-25");
    assert_eq!(
        block_on(ep.handle(post(&init, &[("Content-Type", "text/plain")]))).status,
        415
    );
    assert_eq!(
        block_on(ep.handle(post(&init, &[("Accept", "text/html")]))).status,
        406
    );
    let mut big = post(&init, &[]);
    big.body = vec![b' '; entrez_mcp_core::http::MAX_BODY_BYTES + 1];
    assert_eq!(block_on(ep.handle(big)).status, 413);
}

#[test]
fn preflight_allows_the_mcp_headers() {
    let (ep, _) = endpoint();
    let r = block_on(ep.handle(HttpRequest {
        method: "OPTIONS".into(),
        path: "/mcp".into(),
        headers: vec![("Origin".into(), "http://localhost:3000".into())],
        body: vec![],
        ..Default::default()
    }));
    assert_eq!(r.status, 204);
    let allowed = r.header("Access-Control-Allow-Headers").unwrap();
    assert!(allowed.contains("Mcp-Session-Id") && allowed.contains("X-NCBI-API-Key"));
}

#[test]
fn caller_api_key_header_is_used_and_never_echoed() {
    let (ep, _) = endpoint();
    let s = open_session(&ep);
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "system_api_key_status", "arguments": {}}});
    let r = block_on(ep.handle(post(
        &call.to_string(),
        &[
            ("Mcp-Session-Id", &s),
            ("X-NCBI-API-Key", "caller-secret-7f3a9"),
        ],
    )));
    let body = String::from_utf8(r.body.clone()).unwrap();
    assert!(!body.contains("caller-secret"), "{body}");
    assert!(!body.contains("7f3a9"), "{body}");
    assert_eq!(
        r.json_body()["result"]["structuredContent"]["source"],
        "caller_header"
    );
}
