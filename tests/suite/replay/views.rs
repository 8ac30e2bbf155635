//! The MCP Apps view (`core/src/apps`): who is shown it, and its paging tool.
//!
//! A client that declares the `io.modelcontextprotocol/ui` extension (at `initialize` over
//! stdio, or in a 2026-07-28 request's own `_meta`) sees `entrez_data` and `entrez_query`
//! linked to `ui://entrez-mcp/view.html` and the app-only `entrez_data_page`; any other
//! client's lists are what they were. `entrez_data_page` walks a staged dataset's rows,
//! every row once, sorted on the server, and answers only the dataset's owner.

use crate::common::data::*;
use crate::common::replay::Replay;
use crate::common::{call_tool_with, rpc};
use entrez_mcp_core::apps::{EXTENSION, MIME_TYPE, VIEW_HTML, VIEW_URI};
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};

fn ui_capabilities() -> Value {
    json!({"extensions": {EXTENSION: {"mimeTypes": [MIME_TYPE]}}})
}

fn initialize(s: &entrez_mcp_core::protocol::Server, capabilities: Value) -> Value {
    rpc(
        s,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "views-test", "version": "1"}}}),
    )
}

fn listed(s: &entrez_mcp_core::protocol::Server, meta: Option<Value>) -> Vec<Value> {
    let mut params = json!({});
    if let Some(m) = meta {
        params["_meta"] = m;
    }
    let r = rpc(
        s,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": params}),
    );
    r["result"]["tools"].as_array().unwrap().clone()
}

fn tool<'a>(tools: &'a [Value], name: &str) -> Option<&'a Value> {
    tools.iter().find(|t| t["name"] == name)
}

#[test]
fn the_view_comes_from_where_the_edge_keeps_it_and_without_one_is_offered_to_nobody() {
    // The Worker's source: the static assets, once read (here, a page of its own).
    const FROM_ASSETS: &str = "<!doctype html><title>from the assets</title>";
    let (s, _, _) = server(None, Limits::default());
    let s = s.with_view(|| Some(FROM_ASSETS));
    initialize(&s, ui_capabilities());
    assert_eq!(listed(&s, None).len(), 8);
    let read = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": VIEW_URI}}),
    );
    assert_eq!(read["result"]["contents"][0]["text"], FROM_ASSETS);
    // No view to serve (the assets could not be read): a client that renders views is
    // linked to nothing, and the address is not found.
    let (s, _, _) = server(None, Limits::default());
    let s = s.with_view(|| None);
    initialize(&s, ui_capabilities());
    let tools = listed(&s, None);
    assert_eq!(tools.len(), 7);
    assert!(tools.iter().all(|t| t.get("_meta").is_none()), "{tools:?}");
    let read = rpc(
        &s,
        json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": VIEW_URI}}),
    );
    assert!(read.get("error").is_some(), "{read}");
}

#[test]
fn a_client_that_renders_views_is_linked_to_the_view_and_others_see_what_they_saw() {
    // stdio: the client's initialize decides for the process.
    let (with, _, _) = server(None, Limits::default());
    let init = initialize(&with, ui_capabilities());
    assert_eq!(
        init["result"]["capabilities"]["extensions"][EXTENSION]["mimeTypes"],
        json!([MIME_TYPE])
    );
    let tools = listed(&with, None);
    assert_eq!(tools.len(), 8);
    for name in ["entrez_data", "entrez_query"] {
        let t = tool(&tools, name).unwrap();
        assert_eq!(t["_meta"]["ui"]["resourceUri"], VIEW_URI, "{name}");
        assert_eq!(t["_meta"]["ui/resourceUri"], VIEW_URI, "{name}");
        assert!(t["_meta"]["ui"].get("visibility").is_none(), "{name}");
    }
    let page = tool(&tools, "entrez_data_page").unwrap();
    assert_eq!(page["_meta"]["ui"]["visibility"], json!(["app"]));
    assert!(tool(&tools, "entrez_external")
        .unwrap()
        .get("_meta")
        .is_none());
    let resources = rpc(
        &with,
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
    );
    assert_eq!(resources["result"]["resources"][0]["uri"], VIEW_URI);

    // A client without the extension: seven tools, no links, no view listed; the view can
    // still be read by its address.
    let (without, _, _) = server(None, Limits::default());
    initialize(&without, json!({}));
    let tools = listed(&without, None);
    assert_eq!(tools.len(), 7);
    assert!(tools.iter().all(|t| t.get("_meta").is_none()), "{tools:?}");
    let resources = rpc(
        &without,
        json!({"jsonrpc": "2.0", "id": 3, "method": "resources/list"}),
    );
    assert!(resources["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["uri"] != VIEW_URI));
    let read = rpc(
        &without,
        json!({"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": VIEW_URI}}),
    );
    let content = &read["result"]["contents"][0];
    assert_eq!(content["mimeType"], MIME_TYPE);
    assert_eq!(content["text"], VIEW_HTML);
    assert_eq!(content["_meta"]["ui"]["prefersBorder"], true);

    // 2026-07-28: each request's own capabilities decide.
    let stateless = |caps: Value| {
        json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": caps})
    };
    assert_eq!(
        listed(&without, Some(stateless(ui_capabilities()))).len(),
        8
    );
    assert_eq!(listed(&with, Some(stateless(json!({})))).len(), 7);
    // A UI extension for another MIME type is not this view's.
    let other = json!({"extensions": {EXTENSION: {"mimeTypes": ["text/html"]}}});
    assert_eq!(listed(&without, Some(stateless(other))).len(), 7);
}

#[test]
fn the_view_pages_every_row_once_sorted_on_the_server_for_the_owner_only() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let staged = ok(
        &s,
        json!({"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 120}),
    );
    let id = staged["data_access_id"].as_str().unwrap().to_string();
    let page = |args: Value, ctx: &RequestContext| {
        let mut a = json!({"data_access_id": id});
        for (k, v) in args.as_object().unwrap() {
            a[k] = v.clone();
        }
        call_tool_with(&s, "entrez_data_page", a, ctx)
    };
    let me = RequestContext::default();
    // The main table, 50 rows a page: three pages hold all 120 records, once each.
    let mut seen = Vec::new();
    for offset in [0, 50, 100] {
        let r = page(
            json!({"offset": offset, "limit": 50, "order_by": "pmid"}),
            &me,
        );
        assert_eq!(r["isError"], false, "{r}");
        let st = &r["structuredContent"];
        assert_eq!(st["total"], 120);
        assert_eq!(st["sql"], "SELECT * FROM article");
        let pmid = st["columns"]
            .as_array()
            .unwrap()
            .iter()
            .position(|c| c == "pmid")
            .unwrap();
        seen.extend(
            st["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|row| row[pmid].as_i64().unwrap()),
        );
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen.len(), 120);
    assert_eq!(seen, sorted, "every row once, in pmid order");
    // Past the end: no rows, the total still right.
    let past = page(json!({"offset": 500}), &me);
    assert_eq!(past["structuredContent"]["rows"], json!([]));
    assert_eq!(past["structuredContent"]["total"], 120);
    // A statement of the caller's, sorted from the largest down.
    let r = page(
        json!({"sql": "SELECT pmid, year FROM article;", "limit": 5, "order_by": "pmid", "descending": true}),
        &me,
    );
    let rows = r["structuredContent"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0][0].as_i64(), seen.last().copied());
    assert!(rows.windows(2).all(|w| w[0][0].as_i64() > w[1][0].as_i64()));
    // What the read-only policy refuses, it refuses here too; a bad column name is said.
    let write = page(json!({"sql": "DELETE FROM article"}), &me);
    assert_eq!(write["isError"], true, "{write}");
    let bad = page(json!({"order_by": "no_such_column"}), &me);
    assert_eq!(bad["isError"], true, "{bad}");
    // Someone else's dataset is not found, as with entrez_data.
    let stranger = RequestContext {
        caller_api_key: Some(entrez_mcp_core::secret::ApiKey::new("someone-else")),
        ..Default::default()
    };
    let theirs = page(json!({}), &stranger);
    assert_eq!(theirs["isError"], true);
    assert_eq!(
        theirs["structuredContent"]["error"]["code"],
        "dataset_not_found"
    );
}
