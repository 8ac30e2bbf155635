//! Protocol versions and the two revisions they fall into.
//!
//! MCP 2026-07-28 made the protocol stateless: no `initialize`, every request
//! carries its version in `_meta` ("modern"). Earlier revisions open with an
//! `initialize` handshake ("legacy"). This server speaks both; how a client
//! opens decides which one it gets (see `protocol::meta`).

/// The newest protocol version this server speaks.
pub const LATEST_VERSION: &str = "2026-07-28";

/// The stateless revisions: a request names one of these in `_meta`.
pub const MODERN_VERSIONS: &[&str] = &["2026-07-28"];

/// The handshake revisions: `initialize` negotiates one of these.
pub const LEGACY_VERSIONS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26"];

/// Every version this server speaks, newest first (`server/discover`, -32022's `supported`).
pub const SUPPORTED_VERSIONS: &[&str] = &["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"];

/// The version assumed for HTTP requests without `MCP-Protocol-Version`, as the specification says.
pub const DEFAULT_HTTP_VERSION: &str = "2025-03-26";

/// Whether `version` is a handshake revision this server speaks.
pub fn is_legacy(version: &str) -> bool {
    LEGACY_VERSIONS.contains(&version)
}

/// Whether `version` is a stateless revision this server speaks.
pub fn is_modern(version: &str) -> bool {
    MODERN_VERSIONS.contains(&version)
}

/// The version to answer `initialize` with: the client's if it is a handshake revision
/// we speak, else the newest handshake revision (a stateless one has no `initialize`).
pub fn negotiate(requested: Option<&str>) -> &'static str {
    requested
        .and_then(|r| LEGACY_VERSIONS.iter().find(|v| **v == r).copied())
        .unwrap_or(LEGACY_VERSIONS[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_negotiates_only_handshake_revisions() {
        assert_eq!(negotiate(Some("2025-11-25")), "2025-11-25");
        assert_eq!(negotiate(Some("2025-06-18")), "2025-06-18");
        assert_eq!(negotiate(Some("2025-03-26")), "2025-03-26");
        assert_eq!(negotiate(Some("2024-11-05")), "2025-11-25");
        // 2026-07-28 has no initialize: a client asking for it there gets the newest handshake.
        assert_eq!(negotiate(Some("2026-07-28")), "2025-11-25");
        assert_eq!(negotiate(None), "2025-11-25");
    }

    #[test]
    fn the_eras_partition_the_supported_versions() {
        for v in SUPPORTED_VERSIONS {
            assert!(is_modern(v) != is_legacy(v), "{v}");
        }
        assert_eq!(SUPPORTED_VERSIONS[0], LATEST_VERSION);
        assert!(!is_modern("2025-11-25") && !is_legacy("2026-07-28"));
    }
}
