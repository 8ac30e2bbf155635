//! Sorting a POST into its protocol revision: who is asking, which request it is, and the
//! 400 a malformed or unsupported stateless request gets.

use crate::caller::CALLER_KEY_HEADER;
use crate::caller::{Channel, RequestContext};
use crate::error::{Error, ErrorKind};
use crate::http::{HttpRequest, HttpResponse, SESSION_HEADER, VERSION_HEADER};
use crate::mcp::version;
use crate::protocol::jsonrpc::Incoming;
use crate::secret::ApiKey;
use serde_json::Value;

/// The request facts every answer starts from: the caller's key, the session header.
pub(super) fn caller_context(req: &HttpRequest) -> RequestContext {
    RequestContext {
        caller_api_key: req
            .header(CALLER_KEY_HEADER)
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(ApiKey::new),
        session_id: req.header(SESSION_HEADER).map(str::to_string),
        channel: Channel::Http,
        stateless: false,
        principal: None,
        client_ip: req.client_ip.clone(),
        renders_views: false,
    }
}

pub(super) fn request_id(message: &Incoming) -> Value {
    match message {
        Incoming::Request { id, .. } => id.clone(),
        _ => Value::Null,
    }
}

pub(super) fn stateless_header(req: &HttpRequest) -> bool {
    req.header(VERSION_HEADER)
        .is_some_and(|v| version::is_modern(v.trim()))
}

/// 400 for a stateless request the server cannot take: -32022 for a version it does
/// not speak, -32020 when the version header says otherwise, else -32602.
pub(super) fn revision_error(req: &HttpRequest, message: &Incoming, error: Error) -> HttpResponse {
    let requested = error
        .details
        .as_ref()
        .and_then(|d| d.get("requested"))
        .and_then(Value::as_str);
    let error = match (error.kind, req.header(VERSION_HEADER).map(str::trim), requested) {
        (ErrorKind::UnsupportedVersion, Some(header), Some(body)) if header != body => {
            Error::new(
                ErrorKind::HeaderMismatch,
                format!("Header mismatch: MCP-Protocol-Version header \"{header}\" does not match _meta protocolVersion \"{body}\"."),
            )
        }
        _ => error,
    };
    HttpResponse::rpc_error(400, request_id(message), error)
}
