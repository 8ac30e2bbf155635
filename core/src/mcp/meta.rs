//! The per-request `_meta` of MCP 2026-07-28, and the revision it selects.
//!
//! A stateless request says everything about itself: its protocol version and the
//! client's capabilities are required, its client identity and log level optional.
//! A request without `io.modelcontextprotocol/protocolVersion` belongs to the
//! handshake revision (it is `initialize`, or part of a session `initialize` opened).

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::mcp::logging::LogLevel;
use crate::mcp::version;
use serde_json::{Map, Value};

/// `_meta` key: the protocol version of this request.
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key: the client's capabilities for this request.
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key: the client's name and version.
pub const CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// `_meta` key: the lowest log level the client wants for this request.
pub const LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
/// `_meta` key on results: who answered.
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// Which protocol revision a request belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Revision {
    /// `initialize` and the requests of the session (or stdio process) it opened.
    Handshake,
    /// A self-contained 2026-07-28 request.
    Stateless(Stateless),
}

/// What a stateless request declared about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stateless {
    /// The protocol version, one of [`version::MODERN_VERSIONS`].
    pub version: String,
    /// Where the client wants log messages for this request, and from which level.
    pub log_level: Option<LogLevel>,
}

impl Revision {
    /// The revision `params` declares; an error when a stateless request is malformed or
    /// names a version this server does not speak.
    pub fn of(params: &Map<String, Value>) -> Result<Revision, Error> {
        let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
            return Ok(Revision::Handshake);
        };
        let requested = match meta.get(PROTOCOL_VERSION) {
            None => return Ok(Revision::Handshake),
            Some(Value::String(v)) => v.as_str(),
            Some(_) => {
                return Err(bad_meta(format!(
                    "_meta[\"{PROTOCOL_VERSION}\"] must be a string such as \"{}\".",
                    version::LATEST_VERSION
                )))
            }
        };
        if !version::is_modern(requested) {
            return Err(unsupported(requested));
        }
        if !meta.get(CLIENT_CAPABILITIES).is_some_and(Value::is_object) {
            return Err(bad_meta(format!(
                "_meta[\"{CLIENT_CAPABILITIES}\"] is required on every {requested} request, as an object ({{}} when the client declares none)."
            )));
        }
        let log_level = match meta.get(LOG_LEVEL) {
            None | Some(Value::Null) => None,
            Some(level) => Some(level.as_str().and_then(LogLevel::parse).ok_or_else(|| {
                bad_meta(format!(
                    "_meta[\"{LOG_LEVEL}\"] must be one of {}.",
                    LogLevel::NAMES.join(", ")
                ))
            })?),
        };
        Ok(Revision::Stateless(Stateless {
            version: requested.to_string(),
            log_level,
        }))
    }

    /// The stateless half, if this is one.
    pub fn stateless(&self) -> Option<&Stateless> {
        match self {
            Revision::Stateless(s) => Some(s),
            Revision::Handshake => None,
        }
    }
}

/// -32022 for `requested`, listing every version this server speaks.
pub fn unsupported(requested: &str) -> Error {
    let handshake = if version::is_legacy(requested) {
        format!(" {requested} opens with initialize and has no per-request version.")
    } else {
        String::new()
    };
    Error::new(
        ErrorKind::UnsupportedVersion,
        format!("Unsupported protocol version \"{requested}\".{handshake}"),
    )
    .suggest(format!(
        "Send _meta[\"{PROTOCOL_VERSION}\"]: \"{}\" (and the same MCP-Protocol-Version header over HTTP), or open a session with initialize for {}.",
        version::LATEST_VERSION,
        version::LEGACY_VERSIONS.join(", ")
    ))
    .with_details(json!({ "supported": version::SUPPORTED_VERSIONS, "requested": requested }))
}

/// -32602 for a stateless-only method (`server/discover`) sent without its `_meta`.
pub fn missing(method: &str) -> Error {
    bad_meta(format!(
        "{method} is a {} request: params._meta needs \"{PROTOCOL_VERSION}\" and \"{CLIENT_CAPABILITIES}\".",
        version::LATEST_VERSION
    ))
    .suggest(format!(
        "Send {{\"_meta\": {{\"{PROTOCOL_VERSION}\": \"{}\", \"{CLIENT_CAPABILITIES}\": {{}}}}}}, or open a session with initialize instead.",
        version::LATEST_VERSION
    ))
}

fn bad_meta(message: String) -> Error {
    Error::new(ErrorKind::InvalidParams, message).with_code("invalid_request_meta")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(meta: Value) -> Map<String, Value> {
        json!({ "_meta": meta }).as_object().unwrap().clone()
    }

    #[test]
    fn no_protocol_version_is_the_handshake_revision() {
        assert_eq!(Revision::of(&Map::new()).unwrap(), Revision::Handshake);
        assert_eq!(
            Revision::of(&params(json!({ "progressToken": 1 }))).unwrap(),
            Revision::Handshake
        );
    }

    #[test]
    fn a_complete_stateless_request_is_read_whole() {
        let revision = Revision::of(&params(json!({
            PROTOCOL_VERSION: "2026-07-28",
            CLIENT_CAPABILITIES: {},
            CLIENT_INFO: { "name": "c", "version": "1" },
            LOG_LEVEL: "warning",
        })))
        .unwrap();
        assert_eq!(
            revision,
            Revision::Stateless(Stateless {
                version: "2026-07-28".into(),
                log_level: Some(LogLevel::Warning),
            })
        );
    }

    #[test]
    fn malformed_stateless_requests_are_invalid_params() {
        for meta in [
            json!({ PROTOCOL_VERSION: "2026-07-28" }),
            json!({ PROTOCOL_VERSION: "2026-07-28", CLIENT_CAPABILITIES: [] }),
            json!({ PROTOCOL_VERSION: 20260728, CLIENT_CAPABILITIES: {} }),
            json!({ PROTOCOL_VERSION: "2026-07-28", CLIENT_CAPABILITIES: {}, LOG_LEVEL: "loud" }),
        ] {
            let e = Revision::of(&params(meta.clone())).unwrap_err();
            assert_eq!(e.kind.rpc_code(), Some(-32602), "{meta}");
        }
    }

    #[test]
    fn an_unknown_version_is_32022_with_what_we_speak() {
        let e = Revision::of(&params(
            json!({ PROTOCOL_VERSION: "1900-01-01", CLIENT_CAPABILITIES: {} }),
        ))
        .unwrap_err();
        let rpc = e.to_rpc_error();
        assert_eq!(rpc["code"], -32022);
        assert_eq!(rpc["data"]["requested"], "1900-01-01");
        assert_eq!(rpc["data"]["supported"], json!(version::SUPPORTED_VERSIONS));
        // A handshake version has no per-request form either.
        let e = Revision::of(&params(
            json!({ PROTOCOL_VERSION: "2025-11-25", CLIENT_CAPABILITIES: {} }),
        ))
        .unwrap_err();
        assert!(e.message.contains("initialize"), "{}", e.message);
    }
}
