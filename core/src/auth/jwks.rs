//! The authorization server's signing keys (a JWK Set), which key verifies a token, and
//! how long a fetched set is trusted.
//!
//! Keys come only from the configured (or discovered) `jwks_uri`. A set is kept for its
//! `Cache-Control: max-age`, clamped to five minutes … one day; a token naming a key the
//! set does not have causes one early refetch, at most once a minute, so a stream of
//! forged key ids cannot make this server hammer the authorization server.

use crate::auth::jws::Alg;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::Value;

/// Shortest time a fetched key set is kept.
pub const MIN_TTL_MS: u64 = 5 * 60 * 1000;
/// Longest time a fetched key set is kept.
pub const MAX_TTL_MS: u64 = 24 * 60 * 60 * 1000;
/// Kept this long when the reply says nothing.
pub const DEFAULT_TTL_MS: u64 = 10 * 60 * 1000;
/// An unknown key id refetches the set at most this often.
pub const REFETCH_INTERVAL_MS: u64 = 60 * 1000;
/// After a failed fetch (or discovery), the next is tried no sooner than this.
pub const RETRY_AFTER_FAILURE_MS: u64 = 10 * 1000;
/// Keys past their lifetime verify for at most this long while fetching fails.
pub const MAX_STALE_MS: u64 = 24 * 60 * 60 * 1000;

/// A public key's numbers, by kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMaterial {
    /// An RSA key: its modulus `n` and exponent `e`, big-endian.
    Rsa {
        /// `n`.
        modulus: Vec<u8>,
        /// `e`.
        exponent: Vec<u8>,
    },
    /// A P-256 key: its point's coordinates, big-endian.
    P256 {
        /// `x`.
        x: Vec<u8>,
        /// `y`.
        y: Vec<u8>,
    },
}

/// One public key, with its parameters decoded from base64url.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jwk {
    /// `kid`.
    pub kid: Option<String>,
    /// `RSA` or `EC`.
    pub kty: String,
    /// `alg`, when the set names one.
    pub alg: Option<String>,
    /// The key itself.
    pub material: KeyMaterial,
    /// The original key object, for platforms that import JWKs whole (WebCrypto).
    pub json: Value,
}

/// The signing keys of a JWK Set; keys of other types, other curves or another use are left out.
pub fn parse_jwks(body: &[u8]) -> Result<Vec<Jwk>, String> {
    let v: Value =
        serde_json::from_slice(body).map_err(|_| "the key set is not JSON".to_string())?;
    let keys = v["keys"].as_array().ok_or("the key set has no keys list")?;
    let field = |k: &Value, name: &str| {
        k[name]
            .as_str()
            .and_then(|s| URL_SAFE_NO_PAD.decode(s.trim_end_matches('=')).ok())
    };
    Ok(keys
        .iter()
        .filter(|k| k["use"].as_str().is_none_or(|u| u == "sig"))
        .filter_map(|k| {
            let kty = k["kty"].as_str()?;
            let material = match kty {
                // 2048 to 8192 bits, as ring insists natively: the same keys on both edges.
                "RSA" => {
                    let n = field(k, "n")?;
                    let bytes = n.iter().skip_while(|b| **b == 0).count();
                    if !(256..=1024).contains(&bytes) {
                        return None;
                    }
                    KeyMaterial::Rsa {
                        modulus: n,
                        exponent: field(k, "e")?,
                    }
                }
                "EC" if k["crv"] == "P-256" => KeyMaterial::P256 {
                    x: field(k, "x")?,
                    y: field(k, "y")?,
                },
                _ => return None,
            };
            Some(Jwk {
                kid: k["kid"].as_str().map(String::from),
                kty: kty.to_string(),
                alg: k["alg"].as_str().map(String::from),
                material,
                json: k.clone(),
            })
        })
        .collect())
}

/// The key for a token: the one with its `kid`, or, when the token names none, the only key
/// of the algorithm's type. A key whose own `alg` disagrees is never used.
pub fn select<'a>(keys: &'a [Jwk], alg: Alg, kid: Option<&str>) -> Option<&'a Jwk> {
    let fits =
        |k: &&Jwk| k.kty == alg.key_type() && k.alg.as_deref().is_none_or(|a| a == alg.name());
    match kid {
        Some(id) => keys
            .iter()
            .filter(fits)
            .find(|k| k.kid.as_deref() == Some(id)),
        None => {
            let mut candidates = keys.iter().filter(fits);
            let first = candidates.next();
            first.filter(|_| candidates.next().is_none())
        }
    }
}

/// How long a fetched set is kept, from its `Cache-Control` header.
pub fn ttl_ms(cache_control: Option<&str>) -> u64 {
    cache_control
        .and_then(|c| {
            c.split(',')
                .filter_map(|d| d.trim().strip_prefix("max-age="))
                .find_map(|v| v.trim().parse::<u64>().ok())
        })
        .map(|secs| secs.saturating_mul(1000).clamp(MIN_TTL_MS, MAX_TTL_MS))
        .unwrap_or(DEFAULT_TTL_MS)
}

/// The keys held, and when they were fetched.
#[derive(Debug, Clone, Default)]
pub struct KeyCache {
    /// The keys of the last fetch.
    pub keys: Vec<Jwk>,
    /// When they were fetched, Unix ms; 0 for never.
    pub fetched_ms: u64,
    /// How long they are trusted.
    pub ttl_ms: u64,
    /// When a fetch last failed, Unix ms; 0 for never.
    pub failed_ms: u64,
}

impl KeyCache {
    /// Whether the keys are still fresh at `now_ms`.
    pub fn fresh(&self, now_ms: u64) -> bool {
        self.fetched_ms > 0 && now_ms < self.fetched_ms.saturating_add(self.ttl_ms)
    }

    /// Whether a token naming an unknown key may refetch now.
    pub fn may_refetch(&self, now_ms: u64) -> bool {
        now_ms >= self.fetched_ms.saturating_add(REFETCH_INTERVAL_MS)
    }

    /// Whether a fetch may be tried now: not within [`RETRY_AFTER_FAILURE_MS`] of a failed one.
    pub fn may_retry(&self, now_ms: u64) -> bool {
        self.failed_ms == 0 || now_ms >= self.failed_ms.saturating_add(RETRY_AFTER_FAILURE_MS)
    }

    /// Whether keys past their lifetime may still verify while fetching fails: for at most
    /// [`MAX_STALE_MS`] beyond it, so a key the issuer has withdrawn is not trusted for ever.
    pub fn usable_stale(&self, now_ms: u64) -> bool {
        !self.keys.is_empty()
            && now_ms
                < self
                    .fetched_ms
                    .saturating_add(self.ttl_ms)
                    .saturating_add(MAX_STALE_MS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A base64url modulus of `bits` bits (its top bit set).
    fn modulus(bits: usize) -> String {
        let mut n = vec![0xA5u8; bits / 8];
        n[0] = 0xC1;
        URL_SAFE_NO_PAD.encode(n)
    }

    #[test]
    fn signing_keys_are_read_and_chosen_by_kid_and_type() {
        let n = modulus(2048);
        let set = json!({"keys": [
            {"kty": "RSA", "kid": "rs1", "use": "sig", "alg": "RS256", "n": n, "e": "AQAB"},
            {"kty": "EC", "kid": "es1", "crv": "P-256", "x": "AAAA", "y": "AAAA"},
            {"kty": "EC", "kid": "p384", "crv": "P-384", "x": "AAAA", "y": "AAAA"},
            {"kty": "RSA", "kid": "enc", "use": "enc", "n": n, "e": "AQAB"},
            {"kty": "RSA", "kid": "short", "n": modulus(1024), "e": "AQAB"},
            {"kty": "RSA", "kid": "huge", "n": modulus(8200), "e": "AQAB"},
            {"kty": "oct", "kid": "h", "k": "AAAA"}
        ]});
        let keys = parse_jwks(set.to_string().as_bytes()).unwrap();
        assert_eq!(
            keys.len(),
            2,
            "RSA keys under 2048 or over 8192 bits are left out"
        );
        assert_eq!(select(&keys, Alg::Rs256, Some("rs1")).unwrap().kty, "RSA");
        assert!(
            select(&keys, Alg::Es256, Some("rs1")).is_none(),
            "a key of another type"
        );
        assert_eq!(
            select(&keys, Alg::Es256, None).unwrap().kid.as_deref(),
            Some("es1")
        );
        assert!(select(&keys, Alg::Rs256, Some("nope")).is_none());
        assert!(parse_jwks(b"[]").is_err());
    }

    #[test]
    fn a_set_is_kept_for_its_max_age_within_bounds() {
        assert_eq!(ttl_ms(Some("public, max-age=600")), 600_000);
        assert_eq!(ttl_ms(Some("max-age=5")), MIN_TTL_MS);
        assert_eq!(ttl_ms(Some("max-age=999999")), MAX_TTL_MS);
        assert_eq!(ttl_ms(None), DEFAULT_TTL_MS);
        let mut c = KeyCache {
            keys: vec![],
            fetched_ms: 1_000,
            ttl_ms: 10_000,
            failed_ms: 0,
        };
        assert!(c.fresh(5_000) && !c.fresh(11_000));
        assert!(!c.may_refetch(30_000) && c.may_refetch(61_000));
        assert!(!KeyCache::default().fresh(1));
        assert!(c.may_retry(1));
        c.failed_ms = 20_000;
        assert!(!c.may_retry(25_000) && c.may_retry(30_000));
        assert!(!c.usable_stale(12_000), "no keys, nothing to use");
        c.keys = parse_jwks(
            json!({"keys": [{"kty": "RSA", "kid": "a", "n": modulus(2048), "e": "AQAB"}]})
                .to_string()
                .as_bytes(),
        )
        .unwrap();
        assert!(c.usable_stale(12_000) && c.usable_stale(11_000 + MAX_STALE_MS - 1));
        assert!(!c.usable_stale(11_000 + MAX_STALE_MS));
    }
}
