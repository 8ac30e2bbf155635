//! JSON-RPC 2.0 framing: classify an incoming message and build responses.

use crate::error::{Error, ErrorKind};
use crate::json;
use serde_json::{Map, Value};

/// One message received from a client, after framing checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A request that expects a response.
    Request {
        /// The request id, a string or an integer.
        id: Value,
        /// The method name.
        method: String,
        /// The params object (empty when absent).
        params: Map<String, Value>,
    },
    /// A notification, which gets no response.
    Notification {
        /// The method name.
        method: String,
        /// The params object (empty when absent).
        params: Map<String, Value>,
    },
    /// A response to a request the server sent; the server sends none yet, so it is dropped.
    Response,
}

/// A framing failure, carrying the id to answer with when one could be read.
#[derive(Debug, Clone)]
pub struct FramingError {
    /// The request id if the message had a usable one, else `null`.
    pub id: Value,
    /// What was wrong (boxed: it travels only on the rare error path).
    pub error: Box<Error>,
}

/// Parses raw bytes into one message, rejecting batches (removed from MCP in 2025-06-18).
pub fn parse_message(bytes: &[u8]) -> Result<Incoming, FramingError> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| FramingError {
        id: Value::Null,
        error: Box::new(
            Error::new(
                ErrorKind::Parse,
                format!("Parse error: body is not valid JSON ({e})"),
            )
            .suggest("Send exactly one JSON-RPC 2.0 object encoded as UTF-8 JSON."),
        ),
    })?;
    classify(value)
}

/// Classifies an already-parsed JSON value as a request, notification or response.
pub fn classify(value: Value) -> Result<Incoming, FramingError> {
    let invalid = |id: Value, message: &str| FramingError {
        id,
        error: Box::new(Error::new(
            ErrorKind::InvalidRequest,
            format!("Invalid Request: {message}"),
        )),
    };
    let obj = match value {
        Value::Object(obj) => obj,
        Value::Array(_) => {
            return Err(FramingError {
                id: Value::Null,
                error: Box::new(Error::new(
                    ErrorKind::InvalidRequest,
                    "Invalid Request: JSON-RPC batches are not supported; MCP removed batching in protocol 2025-06-18",
                )
                .with_code("batch_not_supported")
                .suggest("Send each JSON-RPC message in its own HTTP POST (or its own stdio line).")),
            })
        }
        _ => return Err(invalid(Value::Null, "the message must be a JSON object")),
    };
    // Only string and integer ids are answerable; anything else is answered with null.
    let id = match obj.get("id") {
        Some(v @ Value::String(_)) => Some(v.clone()),
        Some(Value::Number(n)) if n.is_i64() || n.is_u64() => Some(Value::Number(n.clone())),
        Some(Value::Null) | None => None,
        Some(_) => return Err(invalid(Value::Null, "id must be a string or an integer")),
    };
    let reply_id = id.clone().unwrap_or(Value::Null);
    if obj.get("jsonrpc") != Some(&Value::String("2.0".into())) {
        return Err(invalid(reply_id, "jsonrpc must be exactly \"2.0\""));
    }
    if obj.get("id") == Some(&Value::Null) {
        return Err(invalid(Value::Null, "id must not be null"));
    }
    let method = match obj.get("method") {
        Some(Value::String(m)) => m.clone(),
        Some(_) => return Err(invalid(reply_id, "method must be a string")),
        None if obj.contains_key("result") || obj.contains_key("error") => {
            return Ok(Incoming::Response)
        }
        None => return Err(invalid(reply_id, "method is missing")),
    };
    let params = match obj.get("params") {
        None => Map::new(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => return Err(invalid(reply_id, "params must be an object")),
    };
    Ok(match id {
        Some(id) => Incoming::Request { id, method, params },
        None => Incoming::Notification { method, params },
    })
}

/// A success response.
pub fn success(id: Value, result: Value) -> Value {
    // Built by hand: `json!` would copy the result through serde's serializer, which for a
    // tools/list or a page of records is most of what answering costs.
    let mut reply = serde_json::Map::new();
    reply.insert("jsonrpc".into(), Value::from("2.0"));
    reply.insert("id".into(), id);
    reply.insert("result".into(), result);
    Value::Object(reply)
}

/// An error response built from a core error.
pub fn failure(id: Value, error: &Error) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": error.to_rpc_error() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<Incoming, FramingError>) -> (Value, Option<i64>) {
        let e = r.unwrap_err();
        (e.id, e.error.kind.rpc_code())
    }

    #[test]
    fn request_notification_and_response_are_told_apart() {
        let r = parse_message(br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
        assert!(matches!(r, Incoming::Request { ref method, .. } if method == "ping"));
        let n =
            parse_message(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert!(matches!(n, Incoming::Notification { .. }));
        let resp = parse_message(br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#).unwrap();
        assert_eq!(resp, Incoming::Response);
    }

    #[test]
    fn framing_errors_carry_the_right_codes() {
        assert_eq!(
            code(parse_message(b"{not json")),
            (Value::Null, Some(-32700))
        );
        assert_eq!(code(parse_message(b"[]")), (Value::Null, Some(-32600)));
        assert_eq!(code(parse_message(b"42")), (Value::Null, Some(-32600)));
        assert_eq!(
            code(parse_message(
                br#"{"jsonrpc":"1.0","id":3,"method":"ping"}"#
            )),
            (json!(3), Some(-32600))
        );
        assert_eq!(
            code(parse_message(br#"{"jsonrpc":"2.0","id":"a","method":5}"#)),
            (json!("a"), Some(-32600))
        );
        assert_eq!(
            code(parse_message(
                br#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#
            )),
            (json!(1), Some(-32600))
        );
        assert_eq!(
            code(parse_message(
                br#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#
            )),
            (Value::Null, Some(-32600))
        );
        assert_eq!(
            code(parse_message(
                br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#
            )),
            (Value::Null, Some(-32600))
        );
    }

    #[test]
    fn batch_error_says_why() {
        let e = parse_message(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).unwrap_err();
        assert_eq!(e.error.code, "batch_not_supported");
        assert!(e.error.message.contains("batch"));
    }
}
