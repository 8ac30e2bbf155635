//! Authorization on the HTTP endpoint, as the MCP specification defines it, in both modes.
//!
//! Tokens are made here: ES256 with a key pair ring generates for the test, served as the
//! authorization server's JWK Set by a stand-in transport (the RS256 path is checked
//! against RFC 7515's own example in the verifier's unit tests, and end to end with the
//! Node authorization server of the E2E suite). Every refusal is checked for its status
//! and its `WWW-Authenticate` challenge, every success for whom it was taken as.

use crate::common::{block_on, initialize_body, post, TestPlatform, T0};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use entrez_mcp::store::SqliteStore;
use entrez_mcp::verify::RingVerifier;
use entrez_mcp_core::auth::{jwks, AuthConfig, Authenticator};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::{Error, ErrorKind};
use entrez_mcp_core::http::{Endpoint, HttpResponse, Sessions};
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::{HttpCall, HttpReply, Network, Transport};
use entrez_mcp_core::platform::BoxFuture;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::{Limits, Staging};
use ring::rand::SystemRandom;
use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_FIXED_SIGNING};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

const ISSUER: &str = "https://as.example.org";
const RESOURCE: &str = "https://entrez.example.org/mcp";
const TOKEN_A: &str = "alice-0123456789abcdef";
const TOKEN_B: &str = "bob-fedcba9876543210";

/// The authorization server's signing key, and its JWK Set.
struct Keys {
    pair: EcdsaKeyPair,
    jwks: Value,
}

fn keys() -> Keys {
    let rng = SystemRandom::new();
    let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
    let pair =
        EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng).unwrap();
    let point = pair.public_key().as_ref();
    let jwks = json!({"keys": [{"kty": "EC", "crv": "P-256", "kid": "es1", "use": "sig", "alg": "ES256",
        "x": URL_SAFE_NO_PAD.encode(&point[1..33]), "y": URL_SAFE_NO_PAD.encode(&point[33..65])}]});
    Keys { pair, jwks }
}

fn sign(keys: &Keys, header: Value, claims: Value) -> String {
    let input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let sig = keys
        .pair
        .sign(&SystemRandom::new(), input.as_bytes())
        .unwrap();
    format!("{input}.{}", URL_SAFE_NO_PAD.encode(sig.as_ref()))
}

fn claims(scope: &str) -> Value {
    let now = T0 / 1000;
    json!({"iss": ISSUER, "aud": RESOURCE, "sub": "researcher-1", "scope": scope, "iat": now, "nbf": now, "exp": now + 300})
}

/// The authorization server as this server sees it: metadata and keys, or nothing.
struct AsTransport {
    jwks: Value,
    up: Arc<AtomicBool>,
    fetches: Arc<AtomicUsize>,
}

impl Transport for AsTransport {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
        Box::pin(async move {
            if !self.up.load(Ordering::SeqCst) {
                return Err(Error::new(ErrorKind::Unavailable, "down"));
            }
            let body = if call.url == format!("{ISSUER}/.well-known/oauth-authorization-server") {
                json!({"issuer": ISSUER, "jwks_uri": format!("{ISSUER}/jwks")})
            } else if call.url == format!("{ISSUER}/jwks") {
                self.fetches.fetch_add(1, Ordering::SeqCst);
                self.jwks.clone()
            } else {
                return Ok(HttpReply {
                    status: 404,
                    headers: vec![],
                    body: vec![],
                });
            };
            Ok(HttpReply {
                status: 200,
                headers: vec![("content-type".into(), "application/json".into())],
                body: body.to_string().into_bytes(),
            })
        })
    }
    fn sleep<'a>(&'a self, _ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

struct Harness {
    endpoint: Endpoint,
    up: Arc<AtomicBool>,
    fetches: Arc<AtomicUsize>,
    platform: Arc<TestPlatform>,
}

fn harness(env: &[(&str, &str)], jwks: Value) -> Harness {
    harness_on(env, jwks, false)
}

/// `local`: the edge serves this machine only (the native server on a loopback address).
fn harness_on(env: &[(&str, &str)], jwks: Value, local: bool) -> Harness {
    let owned: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let lookup = move |k: &str| owned.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let mut config = Config::from_lookup(&lookup);
    config.auth = AuthConfig::from_lookup(&lookup, local).unwrap();
    let auth = Authenticator::new(config.auth.clone(), Some(Box::new(RingVerifier)));
    let up = Arc::new(AtomicBool::new(true));
    let fetches = Arc::new(AtomicUsize::new(0));
    let platform = Arc::new(TestPlatform::default());
    platform.now_ms.store(T0, Ordering::SeqCst);
    let server = Server::new(config, Box::new(platform.clone()))
        .unwrap()
        .with_network(Network {
            transport: Box::new(AsTransport {
                jwks,
                up: up.clone(),
                fetches: fetches.clone(),
            }),
            pacer: Box::new(MemoryPacer::new()),
            cache: None,
        })
        .with_staging(Staging::new(
            SqliteStore::in_memory().unwrap(),
            Limits::default(),
        ))
        .unwrap();
    Harness {
        endpoint: Endpoint::new(server, Sessions::new(b"k".to_vec(), 600, true)).with_auth(auth),
        up,
        fetches,
        platform,
    }
}

fn oauth(keys: &Keys) -> Harness {
    harness(
        &[
            ("MCP_AUTH_MODE", "oauth"),
            ("MCP_AUTH_ISSUER", ISSUER),
            ("MCP_AUTH_RESOURCE", RESOURCE),
            ("NCBI_API_KEY", "server-key-123"),
        ],
        keys.jwks.clone(),
    )
}

fn send(h: &Harness, body: &str, headers: &[(&str, &str)]) -> HttpResponse {
    block_on(h.endpoint.handle(post(body, headers)))
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A stateless (2026-07-28) tools/call, which needs no session.
fn tool_call(name: &str, arguments: Value) -> (String, Vec<(&'static str, String)>) {
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": name, "arguments": arguments,
        "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}});
    let headers = vec![
        ("MCP-Protocol-Version", "2026-07-28".to_string()),
        ("Mcp-Method", "tools/call".to_string()),
        ("Mcp-Name", name.to_string()),
    ];
    (body.to_string(), headers)
}

fn call_as(h: &Harness, token: Option<&str>, name: &str, arguments: Value) -> HttpResponse {
    let (body, mut headers) = tool_call(name, arguments);
    if let Some(t) = token {
        headers.push(("Authorization", bearer(t)));
    }
    let refs: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    send(h, &body, &refs)
}

#[test]
fn oauth_mode_refuses_without_a_token_and_points_at_the_metadata() {
    let k = keys();
    let h = oauth(&k);
    let r = send(&h, &initialize_body("2025-11-25"), &[]);
    assert_eq!(r.status, 401);
    assert_eq!(
        r.header("WWW-Authenticate"),
        Some("Bearer resource_metadata=\"https://entrez.example.org/.well-known/oauth-protected-resource/mcp\", scope=\"entrez.read\"")
    );
    assert_eq!(
        r.json_body()["error"]["data"]["code"],
        "unauthorized",
        "{}",
        r.json_body()
    );
    // The stateless revision's discovery is protected like everything else.
    let (body, headers) = tool_call("entrez_capabilities", json!({}));
    let refs: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(send(&h, &body, &refs).status, 401);
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let m = block_on(h.endpoint.handle(entrez_mcp_core::http::HttpRequest {
            method: "GET".into(),
            path: path.into(),
            headers: vec![("Host".into(), "localhost".into())],
            ..Default::default()
        }));
        assert_eq!(m.status, 200, "{path}");
        let doc = m.json_body();
        assert_eq!(doc["resource"], RESOURCE);
        assert_eq!(doc["authorization_servers"], json!([ISSUER]));
        assert_eq!(
            doc["scopes_supported"],
            json!(["entrez.read", "entrez.data"])
        );
    }
}

#[test]
fn valid_tokens_are_served_and_every_kind_of_bad_one_is_invalid_token() {
    let k = keys();
    let h = oauth(&k);
    let good = sign(
        &k,
        json!({"alg": "ES256", "kid": "es1", "typ": "at+jwt"}),
        claims("entrez.read"),
    );
    let ok = call_as(&h, Some(&good), "system_api_key_status", json!({}));
    assert_eq!(ok.status, 200, "{}", String::from_utf8_lossy(&ok.body));
    let sc = &ok.json_body()["result"]["structuredContent"];
    assert_eq!(sc["caller"]["identity"], "researcher-1");
    assert_eq!(sc["caller"]["authenticated"], true);
    // An authenticated caller spends the server's key; no part of it is shown.
    assert_eq!(sc["source"], "server_secret");
    assert!(!String::from_utf8_lossy(&ok.body).contains("server-key-123"));
    let with = |field: &str, v: Value| {
        let mut c = claims("entrez.read");
        c[field] = v;
        sign(&k, json!({"alg": "ES256", "kid": "es1"}), c)
    };
    let mut tampered = good.clone();
    tampered.pop();
    tampered.push(if good.ends_with('A') { 'B' } else { 'A' });
    let none = format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(json!({"alg": "none"}).to_string()),
        URL_SAFE_NO_PAD.encode(claims("entrez.read").to_string())
    );
    for (label, token) in [
        ("expired", with("exp", json!(T0 / 1000 - 120))),
        ("not yet valid", with("nbf", json!(T0 / 1000 + 600))),
        (
            "wrong audience",
            with("aud", json!("https://other.example.org/mcp")),
        ),
        (
            "wrong issuer",
            with("iss", json!("https://evil.example.org")),
        ),
        ("badly signed", tampered),
        (
            "unknown key",
            sign(
                &k,
                json!({"alg": "ES256", "kid": "nope"}),
                claims("entrez.read"),
            ),
        ),
        ("alg none", none),
        ("not a JWT", "opaque-token-value".into()),
    ] {
        let r = call_as(&h, Some(&token), "system_api_key_status", json!({}));
        assert_eq!(r.status, 401, "{label}");
        let challenge = r.header("WWW-Authenticate").unwrap_or_default();
        assert!(
            challenge.contains("error=\"invalid_token\"")
                && challenge.contains("resource_metadata="),
            "{label}: {challenge}"
        );
        assert!(
            !challenge.contains(&token),
            "{label}: the token is never echoed"
        );
    }
    // Keys are fetched once and cached; the unknown kid refetches at most once a minute.
    assert!(
        h.fetches.load(Ordering::SeqCst) <= 2,
        "{}",
        h.fetches.load(Ordering::SeqCst)
    );
    let malformed = call_as(&h, Some("two words"), "system_api_key_status", json!({}));
    assert_eq!(malformed.status, 400);
}

#[test]
fn staging_needs_the_data_scope_and_the_challenge_names_every_scope_needed() {
    let k = keys();
    let h = oauth(&k);
    let read_only = sign(
        &k,
        json!({"alg": "ES256", "kid": "es1"}),
        claims("entrez.read"),
    );
    let r = call_as(
        &h,
        Some(&read_only),
        "entrez_data",
        json!({"operation": "fetch_and_stage", "ids": ["1"]}),
    );
    assert_eq!(r.status, 403);
    // The tool reads operations leniently; the scope check reads them the same way.
    for lenient in [
        json!({"operation": "FETCH_AND_STAGE", "ids": ["1"]}),
        json!({"Operation": " drop_dataset ", "data_access_id": "0123456789abcdef0123456789abcdef"}),
    ] {
        let w = call_as(&h, Some(&read_only), "entrez_data", lenient.clone());
        assert_eq!(w.status, 403, "{lenient}");
    }
    let challenge = r.header("WWW-Authenticate").unwrap();
    assert!(
        challenge.contains("scope=\"entrez.read entrez.data\", error=\"insufficient_scope\""),
        "{challenge}"
    );
    // Reading needs only the base scope; the data scope implies it.
    assert_eq!(
        call_as(
            &h,
            Some(&read_only),
            "entrez_data",
            json!({"operation": "list_datasets"})
        )
        .status,
        200
    );
    let data_only = sign(
        &k,
        json!({"alg": "ES256", "kid": "es1"}),
        claims("entrez.data"),
    );
    assert_eq!(
        call_as(
            &h,
            Some(&data_only),
            "entrez_data",
            json!({"operation": "list_datasets"})
        )
        .status,
        200
    );
}

#[test]
fn an_unreachable_authorization_server_is_503_not_a_bad_token() {
    let k = keys();
    let h = oauth(&k);
    h.up.store(false, Ordering::SeqCst);
    let token = sign(
        &k,
        json!({"alg": "ES256", "kid": "es1"}),
        claims("entrez.read"),
    );
    let r = call_as(&h, Some(&token), "system_api_key_status", json!({}));
    assert_eq!(r.status, 503);
    assert!(r.header("Retry-After").is_some());
    // Tokens arriving meanwhile do not send this server to the authorization server again.
    let asked = h.fetches.load(Ordering::SeqCst);
    for _ in 0..5 {
        let again = call_as(&h, Some(&token), "system_api_key_status", json!({}));
        assert_eq!(again.status, 503);
    }
    assert_eq!(h.fetches.load(Ordering::SeqCst), asked);
    // Once it is back, and the pause is over, the keys are fetched and the token served.
    h.up.store(true, Ordering::SeqCst);
    h.platform
        .now_ms
        .store(T0 + jwks::RETRY_AFTER_FAILURE_MS, Ordering::SeqCst);
    let token = sign(
        &k,
        json!({"alg": "ES256", "kid": "es1"}),
        claims("entrez.read"),
    );
    let ok = call_as(&h, Some(&token), "system_api_key_status", json!({}));
    assert_eq!(ok.status, 200, "{}", String::from_utf8_lossy(&ok.body));
}

#[test]
fn bearer_mode_names_identities_and_binds_sessions_to_them() {
    let h = harness(
        &[
            ("MCP_AUTH_MODE", "bearer"),
            ("MCP_AUTH_TOKENS", &format!("alice:{TOKEN_A},bob:{TOKEN_B}")),
            ("NCBI_API_KEY", "server-key-123"),
        ],
        json!({"keys": []}),
    );
    let none = send(&h, &initialize_body("2025-11-25"), &[]);
    assert_eq!(none.status, 401);
    assert_eq!(
        none.header("WWW-Authenticate"),
        Some("Bearer realm=\"entrez-mcp\"")
    );
    let wrong = send(
        &h,
        &initialize_body("2025-11-25"),
        &[("Authorization", "Bearer not-a-token-of-ours-at-all")],
    );
    assert_eq!(wrong.status, 401);
    assert!(wrong
        .header("WWW-Authenticate")
        .unwrap()
        .contains("invalid_token"));
    // No metadata in bearer mode: there is no authorization server to point at.
    let m = block_on(h.endpoint.handle(entrez_mcp_core::http::HttpRequest {
        method: "GET".into(),
        path: "/.well-known/oauth-protected-resource/mcp".into(),
        headers: vec![("Host".into(), "localhost".into())],
        ..Default::default()
    }));
    assert_eq!(m.status, 404);
    let alice = bearer(TOKEN_A);
    let opened = send(
        &h,
        &initialize_body("2025-11-25"),
        &[("Authorization", &alice)],
    );
    assert_eq!(opened.status, 200);
    let session = opened.header("Mcp-Session-Id").unwrap().to_string();
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string();
    let in_session = |token: &str| {
        send(
            &h,
            &list,
            &[
                ("Authorization", &bearer(token)),
                ("Mcp-Session-Id", &session),
                ("MCP-Protocol-Version", "2025-11-25"),
            ],
        )
    };
    assert_eq!(in_session(TOKEN_A).status, 200);
    // Alice's session is no credential for Bob.
    assert_eq!(in_session(TOKEN_B).status, 404);
}

#[test]
fn an_identity_owns_its_datasets_from_any_session_and_revision() {
    let h = harness(
        &[
            ("MCP_AUTH_MODE", "bearer"),
            ("MCP_AUTH_TOKENS", &format!("alice:{TOKEN_A},bob:{TOKEN_B}")),
        ],
        json!({"keys": []}),
    );
    let list = |token: &str| {
        let r = call_as(
            &h,
            Some(token),
            "entrez_data",
            json!({"operation": "list_datasets"}),
        );
        assert_eq!(r.status, 200);
        r.json_body()["result"]["structuredContent"].clone()
    };
    let alice = list(TOKEN_A);
    assert_eq!(alice["owner_scope"], "identity", "{alice}");
    let status = call_as(&h, Some(TOKEN_A), "system_api_key_status", json!({}));
    let sc = &status.json_body()["result"]["structuredContent"];
    assert_eq!(sc["caller"]["identity"], "alice");
    assert_eq!(sc["allowances"]["datasets_left"], 20);
    assert_eq!(sc["allowances"]["stagings_left"], 120);
}

#[test]
fn anonymous_callers_of_an_open_public_deployment_do_not_spend_the_operators_key() {
    let h = harness(&[("NCBI_API_KEY", "server-key-123")], json!({"keys": []}));
    let r = call_as(&h, None, "system_api_key_status", json!({}));
    let sc = &r.json_body()["result"]["structuredContent"];
    assert_eq!(sc["source"], "none");
    assert_eq!(sc["caller"]["server_key_for_you"], false);
    assert_eq!(
        sc["allowances"]["datasets_left"], 5,
        "anonymous callers are limited by address"
    );
    let allowed = harness(
        &[
            ("NCBI_API_KEY", "server-key-123"),
            ("ENTREZ_ANONYMOUS_USE_SERVER_KEY", "true"),
        ],
        json!({"keys": []}),
    );
    let r = call_as(&allowed, None, "system_api_key_status", json!({}));
    assert_eq!(
        r.json_body()["result"]["structuredContent"]["source"],
        "server_secret"
    );
}

#[test]
fn an_open_server_on_loopback_serves_its_machine_as_the_operator() {
    let h = harness_on(
        &[("NCBI_API_KEY", "server-key-123")],
        json!({"keys": []}),
        true,
    );
    let r = call_as(&h, None, "system_api_key_status", json!({}));
    let sc = &r.json_body()["result"]["structuredContent"];
    assert_eq!(sc["source"], "server_secret");
    assert_eq!(sc["caller"]["server_key_for_you"], true);
    assert_eq!(
        sc["allowances"]["datasets_left"],
        Value::Null,
        "no per-address limit for the machine's own user, only the deployment's totals"
    );
    assert_eq!(sc["allowances"]["total_datasets_left"], 1000);
    // The same loopback server with a mode set is no longer the operator's alone.
    let guarded = harness_on(
        &[
            ("NCBI_API_KEY", "server-key-123"),
            ("MCP_AUTH_MODE", "bearer"),
            ("MCP_AUTH_TOKENS", &format!("alice:{TOKEN_A}")),
            ("MCP_AUTH_ANONYMOUS", "true"),
        ],
        json!({"keys": []}),
        true,
    );
    let r = call_as(&guarded, None, "system_api_key_status", json!({}));
    let sc = &r.json_body()["result"]["structuredContent"];
    assert_eq!(sc["source"], "none");
    assert_eq!(sc["allowances"]["datasets_left"], 5);
}
