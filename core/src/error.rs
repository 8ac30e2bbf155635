//! The one error type of the core.
//!
//! Every failure in the server is an [`Error`] with an [`ErrorKind`]. The kind
//! decides where the error goes: protocol kinds become JSON-RPC error objects,
//! every other kind becomes a tool result with `isError: true`, a stable code
//! and suggestions the caller can act on.

use crate::json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// What went wrong, coarse enough to route on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The body was not JSON (JSON-RPC -32700).
    Parse,
    /// The message was not a valid JSON-RPC request (-32600).
    InvalidRequest,
    /// The method is not one this server serves (-32601).
    MethodNotFound,
    /// The params of a protocol method were wrong, e.g. an unknown tool (-32602).
    InvalidParams,
    /// `resources/read` for a URI this server does not have, or not for this caller
    /// (-32002 in the handshake revision, -32602 from 2026-07-28; see [`Error::for_stateless_revision`]).
    ResourceNotFound,
    /// HTTP headers that disagree with the body, or a required one missing (MCP -32020).
    HeaderMismatch,
    /// The request can only be served with a client capability it did not declare (MCP -32021).
    MissingCapability,
    /// A protocol version this server does not speak (MCP -32022, `data.supported` lists ours).
    UnsupportedVersion,
    /// Tool arguments failed validation; the tool never ran.
    InvalidArguments,
    /// A named thing (tool, dataset, record) does not exist.
    NotFound,
    /// An upstream service answered with an error or something unreadable.
    Upstream,
    /// An upstream service or our own pacing refused for rate reasons.
    RateLimited,
    /// An upstream service could not be reached or timed out.
    Unavailable,
    /// A documented limit of this server was exceeded.
    LimitExceeded,
    /// A bug or an impossible state inside the server.
    Internal,
}

impl ErrorKind {
    /// The stable, machine-readable code used when no more specific code is given.
    pub fn default_code(self) -> &'static str {
        match self {
            ErrorKind::Parse => "parse_error",
            ErrorKind::InvalidRequest => "invalid_request",
            ErrorKind::MethodNotFound => "method_not_found",
            ErrorKind::InvalidParams => "invalid_params",
            ErrorKind::ResourceNotFound => "resource_not_found",
            ErrorKind::HeaderMismatch => "header_mismatch",
            ErrorKind::MissingCapability => "missing_required_client_capability",
            ErrorKind::UnsupportedVersion => "unsupported_protocol_version",
            ErrorKind::InvalidArguments => "invalid_arguments",
            ErrorKind::NotFound => "not_found",
            ErrorKind::Upstream => "upstream_error",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::Unavailable => "upstream_unavailable",
            ErrorKind::LimitExceeded => "limit_exceeded",
            ErrorKind::Internal => "internal_error",
        }
    }

    /// The JSON-RPC error code for protocol kinds; `None` for tool-level kinds.
    pub fn rpc_code(self) -> Option<i64> {
        match self {
            ErrorKind::Parse => Some(-32700),
            ErrorKind::InvalidRequest => Some(-32600),
            ErrorKind::MethodNotFound => Some(-32601),
            ErrorKind::InvalidParams => Some(-32602),
            // MCP 2025-11-25 (server/resources, Error Handling); SEP-2164 moves it to
            // -32602 in later protocol versions, which clients already accept as an error.
            ErrorKind::ResourceNotFound => Some(-32002),
            ErrorKind::HeaderMismatch => Some(-32020),
            ErrorKind::MissingCapability => Some(-32021),
            ErrorKind::UnsupportedVersion => Some(-32022),
            _ => None,
        }
    }
}

/// An error with a message a person can read and suggestions an assistant can follow.
///
/// Serializable so it can cross from a Durable Object back to the Worker intact.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Error {
    /// Routing class of the error.
    pub kind: ErrorKind,
    /// Stable code, e.g. `invalid_arguments` or `unknown_tool`.
    pub code: String,
    /// One specific sentence on what went wrong.
    pub message: String,
    /// Concrete next steps, most useful first.
    pub suggestions: Vec<String>,
    /// Machine-readable detail (validation errors, allowed values, ...).
    pub details: Option<Value>,
}

impl Error {
    /// A new error of `kind` with its default code.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            code: kind.default_code().to_string(),
            message: message.into(),
            suggestions: Vec::new(),
            details: None,
        }
    }

    /// Replaces the stable code.
    pub fn with_code(mut self, code: impl Into<String>) -> Self {
        self.code = code.into();
        self
    }

    /// Appends one suggestion.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestions.push(suggestion.into());
        self
    }

    /// Attaches machine-readable details.
    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// Shorthand for [`ErrorKind::Internal`].
    pub fn internal(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Internal, message)
    }

    /// The `error` object placed in a tool result's `structuredContent`.
    pub fn to_structured(&self) -> Value {
        let mut error = json!({
            "code": self.code,
            "message": self.message,
            "suggestions": self.suggestions,
        });
        if let Some(details) = &self.details {
            json::set(&mut error, "details", details.clone());
        }
        json!({ "error": error })
    }

    /// The same error as the stateless revision words it: 2026-07-28 retired -32002 for a
    /// resource not found in favour of -32602 (Invalid params).
    pub fn for_stateless_revision(mut self) -> Self {
        if self.kind == ErrorKind::ResourceNotFound {
            self.kind = ErrorKind::InvalidParams;
        }
        self
    }

    // Errors whose `data` fields the specification names: -32022 (`supported`,
    // `requested`), -32021 (`requiredCapabilities`) and a resource not found (`uri`, under
    // either revision's code).
    fn flattens_details(&self) -> bool {
        matches!(
            self.kind,
            ErrorKind::UnsupportedVersion | ErrorKind::MissingCapability
        ) || self.code == "resource_not_found"
    }

    /// The JSON-RPC `error` member for protocol kinds (tool kinds map to -32603).
    ///
    /// `data` carries the stable code and suggestions; where the specification defines
    /// `data` fields (-32022's `supported` and `requested`, a missing resource's `uri`),
    /// they are the details' fields.
    pub fn to_rpc_error(&self) -> Value {
        let code = self.kind.rpc_code().unwrap_or(-32603);
        let mut data = match &self.details {
            Some(Value::Object(fields)) if self.flattens_details() => Value::Object(fields.clone()),
            _ => json!({}),
        };
        json::set(&mut data, "code", json!(self.code));
        if !self.suggestions.is_empty() {
            json::set(&mut data, "suggestions", json!(self.suggestions));
        }
        match &self.details {
            Some(details) if !self.flattens_details() => {
                json::set(&mut data, "details", details.clone());
            }
            _ => {}
        }
        json!({ "code": code, "message": self.message, "data": data })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for Error {}

/// The core's result alias.
pub type Result<T> = std::result::Result<T, Error>;
