//! The `initialize` result: who we are, what we can do, how the tools fit together.

use super::version::negotiate;
use serde_json::{json, Value};

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

/// Builds the `initialize` result for the client's requested version.
pub fn result(requested_version: Option<&str>, capabilities_extra: Option<Value>) -> Value {
    let mut capabilities = json!({ "tools": { "listChanged": false } });
    if let Some(experimental) = capabilities_extra {
        capabilities["experimental"] = experimental;
    }
    json!({
        "protocolVersion": negotiate(requested_version),
        "capabilities": capabilities,
        "serverInfo": {
            "name": crate::SERVER_NAME,
            "title": "NCBI Entrez MCP server",
            "version": crate::SERVER_VERSION,
            "description": "Search PubMed and every Entrez database, fetch records and sequences, stage results in SQL, and query PubChem and PMC.",
        },
        "instructions": INSTRUCTIONS,
    })
}
