//! Tools: the registry table, the per-call context and one file per tool.

pub mod api_key_status;
pub mod arguments;
pub mod canonical;
pub mod capabilities;
pub mod content;
pub mod describe;
pub mod entrez_data;
pub mod entrez_external;
pub mod entrez_query;
pub mod intake;
pub mod output;
pub mod registry;
pub mod spec;
pub mod tool_info;
pub mod validate;

use crate::config::Config;
use crate::entrez::retry::RetryPolicy;
use crate::entrez::EntrezClient;
use crate::error::{Error, ErrorKind};
use crate::net::Network;
use crate::platform::Platform;
use crate::protocol::progress::Progress;
use crate::secret::ApiKey;

pub use output::{TextForm, ToolOutput};
pub use registry::Registry;
pub use spec::{ToolAnnotations, ToolSpec};

/// Facts about the request a tool call arrived in.
#[derive(Debug, Clone, Default)]
pub struct RequestContext {
    /// A key the caller sent in `X-NCBI-API-Key`; preferred over the server's own.
    pub caller_api_key: Option<ApiKey>,
    /// The MCP session the request belongs to, when the transport has sessions.
    pub session_id: Option<String>,
    /// The transport it came over: shared (HTTP) or one local user's (stdio, in-process).
    pub transport: Transport,
    /// Whether it is a self-contained 2026-07-28 request rather than part of a session.
    pub stateless: bool,
    /// The authenticated caller, when the deployment authenticates and a token was given.
    pub principal: Option<crate::auth::Principal>,
    /// The caller's network address (HTTP), which limits anonymous callers.
    pub client_ip: Option<String>,
}

/// Who can be on the other end of a transport.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Transport {
    /// One local user: stdio, or the server called in-process.
    #[default]
    Local,
    /// Anyone who can reach the endpoint: Streamable HTTP.
    Http,
}

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
}

/// Where the effective NCBI API key comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeySource {
    /// The caller's `X-NCBI-API-Key` header.
    CallerHeader,
    /// The server's `NCBI_API_KEY` secret or environment variable.
    ServerSecret,
    /// No key: NCBI's anonymous limit applies.
    None,
}

impl KeySource {
    /// The stable name used in results.
    pub fn as_str(self) -> &'static str {
        match self {
            KeySource::CallerHeader => "caller_header",
            KeySource::ServerSecret => "server_secret",
            KeySource::None => "none",
        }
    }
}

impl<'a> ToolContext<'a> {
    /// An E-utilities client for this caller, or an error if the server has no network.
    pub fn entrez(&self) -> Result<EntrezClient<'a>, Error> {
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
        })
    }

    /// The API key to send to NCBI and where it came from; the caller's key wins. The server's
    /// own key serves authenticated callers and local use, and anonymous HTTP callers only
    /// where the operator allows it (`ENTREZ_ANONYMOUS_USE_SERVER_KEY`).
    pub fn effective_api_key(&self) -> (Option<&'a ApiKey>, KeySource) {
        if let Some(k) = &self.request.caller_api_key {
            (Some(k), KeySource::CallerHeader)
        } else if let Some(k) = self
            .config
            .api_key
            .as_ref()
            .filter(|_| self.may_use_server_key())
        {
            (Some(k), KeySource::ServerSecret)
        } else {
            (None, KeySource::None)
        }
    }

    /// Whether this caller may spend the server's NCBI key.
    pub fn may_use_server_key(&self) -> bool {
        self.request.principal.is_some()
            || self.request.transport == Transport::Local
            || self.config.auth.anonymous_use_server_key
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
