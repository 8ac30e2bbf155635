//! `validate` over the dispatcher: what `initialize` announces of it, its agreement with
//! `tools/call` (and no side effects), its codes, paths, defaults and batches.

use crate::common::*;
use entrez_mcp_core::config::Config;
use serde_json::{json, Value};

fn server() -> entrez_mcp_core::protocol::Server {
    server_with(Config::defaults()).0
}
#[test]
fn initialize_announces_exactly_what_validate_supports() {
    let s = server();
    let init = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    );
    let cap = &init["result"]["capabilities"]["experimental"]["toolValidation"];
    assert_eq!(cap["supported"], true);
    assert_eq!(cap["method"], "validate");
    assert_eq!(cap["version"], "1.0");
    assert_eq!(
        cap["levels"],
        json!({"syntax": true, "semantic": true, "runtime": true, "security": false})
    );
    // Every field the validation-capability proposal defines, with this server's truth.
    assert_eq!(cap["async"], true);
    assert_eq!(cap["streaming"], false);
    assert_eq!(cap["contextAware"], true);
    assert_eq!(cap["batchValidation"], true);
    assert_eq!(cap["maxBatchSize"], 20);
    assert_eq!(
        cap["caching"],
        json!({"enabled": true, "ttl": 3600, "invalidateOn": ["resource_change", "tool_update"]})
    );
    assert_eq!(cap["runtime"]["budgetMs"], 1000);
    assert_eq!(cap["sideEffects"], false);
    assert_eq!(cap["cacheable"], true);
    // The tool's schema must accept exactly the levels announced as supported.
    let level = &s.registry.get("validate").unwrap().input_schema["properties"]["level"];
    let mut supported: Vec<&str> = cap["levels"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, on)| **on == true)
        .map(|(name, _)| name.as_str())
        .collect();
    let mut accepted: Vec<&str> = level["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    supported.sort();
    accepted.sort();
    assert_eq!(accepted, supported);
    assert_eq!(level["enum"], json!(["syntax", "semantic", "runtime"]));
    assert_eq!(level["default"], cap["defaultLevel"]);
    assert_eq!(cap["defaultLevel"], "semantic");
    let batch_max =
        &s.registry.get("validate").unwrap().input_schema["properties"]["calls"]["maxItems"];
    assert_eq!(batch_max, &cap["maxBatchSize"]);
}

#[test]
fn validate_agrees_with_tools_call_and_has_no_side_effects() {
    let s = server();
    let cases = [
        ("entrez_capabilities", json!({"format": "detailed"}), true),
        ("entrez_capabilities", json!({"format": "xml"}), false),
        (
            "entrez_capabilities",
            json!({"tool": "entrez_qurey"}),
            false,
        ),
        ("entrez_tool_info", json!({}), false),
        ("entrez_tool_info", json!({"name": "validate"}), true),
        ("system_api_key_status", json!({"x": 1}), false),
        (
            "entrez_query",
            json!({"operation": "fetch", "database": "pubmd", "ids": ["19304878"]}),
            false,
        ),
        (
            "entrez_query",
            json!({"operation": "summary", "database": "pubmed", "ids": ["NP_000537.3"]}),
            false,
        ),
        (
            "entrez_query",
            json!({"operation": "summary", "database": "protein", "ids": ["NP_000537.3"]}),
            true,
        ),
    ];
    for (tool, args, valid) in cases {
        let v = call_tool(&s, "validate", json!({"tool": tool, "arguments": args}));
        assert_eq!(v["isError"], false);
        assert_eq!(v["structuredContent"]["level"], "semantic");
        assert_eq!(v["structuredContent"]["valid"], valid, "{tool} {args}");
        // This server has no network: a call that passes validation fails upstream instead.
        let real = call_tool(&s, tool, args.clone());
        let rejected = real["isError"] == true
            && real["structuredContent"]["error"]["details"]["errors"].is_array();
        assert_eq!(
            rejected, !valid,
            "validate and tools/call disagree on {tool} {args}: {real}"
        );
    }
}

#[test]
fn validate_reports_codes_paths_defaults_and_batches() {
    let s = server();
    let bad = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_capabilities", "arguments": {"format": "xml"}}),
    );
    let sc = &bad["structuredContent"];
    assert_eq!(sc["details"]["errors"][0]["code"], "schema_enum");
    assert_eq!(sc["details"]["errors"][0]["path"], "$.format");
    let good = call_tool(&s, "validate", json!({"tool": "entrez_capabilities"}));
    assert_eq!(
        good["structuredContent"]["normalized_arguments"],
        json!({"format": "summary"})
    );
    assert_eq!(good["structuredContent"]["level"], "semantic");
    // The syntax level skips the semantic rules: a misspelt database is only a word to the schema.
    let typo = json!({"operation": "search", "database": "pubmd", "term": "x"});
    let syntax = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": typo, "level": "syntax"}),
    );
    assert_eq!(syntax["structuredContent"]["valid"], true);
    assert_eq!(syntax["structuredContent"]["level"], "syntax");
    let semantic = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": typo}),
    );
    assert_eq!(
        semantic["structuredContent"]["details"]["errors"][0]["message"],
        "Invalid database \"pubmd\". Did you mean \"pubmed\"?"
    );
    let runtime = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": typo, "level": "runtime"}),
    );
    // Runtime adds upstream lookups only to calls that pass the semantic level.
    assert_eq!(runtime["isError"], false);
    assert_eq!(
        runtime["structuredContent"]["details"]["errors"][0]["code"],
        "invalid_database"
    );
    let unknown = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_tool_inf", "arguments": {}}),
    );
    assert_eq!(
        unknown["structuredContent"]["details"]["errors"][0]["code"],
        "unknown_tool"
    );
    assert_eq!(
        unknown["structuredContent"]["details"]["errors"][0]["path"],
        "$.tool"
    );
    assert!(
        unknown["structuredContent"]["details"]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Did you mean \"entrez_tool_info\"?")
    );

    let batch = call_tool(
        &s,
        "validate",
        json!({"calls": [
            {"tool": "system_api_key_status"},
            {"tool": "entrez_tool_info", "arguments": {"name": true}}
        ]}),
    );
    let sc = &batch["structuredContent"];
    assert_eq!(sc["count"], 2);
    assert_eq!(sc["valid"], false);
    assert_eq!(sc["results"][0]["valid"], true);
    assert_eq!(
        sc["results"][1]["details"]["errors"][0]["code"],
        "schema_type"
    );
    let too_many: Vec<Value> = (0..21).map(|_| json!({"tool": "validate"})).collect();
    let over = call_tool(&s, "validate", json!({"calls": too_many}));
    assert_eq!(over["isError"], true);
    assert_eq!(
        over["structuredContent"]["error"]["details"]["errors"][0]["code"],
        "schema_max_items"
    );
    let both = call_tool(
        &s,
        "validate",
        json!({"tool": "validate", "calls": [{"tool": "validate"}]}),
    );
    assert_eq!(both["isError"], true);
    assert!(both["structuredContent"]["error"]["suggestions"]
        .to_string()
        .contains("Either tool"));
}
