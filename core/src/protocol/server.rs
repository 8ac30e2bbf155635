//! The dispatcher both edges call: one JSON-RPC message in, at most one out.
//!
//! Each request is served in the revision it declares (see [`Revision`]): a request with
//! `_meta["io.modelcontextprotocol/protocolVersion"]` statelessly, as 2026-07-28
//! prescribes (its result says `resultType`, who answered and, for lists, how
//! long it stays fresh); anything else as part of the handshake revision that
//! `initialize` opened. The tools, prompts and resources are the same in both.

use crate::caller::RequestContext;
use crate::config::Config;
use crate::error::Error;
use crate::framework::Registry;
use crate::framework::ToolContext;
use crate::json;
use crate::mcp::logging::{LogLevel, Logger};
use crate::mcp::meta::{Revision, SERVER_INFO};
use crate::mcp::progress;
use crate::mcp::progress::Notifier;
use crate::mcp::progress::Progress;
use crate::net::Network;
use crate::platform::Platform;
use crate::protocol::completion;
use crate::protocol::cursor;
use crate::protocol::initialize;
use crate::protocol::initialize::Offer;
use crate::protocol::jsonrpc;
use crate::protocol::jsonrpc::Incoming;
use crate::protocol::methods::{invalid_params, method_not_found};
use crate::protocol::prompts;
use crate::protocol::resources;
use crate::secret;
use crate::secret::ApiKey;
use crate::staging::Staging;
use crate::tasks::methods;
use serde_json::{Map, Value};

/// How long the lists that change only with a deployment stay fresh, in ms.
pub const STATIC_TTL_MS: u64 = 3_600_000;

/// Most sessions whose `logging/setLevel` is remembered; the oldest is forgotten first.
const MAX_SESSION_LEVELS: usize = 10_000;

/// Tools per `tools/list` page.
pub const DEFAULT_PAGE_SIZE: usize = 50;

/// Methods whose answers are this server's own words, never upstream text.
const STATIC_ANSWERS: &[&str] = &[
    "initialize",
    "server/discover",
    "ping",
    "tools/list",
    "prompts/list",
    "resources/templates/list",
];

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
    // logging/setLevel per session (handshake revision); the key "" is the stdio process.
    session_levels: std::sync::Mutex<Vec<(String, LogLevel)>>,
    // Whether the stdio process's client said at initialize that it renders MCP Apps views
    // (an HTTP session's id says it instead).
    local_views: std::sync::atomic::AtomicBool,
    // The MCP Apps view's HTML, where the edge keeps it.
    view: crate::apps::ViewSource,
}

impl Server {
    /// A server with the built-in tools.
    pub fn new(config: Config, platform: Box<dyn Platform>) -> Result<Server, String> {
        Ok(Server {
            config,
            // Tools that need a store appear once with_staging gives the server one.
            registry: Registry::available(crate::tools::CATALOG, false)?,
            platform,
            network: None,
            staging: None,
            page_size: DEFAULT_PAGE_SIZE,
            session_levels: std::sync::Mutex::new(Vec::new()),
            local_views: std::sync::atomic::AtomicBool::new(false),
            view: crate::apps::embedded,
        })
    }

    /// Where the MCP Apps view's HTML comes from, instead of the binary (the Worker's static
    /// assets). While the source has none, no client is offered the view.
    pub fn with_view(mut self, view: crate::apps::ViewSource) -> Server {
        self.view = view;
        self
    }

    /// Gives the server a way to reach NCBI; without one, upstream tools say so.
    pub fn with_network(mut self, network: Network) -> Server {
        self.network = Some(network);
        self
    }

    /// Gives the server a dataset store, which lists and enables `entrez_data`.
    pub fn with_staging(mut self, staging: Staging) -> Result<Server, String> {
        self.registry =
            std::mem::replace(&mut self.registry, Registry::empty(crate::tools::CATALOG))
                .with_store_tools()?;
        self.staging = Some(staging);
        Ok(self)
    }

    /// Changes the `tools/list` page size (at least 1).
    pub fn with_page_size(mut self, page_size: usize) -> Server {
        self.page_size = page_size.max(1);
        self
    }

    /// The outbound network, when the server has one.
    pub fn network(&self) -> Option<&Network> {
        self.network.as_ref()
    }

    /// One step of a staging the server continues by itself, or the run of a call made a
    /// task that runs in the background (`staging::scheduler`, `tasks::calls`), for the edge's scheduler,
    /// with no request behind it.
    pub async fn run_step(&self, id: &str) -> Result<crate::tasks::Step, Error> {
        use crate::tasks::Step;
        let (Some(network), Some(staging)) = (&self.network, &self.staging) else {
            return Ok(Step::NothingToDo);
        };
        let parts = crate::tasks::staging_step::Parts {
            config: &self.config,
            network,
            platform: self.platform.as_ref(),
            staging,
            registry: &self.registry,
        };
        if let Some(step) = crate::tasks::staging_step::step(parts, id).await? {
            return Ok(step);
        }
        // No dataset: a call run in the background, if one is kept under the id. Nobody's request: an anonymous one over HTTP, which spends no key of the server's
        // unless anonymous callers may (and a call run in the background spends none).
        let nobody = RequestContext {
            channel: crate::caller::Channel::Http,
            ..Default::default()
        };
        crate::tasks::calls::run_step(&self.context(&nobody, None), id).await
    }

    /// The platform the server was built with.
    pub fn platform(&self) -> &dyn Platform {
        self.platform.as_ref()
    }

    /// Whether `method` is one this server answers in `revision` (notifications excluded).
    pub fn knows_method(method: &str, revision: &Revision) -> bool {
        crate::protocol::methods::knows(method, revision)
    }

    /// Whether `method` exists only in the stateless revision
    /// ([`crate::protocol::methods::stateless_only`]).
    pub fn stateless_only(method: &str) -> bool {
        crate::protocol::methods::stateless_only(method)
    }

    /// Whether a request may raise notifications (progress or log messages) worth
    /// answering with a stream: a tool call that asked for progress or logs.
    pub fn wants_notifications(
        &self,
        method: &str,
        params: &Map<String, Value>,
        request: &RequestContext,
    ) -> bool {
        method == "tools/call"
            && (progress::token(params).is_some()
                || Revision::of(params)
                    .is_ok_and(|revision| self.log_threshold(&revision, request).is_some()))
    }

    /// What the server offers, as `initialize` and `server/discover` announce it.
    pub fn offer(&self) -> Offer {
        Offer {
            staging: self.staging.is_some(),
            validation: self.registry.validation(),
            tasks: self.network.is_some()
                && self.staging.as_ref().is_some_and(|s| s.scheduler.is_some()),
        }
    }

    /// The level from which a request's log messages are sent, if at all: its own
    /// (stateless) or its session's (handshake).
    fn log_threshold(&self, revision: &Revision, request: &RequestContext) -> Option<LogLevel> {
        match revision {
            Revision::Stateless(s) => s.log_level,
            Revision::Handshake => {
                let key = request.session_id.as_deref().unwrap_or("");
                let levels = self.session_levels.lock().ok()?;
                levels.iter().rev().find(|(k, _)| k == key).map(|(_, l)| *l)
            }
        }
    }

    /// Whether the client renders MCP Apps views: a stateless request's own capabilities say
    /// so, or what its session's client declared at `initialize` (HTTP: the session id;
    /// stdio: this process's client).
    fn renders_views(
        &self,
        revision: &Revision,
        params: &Map<String, Value>,
        request: &RequestContext,
    ) -> bool {
        use std::sync::atomic::Ordering;
        if (self.view)().is_none() {
            return false;
        }
        match revision {
            Revision::Stateless(_) => crate::apps::client_renders_views(
                params
                    .get("_meta")
                    .and_then(|m| m.get(crate::mcp::meta::CLIENT_CAPABILITIES)),
            ),
            Revision::Handshake => {
                request.renders_views
                    || (request.channel == crate::caller::Channel::Local
                        && request.session_id.is_none()
                        && self.local_views.load(Ordering::Relaxed))
            }
        }
    }

    fn set_session_level(&self, request: &RequestContext, level: LogLevel) {
        let key = request.session_id.clone().unwrap_or_default();
        if let Ok(mut levels) = self.session_levels.lock() {
            levels.retain(|(k, _)| *k != key);
            if levels.len() >= MAX_SESSION_LEVELS {
                levels.remove(0);
            }
            levels.push((key, level));
        }
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
                let outcome = match Revision::of(&params) {
                    Err(e) => Err(e),
                    Ok(revision) => {
                        let request = &RequestContext {
                            stateless: revision.stateless().is_some(),
                            session_id: match revision {
                                Revision::Handshake => request.session_id.clone(),
                                Revision::Stateless(_) => None,
                            },
                            ..request.clone()
                        };
                        match self
                            .dispatch(&revision, &method, params, request, notifier)
                            .await
                        {
                            Ok(result) => Ok(self.finish(&revision, &method, result)),
                            Err(e) if revision.stateless().is_some() => {
                                Err(e.for_stateless_revision())
                            }
                            Err(e) => Err(e),
                        }
                    }
                };
                let mut reply = match outcome {
                    Ok(result) => jsonrpc::success(id, result),
                    Err(e) => jsonrpc::failure(id, &e),
                };
                // Upstream words may quote a key: none leaves, whatever path it took. The
                // answers made of this server's own words alone (the tool list, the
                // handshake) hold none, and are long: they are not searched.
                if !STATIC_ANSWERS.contains(&method.as_str()) {
                    let keys: Vec<&ApiKey> = [
                        self.config.api_key.as_ref(),
                        request.caller_api_key.as_ref(),
                    ]
                    .into_iter()
                    .flatten()
                    .collect();
                    secret::scrub(&mut reply, &keys);
                }
                Some(reply)
            }
            // notifications/initialized, cancelled, progress: nothing to answer.
            Incoming::Notification { .. } | Incoming::Response => None,
        }
    }

    async fn dispatch(
        &self,
        revision: &Revision,
        method: &str,
        params: Map<String, Value>,
        request: &RequestContext,
        notifier: Option<&dyn Notifier>,
    ) -> Result<Value, Error> {
        if *revision == Revision::Handshake && Self::stateless_only(method) {
            return Err(crate::mcp::meta::missing(method));
        }
        if !Self::knows_method(method, revision) {
            return Err(method_not_found(method, revision));
        }
        let staging = self.staging.is_some();
        match method {
            "initialize" => {
                let version = match params.get("protocolVersion") {
                    Some(Value::String(v)) => v.as_str(),
                    _ => return Err(invalid_params(
                        "initialize needs params.protocolVersion as a string, e.g. \"2025-11-25\".",
                    )),
                };
                if request.channel == crate::caller::Channel::Local && request.session_id.is_none()
                {
                    let views = crate::apps::client_renders_views(params.get("capabilities"));
                    self.local_views
                        .store(views, std::sync::atomic::Ordering::Relaxed);
                }
                Ok(initialize::result(
                    Some(version),
                    self.offer(),
                    &self.config.website_url,
                ))
            }
            "server/discover" => Ok(initialize::discover(self.offer())),
            "ping" => Ok(json!({})),
            "logging/setLevel" => {
                let level = params
                    .get("level")
                    .and_then(Value::as_str)
                    .and_then(LogLevel::parse)
                    .ok_or_else(|| {
                        invalid_params(&format!(
                            "logging/setLevel needs params.level, one of {}.",
                            LogLevel::NAMES.join(", ")
                        ))
                    })?;
                self.set_session_level(request, level);
                Ok(json!({}))
            }
            "tools/list" => self.list_tools(
                revision,
                params.get("cursor"),
                self.renders_views(revision, &params, request),
            ),
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
                // A server without tasks processes a call that asks for one as any other.
                let runs_as_task = methods::TASK_TOOLS.contains(&name);
                let ask = match methods::Ask::of(revision, &params) {
                    _ if !self.offer().tasks => methods::Ask::No,
                    methods::Ask::Handshake if !runs_as_task => {
                        return Err(methods::refused_tool(name))
                    }
                    methods::Ask::Extension if !runs_as_task => methods::Ask::No,
                    ask => ask,
                };
                let mut ctx = self.context(request, progress);
                ctx.task = ask != methods::Ask::No;
                let started = self.platform.now_unix_ms();
                // A call held as a task runs again later with the arguments it came with.
                let kept = (ask != methods::Ask::No).then(|| arguments.clone());
                let result = self.registry.call(&ctx, name, arguments).await?;
                let result = match (ask, kept) {
                    (methods::Ask::No, _) | (_, None) => result,
                    // Boxed: kept out of every other call's state machine.
                    (ask, Some(arguments)) => {
                        Box::pin(methods::answer_call(&ctx, ask, (name, arguments), result)).await?
                    }
                };
                if let (Some(level), Some(n)) = (self.log_threshold(revision, request), notifier) {
                    let elapsed = self.platform.now_unix_ms().saturating_sub(started);
                    Logger::new(n, level).tool_call(name, &result, elapsed);
                }
                Ok(result)
            }
            "tasks/get" | "tasks/result" | "tasks/list" | "tasks/cancel" | "tasks/update" => {
                if !self.offer().tasks {
                    return Err(method_not_found(method, revision));
                }
                Box::pin(methods::serve(
                    &self.context(request, None),
                    revision,
                    method,
                    &params,
                ))
                .await
            }
            "prompts/list" => Ok(prompts::list(staging)),
            "prompts/get" => match params.get("name") {
                Some(Value::String(name)) => prompts::get(name, params.get("arguments"), staging),
                _ => Err(invalid_params("prompts/get needs params.name as a string.")),
            },
            "completion/complete" => {
                completion::complete(&self.context(request, None), &params).await
            }
            "resources/list" | "resources/templates/list" | "resources/read" if !staging => {
                Err(method_not_found(method, revision))
            }
            "resources/list" => {
                let mut listed = resources::list(&self.context(request, None)).await?;
                // The view, for the clients that render it (others find it only by reading).
                if self.renders_views(revision, &params, request) {
                    if let Some(all) = listed["resources"].as_array_mut() {
                        all.insert(0, crate::apps::listed());
                    }
                }
                Ok(listed)
            }
            "resources/templates/list" => Ok(resources::templates(&self.context(request, None))),
            "resources/read" => {
                let uri = match params.get("uri") {
                    Some(Value::String(u)) => u.as_str(),
                    _ => {
                        return Err(invalid_params(
                            "resources/read needs params.uri as a string.",
                        ))
                    }
                };
                if uri == crate::apps::VIEW_URI {
                    if let Some(html) = (self.view)() {
                        return Ok(crate::apps::read(html));
                    }
                }
                resources::read(&self.context(request, None), uri).await
            }
            other => Err(method_not_found(other, revision)),
        }
    }

    /// A stateless result's common fields: `resultType`, who answered, and for the
    /// cacheable methods how long it stays fresh and for whom.
    fn finish(&self, revision: &Revision, method: &str, mut result: Value) -> Value {
        if revision.stateless().is_none() {
            return result;
        }
        // A call answered with a task says so itself.
        if result.get("resultType").is_none() {
            result["resultType"] = json!("complete");
        }
        if !result.get("_meta").is_some_and(Value::is_object) {
            json::set(&mut result, "_meta", json!({}));
        }
        result["_meta"][SERVER_INFO] = initialize::server_info(&self.config.website_url);
        let cache = match method {
            "server/discover" | "tools/list" | "prompts/list" | "resources/templates/list" => {
                Some((STATIC_TTL_MS, "public"))
            }
            // The caller's own datasets: they change with every staging, and are theirs.
            "resources/list" | "resources/read" => Some((0, "private")),
            _ => None,
        };
        if let Some((ttl, scope)) = cache {
            result["ttlMs"] = json!(ttl);
            result["cacheScope"] = json!(scope);
        }
        result
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
            cache_log: Default::default(),
            task: false,
            resume: None,
        }
    }

    fn list_tools(
        &self,
        revision: &Revision,
        cursor: Option<&Value>,
        views: bool,
    ) -> Result<Value, Error> {
        // The view's own tool only for clients that render views, whose hosts keep it from
        // the model; every other client's list is what it was.
        let all: Vec<_> = self
            .registry
            .tools()
            .iter()
            .filter(|t| views || !crate::apps::app_only(t.spec.name))
            .collect();
        let start = match cursor {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => cursor::decode(c, all.len())?,
            Some(_) => return Err(invalid_params("cursor must be a string.")),
        };
        let end = (start + self.page_size).min(all.len());
        // 2025-11-25's tasks are per tool; 2026-07-28's extension decides per call.
        let tasks = *revision == Revision::Handshake && self.offer().tasks;
        let tools: Vec<Value> = all[start..end]
            .iter()
            .map(|t| {
                let mut d = self.registry.descriptor(t);
                if tasks && methods::TASK_TOOLS.contains(&t.spec.name) {
                    d["execution"] = json!({ "taskSupport": "optional" });
                }
                let app_only = crate::apps::app_only(t.spec.name);
                if views && (app_only || crate::apps::LINKED_TOOLS.contains(&t.spec.name)) {
                    d["_meta"] = crate::apps::tool_meta(app_only);
                }
                d
            })
            .collect();
        let mut result = Value::Object(serde_json::Map::from_iter([(
            "tools".to_string(),
            Value::Array(tools),
        )]));
        if end < all.len() {
            result["nextCursor"] = json!(cursor::encode(end));
        }
        Ok(result)
    }
}
