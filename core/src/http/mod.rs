//! Streamable HTTP, as pure data: an [`HttpRequest`] in, an [`HttpResponse`] out.
//!
//! Both edges convert their native request into [`HttpRequest`], call
//! [`Endpoint::handle`] and write the [`HttpResponse`] back. Every status code,
//! header rule and session decision lives here, so the Worker and the native
//! server answer the same request the same way.

mod access;
pub mod guard;
mod revision;
pub mod routing_headers;
pub mod session;
pub mod stream;

use crate::caller::RequestContext;
use crate::caller::CALLER_KEY_HEADER;
use crate::error::{Error, ErrorKind};
use crate::json;
use crate::mcp::meta::Revision;
use crate::mcp::progress::Notifier;
use crate::mcp::version;
use crate::protocol::jsonrpc;
use crate::protocol::jsonrpc::Incoming;
use crate::protocol::Server;
use revision::{caller_context, request_id, revision_error, stateless_header};
use serde_json::Value;
pub use session::{SessionState, Sessions};

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";
/// Largest request body accepted, in bytes.
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;
/// The session header (HTTP header names are case-insensitive).
pub const SESSION_HEADER: &str = "Mcp-Session-Id";
/// The protocol version header.
pub const VERSION_HEADER: &str = "Mcp-Protocol-Version";

/// An HTTP request reduced to what MCP needs.
#[derive(Debug, Clone, Default)]
pub struct HttpRequest {
    /// Upper-case method, e.g. `POST`.
    pub method: String,
    /// The path without query string.
    pub path: String,
    /// Headers as received.
    pub headers: Vec<(String, String)>,
    /// The raw body.
    pub body: Vec<u8>,
    /// The caller's address as the edge knows it (the socket's peer natively,
    /// `CF-Connecting-IP` on Workers); limits anonymous callers.
    pub client_ip: Option<String>,
}

impl HttpRequest {
    /// The first header named `name`, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::net::header(&self.headers, name)
    }
}

/// An HTTP response for the edge to write out.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Headers to send.
    pub headers: Vec<(String, String)>,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl HttpResponse {
    fn json(status: u16, body: &Value) -> HttpResponse {
        HttpResponse {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body: serde_json::to_vec(body).unwrap_or_default(),
        }
    }

    fn empty(status: u16) -> HttpResponse {
        HttpResponse {
            status,
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    fn rpc_error(status: u16, id: Value, error: Error) -> HttpResponse {
        HttpResponse::json(status, &jsonrpc::failure(id, &error))
    }

    /// The first header named `name`, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::net::header(&self.headers, name)
    }

    /// The body parsed as JSON, or `Null`.
    pub fn json_body(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// The MCP endpoint: a server plus the session policy and the authentication of the edge.
pub struct Endpoint {
    /// The dispatcher.
    pub server: Server,
    /// Session issuing and checking.
    pub sessions: Sessions,
    /// Who may call (open unless the edge configures a mode).
    pub auth: crate::auth::Authenticator,
}

fn http_error(kind: ErrorKind, code: &str, message: impl Into<String>) -> Error {
    Error::new(kind, message).with_code(code)
}

impl Endpoint {
    /// Wraps a server with a session policy.
    pub fn new(server: Server, sessions: Sessions) -> Endpoint {
        Endpoint {
            server,
            sessions,
            auth: crate::auth::Authenticator::open(),
        }
    }

    /// The same endpoint, authenticating callers with `auth`.
    pub fn with_auth(mut self, auth: crate::auth::Authenticator) -> Endpoint {
        self.auth = auth;
        self
    }

    /// Handles one HTTP request, answering with one JSON body.
    pub async fn handle(&self, req: HttpRequest) -> HttpResponse {
        self.handle_notifying(req, None).await
    }

    /// Whether the edge should be ready to answer `req` with an SSE stream: a tools/call
    /// that asks for progress or log messages, from a client that accepts `text/event-stream`.
    pub fn wants_stream(&self, req: &HttpRequest) -> bool {
        let accepts = req
            .header("Accept")
            .is_some_and(|a| a.to_ascii_lowercase().contains("text/event-stream"));
        if req.method != "POST" || req.path != MCP_PATH || !accepts {
            return false;
        }
        match jsonrpc::parse_message(&req.body) {
            Ok(Incoming::Request { method, params, .. }) => {
                self.server
                    .wants_notifications(&method, &params, &caller_context(req))
            }
            _ => false,
        }
    }

    /// Handles one HTTP request, passing notifications raised during it to `notifier`.
    ///
    /// Notifications are only ever raised after every header and session check
    /// has passed, so an edge that starts an SSE stream on the first
    /// notification never has to change a status it already sent.
    pub async fn handle_notifying(
        &self,
        req: HttpRequest,
        notifier: Option<&dyn Notifier>,
    ) -> HttpResponse {
        let config = &self.server.config;
        if !guard::host_allowed(req.header("Host"), &config.allowed_hosts) {
            return HttpResponse::rpc_error(
                403,
                Value::Null,
                http_error(
                    ErrorKind::InvalidRequest,
                    "forbidden_host",
                    "Forbidden: Host header is not allowed (DNS rebinding protection).",
                )
                .suggest("Connect through an allowed host name, or add this one to ALLOWED_HOSTS."),
            );
        }
        let origin = req.header("Origin").map(str::to_string);
        if !guard::origin_allowed(origin.as_deref(), &config.allowed_origins) {
            return HttpResponse::rpc_error(
                403,
                Value::Null,
                http_error(ErrorKind::InvalidRequest, "forbidden_origin", "Forbidden: Origin is not allowed.")
                    .suggest("Add this origin to ALLOWED_ORIGINS (comma-separated) if it should reach the server."),
            );
        }
        if let Some(r) = access::metadata(&self.auth, &req) {
            return r;
        }
        // Every request to the endpoint that does something names its caller first.
        let principal = match (req.path.as_str(), req.method.as_str()) {
            (MCP_PATH, "POST" | "DELETE") => {
                match access::caller(&self.auth, &self.server, &req).await {
                    Ok(p) => p,
                    Err(mut refused) => {
                        cors(&mut refused, origin);
                        return refused;
                    }
                }
            }
            _ => None,
        };
        let mut response = match (req.path.as_str(), req.method.as_str()) {
            (MCP_PATH, "POST") => self.post(&req, principal, notifier).await,
            (MCP_PATH, "DELETE") => self.delete(&req, principal),
            (MCP_PATH, "OPTIONS") => preflight(),
            (MCP_PATH, _) => {
                let mut r = HttpResponse::rpc_error(
                    405,
                    Value::Null,
                    http_error(ErrorKind::InvalidRequest, "method_not_allowed", format!("Method Not Allowed: {} {MCP_PATH}; this server offers no SSE stream, use POST.", req.method)),
                );
                r.headers
                    .push(("Allow".into(), "POST, DELETE, OPTIONS".into()));
                r
            }
            ("/", "GET") => HttpResponse::json(
                200,
                &json!({
                    "name": crate::SERVER_NAME,
                    "version": crate::SERVER_VERSION,
                    "mcp_endpoint": MCP_PATH,
                    "protocol_versions": version::SUPPORTED_VERSIONS,
                }),
            ),
            _ => HttpResponse::json(
                404,
                &json!({ "error": "Not found: the MCP endpoint is /mcp" }),
            ),
        };
        cors(&mut response, origin);
        response
    }

    async fn post(
        &self,
        req: &HttpRequest,
        principal: Option<crate::auth::Principal>,
        notifier: Option<&dyn Notifier>,
    ) -> HttpResponse {
        let content_type = req
            .header("Content-Type")
            .unwrap_or("")
            .to_ascii_lowercase();
        if !content_type.starts_with("application/json") {
            return HttpResponse::rpc_error(
                415,
                Value::Null,
                http_error(ErrorKind::InvalidRequest, "unsupported_media_type", "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json."),
            );
        }
        if let Some(accept) = req.header("Accept") {
            let a = accept.to_ascii_lowercase();
            if ![
                "application/json",
                "text/event-stream",
                "*/*",
                "application/*",
            ]
            .iter()
            .any(|t| a.contains(t))
            {
                return HttpResponse::rpc_error(
                    406,
                    Value::Null,
                    http_error(ErrorKind::InvalidRequest, "not_acceptable", "Not Acceptable: the client must accept application/json and text/event-stream."),
                );
            }
        }
        if req.body.len() > MAX_BODY_BYTES {
            return HttpResponse::rpc_error(
                413,
                Value::Null,
                http_error(
                    ErrorKind::InvalidRequest,
                    "body_too_large",
                    format!("Request body exceeds {MAX_BODY_BYTES} bytes."),
                ),
            );
        }
        let message = match jsonrpc::parse_message(&req.body) {
            Ok(m) => m,
            Err(e) => return HttpResponse::rpc_error(400, e.id, *e.error),
        };
        let context = RequestContext {
            principal,
            ..caller_context(req)
        };
        if let Incoming::Request { method, params, .. } = &message {
            if let Err(refused) =
                access::scope_check(&self.auth, context.principal.as_ref(), method, params)
            {
                return refused;
            }
        }
        let principal_key = principal_key(&context);
        match &message {
            Incoming::Request { method, params, .. } => match Revision::of(params) {
                // A malformed or unsupported stateless request: the specification's 400s.
                Err(e) => return revision_error(req, &message, e),
                Ok(Revision::Stateless(s)) => {
                    if let Err(e) = routing_headers::check(req, &s.version, method, params) {
                        return HttpResponse::rpc_error(400, request_id(&message), e);
                    }
                    let revision = Revision::Stateless(s);
                    if !Server::knows_method(method, &revision) {
                        let mut r = self.answer(message, &context, None).await;
                        r.status = 404;
                        return r;
                    }
                    // No session in this revision: an Mcp-Session-Id header is ignored.
                    let context = RequestContext {
                        session_id: None,
                        ..context
                    };
                    return self.answer(message, &context, notifier).await;
                }
                Ok(Revision::Handshake) => {
                    if method == "initialize" {
                        return self.initialize(message, context).await;
                    }
                    if Server::stateless_only(method) {
                        let e = crate::mcp::meta::missing(method);
                        return HttpResponse::rpc_error(400, request_id(&message), e);
                    }
                    // Unknown methods do nothing, so answer them before session rules.
                    if !Server::knows_method(method, &Revision::Handshake) {
                        return self.answer(message, &context, None).await;
                    }
                }
            },
            // The stateless revision has no client notifications over HTTP; accept and ignore them.
            Incoming::Notification { .. } if stateless_header(req) => {
                return HttpResponse::empty(202)
            }
            _ => {}
        }
        if let Some(v) = req.header(VERSION_HEADER) {
            let v = v.trim();
            if version::is_modern(v) {
                // The header speaks 2026-07-28 but the body carries no _meta version.
                return HttpResponse::rpc_error(
                    400,
                    request_id(&message),
                    Error::new(
                        ErrorKind::InvalidParams,
                        format!("Bad Request: a {v} request needs params._meta[\"{}\"] (and its clientCapabilities).", crate::mcp::meta::PROTOCOL_VERSION),
                    )
                    .with_code("invalid_request_meta"),
                );
            }
            if !version::is_legacy(v) {
                return HttpResponse::rpc_error(
                    400,
                    request_id(&message),
                    crate::mcp::meta::unsupported(v),
                );
            }
        }
        let views = match context.session_id.as_deref() {
            None => {
                return HttpResponse::rpc_error(
                    400,
                    Value::Null,
                    http_error(ErrorKind::InvalidRequest, "missing_session", "Bad Request: Mcp-Session-Id header is required; send initialize first and echo the id it returns (or send 2026-07-28 requests, which need no session)."),
                )
            }
            Some(id) => {
                if self.sessions.check(id, self.server.platform().now_unix_ms(), &principal_key) != SessionState::Active {
                    return HttpResponse::rpc_error(
                        404,
                        Value::Null,
                        Error::new(ErrorKind::InvalidRequest, "Session not found: it expired or was terminated; send initialize to start a new one.")
                            .with_code("session_not_found"),
                    );
                }
                Sessions::renders_views(id)
            }
        };
        let context = RequestContext {
            renders_views: views,
            ..context
        };
        self.answer(message, &context, notifier).await
    }

    async fn initialize(&self, message: Incoming, context: RequestContext) -> HttpResponse {
        let mut random = [0u8; 16];
        self.server.platform().fill_random(&mut random);
        let views = match &message {
            Incoming::Request { params, .. } => {
                crate::apps::client_renders_views(params.get("capabilities"))
            }
            _ => false,
        };
        let id = self.sessions.issue(
            random,
            self.server.platform().now_unix_ms(),
            &principal_key(&context),
            views,
        );
        let context = RequestContext {
            session_id: Some(id.clone()),
            ..context
        };
        let mut response = self.answer(message, &context, None).await;
        // Only a successful initialize opens a session.
        if response.status == 200 && response.json_body().get("result").is_some() {
            response.headers.push((SESSION_HEADER.into(), id));
        }
        response
    }

    async fn answer(
        &self,
        message: Incoming,
        context: &RequestContext,
        notifier: Option<&dyn Notifier>,
    ) -> HttpResponse {
        match self
            .server
            .handle_notifying(message, context, notifier)
            .await
        {
            // A request the client's declared capabilities cannot be served under is a 400,
            // as the specification says for -32021.
            Some(reply) if reply["error"]["code"] == -32021 => HttpResponse::json(400, &reply),
            Some(reply) => HttpResponse::json(200, &reply),
            None => HttpResponse::empty(202),
        }
    }

    fn delete(&self, req: &HttpRequest, principal: Option<crate::auth::Principal>) -> HttpResponse {
        if !self.sessions.supports_termination() {
            let mut r = HttpResponse::rpc_error(
                405,
                Value::Null,
                http_error(ErrorKind::InvalidRequest, "termination_not_supported", "Method Not Allowed: sessions on this deployment end by expiry; just stop using the id."),
            );
            r.headers.push(("Allow".into(), "POST, OPTIONS".into()));
            return r;
        }
        let Some(id) = req.header(SESSION_HEADER) else {
            return HttpResponse::rpc_error(
                400,
                Value::Null,
                http_error(
                    ErrorKind::InvalidRequest,
                    "missing_session",
                    "Bad Request: DELETE needs the Mcp-Session-Id header.",
                ),
            );
        };
        if self.sessions.terminate(
            id,
            self.server.platform().now_unix_ms(),
            principal.as_ref().map_or("", |p| p.key.as_str()),
        ) {
            HttpResponse::empty(204)
        } else {
            HttpResponse::rpc_error(
                404,
                Value::Null,
                http_error(
                    ErrorKind::InvalidRequest,
                    "session_not_found",
                    "Session not found.",
                ),
            )
        }
    }
}

/// The key a session is bound to: the caller's identity, or nobody's.
fn principal_key(context: &RequestContext) -> String {
    context
        .principal
        .as_ref()
        .map(|p| p.key.clone())
        .unwrap_or_default()
}

/// CORS headers for a browser caller (the challenge header must be readable too).
fn cors(response: &mut HttpResponse, origin: Option<String>) {
    if let Some(o) = origin {
        response
            .headers
            .push(("Access-Control-Allow-Origin".into(), o));
        response.headers.push((
            "Access-Control-Expose-Headers".into(),
            "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate".into(),
        ));
        response.headers.push(("Vary".into(), "Origin".into()));
    }
}

/// One Server-Sent Events frame carrying a JSON-RPC message.
pub fn sse_frame(message: &Value) -> Vec<u8> {
    let mut frame = b"event: message\ndata: ".to_vec();
    frame.extend_from_slice(&serde_json::to_vec(message).unwrap_or_default());
    frame.extend_from_slice(b"\n\n");
    frame
}

/// The headers of an SSE answer to a POST.
pub fn sse_headers() -> Vec<(String, String)> {
    vec![
        ("Content-Type".into(), "text/event-stream".into()),
        ("Cache-Control".into(), "no-cache".into()),
        // Reverse proxies must pass each event on as it comes (2026-07-28 asks for it).
        ("X-Accel-Buffering".into(), "no".into()),
    ]
}

fn preflight() -> HttpResponse {
    HttpResponse {
        status: 204,
        headers: vec![
            ("Access-Control-Allow-Methods".into(), "POST, DELETE, OPTIONS".into()),
            (
                "Access-Control-Allow-Headers".into(),
                format!("Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID, {CALLER_KEY_HEADER}"),
            ),
            ("Access-Control-Max-Age".into(), "86400".into()),
        ],
        body: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_frames_are_one_message_event_each() {
        let frame = sse_frame(&serde_json::json!({"jsonrpc": "2.0", "method": "x"}));
        assert_eq!(
            frame,
            b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\n".to_vec()
        );
        assert!(
            sse_headers().contains(&("Content-Type".to_string(), "text/event-stream".to_string()))
        );
    }
}
