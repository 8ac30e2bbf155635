//! The stdio transport end to end: the real binary, real pipes.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `entrez-mcp stdio` with `env`, writes to its stdin, closes it, and returns stdout and stderr.
fn session(
    env: (&str, &str),
    write: impl FnOnce(&mut std::process::ChildStdin),
) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_entrez-mcp"))
        .arg("stdio")
        .env(env.0, env.1)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary starts");
    write(child.stdin.as_mut().unwrap());
    drop(child.stdin.take());
    let out = child
        .wait_with_output()
        .expect("binary exits when stdin closes");
    assert!(out.status.success());
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn stdout_carries_only_json_rpc_replies_and_no_key() {
    let secret = "stdio-secret-key-5521";
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string(),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
        "{this is not json".to_string(),
        String::new(),
        json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string(),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "system_api_key_status", "arguments": {}}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}).to_string(),
    ];
    let (stdout, stderr) = session(("NCBI_API_KEY", secret), |stdin| {
        for l in &lines {
            writeln!(stdin, "{l}").unwrap();
        }
    });
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("non-JSON on stdout: {l:?}")))
        .collect();
    // initialize, parse error, ping, tools/call, tools/list; no reply to the notification.
    assert_eq!(replies.len(), 5, "{stdout}");
    let by_id = |id: Value| replies.iter().find(|r| r["id"] == id).cloned().unwrap();
    assert_eq!(by_id(json!(1))["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(by_id(json!(2))["result"], json!({}));
    assert_eq!(
        by_id(json!(3))["result"]["structuredContent"]["source"],
        "server_secret"
    );
    assert!(by_id(json!(4))["result"]["tools"].as_array().unwrap().len() >= 4);
    let parse_error = replies.iter().find(|r| r["id"].is_null()).unwrap();
    assert_eq!(parse_error["error"]["code"], -32700);
    assert!(!stdout.contains("stdio-secret") && !stderr.contains("stdio-secret"));
}

#[test]
fn unknown_command_exits_2_with_usage_on_stderr_only() {
    let out = Command::new(env!("CARGO_BIN_EXE_entrez-mcp"))
        .arg("bogus")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("entrez-mcp stdio"));
}

#[test]
fn an_oversized_or_garbled_line_is_refused_and_the_server_keeps_serving() {
    let (stdout, _) = session(("ENTREZ_DATA_DIR", ":memory:"), |stdin| {
        // 40 MB on one line: ten times the limit, sent in pieces as a peer would.
        let piece = vec![b'x'; 1 << 20];
        for _ in 0..40 {
            stdin.write_all(&piece).unwrap();
        }
        stdin.write_all(b"\n").unwrap();
        // Bytes that are not UTF-8 are a parse error, not the end of the session.
        stdin.write_all(b"\xff\xfe{\n").unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"jsonrpc": "2.0", "id": 7, "method": "ping"})
        )
        .unwrap();
    });
    let replies: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 3, "{stdout}");
    let error = |code: i64| replies.iter().find(|r| r["error"]["code"] == code);
    let too_long = error(-32600).unwrap_or_else(|| panic!("{stdout}"));
    assert!(too_long["error"]["message"]
        .as_str()
        .unwrap()
        .contains("exceeds"));
    assert!(error(-32700).is_some(), "{stdout}");
    let ping = replies.iter().find(|r| r["id"] == 7).unwrap();
    assert_eq!(ping["result"], json!({}));
}

#[test]
fn stdio_serves_stateless_requests_with_logs_on_request() {
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let mut logged = meta.clone();
    logged["io.modelcontextprotocol/logLevel"] = json!("debug");
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "validate", "arguments": {"tool": "entrez_query", "arguments": {"operation": "search", "database": "pubmed", "term": "x", "retmax": "5"}}, "_meta": logged}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "entrez_capabilities", "arguments": {}, "_meta": meta}}).to_string(),
        json!({"jsonrpc": "2.0", "id": 4, "method": "ping", "params": {"_meta": meta}}).to_string(),
    ];
    let (stdout, _) = session(
        ("ENTREZ_WEBSITE_URL", "https://example.org/entrez"),
        |stdin| {
            for l in &lines {
                writeln!(stdin, "{l}").unwrap();
            }
        },
    );
    let messages: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let by_id = |id: i64| {
        messages
            .iter()
            .find(|m| m["id"] == json!(id))
            .cloned()
            .unwrap()
    };
    let discover = by_id(1)["result"].clone();
    assert_eq!(discover["supportedVersions"][0], "2026-07-28");
    assert_eq!(
        discover["_meta"]["io.modelcontextprotocol/serverInfo"]["websiteUrl"],
        "https://example.org/entrez"
    );
    assert_eq!(by_id(2)["result"]["resultType"], "complete");
    assert_eq!(
        by_id(4)["error"]["code"],
        -32601,
        "ping is gone in 2026-07-28"
    );
    // Log messages only for the request that asked, and before its result.
    let logs: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "notifications/message")
        .collect();
    assert!(!logs.is_empty(), "{stdout}");
    assert!(logs
        .iter()
        .any(|l| l["params"]["level"] == "info" && l["params"]["data"]["tool"] == "validate"));
    assert!(
        logs.iter()
            .all(|l| l["params"]["data"]["tool"] == "validate"),
        "{logs:?}"
    );
    let position = |pred: &dyn Fn(&Value) -> bool| messages.iter().position(pred).unwrap();
    assert!(
        position(&|m| m["method"] == "notifications/message") < position(&|m| m["id"] == json!(2))
    );
}
