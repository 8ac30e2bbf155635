//! The tool framework: what every tool is built on. Arguments come in through the intake and
//! the schema check (`intake`, `arguments`), each tool is a row of the registry (`spec`,
//! `registry`), results go out shaped and within budget (`output`, `content`, `shape`,
//! `budget`, `view`), a call runs with a [`ToolContext`], and the resources a tool makes are
//! served by it (`resources`).

pub mod arguments;
pub mod as_task;
pub mod budget;
pub mod canonical;
pub mod content;
pub mod describe;
pub mod intake;
pub mod output;
pub mod registry;
pub mod resources;
pub mod shape;
pub mod spec;
pub mod view;

use crate::config::Config;
use crate::entrez::EntrezClient;
use crate::error::{Error, ErrorKind};
use crate::mcp::progress::Progress;
use crate::net::cache::{CallLog, ResponseCache};
use crate::net::retry::RetryPolicy;
use crate::net::Network;
use crate::platform::Platform;
use crate::secret::ApiKey;

pub use crate::caller::{Channel, KeySource, RequestContext};
pub use output::{TextForm, ToolOutput};
pub use registry::Registry;
pub use spec::{ToolAnnotations, ToolSpec};

/// Everything a tool handler may use.
pub struct ToolContext<'a> {
    /// Server configuration.
    pub config: &'a Config,
    /// All registered tools, for the self-describing tools.
    pub registry: &'a Registry,
    /// The request the call came in.
    pub request: &'a RequestContext,
    /// Clock and entropy.
    pub platform: &'a dyn Platform,
    /// Outbound HTTP and pacing; `None` where the server was built without it.
    pub network: Option<&'a Network>,
    /// The dataset store and its limits; `None` where the server has no store.
    pub staging: Option<&'a crate::staging::Staging>,
    /// Where to report progress, when the client asked for it and the transport can carry it.
    pub progress: Option<Progress<'a>>,
    /// What this call was served from the cache of upstream answers, and how it may use it.
    pub cache_log: CallLog,
    /// Whether the caller asked for an MCP task and the server answers with one: long work
    /// then goes on without the call (a staging by itself at once; a PubChem answer still
    /// coming after a few seconds is held), and the call returns its handle.
    pub task: bool,
    /// A pending task's ListKey, for a PubChem call run again to collect it (see [`as_task`]).
    pub resume: Option<as_task::Resume>,
}

impl<'a> ToolContext<'a> {
    /// What one call may spend: its CPU and subrequests ([`crate::allowance`]).
    pub fn allowance(&self) -> crate::allowance::Allowance {
        self.config.allowance
    }

    /// An E-utilities client for this caller, or an error if the server has no network.
    pub fn entrez(&self) -> Result<EntrezClient<'_>, Error> {
        let network = self.network.ok_or_else(|| {
            Error::new(ErrorKind::Unavailable, "This server instance has no outbound network configured.")
                .suggest("Run the server through its normal entry point (entrez-mcp serve/stdio, or the Worker).")
        })?;
        Ok(EntrezClient {
            config: self.config,
            transport: network.transport.as_ref(),
            pacer: network.pacer.as_ref(),
            platform: self.platform,
            api_key: self.effective_api_key().0,
            retry: RetryPolicy::default(),
            cache: self.cache(),
        })
    }

    /// The server's cache of upstream answers with this call's log, when the server has one.
    pub fn cache(&self) -> Option<(&ResponseCache, &CallLog)> {
        let cache = self.network?.cache.as_ref()?;
        Some((cache, &self.cache_log))
    }

    /// The API key to send to NCBI and where it came from (see [`RequestContext::api_key`]).
    pub fn effective_api_key(&self) -> (Option<&'a ApiKey>, KeySource) {
        self.request.api_key(self.config)
    }

    /// Whether this caller may spend the server's NCBI key.
    pub fn may_use_server_key(&self) -> bool {
        self.request.may_use_server_key(self.config)
    }
}

/// The error for an operation a tool does not have (the schema refuses it first; this is the tool's own guard).
pub fn unknown_operation<T>(tool: &str, named: &str, known: &[(&str, T)]) -> Error {
    let names: Vec<&str> = known.iter().map(|(n, _)| *n).collect();
    Error::new(
        ErrorKind::InvalidArguments,
        format!("{tool} has no operation \"{named}\"."),
    )
    .with_code("unknown_operation")
    .suggest(format!("Set operation to one of: {}.", names.join(", ")))
}
