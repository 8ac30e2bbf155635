//! The dispatcher both edges call: one JSON-RPC message in, at most one out.

use super::jsonrpc::{self, Incoming};
use super::progress::{self, Notifier, Progress};
use super::{cursor, initialize, resources};
use crate::config::Config;
use crate::error::{Error, ErrorKind};
use crate::net::Network;
use crate::platform::Platform;
use crate::secret::{self, ApiKey};
use crate::staging::Staging;
use crate::tools::{Registry, RequestContext, ToolContext};
use serde_json::{json, Map, Value};

/// Methods this server answers; anything else is -32601.
pub const METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
];

/// Tools per `tools/list` page.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// The MCP server: configuration, tools and platform, shared by every request.
pub struct Server {
    /// Server configuration.
    pub config: Config,
    /// All tools.
    pub registry: Registry,
    platform: Box<dyn Platform>,
    network: Option<Network>,
    staging: Option<Staging>,
    page_size: usize,
}

impl Server {
    /// A server with the built-in tools.
    pub fn new(config: Config, platform: Box<dyn Platform>) -> Result<Server, String> {
        Ok(Server {
            config,
            // Tools that need a store appear once with_staging gives the server one.
            registry: Registry::available(false)?,
            platform,
            network: None,
            staging: None,
            page_size: DEFAULT_PAGE_SIZE,
        })
    }

    /// Gives the server a way to reach NCBI; without one, upstream tools say so.
    pub fn with_network(mut self, network: Network) -> Server {
        self.network = Some(network);
        self
    }

    /// Gives the server a dataset store, which lists and enables `entrez_data`.
    pub fn with_staging(mut self, staging: Staging) -> Result<Server, String> {
        self.registry = Registry::available(true)?;
        self.staging = Some(staging);
        Ok(self)
    }

    /// Changes the `tools/list` page size (at least 1).
    pub fn with_page_size(mut self, page_size: usize) -> Server {
        self.page_size = page_size.max(1);
        self
    }

    /// The platform the server was built with.
    pub fn platform(&self) -> &dyn Platform {
        self.platform.as_ref()
    }

    /// Whether `method` is one this server answers (notifications excluded).
    pub fn knows_method(method: &str) -> bool {
        METHODS.contains(&method)
    }

    /// Handles raw bytes (one stdio line): framing errors are answered too.
    pub async fn handle_bytes(&self, bytes: &[u8], request: &RequestContext) -> Option<Value> {
        match jsonrpc::parse_message(bytes) {
            Ok(message) => self.handle(message, request).await,
            Err(e) => Some(jsonrpc::failure(e.id, &e.error)),
        }
    }

    /// Like [`Server::handle_bytes`], with a channel for notifications sent during the call.
    pub async fn handle_bytes_notifying(
        &self,
        bytes: &[u8],
        request: &RequestContext,
        notifier: &dyn Notifier,
    ) -> Option<Value> {
        match jsonrpc::parse_message(bytes) {
            Ok(message) => {
                self.handle_notifying(message, request, Some(notifier))
                    .await
            }
            Err(e) => Some(jsonrpc::failure(e.id, &e.error)),
        }
    }

    /// Handles one classified message; `None` for notifications and responses.
    pub async fn handle(&self, message: Incoming, request: &RequestContext) -> Option<Value> {
        self.handle_notifying(message, request, None).await
    }

    /// Like [`Server::handle`], with a channel for notifications (progress) sent during the call.
    pub async fn handle_notifying(
        &self,
        message: Incoming,
        request: &RequestContext,
        notifier: Option<&dyn Notifier>,
    ) -> Option<Value> {
        match message {
            Incoming::Request { id, method, params } => {
                let mut reply = match self.dispatch(&method, params, request, notifier).await {
                    Ok(result) => jsonrpc::success(id, result),
                    Err(e) => jsonrpc::failure(id, &e),
                };
                // Upstream words may quote a key: none leaves, whatever path it took.
                let keys: Vec<&ApiKey> = [
                    self.config.api_key.as_ref(),
                    request.caller_api_key.as_ref(),
                ]
                .into_iter()
                .flatten()
                .collect();
                secret::scrub(&mut reply, &keys);
                Some(reply)
            }
            // notifications/initialized, cancelled, progress: nothing to answer.
            Incoming::Notification { .. } | Incoming::Response => None,
        }
    }

    async fn dispatch(
        &self,
        method: &str,
        params: Map<String, Value>,
        request: &RequestContext,
        notifier: Option<&dyn Notifier>,
    ) -> Result<Value, Error> {
        match method {
            "initialize" => {
                let version = match params.get("protocolVersion") {
                    Some(Value::String(v)) => v.as_str(),
                    _ => return Err(invalid_params(
                        "initialize needs params.protocolVersion as a string, e.g. \"2025-11-25\".",
                    )),
                };
                let mut result =
                    initialize::result(Some(version), self.experimental_capabilities());
                // Dataset schemas are resources only where there are datasets.
                if self.staging.is_some() {
                    result["capabilities"]["resources"] = resources::capability();
                }
                Ok(result)
            }
            "ping" => Ok(json!({})),
            "tools/list" => self.list_tools(params.get("cursor")),
            "tools/call" => {
                let name = match params.get("name") {
                    Some(Value::String(n)) => n.as_str(),
                    _ => return Err(invalid_params("tools/call needs params.name as a string.")),
                };
                let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
                let progress = match (progress::token(&params), notifier) {
                    (Some(token), Some(n)) => Some(Progress::new(token, n)),
                    _ => None,
                };
                let ctx = self.context(request, progress);
                self.registry.call(&ctx, name, arguments).await
            }
            "resources/list" | "resources/templates/list" | "resources/read"
                if self.staging.is_none() =>
            {
                Err(method_not_found(method))
            }
            "resources/list" => resources::list(&self.context(request, None)).await,
            "resources/templates/list" => Ok(resources::templates()),
            "resources/read" => {
                let uri = match params.get("uri") {
                    Some(Value::String(u)) => u.as_str(),
                    _ => {
                        return Err(invalid_params(
                            "resources/read needs params.uri as a string.",
                        ))
                    }
                };
                resources::read(&self.context(request, None), uri).await
            }
            other => Err(method_not_found(other)),
        }
    }

    fn context<'a>(
        &'a self,
        request: &'a RequestContext,
        progress: Option<Progress<'a>>,
    ) -> ToolContext<'a> {
        ToolContext {
            progress,
            config: &self.config,
            registry: &self.registry,
            request,
            platform: self.platform.as_ref(),
            network: self.network.as_ref(),
            staging: self.staging.as_ref(),
        }
    }

    fn list_tools(&self, cursor: Option<&Value>) -> Result<Value, Error> {
        let all = self.registry.tools();
        let start = match cursor {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => cursor::decode(c, all.len())?,
            Some(_) => return Err(invalid_params("cursor must be a string.")),
        };
        let end = (start + self.page_size).min(all.len());
        let tools: Vec<Value> = all[start..end]
            .iter()
            .map(|t| self.registry.descriptor(t))
            .collect();
        let mut result = json!({ "tools": tools });
        if end < all.len() {
            result["nextCursor"] = json!(cursor::encode(end));
        }
        Ok(result)
    }

    /// `capabilities.experimental`; announces only what the registered tools back.
    fn experimental_capabilities(&self) -> Option<Value> {
        self.registry
            .get(crate::tools::validate::SPEC.name)
            .map(|_| json!({ "toolValidation": crate::tools::validate::capability() }))
    }
}

fn invalid_params(message: &str) -> Error {
    Error::new(ErrorKind::InvalidParams, message.to_string())
}

fn method_not_found(method: &str) -> Error {
    let mut e = Error::new(
        ErrorKind::MethodNotFound,
        format!("Method not found: {method}"),
    )
    .suggest(format!("This server answers: {}.", METHODS.join(", ")));
    if method == "server/discover" {
        e = e.suggest("Discovery is not offered; start the session with initialize (protocol 2025-11-25, 2025-06-18 or 2025-03-26).");
    }
    e
}
