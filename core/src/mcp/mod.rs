//! What the tools need of the MCP protocol, below the tools: its revisions, progress and tasks.
//!
//! The dispatcher ([`crate::protocol`]) negotiates a revision and carries
//! notifications; a tool only names the revisions the server speaks
//! (`entrez_capabilities`) and reports progress on a long call. Both live here,
//! so the tools never reach up into the dispatcher that calls them.

pub mod logging;
pub mod meta;
pub mod progress;
pub mod version;
