//! JWT access tokens: the compact JWS form, its header, and the claims a resource server checks.
//!
//! Only what an MCP resource server needs: RS256 and ES256 signatures (RFC 7518;
//! `none`, HMAC and everything else refused, RFC 8725 §3.1), keys only from the
//! configured key set (`jku`, `x5u`, `jwk` and `x5c` in a header are never
//! followed), no `crit` extensions, and the claims of RFC 9068: `iss`, `aud`
//! (this server, RFC 8707), `exp`, `nbf`, `iat`, `sub`, and the scopes in
//! `scope` (a space-separated string) or `scp` (a string or a list).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{Map, Value};

/// Longest token read; real access tokens are a few hundred bytes to a few KB.
pub const MAX_TOKEN_BYTES: usize = 8 * 1024;

/// A signature algorithm this server verifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alg {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    Rs256,
    /// ECDSA on P-256 with SHA-256 (the signature is r ‖ s, 64 bytes).
    Es256,
}

impl Alg {
    /// The JWK `kty` a key for this algorithm has.
    pub fn key_type(self) -> &'static str {
        match self {
            Alg::Rs256 => "RSA",
            Alg::Es256 => "EC",
        }
    }

    /// The JOSE name.
    pub fn name(self) -> &'static str {
        match self {
            Alg::Rs256 => "RS256",
            Alg::Es256 => "ES256",
        }
    }
}

/// A token in compact JWS form, decoded but not yet verified.
#[derive(Debug, Clone)]
pub struct Jws {
    /// The signature algorithm.
    pub alg: Alg,
    /// The key id, when the header names one.
    pub kid: Option<String>,
    /// The claims (payload) as JSON.
    pub claims: Map<String, Value>,
    /// `base64url(header) "." base64url(payload)`: the bytes the signature covers.
    pub signing_input: String,
    /// The signature bytes.
    pub signature: Vec<u8>,
}

fn decode(part: &str) -> Result<Vec<u8>, String> {
    URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| "the token is not base64url".to_string())
}

/// Reads a compact JWS. The error text is safe for a `WWW-Authenticate` `error_description`.
pub fn parse(token: &str) -> Result<Jws, String> {
    if token.len() > MAX_TOKEN_BYTES {
        return Err("the token is too long".into());
    }
    let parts: Vec<&str> = token.split('.').collect();
    let [h, p, s] = parts.as_slice() else {
        return Err("the token is not a signed JWT".into());
    };
    let header: Map<String, Value> = serde_json::from_slice(&decode(h)?)
        .map_err(|_| "the token header is not JSON".to_string())?;
    let alg = match header.get("alg").and_then(Value::as_str) {
        Some("RS256") => Alg::Rs256,
        Some("ES256") => Alg::Es256,
        Some(other) => {
            return Err(format!(
                "algorithm {} is not accepted",
                other
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric())
                    .collect::<String>()
            ))
        }
        None => return Err("the token names no algorithm".into()),
    };
    if header.contains_key("crit") {
        return Err("the token has critical extensions".into());
    }
    let claims: Map<String, Value> = serde_json::from_slice(&decode(p)?)
        .map_err(|_| "the token claims are not a JSON object".to_string())?;
    Ok(Jws {
        alg,
        kid: header.get("kid").and_then(Value::as_str).map(String::from),
        claims,
        signing_input: format!("{h}.{p}"),
        signature: decode(s)?,
    })
}

/// The claims a resource server relies on, after checking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// `iss`.
    pub issuer: String,
    /// `sub` (or `client_id` for a machine token without one).
    pub subject: String,
    /// The subject is the client (`client_id`), not a user: a kind of its own, so a client
    /// and a user of the same name are never one identity.
    pub client: bool,
    /// The granted scopes.
    pub scopes: Vec<String>,
}

/// What the claims must say.
#[derive(Debug, Clone)]
pub struct Expect<'a> {
    /// The issuer, compared exactly.
    pub issuer: &'a str,
    /// Accepted audiences (this server's resource identifier first), normalized.
    pub audiences: &'a [String],
    /// Clock skew allowed, seconds.
    pub leeway_secs: u64,
    /// Now, seconds since the epoch.
    pub now_secs: u64,
}

/// A resource identifier compared as RFC 8707 and the MCP specification ask: scheme and
/// host without regard to case, one trailing slash ignored.
pub fn normalize_resource(uri: &str) -> String {
    let uri = uri.trim().trim_end_matches('/');
    match uri.split_once("://") {
        Some((scheme, rest)) => {
            let (host, path) = rest.split_once('/').map_or((rest, ""), |(h, p)| (h, p));
            let mut out = format!(
                "{}://{}",
                scheme.to_ascii_lowercase(),
                host.to_ascii_lowercase()
            );
            if !path.is_empty() {
                out.push('/');
                out.push_str(path);
            }
            out
        }
        None => uri.to_string(),
    }
}

fn number(claims: &Map<String, Value>, name: &str) -> Result<Option<u64>, String> {
    match claims.get(name) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .map(Some)
            .ok_or_else(|| format!("the {name} claim is not a time")),
    }
}

/// The scopes a token grants: `scope` (space-separated), else `scp` (string or list).
pub fn scopes(claims: &Map<String, Value>) -> Vec<String> {
    let split = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(s)), _) => split(s),
        (_, Some(Value::String(s))) => split(s),
        (_, Some(Value::Array(list))) => list
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
        _ => Vec::new(),
    }
}

/// Checks issuer, audience and time; returns who the token is for and what it grants.
pub fn check(claims: &Map<String, Value>, expect: &Expect<'_>) -> Result<Checked, String> {
    let issuer = claims
        .get("iss")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if issuer != expect.issuer {
        return Err("the token was issued by another authorization server".into());
    }
    let audiences: Vec<String> = match claims.get("aud") {
        Some(Value::String(a)) => vec![normalize_resource(a)],
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .map(normalize_resource)
            .collect(),
        _ => Vec::new(),
    };
    if !audiences.iter().any(|a| expect.audiences.contains(a)) {
        return Err("the token was issued for another resource (aud)".into());
    }
    let now = expect.now_secs;
    let leeway = expect.leeway_secs;
    let exp = number(claims, "exp")?.ok_or("the token has no expiry (exp)")?;
    if now >= exp.saturating_add(leeway) {
        return Err("the token has expired".into());
    }
    if let Some(nbf) = number(claims, "nbf")? {
        if now.saturating_add(leeway) < nbf {
            return Err("the token is not valid yet (nbf)".into());
        }
    }
    if let Some(iat) = number(claims, "iat")? {
        if iat > now.saturating_add(leeway) {
            return Err("the token was issued in the future (iat)".into());
        }
    }
    let named = |claim: &str| {
        claims
            .get(claim)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let (subject, client) = match (claims.get("sub"), named("client_id")) {
        (Some(_), _) => (
            named("sub").ok_or("the token names no subject (sub)")?,
            false,
        ),
        (None, Some(c)) => (c, true),
        (None, None) => return Err("the token names no subject (sub)".into()),
    };
    Ok(Checked {
        issuer: issuer.to_string(),
        subject: subject.to_string(),
        client,
        scopes: scopes(claims),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn b64(v: &Value) -> String {
        URL_SAFE_NO_PAD.encode(v.to_string())
    }

    fn claims(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn a_client_without_a_subject_is_a_client_not_a_user() {
        let expect = Expect {
            issuer: "https://as",
            audiences: &["https://rs/mcp".to_string()],
            leeway_secs: 0,
            now_secs: 100,
        };
        let base = json!({"iss": "https://as", "aud": "https://rs/mcp", "exp": 200});
        let mut machine = base.clone();
        machine["client_id"] = json!("svc");
        let c = check(&claims(machine), &expect).unwrap();
        assert!(c.client && c.subject == "svc");
        let mut user = base.clone();
        user["sub"] = json!("svc");
        user["client_id"] = json!("app");
        let u = check(&claims(user), &expect).unwrap();
        assert!(!u.client && u.subject == "svc");
        let mut empty = base;
        empty["sub"] = json!("");
        empty["client_id"] = json!("app");
        assert!(
            check(&claims(empty), &expect).is_err(),
            "an empty sub is no subject"
        );
    }

    #[test]
    fn only_rs256_and_es256_compact_tokens_are_read() {
        let body = b64(&json!({"iss": "i"}));
        let ok = format!(
            "{}.{body}.{}",
            b64(&json!({"alg": "ES256", "kid": "k1", "jku": "https://evil"})),
            URL_SAFE_NO_PAD.encode([1u8; 64])
        );
        let jws = parse(&ok).unwrap();
        assert_eq!((jws.alg, jws.kid.as_deref()), (Alg::Es256, Some("k1")));
        assert_eq!(jws.signature.len(), 64);
        assert!(jws.signing_input.ends_with(&body));
        for alg in ["none", "HS256", "RS512"] {
            let t = format!("{}.{body}.", b64(&json!({"alg": alg})));
            assert!(parse(&t).unwrap_err().contains("not accepted"), "{alg}");
        }
        assert!(parse("a.b").is_err());
        assert!(parse(&format!(
            "{}.{body}.x",
            b64(&json!({"alg": "RS256", "crit": ["exp"]}))
        ))
        .is_err());
        assert!(parse(&"a".repeat(MAX_TOKEN_BYTES + 1)).is_err());
        // Error texts are fit for error_description: no quote, no backslash.
        assert!(
            !parse(&format!("{}.{body}.", b64(&json!({"alg": "x\"\\y"}))))
                .unwrap_err()
                .contains(['"', '\\'])
        );
    }

    #[test]
    fn claims_are_checked_for_issuer_audience_time_and_subject() {
        let aud = vec![normalize_resource("https://Entrez.Example.org/mcp/")];
        let expect = Expect {
            issuer: "https://as",
            audiences: &aud,
            leeway_secs: 60,
            now_secs: 1_000,
        };
        let good = json!({"iss": "https://as", "aud": "https://entrez.example.org/mcp", "sub": "u1", "exp": 2_000, "nbf": 900, "iat": 900, "scope": "entrez.read entrez.data"});
        let c = check(&claims(good.clone()), &expect).unwrap();
        assert_eq!(c.subject, "u1");
        assert_eq!(c.scopes, ["entrez.read", "entrez.data"]);
        let with = |k: &str, v: Value| {
            let mut g = good.clone();
            g[k] = v;
            check(&claims(g), &expect)
        };
        assert!(with("iss", json!("https://other")).is_err());
        assert!(with("aud", json!("https://entrez.example.org/other")).is_err());
        assert!(with(
            "aud",
            json!(["https://x", "https://ENTREZ.example.org/mcp"])
        )
        .is_ok());
        assert!(with("exp", json!(939)).is_err());
        assert!(with("exp", json!(941)).is_ok(), "leeway");
        assert!(with("nbf", json!(1_100)).is_err());
        assert!(with("iat", json!(1_100)).is_err());
        assert!(with("sub", json!("")).is_err());
        let mut no_exp = good.clone();
        no_exp.as_object_mut().unwrap().remove("exp");
        assert!(check(&claims(no_exp), &expect).is_err());
        assert_eq!(scopes(&claims(json!({"scp": ["a", "b"]}))), ["a", "b"]);
        assert_eq!(scopes(&claims(json!({"scp": "a b"}))), ["a", "b"]);
        assert!(scopes(&claims(json!({}))).is_empty());
    }
}
