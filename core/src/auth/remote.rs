//! What the authenticator asks the authorization server: its metadata (RFC 8414, for the key
//! set's address), its key set, and, for opaque tokens, introspection (RFC 7662).
//!
//! Each is one bounded HTTP call through the edge's transport, never retried in a loop:
//! a failure is reported as unavailability (503 to the caller), not as a bad token.

use crate::auth::config::AuthConfig;
use crate::auth::jwks;
use crate::auth::jwks::KeyCache;
use crate::auth::jws;
use crate::auth::jws::Checked;
use crate::auth::jws::Expect;
use crate::auth::Denial;
use crate::net::{form_encode, percent_encode, HttpCall, Method, Transport};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{Map, Value};

/// Time one call to the authorization server may take.
pub const TIMEOUT_MS: u64 = 5_000;
/// The most bytes a metadata document, key set or introspection answer may take.
pub const MAX_BYTES: u64 = 256 * 1024;

fn get(url: &str) -> HttpCall {
    HttpCall {
        method: Method::Get,
        url: url.to_string(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: None,
        timeout_ms: TIMEOUT_MS,
        max_bytes: MAX_BYTES,
        follow_redirects: false,
    }
}

/// The key set's URL from the issuer's metadata, whose `issuer` must be the one configured.
pub async fn discover_jwks_uri(issuer: &str, transport: &dyn Transport) -> Result<String, String> {
    let base = issuer.trim_end_matches('/');
    // RFC 8414 §3: the well-known path goes between the host and any path of the issuer.
    let (origin, path) = match base.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('/') {
            Some((host, p)) => (format!("{scheme}://{host}"), format!("/{p}")),
            None => (base.to_string(), String::new()),
        },
        None => return Err("the issuer is not a URL".into()),
    };
    for url in [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
        format!("{base}/.well-known/openid-configuration"),
    ] {
        let Ok(reply) = transport.send(get(&url)).await else {
            continue;
        };
        if reply.status != 200 {
            continue;
        }
        let Ok(doc) = serde_json::from_slice::<Value>(&reply.body) else {
            continue;
        };
        if doc["issuer"].as_str() != Some(issuer) {
            return Err("the authorization server's metadata names another issuer".into());
        }
        return doc["jwks_uri"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| "the authorization server publishes no jwks_uri".into());
    }
    Err("the authorization server's metadata cannot be fetched".into())
}

/// Fetches the key set.
pub async fn fetch_keys(
    uri: &str,
    transport: &dyn Transport,
    now_ms: u64,
) -> Result<KeyCache, String> {
    let reply = transport
        .send(get(uri))
        .await
        .map_err(|_| "the authorization server's keys cannot be fetched".to_string())?;
    if reply.status != 200 {
        return Err(format!("the key set answered HTTP {}", reply.status));
    }
    Ok(KeyCache {
        keys: jwks::parse_jwks(&reply.body)?,
        fetched_ms: now_ms,
        ttl_ms: jwks::ttl_ms(reply.header("cache-control")),
        failed_ms: 0,
    })
}

/// Asks the introspection endpoint about an opaque token; an active one must still name this
/// server as its audience, be unexpired and come from the configured issuer.
pub async fn introspect(
    config: &AuthConfig,
    token: &str,
    transport: &dyn Transport,
    expect: &Expect<'_>,
) -> Result<Checked, Denial> {
    let url = config.introspection_url.as_deref().unwrap_or_default();
    let mut headers = vec![
        (
            "Content-Type".to_string(),
            "application/x-www-form-urlencoded".to_string(),
        ),
        ("Accept".to_string(), "application/json".to_string()),
    ];
    if let Some((id, secret)) = &config.introspection_client {
        // RFC 6749 §2.3.1: each part form-encoded before the pair is base64-encoded.
        let basic = STANDARD.encode(format!(
            "{}:{}",
            percent_encode(id),
            percent_encode(secret.expose())
        ));
        headers.push(("Authorization".into(), format!("Basic {basic}")));
    }
    let call = HttpCall {
        method: Method::Post,
        url: url.to_string(),
        headers,
        body: Some(
            form_encode(&[
                ("token".into(), token.to_string()),
                ("token_type_hint".into(), "access_token".into()),
            ])
            .into_bytes(),
        ),
        timeout_ms: TIMEOUT_MS,
        max_bytes: MAX_BYTES,
        follow_redirects: false,
    };
    let reply = transport
        .send(call)
        .await
        .map_err(|_| Denial::Unavailable("the introspection endpoint cannot be reached".into()))?;
    if reply.status != 200 {
        return Err(Denial::Unavailable(format!(
            "introspection answered HTTP {}",
            reply.status
        )));
    }
    let answer: Map<String, Value> = serde_json::from_slice(&reply.body).map_err(|_| {
        Denial::Unavailable("introspection answered something other than JSON".into())
    })?;
    if answer.get("active") != Some(&Value::Bool(true)) {
        return Err(Denial::Invalid("the token is not active".into()));
    }
    jws::check(&answer, expect).map_err(Denial::Invalid)
}
