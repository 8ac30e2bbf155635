//! NCBI's rate limit as a sliding one-second window per caller.
//!
//! NCBI counts requests per API key when one is sent and per client IP
//! otherwise, and answers 429 once a caller goes over its limit within a
//! second. The replay enforces the same rule so the client's pacer is tested
//! against the real consequence of getting it wrong. Only admitted requests
//! fill the window: a refused request does not push the caller's recovery
//! further out, so a client that waits out `Retry-After` gets through.

use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

const WINDOW: Duration = Duration::from_secs(1);

/// Who a request is counted against.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Identity {
    /// An API key, held only as a hash prefix so it can never be logged.
    Key(String),
    /// The client address, for requests without a key.
    Ip(IpAddr),
}

impl Identity {
    /// The caller for a request: its api_key if present, else its address.
    pub fn of(api_key: Option<&str>, ip: IpAddr) -> Identity {
        match api_key {
            Some(key) => {
                let digest = Sha256::digest(key.as_bytes());
                let hex: String = digest[..4].iter().map(|b| format!("{b:02x}")).collect();
                Identity::Key(hex)
            }
            None => Identity::Ip(ip),
        }
    }

    /// The name used in logs and stats: `key:<hash prefix>` or `ip:<address>`.
    pub fn label(&self) -> String {
        match self {
            Identity::Key(hash) => format!("key:{hash}"),
            Identity::Ip(ip) => format!("ip:{ip}"),
        }
    }
}

/// The outcome for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Within the limit; counted.
    Allowed,
    /// Over the limit: `count` is this request's place in the window.
    Limited {
        /// Requests in the window including this one.
        count: usize,
        /// The limit that applied.
        limit: usize,
    },
}

/// Admitted request times per caller, within the last second.
#[derive(Debug)]
pub struct Limiter {
    anonymous: usize,
    keyed: usize,
    windows: HashMap<Identity, VecDeque<Instant>>,
}

impl Limiter {
    /// A limiter with NCBI's per-second limits for anonymous and keyed callers.
    pub fn new(anonymous: usize, keyed: usize) -> Limiter {
        Limiter {
            anonymous,
            keyed,
            windows: HashMap::new(),
        }
    }

    /// The limit that applies to `who`.
    pub fn limit_for(&self, who: &Identity) -> usize {
        match who {
            Identity::Key(_) => self.keyed,
            Identity::Ip(_) => self.anonymous,
        }
    }

    /// Admits or refuses a request arriving at `now`.
    pub fn check(&mut self, who: &Identity, now: Instant) -> Decision {
        let limit = self.limit_for(who);
        let window = self.windows.entry(who.clone()).or_default();
        while window
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= WINDOW)
        {
            window.pop_front();
        }
        if window.len() >= limit {
            return Decision::Limited {
                count: window.len() + 1,
                limit,
            };
        }
        window.push_back(now);
        Decision::Allowed
    }

    /// Forgets every caller.
    pub fn clear(&mut self) {
        self.windows.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourth_anonymous_request_in_a_second_is_refused() {
        let mut l = Limiter::new(3, 10);
        let who = Identity::of(None, "127.0.0.1".parse().unwrap());
        let t0 = Instant::now();
        for i in 0..3 {
            let at = t0 + Duration::from_millis(i * 10);
            assert_eq!(l.check(&who, at), Decision::Allowed);
        }
        let refused = l.check(&who, t0 + Duration::from_millis(500));
        assert_eq!(refused, Decision::Limited { count: 4, limit: 3 });
        // The first admission leaves the window exactly one second later.
        assert_eq!(l.check(&who, t0 + WINDOW), Decision::Allowed);
    }

    #[test]
    fn keys_are_counted_apart_and_never_named() {
        let mut l = Limiter::new(3, 10);
        let who = Identity::of(Some("secret-key-value"), "127.0.0.1".parse().unwrap());
        assert!(!who.label().contains("secret"));
        let now = Instant::now();
        for _ in 0..10 {
            assert_eq!(l.check(&who, now), Decision::Allowed);
        }
        assert!(matches!(
            l.check(&who, now),
            Decision::Limited { limit: 10, .. }
        ));
    }
}
