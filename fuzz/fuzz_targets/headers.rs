//! Header values read from upstream: Retry-After, X-Throttling-Control, URLs to redact.
#![no_main]
use entrez_mcp_core::net::retry::{RetryPolicy, Verdict};
use entrez_mcp_core::net::redact_query;
use entrez_mcp_core::tools::entrez_external::shared::throttle::Throttling;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let policy = RetryPolicy::default();
    for attempt in 1..=policy.max_attempts {
        if let Verdict::RetryAfter(ms) = policy.decide(attempt, Some(429), Some(&text), 0, 0.5) {
            assert!(
                ms <= policy.max_retry_after_ms.max(policy.max_backoff_ms),
                "{text:?}: {ms}"
            );
        }
    }
    let _ = Throttling::parse(&text);
    let redacted = redact_query(&format!("https://x/e?api_key={text}&db=pubmed"));
    assert!(
        !redacted.contains("api_key=") || redacted.contains("api_key=[redacted]"),
        "{redacted}"
    );
});
