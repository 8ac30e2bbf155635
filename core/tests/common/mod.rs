//! The core's test helpers are the shared kit's (`testkit/`): checked tool calls run on
//! this thread, a clock tests move, requests as data, a network that records.

pub(crate) use entrez_mcp_testkit::*;
