//! MCP Apps (the `io.modelcontextprotocol/ui` extension): the one `ui://` view this server
//! ships, and who is shown it.
//!
//! The view (`view/` at the top of the repository, built into one self-contained HTML file)
//! draws a chart or a dataset's rows beside the conversation, and pages through rows by
//! calling `entrez_data_page`, a tool only the view calls. A client says it renders views
//! in its capabilities (`extensions["io.modelcontextprotocol/ui"].mimeTypes`): at
//! `initialize` in 2025-11-25 (the session remembers it), on every request in 2026-07-28.
//! Such a client's `tools/list` links `entrez_data` and `entrez_query` to the view and lists
//! the view's own tool; any other client gets what it always got, the picture and the text.

use crate::json;
use serde_json::Value;

/// The extension's identifier.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of a view.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";
/// The view's address.
pub const VIEW_URI: &str = "ui://entrez-mcp/view.html";
/// The view: HTML, its scripts and styles inline (built by `scripts/build-view.sh`), built
/// into the binary by the feature `embedded-view` (the native binary's). The Worker leaves it
/// out of its wasm and serves it from its static assets ([`crate::protocol::Server::with_view`]).
#[cfg(feature = "embedded-view")]
pub const VIEW_HTML: &str = include_str!("../../../view/dist/view.html");
/// The tools whose results the view shows.
pub const LINKED_TOOLS: &[&str] = &["entrez_data", "entrez_query"];
/// The tool only the view calls, to page through rows.
pub const PAGE_TOOL: &str = "entrez_data_page";

/// Whether only the view calls the tool `name` (`visibility: ["app"]`): no model is shown it.
pub fn app_only(name: &str) -> bool {
    name == PAGE_TOOL
}

/// Whether `capabilities` (a client's) say it renders this server's views.
pub fn client_renders_views(capabilities: Option<&Value>) -> bool {
    capabilities
        .and_then(|c| c.get("extensions"))
        .and_then(|e| e.get(EXTENSION))
        .and_then(|ui| ui.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t.as_str() == Some(MIME_TYPE)))
}

/// The extension's settings as this server announces them.
pub fn capability() -> Value {
    json!({ "mimeTypes": [MIME_TYPE] })
}

/// The `_meta` a tool's descriptor carries for a client that renders views: the view it
/// opens, who may call it, and the flat key older hosts read.
pub fn tool_meta(app_only: bool) -> Value {
    let mut ui = json!({ "resourceUri": VIEW_URI });
    if app_only {
        ui["visibility"] = json!(["app"]);
    }
    json!({ "ui": ui, "ui/resourceUri": VIEW_URI })
}

/// The view's `_meta.ui`: no network, no frames (the hosts' default policy suffices), a
/// border around it.
fn resource_meta() -> Value {
    json!({ "ui": { "csp": {}, "prefersBorder": true } })
}

/// The view's entry in `resources/list`.
pub fn listed() -> Value {
    json!({
        "uri": VIEW_URI,
        "name": "entrez-mcp-view",
        "title": "Chart and rows view",
        "description": "An MCP Apps view of entrez_data and entrez_query results: the chart (hover for values, bar or line, PNG and CSV downloads) and the rows of a staged dataset, paged.",
        "mimeType": MIME_TYPE,
        "_meta": resource_meta(),
    })
}

/// Where the view's HTML comes from: the binary, or the edge's static assets once read
/// (`None` while there is none: the view is then neither read nor offered).
pub type ViewSource = fn() -> Option<&'static str>;

/// The view built into this binary, if it was (feature `embedded-view`).
pub fn embedded() -> Option<&'static str> {
    #[cfg(feature = "embedded-view")]
    return Some(VIEW_HTML);
    #[cfg(not(feature = "embedded-view"))]
    None
}

/// `resources/read` of the view, whose HTML is `html`.
pub fn read(html: &str) -> Value {
    json!({ "contents": [{
        "uri": VIEW_URI,
        "mimeType": MIME_TYPE,
        "text": html,
        "_meta": resource_meta(),
    }]})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_client_naming_the_views_type_renders_them() {
        let with = json!({"extensions": {EXTENSION: {"mimeTypes": ["text/plain", MIME_TYPE]}}});
        assert!(client_renders_views(Some(&with)));
        for without in [
            json!({}),
            json!({"extensions": {EXTENSION: {}}}),
            json!({"extensions": {EXTENSION: {"mimeTypes": ["text/html"]}}}),
            json!({"extensions": {"io.modelcontextprotocol/tasks": {"mimeTypes": [MIME_TYPE]}}}),
        ] {
            assert!(!client_renders_views(Some(&without)), "{without}");
        }
        assert!(!client_renders_views(None));
    }

    #[cfg(feature = "embedded-view")]
    #[test]
    fn the_view_is_one_html_document_that_asks_for_nothing_outside() {
        let html = VIEW_HTML.to_ascii_lowercase();
        assert!(html.trim_start().starts_with("<!doctype html"));
        // Scripts and styles inline: nothing a deny-all policy would block is fetched.
        for outside in ["<script src", "<link", "@import", "url(http"] {
            assert!(!html.contains(outside), "the view loads {outside}");
        }
        // What a host loads for every result it renders: at most 150,000 bytes (it was
        // 620,371 with the SDK's App; view/README.md has the figures).
        assert!(
            VIEW_HTML.len() <= 150_000,
            "the view is {} bytes",
            VIEW_HTML.len()
        );
        assert_eq!(tool_meta(true)["ui"]["visibility"], json!(["app"]));
        assert_eq!(tool_meta(false)["ui/resourceUri"], VIEW_URI);
        assert_eq!(read(VIEW_HTML)["contents"][0]["mimeType"], MIME_TYPE);
    }
}
