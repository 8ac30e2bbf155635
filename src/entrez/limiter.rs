//! Pacing under NCBI's rate limit.
//!
//! NCBI allows 3 requests per second per IP without a key and 10 with one,
//! and answers 429 beyond that. Every request first reserves a slot from a
//! [`Pacer`]; the reservation is what makes the limit hold across concurrent
//! calls. [`WindowLimiter`] is the policy: it grants the earliest time at which
//! no window of `window_ms` holds more than `limit` requests. The window is
//! stretched past one second ([`WINDOW_MS`]) so that jitter between the
//! reservation and the request reaching NCBI cannot put one too many into
//! NCBI's own one-second window.

use crate::error::{Error, ErrorKind};
use crate::platform::{BoxFuture, MaybeSendSync};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// The pacing window: one second plus headroom.
pub const WINDOW_MS: u64 = 1_150;
/// The window a Durable Object paces with. Its grants travel back to an isolate
/// before the request leaves, and that hop (plus cold starts) was measured at up
/// to ~170 ms under `wrangler dev`, more than [`WINDOW_MS`]'s headroom; 350 ms
/// of headroom keeps a burst from landing four requests in one NCBI second.
pub const DISTRIBUTED_WINDOW_MS: u64 = 1_500;
/// Longest a caller is queued before being told to come back later.
pub const MAX_QUEUE_MS: u64 = 30_000;

/// Sliding-window reservation policy for one bucket.
#[derive(Debug, Clone)]
pub struct WindowLimiter {
    limit: usize,
    window_ms: u64,
    grants: VecDeque<u64>,
}

impl WindowLimiter {
    /// At most `limit` grants in any `window_ms`.
    pub fn new(limit: u32, window_ms: u64) -> Self {
        WindowLimiter {
            limit: limit.max(1) as usize,
            window_ms,
            grants: VecDeque::new(),
        }
    }

    /// Reserves the earliest slot at or after `now`; returns its time in ms.
    pub fn reserve(&mut self, now: u64) -> u64 {
        // Grants older than one window before `now` cannot constrain a slot at or after `now`.
        while self
            .grants
            .front()
            .is_some_and(|g| *g + self.window_ms <= now)
        {
            self.grants.pop_front();
        }
        let mut slot = now.max(self.grants.back().copied().unwrap_or(0));
        if self.grants.len() >= self.limit {
            let anchor = self.grants[self.grants.len() - self.limit];
            slot = slot.max(anchor + self.window_ms);
        }
        self.grants.push_back(slot);
        // Only the last `limit` grants ever matter.
        while self.grants.len() > self.limit {
            self.grants.pop_front();
        }
        slot
    }
}

/// Hands out request slots; one authority per bucket across all concurrent calls.
pub trait Pacer: MaybeSendSync {
    /// Reserves a slot in `bucket` under `limit` per window; returns how many ms to wait.
    fn reserve<'a>(
        &'a self,
        bucket: &'a str,
        limit: u32,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<u64, Error>>;
}

/// A pacer in process memory: the authority for every task of one native process.
#[derive(Debug)]
pub struct MemoryPacer {
    buckets: Mutex<HashMap<String, WindowLimiter>>,
    window_ms: u64,
}

impl Default for MemoryPacer {
    fn default() -> Self {
        MemoryPacer::with_window(WINDOW_MS)
    }
}

impl MemoryPacer {
    /// A pacer with no history and the in-process window.
    pub fn new() -> Self {
        Self::default()
    }

    /// A pacer with no history and its own window length.
    pub fn with_window(window_ms: u64) -> Self {
        MemoryPacer {
            buckets: Mutex::new(HashMap::new()),
            window_ms,
        }
    }

    /// The synchronous reservation both this pacer and the Durable Object use.
    pub fn reserve_now(&self, bucket: &str, limit: u32, now_ms: u64) -> Result<u64, Error> {
        let mut map = self
            .buckets
            .lock()
            .map_err(|_| Error::internal("rate limiter state was poisoned"))?;
        let limiter = map
            .entry(bucket.to_string())
            .or_insert_with(|| WindowLimiter::new(limit, self.window_ms));
        if limiter.limit != limit as usize {
            // A key's limit changed (e.g. 3 → 10): keep the history, adopt the new limit.
            limiter.limit = limit.max(1) as usize;
        }
        let wait = limiter.reserve(now_ms).saturating_sub(now_ms);
        if wait > MAX_QUEUE_MS {
            return Err(Error::new(
                ErrorKind::RateLimited,
                format!("Too many E-utilities requests are queued; the next free slot is {} s away.", wait / 1000),
            )
            .suggest("Retry in a minute, batch ids into fewer requests, or stage large sets with entrez_data.")
            .suggest("An NCBI API key raises the limit from 3 to 10 requests per second."));
        }
        Ok(wait)
    }
}

impl Pacer for MemoryPacer {
    fn reserve<'a>(
        &'a self,
        bucket: &'a str,
        limit: u32,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<u64, Error>> {
        Box::pin(async move { self.reserve_now(bucket, limit, now_ms) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest number of slots inside any half-open window of `window` ms.
    fn max_in_window(slots: &[u64], window: u64) -> usize {
        slots
            .iter()
            .map(|s| {
                slots
                    .iter()
                    .filter(|t| **t >= *s && **t < s + window)
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn a_burst_is_spread_so_no_second_holds_more_than_the_limit() {
        let mut l = WindowLimiter::new(3, WINDOW_MS);
        let slots: Vec<u64> = (0..30).map(|_| l.reserve(10_000)).collect();
        assert_eq!(&slots[..3], &[10_000, 10_000, 10_000]);
        assert_eq!(slots[3], 10_000 + WINDOW_MS);
        assert!(max_in_window(&slots, 1_000) <= 3);
        assert!(max_in_window(&slots, WINDOW_MS) <= 3);
        // 30 requests at 3 per window take 9 further windows.
        assert_eq!(*slots.last().unwrap(), 10_000 + 9 * WINDOW_MS);
    }

    #[test]
    fn idle_time_frees_the_window() {
        let mut l = WindowLimiter::new(10, WINDOW_MS);
        for _ in 0..10 {
            l.reserve(0);
        }
        assert_eq!(l.reserve(0), WINDOW_MS);
        assert_eq!(l.reserve(5_000), 5_000);
    }

    #[test]
    fn a_wider_window_spaces_grants_further() {
        let p = MemoryPacer::with_window(DISTRIBUTED_WINDOW_MS);
        for _ in 0..3 {
            assert_eq!(p.reserve_now("anonymous", 3, 0).unwrap(), 0);
        }
        assert_eq!(
            p.reserve_now("anonymous", 3, 0).unwrap(),
            DISTRIBUTED_WINDOW_MS
        );
    }

    #[test]
    fn buckets_are_independent_and_long_queues_are_refused() {
        let p = MemoryPacer::new();
        for _ in 0..3 {
            assert_eq!(p.reserve_now("anonymous", 3, 0).unwrap(), 0);
        }
        assert_eq!(p.reserve_now("anonymous", 3, 0).unwrap(), WINDOW_MS);
        assert_eq!(p.reserve_now("key:abc", 10, 0).unwrap(), 0);
        let mut last = Ok(0);
        for _ in 0..200 {
            last = p.reserve_now("anonymous", 3, 0);
            if last.is_err() {
                break;
            }
        }
        assert_eq!(last.unwrap_err().kind, ErrorKind::RateLimited);
    }
}
