//! The dispatcher and the built-in tools, through JSON-RPC as a client sends it.

use crate::common::*;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::secret::ApiKey;
use serde_json::{json, Value};

fn server() -> entrez_mcp_core::protocol::Server {
    server_with(Config::defaults()).0
}

#[test]
fn tools_list_pages_with_an_opaque_cursor() {
    let s = server().with_page_size(2);
    let first = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    let tools = first["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    let cursor = first["result"]["nextCursor"]
        .as_str()
        .expect("more pages")
        .to_string();
    let mut names: Vec<String> = tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().into())
        .collect();
    let mut next = Some(cursor);
    let mut pages = 1;
    while let Some(c) = next {
        let page = rpc(
            &s,
            json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": c}}),
        );
        names.extend(
            page["result"]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].as_str().unwrap().to_string()),
        );
        next = page["result"]["nextCursor"].as_str().map(String::from);
        pages += 1;
        assert!(pages < 10);
    }
    let all: Vec<String> = s
        .registry
        .tools()
        .iter()
        .map(|t| t.spec.name.to_string())
        .collect();
    assert_eq!(names, all);
    let bad = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"cursor": "garbage"}}),
    );
    assert_eq!(rpc_code(&bad), Some(-32602));
}

#[test]
fn every_listed_tool_has_title_schemas_and_truthful_annotations() {
    let s = server();
    let list = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
    );
    assert!(list["result"].get("nextCursor").is_none());
    for t in list["result"]["tools"].as_array().unwrap() {
        let name = t["name"].as_str().unwrap();
        assert!(t["title"].as_str().is_some_and(|x| !x.is_empty()), "{name}");
        assert_eq!(t["inputSchema"]["type"], "object", "{name}");
        assert_eq!(t["outputSchema"]["type"], "object", "{name}");
        for hint in [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ] {
            assert!(t["annotations"][hint].is_boolean(), "{name} {hint}");
        }
        // Only the tools that reach NCBI are open-world (validate at its runtime level);
        // none of these change anything.
        let upstream = ["entrez_query", "entrez_external", "validate"].contains(&name);
        assert_eq!(t["annotations"]["readOnlyHint"], true, "{name}");
        assert_eq!(t["annotations"]["openWorldHint"], upstream, "{name}");
        // Listed as the file under schemas/ without examples and top-level conditionals;
        // entrez_tool_info serves the file exactly.
        let file: Value = serde_json::from_str(
            &std::fs::read_to_string(format!(
                "{}/schemas/{name}.input.json",
                env!("CARGO_MANIFEST_DIR")
            ))
            .unwrap(),
        )
        .unwrap();
        let mut listed = file.clone();
        for key in [
            "examples", "allOf", "oneOf", "anyOf", "if", "then", "else", "not",
        ] {
            listed.as_object_mut().unwrap().remove(key);
        }
        assert_eq!(t["inputSchema"], listed, "{name}");
        let info = call_tool(&s, "entrez_tool_info", json!({ "name": name }));
        assert_eq!(info["structuredContent"]["inputSchema"], file, "{name}");
        // A description the listed schema shortens or drops is kept in a top-level allOf entry
        // of the file, and entrez_tool_info's parameter list gives that full one.
        for rule in file["allOf"].as_array().into_iter().flatten() {
            for (param, kept) in rule["properties"].as_object().into_iter().flatten() {
                let Some(full) = kept.get("description") else {
                    continue;
                };
                assert_ne!(&listed["properties"][param]["description"], full);
                let shown = info["structuredContent"]["parameters"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["name"] == param.as_str())
                    .unwrap_or_else(|| panic!("{name}.{param} not in entrez_tool_info"));
                assert_eq!(&shown["description"], full, "{name}.{param}");
            }
        }
        if file.get("allOf").is_some() || file.get("oneOf").is_some() {
            assert!(
                listed["description"].as_str().is_some_and(|d| d.len() > 20),
                "{name} drops conditional rules without stating them"
            );
        }
    }
    // What a model reads to choose and call a tool: name, description, inputSchema, for all
    // seven tools (this server has no dataset store, so entrez_data's row is added).
    let (with_store, _, _) = crate::common::data::server(None, Default::default());
    let list = rpc(
        &with_store,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    );
    assert_eq!(list["result"]["tools"].as_array().unwrap().len(), 7);
    let model_facing: usize = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({"name": t["name"], "description": t["description"], "inputSchema": t["inputSchema"]})
                .to_string()
                .len()
        })
        .sum();
    // What every conversation pays before its first call: 16,000 bytes (about 4,000 tokens),
    // operations added in parallel (full text, citations) included. Limits and full parameter
    // descriptions live in the schema file's allOf, which entrez_tool_info serves.
    eprintln!("model-facing tools/list: {model_facing} bytes");
    assert!(
        model_facing <= 16_000,
        "model-facing tools/list is {model_facing} bytes"
    );
}

#[test]
fn unknown_tool_is_invalid_params_with_did_you_mean() {
    let s = server();
    let r = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "entrez_capabilites", "arguments": {}}}),
    );
    assert_eq!(rpc_code(&r), Some(-32602));
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("Did you mean \"entrez_capabilities\"?"));
    let no_name = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {}}),
    );
    assert_eq!(rpc_code(&no_name), Some(-32602));
}

#[test]
fn invalid_arguments_never_reach_the_tool_and_name_path_and_fix() {
    let s = server();
    let r = call_tool(&s, "entrez_capabilities", json!({"format": "xml"}));
    assert_eq!(r["isError"], true);
    let err = &r["structuredContent"]["error"];
    assert_eq!(err["code"], "invalid_arguments");
    assert_eq!(err["details"]["errors"][0]["path"], "$.format");
    assert_eq!(err["details"]["errors"][0]["keyword"], "enum");
    let suggestions = err["suggestions"].to_string();
    assert!(
        suggestions.contains("\\\"summary\\\", \\\"detailed\\\", \\\"json\\\""),
        "{suggestions}"
    );
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("$.format") && text.contains("Suggestions:"),
        "{text}"
    );

    let missing = call_tool(&s, "entrez_tool_info", json!({}));
    assert_eq!(
        missing["structuredContent"]["error"]["details"]["errors"][0]["keyword"],
        "required"
    );
    let not_object = call_tool(&s, "entrez_tool_info", json!(["entrez_query"]));
    assert_eq!(not_object["isError"], true);
    assert_eq!(
        not_object["structuredContent"]["error"]["details"]["errors"][0]["path"],
        "$"
    );
    let extra = call_tool(&s, "system_api_key_status", json!({"verbose": true}));
    assert!(extra["structuredContent"]["error"]["suggestions"][0]
        .as_str()
        .unwrap()
        .contains("Remove \"verbose\""));
}

#[test]
fn capabilities_derive_operations_parameters_and_examples_from_schemas() {
    let s = server();
    let r = call_tool(&s, "entrez_capabilities", json!({}));
    assert_eq!(r["isError"], false);
    let sc = &r["structuredContent"];
    assert_eq!(sc["format"], "summary");
    assert_eq!(sc["tool_count"], s.registry.tools().len());
    assert_eq!(sc["server"]["protocol_versions"][0], "2026-07-28");
    let info = sc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "entrez_tool_info")
        .unwrap();
    assert_eq!(info["operations"], json!([]));
    assert!(
        info.get("parameters").is_none(),
        "the summary carries no parameters"
    );
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("- system_api_key_status — "), "{text}");
    // Within the 1-3 KB the tool declares for its summary, with entrez_data among the tools
    // (this server has no dataset store, so it is asked of one that has).
    let (with_store, _, _) = crate::common::data::server(None, Default::default());
    let all = call_tool(&with_store, "entrez_capabilities", json!({}));
    assert_eq!(all["structuredContent"]["tool_count"], 7);
    let size = all.to_string().len();
    eprintln!("entrez_capabilities summary: {size} bytes");
    assert!(size <= 3 * 1024, "{size} bytes");

    let detailed = call_tool(&s, "entrez_capabilities", json!({"format": "detailed"}));
    assert!(detailed["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("Example: {\"format\":\"detailed\"}"));
    let as_json = call_tool(
        &s,
        "entrez_capabilities",
        json!({"format": "json", "tool": "entrez_tool_info"}),
    );
    let parsed: Value =
        serde_json::from_str(as_json["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(parsed, as_json["structuredContent"]);
    assert_eq!(parsed["tool_count"], 1);
    let info = &parsed["tools"][0];
    assert_eq!(info["parameters"][0]["name"], "name");
    assert_eq!(info["parameters"][0]["required"], true);
    assert_eq!(info["examples"][0], json!({"name": "entrez_capabilities"}));

    let unknown = call_tool(
        &s,
        "entrez_capabilities",
        json!({"tool": "sytem_api_key_status"}),
    );
    assert_eq!(unknown["isError"], true);
    assert_eq!(
        unknown["structuredContent"]["error"]["code"],
        "unknown_tool"
    );
    assert!(unknown["structuredContent"]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("system_api_key_status"));
}

#[test]
fn tool_info_returns_the_served_schemas_and_suggests_close_names() {
    let s = server();
    let r = call_tool(
        &s,
        "entrez_tool_info",
        json!({"name": "system_api_key_status"}),
    );
    let sc = &r["structuredContent"];
    let registered = s.registry.get("system_api_key_status").unwrap();
    assert_eq!(sc["inputSchema"], *registered.input_schema);
    assert_eq!(sc["outputSchema"], *registered.output_schema);
    assert_eq!(sc["annotations"]["idempotentHint"], true);
    let typo = call_tool(&s, "entrez_tool_info", json!({"name": "entrez_tool_inf"}));
    assert_eq!(typo["isError"], true);
    assert_eq!(typo["structuredContent"]["error"]["code"], "unknown_tool");
    assert_eq!(
        typo["structuredContent"]["error"]["suggestions"][0],
        "Use \"entrez_tool_info\"."
    );
}

#[test]
fn api_key_status_reports_source_and_limit_without_the_key() {
    let secret = "5f0c1e2d3b4a69788796a5b4c3d2e1f0aa11";
    let with_key = server_with(Config::from_lookup(|k| match k {
        "NCBI_API_KEY" => Some(secret.into()),
        "NCBI_EMAIL" => Some("lab@example.org".into()),
        _ => None,
    }))
    .0;
    let r = call_tool(&with_key, "system_api_key_status", json!({}));
    let sc = &r["structuredContent"];
    assert_eq!(sc["configured"], true);
    assert_eq!(sc["source"], "server_secret");
    assert_eq!(sc["rate_limit_per_second"], 10);
    assert_eq!(sc["email"], "lab@example.org");
    let all = r.to_string();
    // No prefix, suffix or middle of the key may appear.
    for window in secret.as_bytes().windows(4) {
        assert!(
            !all.contains(std::str::from_utf8(window).unwrap()),
            "leaked {window:?}"
        );
    }

    let caller = RequestContext {
        caller_api_key: Some(ApiKey::new("callerkey999")),
        ..Default::default()
    };
    let r = call_tool_with(&with_key, "system_api_key_status", json!({}), &caller);
    assert_eq!(r["structuredContent"]["source"], "caller_header");
    assert!(!r.to_string().contains("callerkey"));

    let anonymous = call_tool(&server(), "system_api_key_status", json!({}));
    assert_eq!(anonymous["structuredContent"]["configured"], false);
    assert_eq!(anonymous["structuredContent"]["source"], "none");
    assert_eq!(anonymous["structuredContent"]["rate_limit_per_second"], 3);
    assert_eq!(anonymous["structuredContent"]["email"], Value::Null);
}

#[test]
fn ping_initialize_and_unknown_methods_over_the_dispatcher() {
    let s = server();
    assert_eq!(
        rpc(&s, json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))["result"],
        json!({})
    );
    let r = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage"}),
    );
    assert_eq!(rpc_code(&r), Some(-32601));
    // server/discover is a stateless request: without its _meta it is malformed.
    let r = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover"}),
    );
    assert_eq!(rpc_code(&r), Some(-32602));
    let n = block_on(s.handle_bytes(
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        &Default::default(),
    ));
    assert!(n.is_none());
    let parse = rpc_raw(&s, b"{oops");
    assert_eq!(rpc_code(&parse), Some(-32700));
}

fn rpc_raw(s: &entrez_mcp_core::protocol::Server, bytes: &[u8]) -> Value {
    block_on(s.handle_bytes(bytes, &Default::default())).unwrap()
}

#[test]
fn every_operation_the_schemas_name_has_its_own_dispatch() {
    use entrez_mcp_core::tools::entrez_query::args::QueryArgs;
    use entrez_mcp_core::tools::entrez_query::call::QueryCall;
    use entrez_mcp_core::tools::{entrez_data, entrez_external};
    let s = server();
    let listed = |tool: &str| -> Vec<String> {
        let schema = &s
            .registry
            .get(tool)
            .map(|t| (*t.input_schema).clone())
            .unwrap_or_else(|| {
                serde_json::from_str(match tool {
                    "entrez_data" => include_str!("../../../schemas/entrez_data.input.json"),
                    _ => unreachable!(),
                })
                .unwrap()
            });
        schema["properties"]["operation"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let data: Vec<String> = entrez_data::OPERATIONS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    let external: Vec<String> = entrez_external::OPERATIONS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(listed("entrez_data"), data);
    assert_eq!(listed("entrez_external"), external);
    for op in listed("entrez_data") {
        let call = entrez_data::call::DataCall::of(&entrez_data::args::DataArgs::read(
            &json!({"operation": op}),
        ))
        .unwrap_or_else(|| panic!("entrez_data reads no operation {op}"));
        assert_eq!(call.to_value()["operation"], json!(op));
    }
    for op in listed("entrez_external") {
        // pug_rest needs a request to read; the smallest documented one has a domain alone.
        let args = match op.as_str() {
            "pug_rest" => json!({"operation": op, "domain": "periodictable"}),
            _ => json!({"operation": op}),
        };
        let call = entrez_external::call::ExternalCall::of(
            &entrez_external::args::ExternalArgs::read(&args),
        )
        .unwrap_or_else(|| panic!("entrez_external reads no operation {op}"));
        assert_eq!(call.to_value()["operation"], json!(op));
    }
    for op in listed("entrez_query") {
        let call = QueryCall::of(&QueryArgs::read(&json!({"operation": op})))
            .unwrap_or_else(|| panic!("entrez_query reads no operation {op}"));
        assert_eq!(call.to_value()["operation"], json!(op));
    }
    assert!(QueryCall::of(&QueryArgs::read(&json!({"operation": "lookup"}))).is_none());
}
