//! Who is calling: the facts about the request a tool call arrived in.
//!
//! The HTTP endpoint and stdio fill a [`RequestContext`] (the session, the
//! caller's own NCBI key, the authenticated identity, the address); staging
//! decides from it who owns a dataset and whose account pays, and the tools
//! which NCBI key a request spends ([`RequestContext::api_key`]).

use crate::config::Config;
use crate::secret::ApiKey;

/// The request header a caller may use to bring their own NCBI key.
pub const CALLER_KEY_HEADER: &str = "X-NCBI-API-Key";

/// Facts about the request a tool call arrived in.
#[derive(Debug, Clone, Default)]
pub struct RequestContext {
    /// A key the caller sent in `X-NCBI-API-Key`; preferred over the server's own.
    pub caller_api_key: Option<ApiKey>,
    /// The MCP session the request belongs to, when the transport has sessions.
    pub session_id: Option<String>,
    /// The channel it came over: shared (HTTP) or one local user's (stdio, in-process).
    pub channel: Channel,
    /// Whether it is a self-contained 2026-07-28 request rather than part of a session.
    pub stateless: bool,
    /// The authenticated caller, when the deployment authenticates and a token was given.
    pub principal: Option<crate::auth::Principal>,
    /// The caller's network address (HTTP), which limits anonymous callers.
    pub client_ip: Option<String>,
    /// Whether the client declared at `initialize` that it renders MCP Apps views (its
    /// session remembers it); a 2026-07-28 request says so in its own `_meta`.
    pub renders_views: bool,
}

/// Who can be on the other end of the channel a request came over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Channel {
    /// One local user: stdio, or the server called in-process.
    #[default]
    Local,
    /// Anyone who can reach the endpoint: Streamable HTTP.
    Http,
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

impl RequestContext {
    /// The API key to send to NCBI and where it came from; the caller's key wins. The server's
    /// own key serves authenticated callers and local use, and anonymous HTTP callers only
    /// where the operator allows it (`ENTREZ_ANONYMOUS_USE_SERVER_KEY`).
    pub fn api_key<'c>(&'c self, config: &'c Config) -> (Option<&'c ApiKey>, KeySource) {
        if let Some(k) = &self.caller_api_key {
            (Some(k), KeySource::CallerHeader)
        } else if let Some(k) = config
            .api_key
            .as_ref()
            .filter(|_| self.may_use_server_key(config))
        {
            (Some(k), KeySource::ServerSecret)
        } else {
            (None, KeySource::None)
        }
    }

    /// Whether this caller may spend the server's NCBI key.
    pub fn may_use_server_key(&self, config: &Config) -> bool {
        self.principal.is_some()
            || self.channel == Channel::Local
            || config.auth.anonymous_use_server_key
    }
}
