//! The request headers 2026-07-28 mirrors from the body, checked against it.
//!
//! Intermediaries route on `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
//! without reading the body, so a server that acts on the body must refuse a
//! request whose headers say something else (400, -32020): otherwise a gateway
//! could be told one thing while this server does another.

use crate::error::{Error, ErrorKind};
use crate::http::HttpRequest;
use base64::Engine as _;
use serde_json::{Map, Value};

/// The method header.
pub const METHOD_HEADER: &str = "Mcp-Method";
/// The name header (`params.name`, `params.uri` or `params.taskId`).
pub const NAME_HEADER: &str = "Mcp-Name";

/// Methods whose `Mcp-Name` is required, with the body field it mirrors.
pub const NAMED: &[(&str, &str)] = &[
    ("tools/call", "name"),
    ("prompts/get", "name"),
    ("resources/read", "uri"),
    ("tasks/get", "taskId"),
    ("tasks/update", "taskId"),
    ("tasks/cancel", "taskId"),
];

/// A header value as the client meant it: plain visible ASCII as is, or the UTF-8
/// inside `=?base64?…?=`; `None` when it is neither.
pub fn decode(value: &str) -> Option<String> {
    if let Some(inner) = value
        .strip_prefix("=?base64?")
        .and_then(|v| v.strip_suffix("?="))
    {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(inner)
            .ok()?;
        return String::from_utf8(bytes).ok();
    }
    let plain = value
        .bytes()
        .all(|b| b == b' ' || b == b'\t' || (0x21..=0x7e).contains(&b));
    (plain && value.trim() == value).then(|| value.to_string())
}

/// Checks the routing headers of a stateless request declaring `version`.
pub fn check(
    req: &HttpRequest,
    version: &str,
    method: &str,
    params: &Map<String, Value>,
) -> Result<(), Error> {
    let header = |name: &str| req.header(name).map(str::trim);
    match header(crate::http::VERSION_HEADER) {
        Some(v) if v == version => {}
        Some(v) => return Err(mismatch(format!("MCP-Protocol-Version header \"{v}\" does not match _meta protocolVersion \"{version}\"."))),
        None => return Err(mismatch(format!("the MCP-Protocol-Version header is required: {version}."))),
    }
    match header(METHOD_HEADER) {
        Some(m) if m == method => {}
        Some(m) => {
            return Err(mismatch(format!(
                "Mcp-Method header \"{m}\" does not match body method \"{method}\"."
            )))
        }
        None => {
            return Err(mismatch(format!(
                "the Mcp-Method header is required: {method}."
            )))
        }
    }
    let Some((_, field)) = NAMED.iter().find(|(m, _)| *m == method) else {
        return Ok(());
    };
    let body = params.get(*field).and_then(Value::as_str);
    match (req.header(NAME_HEADER), body) {
        (None, _) => Err(mismatch(format!(
            "the Mcp-Name header is required on {method}: params.{field}."
        ))),
        (Some(raw), body) => match decode(raw) {
            None => Err(mismatch(format!(
                "the Mcp-Name header \"{raw}\" has characters a header may not carry; send =?base64?…?= instead."
            ))),
            Some(name) if Some(name.as_str()) == body => Ok(()),
            Some(name) => Err(mismatch(format!(
                "Mcp-Name header \"{name}\" does not match params.{field} {}.",
                body.map(|b| format!("\"{b}\"")).unwrap_or_else(|| "(absent)".into())
            ))),
        },
    }
}

fn mismatch(detail: String) -> Error {
    Error::new(ErrorKind::HeaderMismatch, format!("Header mismatch: {detail}")).suggest(
        "Send MCP-Protocol-Version, Mcp-Method and (for tools/call, resources/read, prompts/get) Mcp-Name equal to the body's values.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn req(headers: &[(&str, &str)]) -> HttpRequest {
        HttpRequest {
            method: "POST".into(),
            path: "/mcp".into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body: Vec::new(),
            ..HttpRequest::default()
        }
    }

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn values_decode_as_the_specification_encodes_them() {
        assert_eq!(decode("us-west1").as_deref(), Some("us-west1"));
        assert_eq!(
            decode("=?base64?SGVsbG8sIOS4lueVjA==?=").as_deref(),
            Some("Hello, 世界")
        );
        assert_eq!(
            decode("=?base64?IHBhZGRlZCA=?=").as_deref(),
            Some(" padded ")
        );
        assert_eq!(
            decode("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=").as_deref(),
            Some("=?base64?literal?=")
        );
        assert_eq!(decode("=?base64?!!!?="), None);
        assert_eq!(decode("caf\u{e9}"), None);
        assert_eq!(decode("a\u{1}b"), None);
    }

    #[test]
    fn matching_headers_pass_and_each_disagreement_is_32020() {
        let call = params(json!({"name": "entrez_query", "arguments": {}}));
        let ok = req(&[
            ("mcp-protocol-version", "2026-07-28"),
            ("MCP-METHOD", "tools/call"),
            ("Mcp-Name", "entrez_query"),
        ]);
        assert!(check(&ok, "2026-07-28", "tools/call", &call).is_ok());
        let encoded = req(&[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "=?base64?ZW50cmV6X3F1ZXJ5?="),
        ]);
        assert!(check(&encoded, "2026-07-28", "tools/call", &call).is_ok());
        for headers in [
            vec![("Mcp-Method", "tools/call"), ("Mcp-Name", "entrez_query")],
            vec![
                ("MCP-Protocol-Version", "2025-11-25"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "entrez_query"),
            ],
            vec![
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Name", "entrez_query"),
            ],
            vec![
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/list"),
                ("Mcp-Name", "entrez_query"),
            ],
            vec![
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
            ],
            vec![
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "validate"),
            ],
        ] {
            let e = check(&req(&headers), "2026-07-28", "tools/call", &call).unwrap_err();
            assert_eq!(e.to_rpc_error()["code"], -32020, "{headers:?}");
        }
        // Methods without a name need no Mcp-Name.
        let list = req(&[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/list"),
        ]);
        assert!(check(&list, "2026-07-28", "tools/list", &Map::new()).is_ok());
        let read = params(json!({"uri": "entrez-dataset://x/schema"}));
        let r = req(&[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "resources/read"),
            ("Mcp-Name", "entrez-dataset://x/schema"),
        ]);
        assert!(check(&r, "2026-07-28", "resources/read", &read).is_ok());
    }
}
