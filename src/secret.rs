//! Secrets that cannot leak by accident.
//!
//! [`ApiKey`] has no `Serialize`, and its `Debug` and `Display` print a fixed
//! placeholder, so a key cannot reach a result, an error or a log line unless
//! code calls [`ApiKey::expose`] on purpose, which only request builders do.

use std::fmt;

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
}
