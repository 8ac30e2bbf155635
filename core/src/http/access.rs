//! Authorization at the HTTP door: who is calling, the refusals MCP clients understand, and
//! the metadata document that points them at the authorization server.
//!
//! The decision itself is [`crate::auth::Authenticator`]'s; this file turns it into HTTP:
//! a refusal is the specification's status with its `WWW-Authenticate` challenge and a
//! JSON-RPC error body, and the Protected Resource Metadata is served at both paths MCP
//! clients try.

use crate::auth::challenge;
use crate::auth::challenge::METADATA_PATH;
use crate::auth::challenge::METADATA_ROOT_PATH;
use crate::auth::{Authenticator, Denial, Principal};
use crate::error::{Error, ErrorKind};
use crate::http::{HttpRequest, HttpResponse};
use crate::protocol::Server;
use serde_json::Value;

/// The metadata document, for a GET of either metadata path (oauth mode; 404 otherwise).
pub(super) fn metadata(auth: &Authenticator, req: &HttpRequest) -> Option<HttpResponse> {
    if req.method != "GET" || !matches!(req.path.as_str(), METADATA_PATH | METADATA_ROOT_PATH) {
        return None;
    }
    Some(match challenge::protected_resource_metadata(&auth.config) {
        Some(doc) => {
            let mut r = HttpResponse::json(200, &doc);
            r.headers
                .push(("Cache-Control".into(), "max-age=300".into()));
            r
        }
        None => HttpResponse::json(
            404,
            &crate::json!({"error": "This server does not use OAuth; it publishes no protected resource metadata."}),
        ),
    })
}

/// The caller of a request to the MCP endpoint, or the refusal to send instead.
pub(super) async fn caller(
    auth: &Authenticator,
    server: &Server,
    req: &HttpRequest,
) -> Result<Option<Principal>, HttpResponse> {
    let headers: Vec<&str> = req
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("Authorization"))
        .map(|(_, v)| v.as_str())
        .collect();
    if headers.len() > 1 {
        return Err(denied(
            auth,
            Denial::Malformed("send one Authorization header".into()),
        ));
    }
    let Some(network) = server.network() else {
        return auth
            .authenticate(
                headers.first().copied(),
                &crate::auth::NoTransport,
                server.platform().now_unix_ms(),
            )
            .await
            .map_err(|d| denied(auth, d));
    };
    auth.authenticate(
        headers.first().copied(),
        network.transport.as_ref(),
        server.platform().now_unix_ms(),
    )
    .await
    .map_err(|d| denied(auth, d))
}

/// 403 when an authenticated caller lacks a scope the request needs.
pub(super) fn scope_check(
    auth: &Authenticator,
    principal: Option<&Principal>,
    method: &str,
    params: &serde_json::Map<String, Value>,
) -> Result<(), HttpResponse> {
    let Some(p) = principal else {
        return Ok(());
    };
    let needed = auth.required_scopes(method, params);
    if auth.permits(p, &needed) {
        Ok(())
    } else {
        Err(denied(auth, Denial::InsufficientScope(needed)))
    }
}

/// The refusal as HTTP: status, challenge, and a JSON-RPC error body.
pub(super) fn denied(auth: &Authenticator, denial: Denial) -> HttpResponse {
    let error = Error::new(ErrorKind::InvalidRequest, denial.message()).with_code(denial.code());
    let mut r = HttpResponse::rpc_error(denial.status(), Value::Null, error);
    if let Some(challenge) = challenge::www_authenticate(&auth.config, &denial) {
        r.headers.push(("WWW-Authenticate".into(), challenge));
    }
    if denial.status() == 503 {
        r.headers.push(("Retry-After".into(), "5".into()));
    }
    r
}
