//! MCP 2026-07-28 over Streamable HTTP: stateless requests beside the handshake revision.

use crate::common::*;
use entrez_mcp_core::http::HttpResponse;
use serde_json::{json, Value};

const V: &str = "2026-07-28";

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
    })
}

/// A stateless request with every header a conforming client sends.
fn modern(ep: &entrez_mcp_core::http::Endpoint, method: &str, mut params: Value) -> HttpResponse {
    params["_meta"] = meta();
    let name = params
        .get("name")
        .or_else(|| params.get("uri"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).to_string();
    let mut headers = vec![("MCP-Protocol-Version", V), ("Mcp-Method", method)];
    if let Some(n) = name.as_deref() {
        headers.push(("Mcp-Name", n));
    }
    block_on(ep.handle(post(&body, &headers)))
}

#[test]
fn discover_names_versions_capabilities_and_caching() {
    let (ep, _) = endpoint();
    let r = modern(&ep, "server/discover", json!({}));
    assert_eq!(r.status, 200);
    assert!(r.header("Mcp-Session-Id").is_none());
    let result = &r.json_body()["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["supportedVersions"][0], V);
    assert!(result["supportedVersions"]
        .as_array()
        .unwrap()
        .contains(&json!("2025-11-25")));
    for cap in ["tools", "prompts", "completions", "logging"] {
        assert!(result["capabilities"].get(cap).is_some(), "{cap}");
    }
    assert!(result["capabilities"]["experimental"]["toolValidation"].is_object());
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "entrez-mcp"
    );
    assert_eq!(
        (result["ttlMs"].as_u64(), result["cacheScope"].as_str()),
        (Some(3_600_000), Some("public"))
    );
    assert!(result["instructions"]
        .as_str()
        .unwrap()
        .contains("entrez_query"));
}

#[test]
fn lists_are_cacheable_and_calls_need_no_session() {
    let (ep, _) = endpoint();
    let tools = modern(&ep, "tools/list", json!({})).json_body();
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let again = modern(&ep, "tools/list", json!({})).json_body();
    assert_eq!(
        tools["result"]["tools"], again["result"]["tools"],
        "deterministic"
    );
    assert!(names.contains(&"entrez_query") && names.contains(&"validate"));
    assert_eq!(tools["result"]["cacheScope"], "public");
    let prompts = modern(&ep, "prompts/list", json!({})).json_body();
    assert!(prompts["result"]["prompts"].as_array().unwrap().len() >= 3);
    assert_eq!(prompts["result"]["resultType"], "complete");
    let call = modern(
        &ep,
        "tools/call",
        json!({"name": "entrez_capabilities", "arguments": {}}),
    );
    assert_eq!(call.status, 200);
    let result = &call.json_body()["result"];
    assert_eq!(
        (result["resultType"].as_str(), result["isError"].as_bool()),
        (Some("complete"), Some(false))
    );
    assert!(result["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());
    assert!(
        result.get("ttlMs").is_none(),
        "a tool result is not cacheable"
    );
    // A session header on a stateless request is ignored, even a forged one.
    let mut params = json!({"name": "entrez_capabilities", "arguments": {}});
    params["_meta"] = meta();
    let body =
        json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": params}).to_string();
    let r = block_on(ep.handle(post(
        &body,
        &[
            ("MCP-Protocol-Version", V),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "entrez_capabilities"),
            ("Mcp-Session-Id", "forged"),
        ],
    )));
    assert_eq!(r.status, 200);
}

#[test]
fn the_specifications_400s_and_404s() {
    let (ep, _) = endpoint();
    let send = |params: Value, headers: &[(&str, &str)]| {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params})
            .to_string();
        block_on(ep.handle(post(&body, headers)))
    };
    let h = [("MCP-Protocol-Version", V), ("Mcp-Method", "tools/list")];
    // Unsupported version: -32022 with what we speak.
    let old = json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "1900-01-01", "io.modelcontextprotocol/clientCapabilities": {}}});
    let r = send(
        old.clone(),
        &[
            ("MCP-Protocol-Version", "1900-01-01"),
            ("Mcp-Method", "tools/list"),
        ],
    );
    assert_eq!(r.status, 400);
    let b = r.json_body();
    assert_eq!((rpc_code(&b), b["id"].as_i64()), (Some(-32022), Some(1)));
    assert_eq!(b["error"]["data"]["supported"][0], V);
    assert_eq!(b["error"]["data"]["requested"], "1900-01-01");
    // Header and body disagree on the version: -32020.
    let r = send(old, &h);
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32020)));
    // Required _meta missing: -32602.
    let r = send(
        json!({"_meta": {"io.modelcontextprotocol/protocolVersion": V}}),
        &h,
    );
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32602)));
    let r = send(json!({}), &h);
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32602)));
    // A bad log level: -32602.
    let mut m = meta();
    m["io.modelcontextprotocol/logLevel"] = json!("chatty");
    let r = send(json!({"_meta": m}), &h);
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32602)));
    // Headers missing or contradicting the body: -32020.
    for headers in [
        vec![("Mcp-Method", "tools/list")],
        vec![("MCP-Protocol-Version", V)],
        vec![("MCP-Protocol-Version", V), ("Mcp-Method", "prompts/list")],
    ] {
        let r = send(json!({"_meta": meta()}), &headers);
        assert_eq!(
            (r.status, rpc_code(&r.json_body())),
            (400, Some(-32020)),
            "{headers:?}"
        );
    }
    let mut params = json!({"name": "entrez_capabilities", "arguments": {}, "_meta": meta()});
    let call = |p: &Value, name: Option<&str>| {
        let body =
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": p}).to_string();
        let mut headers = vec![("MCP-Protocol-Version", V), ("Mcp-Method", "tools/call")];
        headers.extend(name.map(|n| ("Mcp-Name", n)));
        block_on(ep.handle(post(&body, &headers)))
    };
    assert_eq!(rpc_code(&call(&params, None).json_body()), Some(-32020));
    assert_eq!(
        rpc_code(&call(&params, Some("validate")).json_body()),
        Some(-32020)
    );
    assert_eq!(
        call(&params, Some("=?base64?ZW50cmV6X2NhcGFiaWxpdGllcw==?=")).status,
        200
    );
    params["name"] = json!("no_such_tool");
    let r = call(&params, Some("no_such_tool"));
    assert_eq!(
        r.status, 200,
        "an unknown tool is an ordinary JSON-RPC error"
    );
    // Methods the stateless revision removed, and unknown ones: 404 with -32601.
    for method in ["ping", "initialize", "logging/setLevel", "no/such"] {
        let body =
            json!({"jsonrpc": "2.0", "id": 3, "method": method, "params": {"_meta": meta()}})
                .to_string();
        let r = block_on(ep.handle(post(
            &body,
            &[("MCP-Protocol-Version", V), ("Mcp-Method", method)],
        )));
        assert_eq!(
            (r.status, rpc_code(&r.json_body())),
            (404, Some(-32601)),
            "{method}"
        );
    }
    // A modern header with a body that has no _meta at all.
    let body = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}).to_string();
    let r = block_on(ep.handle(post(
        &body,
        &[("MCP-Protocol-Version", V), ("Mcp-Method", "tools/list")],
    )));
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32602)));
}

#[test]
fn the_handshake_revision_keeps_working_beside_it() {
    let (ep, _) = endpoint();
    let s = open_session(&ep);
    let prompts = in_session(
        &ep,
        &s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "prompts/list"}),
    )
    .json_body();
    assert!(
        prompts["result"].get("resultType").is_none(),
        "no 2026 fields in a 2025 session"
    );
    assert!(prompts["result"]["prompts"].is_array());
    let level = in_session(&ep, &s, &json!({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel", "params": {"level": "info"}})).json_body();
    assert_eq!(level["result"], json!({}));
    let bad = in_session(&ep, &s, &json!({"jsonrpc": "2.0", "id": 3, "method": "logging/setLevel", "params": {"level": "loud"}})).json_body();
    assert_eq!(rpc_code(&bad), Some(-32602));
    let complete = in_session(&ep, &s, &json!({"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {
        "ref": {"type": "ref/prompt", "name": "fetch_records"}, "argument": {"name": "database", "value": "pub"}}})).json_body();
    let values = complete["result"]["completion"]["values"]
        .as_array()
        .unwrap();
    assert!(
        values.contains(&json!("pubmed"))
            && values
                .iter()
                .all(|v| v.as_str().unwrap().starts_with("pub")),
        "{values:?}"
    );
    // server/discover without _meta is a malformed stateless request, session or not.
    let r = in_session(
        &ep,
        &s,
        &json!({"jsonrpc": "2.0", "id": 5, "method": "server/discover"}),
    );
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32602)));
    let bare =
        json!({"jsonrpc": "2.0", "id": 6, "method": "server/discover", "params": {"_meta": {}}})
            .to_string();
    let r = block_on(ep.handle(post(&bare, &[])));
    assert_eq!((r.status, rpc_code(&r.json_body())), (400, Some(-32602)));
    // The initialize result carries the icon and website too.
    let init = block_on(ep.handle(post(&initialize_body("2025-11-25"), &[]))).json_body();
    assert!(init["result"]["serverInfo"]["icons"][0]["src"]
        .as_str()
        .unwrap()
        .starts_with("data:image/svg+xml;base64,"));
    assert!(init["result"]["serverInfo"]["websiteUrl"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    assert!(init["result"]["capabilities"]["prompts"].is_object());
}

#[test]
fn prompts_get_fills_arguments_and_refuses_missing_ones() {
    let (ep, _) = endpoint();
    let r = modern(
        &ep,
        "prompts/get",
        json!({"name": "compound_profile", "arguments": {"compound": "aspirin"}}),
    );
    let text = r.json_body()["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("\"identifier\": \"aspirin\""), "{text}");
    let r = modern(
        &ep,
        "prompts/get",
        json!({"name": "compound_profile", "arguments": {}}),
    );
    assert_eq!((r.status, rpc_code(&r.json_body())), (200, Some(-32602)));
}
