//! DNS-rebinding protection: `Host` and `Origin` checks.
//!
//! A web page can make a browser send requests to a server on 127.0.0.1 by
//! pointing its own host name at that address. The browser then sends the
//! attacker's name in `Host` and the attacker's page in `Origin`; checking both
//! against allow-lists stops the attack before any JSON is read.

/// The host name of a `Host` header value, without its port, lower-cased.
pub fn host_name(host_header: &str) -> String {
    let h = host_header.trim().to_ascii_lowercase();
    if let Some(rest) = h.strip_prefix('[') {
        // IPv6 literal: keep the brackets, drop any :port after them.
        return match rest.find(']') {
            Some(end) => format!("[{}]", &rest[..end]),
            None => h,
        };
    }
    match h.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name.to_string(),
        _ => h,
    }
}

/// Whether `name` matches an allow-list entry: exact, `*.suffix`, or `*`.
fn matches_pattern(name: &str, pattern: &str) -> bool {
    let p = pattern.trim().to_ascii_lowercase();
    if p == "*" {
        return true;
    }
    match p.strip_prefix("*.") {
        Some(suffix) => name.len() > suffix.len() + 1 && name.ends_with(&format!(".{suffix}")),
        None => name == p,
    }
}

/// Whether a `Host` header is acceptable; a missing header is (no browser omits it).
pub fn host_allowed(host_header: Option<&str>, allowed: &[String]) -> bool {
    match host_header {
        None => true,
        Some(h) => {
            let name = host_name(h);
            allowed.iter().any(|p| matches_pattern(&name, p))
        }
    }
}

/// Whether an `Origin` header is acceptable: absent, a localhost origin, or listed.
pub fn origin_allowed(origin: Option<&str>, allowed: &[String]) -> bool {
    let Some(origin) = origin else { return true };
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    if allowed
        .iter()
        .any(|a| a == "*" || a.trim_end_matches('/').eq_ignore_ascii_case(&origin))
    {
        return true;
    }
    let Some((scheme, rest)) = origin.split_once("://") else {
        return false; // includes the opaque origin "null"
    };
    if scheme != "http" && scheme != "https" {
        return false;
    }
    matches!(
        host_name(rest).as_str(),
        "localhost" | "127.0.0.1" | "[::1]"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn host_names_drop_ports_and_keep_ipv6_brackets() {
        assert_eq!(host_name("LocalHost:8787"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:3000"), "[::1]");
        assert_eq!(host_name("evil.example.com"), "evil.example.com");
    }

    #[test]
    fn hosts_follow_the_allow_list() {
        let allowed = list(&["localhost", "127.0.0.1", "[::1]", "*.workers.dev"]);
        assert!(host_allowed(Some("localhost:8787"), &allowed));
        assert!(host_allowed(Some("[::1]:1"), &allowed));
        assert!(host_allowed(Some("entrez.me.workers.dev"), &allowed));
        assert!(!host_allowed(Some("workers.dev"), &allowed));
        assert!(!host_allowed(Some("evil.example.com"), &allowed));
        assert!(!host_allowed(Some("localhost.evil.com"), &allowed));
        assert!(host_allowed(None, &allowed));
        assert!(host_allowed(Some("anything"), &list(&["*"])));
    }

    #[test]
    fn origins_allow_localhost_and_the_list_only() {
        let none: Vec<String> = Vec::new();
        assert!(origin_allowed(None, &none));
        assert!(origin_allowed(Some("http://localhost:6274"), &none));
        assert!(origin_allowed(Some("http://127.0.0.1"), &none));
        assert!(origin_allowed(Some("https://[::1]:8443"), &none));
        assert!(!origin_allowed(Some("https://evil.example.com"), &none));
        assert!(!origin_allowed(Some("null"), &none));
        assert!(!origin_allowed(Some("file://localhost"), &none));
        let listed = list(&["https://app.example.org"]);
        assert!(origin_allowed(Some("https://app.example.org/"), &listed));
        assert!(!origin_allowed(
            Some("https://app.example.org.evil.com"),
            &listed
        ));
        assert!(origin_allowed(Some("https://x.y"), &list(&["*"])));
    }
}
