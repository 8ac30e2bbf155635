//! Secrets that cannot leak by accident.
//!
//! [`ApiKey`] has no `Serialize`, and its `Debug` and `Display` print a fixed
//! placeholder, so a key cannot reach a result, an error or a log line unless
//! code calls [`ApiKey::expose`] on purpose, which only request builders do.

use serde_json::Value;
use std::fmt;

/// What replaces a key found in text that leaves the server.
pub const REDACTED: &str = "[redacted]";
/// Keys shorter than this are not searched for: they would match ordinary words.
const MIN_KEY_CHARS: usize = 8;
/// Runs of at least this many characters of a key count as the key (a quote cut short).
const FRAGMENT_CHARS: usize = 12;
/// Fragments are looked for in strings up to this size (error messages, titles, warnings).
const FRAGMENT_SCAN_BYTES: usize = 64 * 1024;

/// An NCBI API key or other secret string.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        ApiKey(value.into())
    }

    /// The raw value; call only where the secret must go on the wire.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Removes every key in `keys` from every string in `value`, by value.
///
/// Upstream services sometimes quote the key they were sent (an `<ERROR>`
/// naming an invalid key, an HTML title, a JSON `error`); whatever path such
/// text takes into a result or an error, this runs on the whole message
/// before it leaves the server. A fragment of at least 12 characters of a key
/// is removed too, in strings up to 64 KiB, because a quote may be cut short.
pub fn scrub(value: &mut Value, keys: &[&ApiKey]) {
    let keys: Vec<&str> = keys
        .iter()
        .map(|k| k.expose())
        .filter(|k| k.chars().count() >= MIN_KEY_CHARS)
        .collect();
    if !keys.is_empty() {
        scrub_value(value, &keys);
    }
}

fn scrub_value(value: &mut Value, keys: &[&str]) {
    match value {
        Value::String(s) => {
            if let Some(clean) = scrub_text(s, keys) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_value(v, keys)),
        Value::Object(map) => map.values_mut().for_each(|v| scrub_value(v, keys)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// `text` without the keys, or `None` when it holds none.
pub fn scrub_text(text: &str, keys: &[&str]) -> Option<String> {
    let mut out: Option<String> = None;
    for key in keys {
        let current = out.as_deref().unwrap_or(text);
        if current.contains(key) {
            out = Some(current.replace(key, REDACTED));
        }
        let current = out.as_deref().unwrap_or(text);
        if current.len() <= FRAGMENT_SCAN_BYTES && key.len() > FRAGMENT_CHARS && key.is_ascii() {
            let mut cleaned = current.to_string();
            let mut found = false;
            for start in 0..=key.len() - FRAGMENT_CHARS {
                let fragment = &key[start..start + FRAGMENT_CHARS];
                if cleaned.contains(fragment) {
                    cleaned = cleaned.replace(fragment, REDACTED);
                    found = true;
                }
            }
            if found {
                out = Some(cleaned);
            }
        }
    }
    out
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formatting_never_shows_the_value() {
        let key = ApiKey::new("0123456789abcdef0123456789abcdef0123");
        assert!(!format!("{key:?}").contains("0123"));
        assert!(!format!("{key}").contains("0123"));
        assert_eq!(key.expose(), "0123456789abcdef0123456789abcdef0123");
    }

    #[test]
    fn keys_quoted_anywhere_are_removed_by_value() {
        let server = ApiKey::new("0123456789abcdef0123456789abcdef0123");
        let caller = ApiKey::new("fedcba9876543210fedcba9876543210fedc");
        let mut v = serde_json::json!({
            "error": {"message": "API key invalid: 0123456789abcdef0123456789abcdef0123"},
            "content": [{"text": "<title>Key fedcba9876543210fedcba9876543210fedc rejected</title>"}],
            "cut": "key=0123456789abcdef01… was refused",
            "safe": "pubmed 19304878",
            "n": 1
        });
        scrub(&mut v, &[&server, &caller]);
        let text = v.to_string();
        assert!(
            !text.contains("0123456789ab") && !text.contains("fedcba987654"),
            "{text}"
        );
        assert_eq!(v["error"]["message"], "API key invalid: [redacted]");
        assert_eq!(
            v["content"][0]["text"],
            "<title>Key [redacted] rejected</title>"
        );
        assert_eq!(v["safe"], "pubmed 19304878");
        // A short key is not searched for: it would eat ordinary words.
        let mut w = serde_json::json!("asthma");
        scrub(&mut w, &[&ApiKey::new("asthma")]);
        assert_eq!(w, "asthma");
    }
}
