//! Protocol version negotiation.

/// The newest protocol version this server speaks.
pub const LATEST_VERSION: &str = "2025-11-25";

/// Every version this server speaks, newest first.
pub const SUPPORTED_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26"];

/// The version assumed for HTTP requests without `MCP-Protocol-Version`, as the specification says.
pub const DEFAULT_HTTP_VERSION: &str = "2025-03-26";

/// Whether `version` is one this server speaks.
pub fn is_supported(version: &str) -> bool {
    SUPPORTED_VERSIONS.contains(&version)
}

/// The version to answer `initialize` with: the client's if supported, else the latest.
pub fn negotiate(requested: Option<&str>) -> &'static str {
    requested
        .and_then(|r| SUPPORTED_VERSIONS.iter().find(|v| **v == r).copied())
        .unwrap_or(LATEST_VERSION)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_echoes_supported_and_falls_back_to_latest() {
        assert_eq!(negotiate(Some("2025-11-25")), "2025-11-25");
        assert_eq!(negotiate(Some("2025-06-18")), "2025-06-18");
        assert_eq!(negotiate(Some("2025-03-26")), "2025-03-26");
        assert_eq!(negotiate(Some("2024-11-05")), LATEST_VERSION);
        assert_eq!(negotiate(Some("2026-07-28")), LATEST_VERSION);
        assert_eq!(negotiate(None), LATEST_VERSION);
    }
}
