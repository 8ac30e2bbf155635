//! Who is calling: authentication for the HTTP transport of both edges.
//!
//! MCP's authorization specification makes a protected MCP server an OAuth 2.1
//! resource server; for a lab a shared list of tokens is often enough. This
//! module decides, from an `Authorization` header alone, whether a request is
//! served and as whom ([`Authenticator::authenticate`]); what a refused caller is
//! told is in [`challenge`]. The core never verifies a signature itself: like the
//! clock, that comes from the edge through [`SignatureVerifier`] (ring natively,
//! WebCrypto on Workers), and keys and introspection answers are fetched through
//! the edge's [`Transport`].

pub mod challenge;
pub mod config;
pub mod jwks;
pub mod jws;
pub mod remote;

pub use challenge::Denial;
pub use config::{AuthConfig, AuthMode};

use crate::net::Transport;
use crate::platform::{BoxFuture, MaybeSendSync};
use jwks::{Jwk, KeyCache};
use jws::Alg;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::sync::Mutex;

/// Verifies one signature; supplied by the edge.
pub trait SignatureVerifier: MaybeSendSync {
    /// Whether `signature` is `key`'s signature of `message` under `alg`; an error when the
    /// key cannot be used at all (a malformed key, a platform failure).
    fn verify<'a>(
        &'a self,
        alg: Alg,
        key: &'a Jwk,
        message: &'a [u8],
        signature: &'a [u8],
    ) -> BoxFuture<'a, Result<bool, String>>;
}

/// A transport for a server without network: every call fails (keys cannot be fetched).
pub struct NoTransport;

impl Transport for NoTransport {
    fn send<'a>(
        &'a self,
        _call: crate::net::HttpCall,
    ) -> BoxFuture<'a, Result<crate::net::HttpReply, crate::error::Error>> {
        Box::pin(async {
            Err(crate::error::Error::new(
                crate::error::ErrorKind::Unavailable,
                "no outbound network",
            ))
        })
    }

    fn sleep<'a>(&'a self, _ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(async {})
    }
}

/// A recognised caller: a stable key (a hash, never the token), a readable name and the
/// granted scopes. It owns that identity's datasets across sessions and protocol revisions,
/// and is what staging quotas count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// Stable and secret-free: a hash of the issuer and subject, or of the static token's identity.
    pub key: String,
    /// What to call it in results: the token's subject or the static token's identity.
    pub name: String,
    /// The scopes granted (empty for static tokens, which carry none).
    pub scopes: Vec<String>,
    /// How it was recognised.
    pub via: AuthMode,
}

/// The key of an identity: domain-separated, so it matches no other hash of the same text.
pub fn principal_key(kind: &str, issuer: &str, subject: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"entrez-mcp-principal\0");
    h.update(kind.as_bytes());
    h.update([0]);
    h.update(issuer.as_bytes());
    h.update([0]);
    h.update(subject.as_bytes());
    crate::hex::hex(&h.finalize()[..16])
}

/// Equality of two digests in time independent of where they differ.
fn same(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The authenticator of one endpoint.
pub struct Authenticator {
    /// The settings.
    pub config: AuthConfig,
    verifier: Option<Box<dyn SignatureVerifier>>,
    keys: Mutex<KeyCache>,
    jwks_uri: Mutex<Option<String>>,
}

impl Authenticator {
    /// An authenticator; oauth mode needs the edge's signature verifier.
    pub fn new(config: AuthConfig, verifier: Option<Box<dyn SignatureVerifier>>) -> Authenticator {
        let jwks_uri = config.jwks_url.clone();
        Authenticator {
            config,
            verifier,
            keys: Mutex::new(KeyCache::default()),
            jwks_uri: Mutex::new(jwks_uri),
        }
    }

    /// No authentication.
    pub fn open() -> Authenticator {
        Authenticator::new(AuthConfig::open(), None)
    }

    /// The caller behind an `Authorization` header: `Ok(None)` for an anonymous caller
    /// this deployment serves, `Ok(Some)` for a recognised one, else the refusal.
    ///
    /// In the three modes of [`AuthMode`]:
    /// - `none`: every HTTP caller is anonymous (local use, or an operator's choice);
    /// - `bearer`: a secret list of tokens, each naming an identity, compared by digest in
    ///   constant time and never logged;
    /// - `oauth`: JWT access tokens from one authorization server, checked for signature
    ///   (the server's JWK Set, fetched and cached), issuer, audience (this server's
    ///   resource identifier, RFC 8707), time and scopes; opaque tokens through
    ///   introspection (RFC 7662) when configured.
    pub async fn authenticate(
        &self,
        authorization: Option<&str>,
        transport: &dyn Transport,
        now_ms: u64,
    ) -> Result<Option<Principal>, Denial> {
        if self.config.mode == AuthMode::None {
            return Ok(None);
        }
        let token = match authorization.map(str::trim) {
            None => None,
            Some(h) => match h.split_once(' ') {
                Some((scheme, rest)) if scheme.eq_ignore_ascii_case("bearer") => {
                    let t = rest.trim();
                    let token68 = !t.is_empty()
                        && t.bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b));
                    if !token68 {
                        return Err(Denial::Malformed(
                            "the Authorization header holds no bearer token".into(),
                        ));
                    }
                    Some(t)
                }
                // Another scheme is no bearer token at all (RFC 6750 §3.1).
                _ => None,
            },
        };
        let Some(token) = token else {
            return if self.config.allow_anonymous {
                Ok(None)
            } else {
                Err(Denial::Missing)
            };
        };
        match self.config.mode {
            AuthMode::Bearer => self.static_token(token).map(Some),
            _ => self.access_token(token, transport, now_ms).await.map(Some),
        }
    }

    fn static_token(&self, token: &str) -> Result<Principal, Denial> {
        let digest = config::token_digest(token);
        // Every entry is compared, so the time taken does not say which one matched.
        let mut found: Option<&config::StaticToken> = None;
        for t in &self.config.tokens {
            if same(&t.digest, &digest) {
                found = Some(t);
            }
        }
        let t =
            found.ok_or_else(|| Denial::Invalid("the token is not one of this server's".into()))?;
        Ok(Principal {
            key: principal_key("bearer", "", &t.identity),
            name: t.identity.clone(),
            scopes: Vec::new(),
            via: AuthMode::Bearer,
        })
    }

    async fn access_token(
        &self,
        token: &str,
        transport: &dyn Transport,
        now_ms: u64,
    ) -> Result<Principal, Denial> {
        let audiences: Vec<String> = self
            .config
            .resource
            .iter()
            .chain(&self.config.extra_audiences)
            .map(|a| jws::normalize_resource(a))
            .collect();
        let issuer = self.config.issuer.clone().unwrap_or_default();
        let expect = jws::Expect {
            issuer: &issuer,
            audiences: &audiences,
            leeway_secs: self.config.leeway_secs,
            now_secs: now_ms / 1000,
        };
        let checked = match jws::parse(token) {
            Ok(jws) => {
                let key = self.key_for(&jws, transport, now_ms).await?;
                let verifier = self.verifier.as_ref().ok_or_else(|| {
                    Denial::Unavailable("no signature verifier on this edge".into())
                })?;
                match verifier
                    .verify(jws.alg, &key, jws.signing_input.as_bytes(), &jws.signature)
                    .await
                {
                    Ok(true) => {}
                    Ok(false) => {
                        return Err(Denial::Invalid(
                            "the token signature does not verify".into(),
                        ))
                    }
                    Err(e) => {
                        return Err(Denial::Invalid(format!(
                            "the signing key cannot be used ({e})"
                        )))
                    }
                }
                jws::check(&jws.claims, &expect).map_err(Denial::Invalid)?
            }
            // Not a JWT: an opaque token, which only introspection can judge.
            Err(why) if self.config.introspection_url.is_some() && !token.contains('.') => {
                let _ = why;
                remote::introspect(&self.config, token, transport, &expect).await?
            }
            Err(why) => return Err(Denial::Invalid(why)),
        };
        Ok(Principal {
            key: principal_key(
                if checked.client {
                    "oauth-client"
                } else {
                    "oauth"
                },
                &checked.issuer,
                &checked.subject,
            ),
            name: checked.subject,
            scopes: checked.scopes,
            via: AuthMode::OAuth,
        })
    }

    /// The key that verifies `jws`: from the cache, or fetched (once early for an unknown kid).
    async fn key_for(
        &self,
        jws: &jws::Jws,
        transport: &dyn Transport,
        now_ms: u64,
    ) -> Result<Jwk, Denial> {
        let cached = self.keys.lock().map(|c| c.clone()).unwrap_or_default();
        if cached.fresh(now_ms) {
            if let Some(k) = jwks::select(&cached.keys, jws.alg, jws.kid.as_deref()) {
                return Ok(k.clone());
            }
            if !cached.may_refetch(now_ms) {
                return Err(Denial::Invalid(
                    "the token is signed with a key the authorization server does not publish"
                        .into(),
                ));
            }
        }
        // After a failed fetch the authorization server is left alone for a while, so callers
        // (or strangers with made-up tokens) cannot make this server hammer it.
        let fetched = if cached.may_retry(now_ms) {
            let attempt = match self.jwks_uri(transport).await {
                Ok(uri) => remote::fetch_keys(&uri, transport, now_ms).await,
                Err(Denial::Unavailable(e)) => Err(e),
                Err(other) => return Err(other),
            };
            if attempt.is_err() {
                let mut failed = cached.clone();
                failed.failed_ms = now_ms;
                if let Ok(mut slot) = self.keys.lock() {
                    *slot = failed;
                }
            }
            attempt
        } else {
            Err("the authorization server could not be reached moments ago".to_string())
        };
        let cache = match fetched {
            Ok(c) => {
                if let Ok(mut slot) = self.keys.lock() {
                    *slot = c.clone();
                }
                c
            }
            // A set fetched before still serves, for a bounded time, while the server is away.
            Err(_) if cached.usable_stale(now_ms) => cached,
            Err(e) => return Err(Denial::Unavailable(e)),
        };
        jwks::select(&cache.keys, jws.alg, jws.kid.as_deref())
            .cloned()
            .ok_or_else(|| {
                Denial::Invalid(
                    "the token is signed with a key the authorization server does not publish"
                        .into(),
                )
            })
    }

    /// The configured key set URL, or the one the issuer's metadata names (found once).
    async fn jwks_uri(&self, transport: &dyn Transport) -> Result<String, Denial> {
        if let Some(u) = self.jwks_uri.lock().ok().and_then(|u| u.clone()) {
            return Ok(u);
        }
        let issuer = self.config.issuer.clone().unwrap_or_default();
        let uri = remote::discover_jwks_uri(&issuer, transport)
            .await
            .map_err(Denial::Unavailable)?;
        if let Ok(mut slot) = self.jwks_uri.lock() {
            *slot = Some(uri.clone());
        }
        Ok(uri)
    }

    /// The scopes a request needs: the base scope for everything, and the data scope besides
    /// for staging or dropping datasets (`tools/call` of entrez_data's writing operations).
    pub fn required_scopes(
        &self,
        method: &str,
        params: &serde_json::Map<String, Value>,
    ) -> Vec<String> {
        if self.config.mode != AuthMode::OAuth {
            return Vec::new();
        }
        let mut needed: Vec<String> = self.config.base_scope.iter().cloned().collect();
        let writes = method == "tools/call"
            && params.get("name").and_then(Value::as_str) == Some("entrez_data")
            && !only_reads(params.get("arguments"));
        if writes {
            needed.extend(self.config.data_scope.iter().cloned());
        }
        needed
    }

    /// Whether `principal` holds every scope in `needed` (the data scope implies the base one).
    pub fn permits(&self, principal: &Principal, needed: &[String]) -> bool {
        let data = self.config.data_scope.as_deref();
        let base = self.config.base_scope.as_deref();
        needed.iter().all(|n| {
            principal.scopes.iter().any(|s| s == n)
                || (Some(n.as_str()) == base
                    && data.is_some_and(|d| principal.scopes.iter().any(|s| s == d)))
        }) || principal.via == AuthMode::Bearer
    }
}

/// Whether entrez_data arguments can only name a reading operation. The tool reads names and
/// enum values leniently (case, `_` and `-`, spaces), so every key that could be taken as
/// `operation` is read the same way here; anything not plainly a read (an unknown
/// operation, two that disagree, none) needs the data scope: fail closed.
fn only_reads(arguments: Option<&Value>) -> bool {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '_' | '-') && !c.is_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let Some(Value::Object(arguments)) = arguments else {
        return false;
    };
    let mut named = arguments
        .iter()
        .filter(|(k, _)| fold(k) == "operation")
        .map(|(_, v)| v.as_str().map(fold));
    let read = |v: Option<String>| {
        v.is_some_and(|v| matches!(v.as_str(), "query" | "schema" | "listdatasets"))
    };
    match named.next() {
        Some(first) => read(first) && named.all(read),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_plain_reads_escape_the_data_scope() {
        for reads in [
            json!({"operation": "query"}),
            json!({"Operation": " List_Datasets "}),
            json!({"operation": "SCHEMA", "op-eration": "query"}),
        ] {
            assert!(only_reads(Some(&reads)), "{reads}");
        }
        for writes in [
            json!({"operation": "fetch_and_stage"}),
            json!({"operation": "FETCH_AND_STAGE"}),
            json!({"Operation": "fetch_and_stage"}),
            json!({"operation": " fetch_and_stage "}),
            json!({"op-eration": "Drop_Dataset"}),
            json!({"operation": "query", "OPERATION": "drop_dataset"}),
            json!({"operation": "stage"}),
            json!({"operation": 1}),
            json!({}),
            json!("query"),
        ] {
            assert!(!only_reads(Some(&writes)), "{writes}");
        }
        assert!(!only_reads(None));
    }

    #[test]
    fn principal_keys_are_stable_and_separate_kinds() {
        let a = principal_key("oauth", "https://as", "u1");
        assert_eq!(a.len(), 32);
        assert_eq!(a, principal_key("oauth", "https://as", "u1"));
        assert_ne!(a, principal_key("bearer", "https://as", "u1"));
        assert_ne!(a, principal_key("oauth", "https://as2", "u1"));
        assert!(same(&[1; 32], &[1; 32]) && !same(&[1; 32], &[2; 32]));
    }
}
