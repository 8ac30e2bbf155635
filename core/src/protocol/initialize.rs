//! Who we are, what we can do, how the tools fit together: the `initialize`
//! result of the handshake revision and the `server/discover` result of the stateless one.

use crate::json;
use crate::mcp::version::{negotiate, SUPPORTED_VERSIONS};
use crate::protocol::resources;
use serde_json::Value;

/// Guidance for an assistant on how the tools fit together.
pub const INSTRUCTIONS: &str = "\
This server gives access to NCBI Entrez (PubMed, PMC, Gene, Protein, Nucleotide, Taxonomy and the other Entrez databases), PubChem and the PMC APIs.
- Start with entrez_capabilities to see every tool, its operations and example calls; entrez_tool_info gives one tool's full parameters and schemas.
- entrez_query runs every E-utility: search for ids (use usehistory=true for large sets), then summary or fetch them (fetch returns parsed records: PubMed articles with abstracts, authors and MeSH; sequences; taxonomy), link to related records, spell-check terms, match citations, or count hits across databases with global_query.
- entrez_data (where listed) stages up to 10,000 records into SQL tables; then answer questions with read-only SQL instead of reading records one by one.
- entrez_external looks up PubChem compounds, substances and assays (with 2D structure images) and converts PMC/PubMed/DOI ids, finds open-access files and exports citations.
- validate checks any call without running it; every tool applies the same checks first, so an invalid call comes back as an error result naming the path and the fix, and nothing is sent upstream.
- system_api_key_status tells whether an NCBI API key is in effect and the rate limit that follows (3 requests/s without a key, 10 with one). Callers may send their own key in the X-NCBI-API-Key header.
- Results carry structuredContent that matches each tool's outputSchema, plus a readable text block.";

/// What this server offers, as both revisions announce it.
#[derive(Debug, Clone, Copy)]
pub struct Offer {
    /// Whether there is a dataset store (resources, the dataset prompts).
    pub staging: bool,
    /// The `experimental.toolValidation` capability, when the validating tool is served.
    pub validation: Option<crate::framework::registry::Capability>,
    /// Whether stagings run as MCP tasks (a store, a network and a scheduler).
    pub tasks: bool,
}

/// The server icon: an SVG, inlined so no client has to fetch it from anywhere.
pub const ICON_SVG: &str = include_str!("../../../assets/icon.svg");

/// `serverInfo` (handshake) and `_meta["io.modelcontextprotocol/serverInfo"]` (stateless).
pub fn server_info(website_url: &str) -> Value {
    use base64::Engine as _;
    let icon = base64::engine::general_purpose::STANDARD.encode(ICON_SVG);
    json!({
        "name": crate::SERVER_NAME,
        "title": "NCBI Entrez MCP server",
        "version": crate::SERVER_VERSION,
        "description": "Search PubMed and every Entrez database, fetch records and sequences, stage results in SQL, and query PubChem and PMC.",
        "websiteUrl": website_url,
        "icons": [{ "src": format!("data:image/svg+xml;base64,{icon}"), "mimeType": "image/svg+xml", "sizes": ["any"] }],
    })
}

/// The capabilities object.
pub fn capabilities(offer: Offer) -> Value {
    let mut capabilities = json!({
        "tools": { "listChanged": false },
        "prompts": { "listChanged": false },
        "completions": {},
        "logging": {},
    });
    if offer.staging {
        json::set(&mut capabilities, "resources", resources::capability());
        // The view is a resource, and pages a dataset's rows.
        capabilities["extensions"] = json!({ (crate::apps::EXTENSION): crate::apps::capability() });
    }
    if let Some(validation) = offer.validation {
        capabilities["experimental"] = json!({ "toolValidation": validation() });
    }
    capabilities
}

/// The revision whose core has tasks (experimental there; an extension afterwards).
pub const TASKS_REVISION: &str = "2025-11-25";

/// The `initialize` result for the client's requested version.
pub fn result(requested_version: Option<&str>, offer: Offer, website_url: &str) -> Value {
    let version = negotiate(requested_version);
    let mut capabilities = capabilities(offer);
    if offer.tasks && version == TASKS_REVISION {
        capabilities["tasks"] = json!({
            "list": {},
            "cancel": {},
            "requests": { "tools": { "call": {} } },
        });
    }
    json!({
        "protocolVersion": version,
        "capabilities": capabilities,
        "serverInfo": server_info(website_url),
        "instructions": INSTRUCTIONS,
    })
}

/// The `server/discover` result (before the stateless revision's common result fields).
pub fn discover(offer: Offer) -> Value {
    let mut capabilities = capabilities(offer);
    if offer.tasks {
        json::set(
            &mut capabilities["extensions"],
            crate::tasks::task::EXTENSION,
            json!({}),
        );
    }
    json!({
        "supportedVersions": SUPPORTED_VERSIONS,
        "capabilities": capabilities,
        "instructions": INSTRUCTIONS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_eras_announce_the_same_capabilities() {
        let offer = Offer {
            staging: true,
            validation: Some(|| json!({ "supported": true })),
            tasks: false,
        };
        let init = result(Some("2025-11-25"), offer, "https://example.org/");
        let disc = discover(offer);
        assert_eq!(init["capabilities"], disc["capabilities"]);
        for key in ["tools", "prompts", "completions", "logging", "resources"] {
            assert!(disc["capabilities"].get(key).is_some(), "{key}");
        }
        assert!(disc["capabilities"]["experimental"]["toolValidation"].is_object());
        assert_eq!(disc["supportedVersions"][0], "2026-07-28");
        let bare = capabilities(Offer {
            staging: false,
            validation: None,
            tasks: false,
        });
        assert!(bare.get("resources").is_none() && bare.get("experimental").is_none());
    }

    #[test]
    fn each_revision_announces_tasks_its_own_way() {
        let offer = Offer {
            staging: true,
            validation: Some(|| json!({ "supported": true })),
            tasks: true,
        };
        let init = result(Some("2025-11-25"), offer, "https://example.org/");
        assert_eq!(
            init["capabilities"]["tasks"]["requests"]["tools"]["call"],
            json!({})
        );
        assert!(init["capabilities"]["tasks"]["list"].is_object());
        // Revisions before 2025-11-25 have no tasks, and 2026-07-28 has the extension.
        let older = result(Some("2025-06-18"), offer, "https://example.org/");
        assert!(older["capabilities"].get("tasks").is_none());
        let disc = discover(offer);
        assert!(disc["capabilities"].get("tasks").is_none());
        assert_eq!(
            disc["capabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
            json!({})
        );
    }

    #[test]
    fn the_icon_is_an_inline_svg() {
        let info = server_info("https://example.org/");
        let src = info["icons"][0]["src"].as_str().unwrap();
        assert!(src.starts_with("data:image/svg+xml;base64,"));
        assert!(ICON_SVG.starts_with("<svg") && !ICON_SVG.contains("<script"));
        assert_eq!(info["websiteUrl"], "https://example.org/");
    }
}
