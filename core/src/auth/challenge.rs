//! What a refused caller is told: the `WWW-Authenticate` challenge (RFC 6750 §3) and the
//! Protected Resource Metadata that tells an MCP client where to get a token (RFC 9728).
//!
//! Both MCP revisions this server speaks ask the same of a resource server: 401 with
//! `resource_metadata` (and `scope`) when no valid token came, `error="invalid_token"`
//! when one came and failed, 403 `insufficient_scope` naming every scope the request
//! needs, and the metadata at `/.well-known/oauth-protected-resource` with the MCP
//! endpoint's path appended (and at the root, for clients that try there).

use crate::auth::config::{AuthConfig, AuthMode};
use crate::json;
use serde_json::Value;

/// The metadata path for the MCP endpoint (`/mcp`), RFC 9728 §3.1.
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";
/// The metadata path at the root, which clients try second.
pub const METADATA_ROOT_PATH: &str = "/.well-known/oauth-protected-resource";

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// No token (or another scheme): 401 without an error code.
    Missing,
    /// A token that is not valid: 401 `invalid_token`, with the reason.
    Invalid(String),
    /// An `Authorization` header that is not one bearer token: 400 `invalid_request`.
    Malformed(String),
    /// A valid token without every scope the request needs: 403 `insufficient_scope`.
    InsufficientScope(Vec<String>),
    /// The authorization server's keys cannot be had: 503, so clients do not start over.
    Unavailable(String),
}

impl Denial {
    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Denial::Missing | Denial::Invalid(_) => 401,
            Denial::Malformed(_) => 400,
            Denial::InsufficientScope(_) => 403,
            Denial::Unavailable(_) => 503,
        }
    }

    /// A stable code for the JSON-RPC error body.
    pub fn code(&self) -> &'static str {
        match self {
            Denial::Missing => "unauthorized",
            Denial::Invalid(_) => "invalid_token",
            Denial::Malformed(_) => "invalid_request",
            Denial::InsufficientScope(_) => "insufficient_scope",
            Denial::Unavailable(_) => "authorization_unavailable",
        }
    }

    /// One sentence for the JSON-RPC error body.
    pub fn message(&self) -> String {
        match self {
            Denial::Missing => {
                "Unauthorized: this server needs an access token (Authorization: Bearer …).".into()
            }
            Denial::Invalid(why) => {
                format!("Unauthorized: the access token is not accepted: {why}.")
            }
            Denial::Malformed(why) => format!("Bad Request: {why}."),
            Denial::InsufficientScope(scopes) => format!(
                "Forbidden: this request needs the scope(s) {}.",
                scopes.join(" ")
            ),
            Denial::Unavailable(why) => format!(
                "Service Unavailable: tokens cannot be checked right now ({why}); retry shortly."
            ),
        }
    }
}

/// Keeps only characters RFC 6750 allows in a quoted challenge value (no `"` or `\`).
fn quoted(s: &str) -> String {
    s.chars()
        .filter(|c| matches!(*c as u32, 0x20..=0x21 | 0x23..=0x5B | 0x5D..=0x7E))
        .collect()
}

/// The `WWW-Authenticate` value for a refusal; `base_url` is where this server is reached
/// (the resource identifier's origin in oauth mode).
pub fn www_authenticate(config: &AuthConfig, denial: &Denial) -> Option<String> {
    let mut params: Vec<String> = Vec::new();
    match config.mode {
        AuthMode::OAuth => {
            let origin = resource_origin(config).unwrap_or_default();
            params.push(format!(
                "resource_metadata=\"{}{METADATA_PATH}\"",
                quoted(&origin)
            ));
            let scopes = match denial {
                Denial::InsufficientScope(s) => s.clone(),
                _ => config.base_scope.iter().cloned().collect(),
            };
            if !scopes.is_empty() {
                params.push(format!("scope=\"{}\"", quoted(&scopes.join(" "))));
            }
        }
        AuthMode::Bearer => params.push("realm=\"entrez-mcp\"".into()),
        AuthMode::None => return None,
    }
    match denial {
        Denial::Missing | Denial::Unavailable(_) => {}
        Denial::Invalid(why) => {
            params.push("error=\"invalid_token\"".into());
            params.push(format!("error_description=\"{}\"", quoted(why)));
        }
        Denial::Malformed(why) => {
            params.push("error=\"invalid_request\"".into());
            params.push(format!("error_description=\"{}\"", quoted(why)));
        }
        Denial::InsufficientScope(_) => params.push("error=\"insufficient_scope\"".into()),
    }
    Some(format!("Bearer {}", params.join(", ")))
}

/// `https://host[:port]` of the configured resource.
pub fn resource_origin(config: &AuthConfig) -> Option<String> {
    let r = config.resource.as_deref()?;
    let (scheme, rest) = r.split_once("://")?;
    let host = rest.split('/').next().unwrap_or(rest);
    Some(format!("{scheme}://{host}"))
}

/// The Protected Resource Metadata document (oauth mode only).
pub fn protected_resource_metadata(config: &AuthConfig) -> Option<Value> {
    if config.mode != AuthMode::OAuth {
        return None;
    }
    let mut scopes: Vec<&str> = Vec::new();
    scopes.extend(config.base_scope.as_deref());
    scopes.extend(config.data_scope.as_deref());
    let mut doc = json!({
        "resource": config.resource,
        "authorization_servers": [config.issuer],
        "bearer_methods_supported": ["header"],
        "resource_name": crate::SERVER_NAME,
        "resource_documentation": "https://www.ncbi.nlm.nih.gov/books/NBK25501/",
    });
    if !scopes.is_empty() {
        json::set(&mut doc, "scopes_supported", json!(scopes));
    }
    Some(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oauth() -> AuthConfig {
        AuthConfig {
            mode: AuthMode::OAuth,
            resource: Some("https://entrez.example.org/mcp".into()),
            issuer: Some("https://as.example.org".into()),
            base_scope: Some("entrez.read".into()),
            data_scope: Some("entrez.data".into()),
            ..AuthConfig::open()
        }
    }

    #[test]
    fn challenges_follow_rfc_6750_and_the_mcp_specification() {
        let c = oauth();
        assert_eq!(
            www_authenticate(&c, &Denial::Missing).unwrap(),
            "Bearer resource_metadata=\"https://entrez.example.org/.well-known/oauth-protected-resource/mcp\", scope=\"entrez.read\""
        );
        let bad =
            www_authenticate(&c, &Denial::Invalid("the token \"has\" expired\\".into())).unwrap();
        assert!(
            bad.ends_with("error=\"invalid_token\", error_description=\"the token has expired\""),
            "{bad}"
        );
        let scope = www_authenticate(
            &c,
            &Denial::InsufficientScope(vec!["entrez.read".into(), "entrez.data".into()]),
        )
        .unwrap();
        assert!(
            scope.contains("scope=\"entrez.read entrez.data\", error=\"insufficient_scope\""),
            "{scope}"
        );
        let bearer = AuthConfig {
            mode: AuthMode::Bearer,
            ..AuthConfig::open()
        };
        assert_eq!(
            www_authenticate(&bearer, &Denial::Missing).unwrap(),
            "Bearer realm=\"entrez-mcp\""
        );
        assert!(www_authenticate(&AuthConfig::open(), &Denial::Missing).is_none());
        assert_eq!(Denial::InsufficientScope(vec![]).status(), 403);
        assert_eq!(Denial::Unavailable(String::new()).status(), 503);
    }

    #[test]
    fn metadata_names_the_resource_and_its_authorization_server() {
        let doc = protected_resource_metadata(&oauth()).unwrap();
        assert_eq!(doc["resource"], "https://entrez.example.org/mcp");
        assert_eq!(
            doc["authorization_servers"],
            json!(["https://as.example.org"])
        );
        assert_eq!(
            doc["scopes_supported"],
            json!(["entrez.read", "entrez.data"])
        );
        assert!(protected_resource_metadata(&AuthConfig::open()).is_none());
    }
}
