//! When to retry an E-utilities request, and how long to wait first.
//!
//! 429 and 5xx are transient at NCBI and are retried with exponential backoff
//! and jitter, honouring `Retry-After`; every other 4xx means the request is
//! wrong and retrying would only spend rate-limit budget. A total deadline
//! bounds the whole exchange.

/// Retry limits for one logical request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included.
    pub max_attempts: u32,
    /// Backoff before the second attempt.
    pub base_ms: u64,
    /// Cap on any single backoff.
    pub max_backoff_ms: u64,
    /// Total time budget from the first attempt.
    pub deadline_ms: u64,
    /// The longest `Retry-After` honoured; asked to wait longer, the caller is told at once.
    pub max_retry_after_ms: u64,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_ms: 500,
            max_backoff_ms: 8_000,
            deadline_ms: 60_000,
            max_retry_after_ms: 30_000,
        }
    }
}

/// What to do after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Wait this long, then try again.
    RetryAfter(u64),
    /// Stop and report the last outcome.
    GiveUp,
}

/// Whether a status is worth retrying (`None` = the request never got a reply).
pub fn is_transient(status: Option<u16>) -> bool {
    match status {
        None => true,
        Some(s) => s == 429 || (500..600).contains(&s),
    }
}

impl RetryPolicy {
    /// Decides after attempt number `attempt` (1-based) failed with `status`.
    ///
    /// `jitter` is a random number in [0, 1); `elapsed_ms` counts from the first attempt.
    pub fn decide(
        &self,
        attempt: u32,
        status: Option<u16>,
        retry_after: Option<&str>,
        elapsed_ms: u64,
        jitter: f64,
    ) -> Verdict {
        if !is_transient(status) || attempt >= self.max_attempts {
            return Verdict::GiveUp;
        }
        let backoff = self
            .base_ms
            .saturating_mul(1 << (attempt - 1).min(16))
            .min(self.max_backoff_ms);
        // Full jitter on half the backoff keeps retries from many callers apart.
        let jittered = backoff / 2 + ((backoff / 2) as f64 * jitter.clamp(0.0, 1.0)) as u64;
        // Seconds read from upstream may be anything: saturate, and refuse to wait past the cap.
        let wait = match retry_after.and_then(|v| v.trim().parse::<u64>().ok()) {
            Some(secs) if secs.saturating_mul(1000) > self.max_retry_after_ms => {
                return Verdict::GiveUp
            }
            Some(secs) => secs.saturating_mul(1000).max(jittered),
            None => jittered,
        };
        if elapsed_ms.saturating_add(wait) > self.deadline_ms {
            return Verdict::GiveUp;
        }
        Verdict::RetryAfter(wait)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_429_5xx_and_transport_failures_are_retried() {
        let p = RetryPolicy::default();
        assert!(matches!(
            p.decide(1, Some(429), None, 0, 0.5),
            Verdict::RetryAfter(_)
        ));
        assert!(matches!(
            p.decide(1, Some(503), None, 0, 0.5),
            Verdict::RetryAfter(_)
        ));
        assert!(matches!(
            p.decide(1, None, None, 0, 0.5),
            Verdict::RetryAfter(_)
        ));
        for s in [400, 401, 403, 404, 414] {
            assert_eq!(p.decide(1, Some(s), None, 0, 0.5), Verdict::GiveUp, "{s}");
        }
    }

    #[test]
    fn backoff_grows_with_jitter_and_honours_retry_after() {
        let p = RetryPolicy::default();
        assert_eq!(
            p.decide(1, Some(500), None, 0, 0.0),
            Verdict::RetryAfter(250)
        );
        assert_eq!(
            p.decide(1, Some(500), None, 0, 1.0),
            Verdict::RetryAfter(500)
        );
        assert_eq!(
            p.decide(2, Some(500), None, 0, 1.0),
            Verdict::RetryAfter(1000)
        );
        assert_eq!(
            p.decide(3, Some(500), None, 0, 1.0),
            Verdict::RetryAfter(2000)
        );
        assert_eq!(
            p.decide(1, Some(429), Some("3"), 0, 0.0),
            Verdict::RetryAfter(3000)
        );
    }

    #[test]
    fn an_absurd_retry_after_neither_overflows_nor_holds_the_caller() {
        let p = RetryPolicy::default();
        for huge in ["18446744073709552", "18446744073709551615", "31"] {
            assert_eq!(
                p.decide(1, Some(429), Some(huge), 0, 0.5),
                Verdict::GiveUp,
                "{huge}"
            );
        }
        assert_eq!(
            p.decide(1, Some(429), Some("30"), 0, 0.0),
            Verdict::RetryAfter(30_000)
        );
        // Not a number of seconds (an HTTP date, garbage): the usual backoff.
        assert_eq!(
            p.decide(1, Some(503), Some("Wed, 21 Oct 2026 07:28:00 GMT"), 0, 0.0),
            Verdict::RetryAfter(250)
        );
    }

    #[test]
    fn attempts_and_deadline_are_bounded() {
        let p = RetryPolicy::default();
        assert_eq!(p.decide(4, Some(503), None, 0, 0.5), Verdict::GiveUp);
        assert_eq!(p.decide(1, Some(429), Some("120"), 0, 0.5), Verdict::GiveUp);
        assert_eq!(p.decide(2, Some(503), None, 59_900, 0.5), Verdict::GiveUp);
    }
}
