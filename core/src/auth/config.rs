//! Authorization settings, read under the same names on both edges.
//!
//! `MCP_AUTH_MODE` picks how HTTP callers are recognised: `none` (everyone is
//! anonymous), `bearer` (a secret list of tokens, each naming an identity) or
//! `oauth` (the server is an OAuth 2.1 resource server as the MCP authorization
//! specification defines it). A mode that cannot work as configured (oauth
//! without a resource URL or an issuer, bearer without tokens) is a start-up
//! error, never a silently open server.

use sha2::{Digest, Sha256};

/// How HTTP callers are recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthMode {
    /// No authentication: every HTTP caller is anonymous.
    None,
    /// Static bearer tokens, each naming an identity.
    Bearer,
    /// OAuth 2.1 access tokens (JWT, or opaque through introspection).
    OAuth,
}

impl AuthMode {
    /// `none`, `bearer` or `oauth`.
    pub fn as_str(self) -> &'static str {
        match self {
            AuthMode::None => "none",
            AuthMode::Bearer => "bearer",
            AuthMode::OAuth => "oauth",
        }
    }
}

/// One static token: who it names, and a digest of it (the token itself is not kept).
#[derive(Clone)]
pub struct StaticToken {
    /// The identity the token stands for (`alice`).
    pub identity: String,
    /// SHA-256 of the token.
    pub digest: [u8; 32],
}

impl std::fmt::Debug for StaticToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StaticToken({}, [redacted])", self.identity)
    }
}

/// Everything the authenticator needs.
#[derive(Debug, Clone)]
pub struct AuthConfig {
    /// `MCP_AUTH_MODE`.
    pub mode: AuthMode,
    /// `MCP_AUTH_TOKENS`: `identity:token` pairs, comma-separated (bearer mode).
    pub tokens: Vec<StaticToken>,
    /// `MCP_AUTH_RESOURCE`: this server's resource identifier, e.g. `https://entrez.example.org/mcp`.
    pub resource: Option<String>,
    /// `MCP_AUTH_ISSUER`: the authorization server whose tokens are accepted.
    pub issuer: Option<String>,
    /// `MCP_AUTH_JWKS_URL`: where its signing keys are; discovered from the issuer when unset.
    pub jwks_url: Option<String>,
    /// `MCP_AUTH_AUDIENCES`: further accepted `aud` values (an authorization server that names the API its own way).
    pub extra_audiences: Vec<String>,
    /// `MCP_AUTH_SCOPE`: the scope every call needs (`entrez.read`); empty means any valid token.
    pub base_scope: Option<String>,
    /// `MCP_AUTH_DATA_SCOPE`: the scope staging and dropping datasets needs besides (`entrez.data`).
    pub data_scope: Option<String>,
    /// `MCP_AUTH_LEEWAY_SECS`: clock skew allowed on `exp` and `nbf`.
    pub leeway_secs: u64,
    /// `MCP_AUTH_INTROSPECTION_URL`: RFC 7662 endpoint for opaque tokens.
    pub introspection_url: Option<String>,
    /// `MCP_AUTH_INTROSPECTION_CLIENT_ID` / `_SECRET`: this server's credentials there.
    pub introspection_client: Option<(String, crate::secret::ApiKey)>,
    /// `MCP_AUTH_ANONYMOUS`: whether callers without a token are served when a mode is set.
    pub allow_anonymous: bool,
    /// `ENTREZ_ANONYMOUS_USE_SERVER_KEY`: whether anonymous callers spend the server's NCBI key.
    pub anonymous_use_server_key: bool,
    /// The edge serves one local user: stdio, or the native server on a loopback address.
    pub local: bool,
}

/// Default scope every call needs in oauth mode.
pub const DEFAULT_BASE_SCOPE: &str = "entrez.read";
/// Default scope staging needs in oauth mode.
pub const DEFAULT_DATA_SCOPE: &str = "entrez.data";
/// Default clock leeway, seconds.
pub const DEFAULT_LEEWAY_SECS: u64 = 60;

/// SHA-256 of a token, as stored and compared.
pub fn token_digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Whether `v` reads as yes.
fn yes(v: &str) -> bool {
    matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "allow" | "on"
    )
}

/// The most clock skew `MCP_AUTH_LEEWAY_SECS` may allow: more would keep expired tokens alive.
pub const MAX_LEEWAY_SECS: u64 = 300;

/// `https://…`, or `http://` to a loopback host.
fn secure_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("https://") {
        return true;
    }
    let Some(rest) = lower.strip_prefix("http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl AuthConfig {
    /// No authentication, the server's key for every caller (local use: stdio, tests).
    pub fn open() -> AuthConfig {
        AuthConfig {
            mode: AuthMode::None,
            tokens: Vec::new(),
            resource: None,
            issuer: None,
            jwks_url: None,
            extra_audiences: Vec::new(),
            base_scope: None,
            data_scope: None,
            leeway_secs: DEFAULT_LEEWAY_SECS,
            introspection_url: None,
            introspection_client: None,
            allow_anonymous: true,
            anonymous_use_server_key: true,
            local: true,
        }
    }

    /// Reads the settings; `local` says the edge serves one local user (stdio, or HTTP on a
    /// loopback address), whose anonymous calls may spend the server's key by default.
    pub fn from_lookup(
        lookup: &dyn Fn(&str) -> Option<String>,
        local: bool,
    ) -> Result<AuthConfig, String> {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let mode = match get("MCP_AUTH_MODE")
            .as_deref()
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            None | Some("none") => AuthMode::None,
            Some("bearer") => AuthMode::Bearer,
            Some("oauth") => AuthMode::OAuth,
            Some(other) => {
                return Err(format!(
                    "MCP_AUTH_MODE is \"{other}\"; use none, bearer or oauth"
                ))
            }
        };
        let mut tokens = Vec::new();
        for pair in get("MCP_AUTH_TOKENS")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (identity, token) = pair
                .split_once(':')
                .ok_or("MCP_AUTH_TOKENS holds identity:token pairs, comma-separated")?;
            let (identity, token) = (identity.trim(), token.trim());
            if identity.is_empty() || token.len() < 16 {
                return Err("each MCP_AUTH_TOKENS entry needs an identity and a token of at least 16 characters".into());
            }
            // What an Authorization header can carry (RFC 6750's b64token); anything else
            // could never be presented.
            if !token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b))
            {
                return Err(format!("the MCP_AUTH_TOKENS token for {identity} has characters a bearer token cannot carry; use letters, digits and -._~+/"));
            }
            tokens.push(StaticToken {
                identity: identity.to_string(),
                digest: token_digest(token),
            });
        }
        let resource = get("MCP_AUTH_RESOURCE").map(|r| r.trim_end_matches('/').to_string());
        let issuer = get("MCP_AUTH_ISSUER");
        // Keys and token answers come only over TLS, but from this machine (a test stand-in).
        for name in [
            "MCP_AUTH_ISSUER",
            "MCP_AUTH_JWKS_URL",
            "MCP_AUTH_INTROSPECTION_URL",
        ] {
            if let Some(url) = get(name) {
                if !secure_url(&url) {
                    return Err(format!(
                        "{name} must be an https:// URL (http:// only on this machine's loopback)"
                    ));
                }
            }
        }
        match mode {
            AuthMode::Bearer if tokens.is_empty() => {
                return Err("MCP_AUTH_MODE=bearer needs MCP_AUTH_TOKENS (identity:token pairs)".into())
            }
            AuthMode::OAuth if resource.is_none() || issuer.is_none() => {
                return Err("MCP_AUTH_MODE=oauth needs MCP_AUTH_RESOURCE (this server's /mcp URL) and MCP_AUTH_ISSUER".into())
            }
            _ => {}
        }
        let scope = |name: &str, default: &str| match lookup(name) {
            Some(v) if v.trim().is_empty() => None,
            Some(v) => Some(v.trim().to_string()),
            None => Some(default.to_string()),
        };
        let introspection_client = match (
            get("MCP_AUTH_INTROSPECTION_CLIENT_ID"),
            get("MCP_AUTH_INTROSPECTION_CLIENT_SECRET"),
        ) {
            (Some(id), Some(secret)) => Some((id, crate::secret::ApiKey::new(secret))),
            _ => None,
        };
        let open = mode == AuthMode::None;
        Ok(AuthConfig {
            mode,
            tokens,
            resource,
            issuer,
            jwks_url: get("MCP_AUTH_JWKS_URL"),
            extra_audiences: get("MCP_AUTH_AUDIENCES")
                .map(|v| {
                    v.split(',')
                        .map(|a| a.trim().trim_end_matches('/').to_string())
                        .filter(|a| !a.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            base_scope: scope("MCP_AUTH_SCOPE", DEFAULT_BASE_SCOPE),
            data_scope: scope("MCP_AUTH_DATA_SCOPE", DEFAULT_DATA_SCOPE),
            leeway_secs: get("MCP_AUTH_LEEWAY_SECS")
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(DEFAULT_LEEWAY_SECS)
                .min(MAX_LEEWAY_SECS),
            introspection_url: get("MCP_AUTH_INTROSPECTION_URL"),
            introspection_client,
            // With a mode set, anonymous callers are refused unless the operator says otherwise.
            allow_anonymous: get("MCP_AUTH_ANONYMOUS").map_or(open, |v| yes(&v)),
            // Anonymous callers spend the operator's NCBI key only where they are the operator
            // (local use), or where the operator says so.
            anonymous_use_server_key: get("ENTREZ_ANONYMOUS_USE_SERVER_KEY")
                .map_or(open && local, |v| yes(&v)),
            local,
        })
    }

    /// Whether any authentication is configured.
    pub fn enabled(&self) -> bool {
        self.mode != AuthMode::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pairs: &[(&str, &str)], local: bool) -> Result<AuthConfig, String> {
        let owned: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        AuthConfig::from_lookup(
            &move |k| owned.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()),
            local,
        )
    }

    #[test]
    fn modes_need_what_they_use_and_default_closed() {
        let none = read(&[], true).unwrap();
        assert_eq!(none.mode, AuthMode::None);
        assert!(none.allow_anonymous && none.anonymous_use_server_key);
        // A public deployment without auth still keeps the operator's key for the operator.
        assert!(!read(&[], false).unwrap().anonymous_use_server_key);
        assert!(read(&[("MCP_AUTH_MODE", "bearer")], false).is_err());
        assert!(read(
            &[
                ("MCP_AUTH_MODE", "bearer"),
                ("MCP_AUTH_TOKENS", "alice:short")
            ],
            false
        )
        .is_err());
        let b = read(
            &[
                ("MCP_AUTH_MODE", "Bearer"),
                (
                    "MCP_AUTH_TOKENS",
                    "alice:0123456789abcdef, bob:fedcba9876543210",
                ),
            ],
            false,
        )
        .unwrap();
        assert_eq!(b.tokens.len(), 2);
        assert!(!b.allow_anonymous && !b.anonymous_use_server_key);
        assert!(!format!("{:?}", b.tokens).contains("0123456789abcdef"));
        assert!(read(
            &[
                ("MCP_AUTH_MODE", "oauth"),
                ("MCP_AUTH_ISSUER", "https://as")
            ],
            false
        )
        .is_err());
        let o = read(
            &[
                ("MCP_AUTH_MODE", "oauth"),
                ("MCP_AUTH_ISSUER", "https://as"),
                ("MCP_AUTH_RESOURCE", "https://x/mcp/"),
                ("MCP_AUTH_ANONYMOUS", "allow"),
            ],
            false,
        )
        .unwrap();
        assert_eq!(o.resource.as_deref(), Some("https://x/mcp"));
        assert_eq!(o.base_scope.as_deref(), Some(DEFAULT_BASE_SCOPE));
        assert!(o.allow_anonymous && !o.anonymous_use_server_key);
        assert!(read(&[("MCP_AUTH_MODE", "kerberos")], false).is_err());
    }

    #[test]
    fn keys_come_over_tls_and_settings_stay_in_bounds() {
        let oauth = |issuer: &str, extra: &[(&str, &str)]| {
            let mut pairs = vec![
                ("MCP_AUTH_MODE", "oauth"),
                ("MCP_AUTH_RESOURCE", "https://x/mcp"),
                ("MCP_AUTH_ISSUER", issuer),
            ];
            pairs.extend_from_slice(extra);
            read(&pairs, false)
        };
        assert!(oauth("http://as.example.org", &[]).is_err());
        assert!(oauth("ftp://as", &[]).is_err());
        for ok in [
            "https://as",
            "http://127.0.0.1:9000",
            "http://localhost",
            "http://[::1]:8080",
        ] {
            assert!(oauth(ok, &[]).is_ok(), "{ok}");
        }
        assert!(oauth(
            "https://as",
            &[("MCP_AUTH_JWKS_URL", "http://keys.example.org/jwks")]
        )
        .is_err());
        assert!(oauth(
            "https://as",
            &[("MCP_AUTH_INTROSPECTION_URL", "http://10.0.0.1/i")]
        )
        .is_err());
        let lenient = oauth("https://as", &[("MCP_AUTH_LEEWAY_SECS", "86400")]).unwrap();
        assert_eq!(lenient.leeway_secs, MAX_LEEWAY_SECS);
        let tokens = |t: &str| {
            read(
                &[("MCP_AUTH_MODE", "bearer"), ("MCP_AUTH_TOKENS", t)],
                false,
            )
        };
        assert!(tokens("alice:0123456789abcdef ghij").is_err(), "a space");
        assert!(tokens("alice:0123456789abcdef\"quoted\"").is_err());
        assert!(tokens("alice:AbC-._~+/0123456789==").is_ok());
    }
}
