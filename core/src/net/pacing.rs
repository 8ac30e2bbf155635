//! Pacing under NCBI's rate limit: evenly spaced slots, each with a deadline to leave by.
//!
//! NCBI allows 3 requests per second per IP without a key and 10 with one, and
//! answers 429 beyond that; PubChem asks for 5 and the PMC services for 3.
//! Every request first takes a [`Grant`] from a [`Pacer`], one authority per
//! bucket across every concurrent call (natively the process, on Workers a
//! Durable Object), and leaves no earlier than the grant's slot and no later
//! than its deadline ([`take_slot`]). The policy is a leaky bucket ([`Bucket`]);
//! why its gaps and rooms have their values is told on [`SPAN_MS`],
//! [`COLD_SEND_ROOM_MS`] and [`BURST_ROOM_MS`].

use crate::error::{Error, ErrorKind};
use crate::net::Transport;
use crate::platform::{BoxFuture, MaybeSendSync, Platform};
use std::collections::HashMap;
use std::sync::Mutex;

/// NCBI's E-utilities limit without an API key, requests per second.
pub const ANONYMOUS_RATE_LIMIT: u32 = 3;
/// NCBI's E-utilities limit with an API key, requests per second.
pub const KEYED_RATE_LIMIT: u32 = 10;

/// What `limit` consecutive slot gaps add up to: 1,000 ms / 0.92.
///
/// Because a request leaves within [`SEND_TOLERANCE_MS`] of its slot, any `limit + 1`
/// requests leave at least `SPAN_MS - SEND_TOLERANCE_MS` (1,037 ms) apart, so no second,
/// however NCBI slides it, holds more than the limit; the 37 ms left over absorb the
/// network's own jitter.
pub const SPAN_MS: u64 = 1_087;
/// The latest a request may leave after its slot; a request that would leave later takes a
/// new slot instead.
pub const SEND_TOLERANCE_MS: u64 = 50;
/// The room a pacer leaves after the slot of a [`Transport::cold`] send, whose connection may be
/// still to be made: such a send may arrive this much later than its slot without putting one
/// too many into any second (measured: up to ~180 ms under wrangler dev; twice that, and more).
pub const COLD_SEND_ROOM_MS: u64 = 400;
/// The room put before a queued slot while its bucket's burst is young (see
/// [`BURST_RAMP_MS`]): a send that arrives this much later than its slot still leaves no
/// second with one too many.
///
/// When many calls arrive at once, the isolate or runtime that serves them is busy with
/// their arrival for a few hundred milliseconds, and a request that woke on time may reach
/// the network 100-330 ms late (measured under `wrangler dev` with 90 calls at once). A
/// caller alone, whose requests follow one another's answers, never queues behind a slot to
/// come and never waits for this room.
pub const BURST_ROOM_MS: u64 = 300;
/// How long after a bucket wakes from idle ([`BURST_IDLE_MS`]) a slot queued behind one not
/// yet come gets [`BURST_ROOM_MS`] before it: while the calls of a burst are still arriving,
/// a machine twice as slow as the one measured included.
pub const BURST_RAMP_MS: u64 = 1_500;
/// A bucket without a slot for this long is idle: its next request starts a burst.
pub const BURST_IDLE_MS: u64 = 1_000;
/// Longest a caller is queued before being told to come back later.
pub const MAX_QUEUE_MS: u64 = 30_000;
/// Most slots one request takes in a row because it woke too late for each; past that the
/// machine cannot keep time well enough to send safely, and the request fails.
pub const MAX_RETAKES: u32 = 8;

/// The gap between two slots of a bucket allowing `limit` requests per second.
pub fn spacing_ms(limit: u32) -> u64 {
    SPAN_MS.div_ceil(u64::from(limit.max(1)))
}

/// A slot: when a request may leave, and the latest it may still leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grant {
    /// The slot, Unix ms on the authority's clock.
    pub at_ms: u64,
    /// The deadline: `at_ms + SEND_TOLERANCE_MS`.
    pub latest_ms: u64,
}

impl Grant {
    /// A grant for a bucket that is not paced (tests, benchmarks): now, and never late.
    pub fn unpaced(now_ms: u64) -> Grant {
        Grant {
            at_ms: now_ms,
            latest_ms: u64::MAX,
        }
    }

    /// The grant for slot `at_ms`.
    pub fn at(at_ms: u64) -> Grant {
        Grant {
            at_ms,
            latest_ms: at_ms.saturating_add(SEND_TOLERANCE_MS),
        }
    }
}

/// The leaky bucket of one pacing bucket: the next free slot, and when its burst began.
///
/// Slots are spaced evenly, so that `limit` consecutive gaps span [`SPAN_MS`]. Spaced
/// slots, rather than bursts of `limit` at once, are what keeps a keyed caller under 10: a
/// burst's sends spread over tens of milliseconds and the next burst's overtake them. The
/// same spacing holds on Workers, whose grants travel back to an isolate before the request
/// leaves: the slot is a time on the clock, not a wait, so travel only matters when it
/// makes a request late, and a late one re-takes.
#[derive(Debug, Clone, Default)]
pub struct Bucket {
    next_ms: u64,
    last_ms: u64,
    burst_ms: u64,
}

impl Bucket {
    /// Takes the earliest slot at or after `now_ms` for a bucket of `limit` per second, and
    /// leaves `room_after_ms` more than the usual gap before the next one. A slot queued
    /// behind one in the first [`BURST_RAMP_MS`] of a burst has [`BURST_ROOM_MS`] before it.
    pub fn reserve(&mut self, limit: u32, now_ms: u64, room_after_ms: u64) -> u64 {
        if now_ms >= self.last_ms.saturating_add(BURST_IDLE_MS) {
            // Nothing for a while: whatever comes now is a new burst.
            self.burst_ms = now_ms;
        }
        // A queue has formed when a slot granted before has not come yet: requests arrive
        // together, not one after another's answer.
        let waiting = self.last_ms > now_ms;
        let young = self.last_ms < self.burst_ms.saturating_add(BURST_RAMP_MS);
        let slot = if waiting && young {
            self.next_ms.saturating_add(BURST_ROOM_MS)
        } else {
            now_ms.max(self.next_ms)
        };
        self.last_ms = slot;
        self.next_ms = slot
            .saturating_add(spacing_ms(limit))
            .saturating_add(room_after_ms);
        slot
    }

    /// The slot a reservation at `now_ms` would get, without taking it.
    pub fn next_slot(&self, now_ms: u64) -> u64 {
        now_ms.max(self.next_ms)
    }
}

/// Hands out request slots; one authority per bucket across all concurrent calls.
pub trait Pacer: MaybeSendSync {
    /// Takes a slot in `bucket` under `limit` requests per second, with `room_after_ms` more
    /// than the usual gap before the next slot (see [`COLD_SEND_ROOM_MS`]).
    fn reserve<'a>(
        &'a self,
        bucket: &'a str,
        limit: u32,
        now_ms: u64,
        room_after_ms: u64,
    ) -> BoxFuture<'a, Result<Grant, Error>>;

    /// What kind of authority this is, for the pacing trace: `memory` (one process, or one
    /// isolate where a Worker has no pacing Durable Object) unless it says otherwise.
    fn authority(&self) -> &'static str {
        "memory"
    }
}

/// A pacer in process memory: the authority for every task of one native process, and the
/// state a Worker's pacing Durable Object keeps.
#[derive(Debug, Default)]
pub struct MemoryPacer {
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl MemoryPacer {
    /// A pacer with no history.
    pub fn new() -> Self {
        Self::default()
    }

    /// The synchronous reservation both this pacer and the Durable Object use.
    pub fn reserve_now(
        &self,
        bucket: &str,
        limit: u32,
        now_ms: u64,
        room_after_ms: u64,
    ) -> Result<Grant, Error> {
        let mut map = self
            .buckets
            .lock()
            .map_err(|_| Error::internal("rate limiter state was poisoned"))?;
        let b = map.entry(bucket.to_string()).or_default();
        let wait = b.next_slot(now_ms).saturating_sub(now_ms);
        if wait > MAX_QUEUE_MS {
            return Err(queue_full(wait));
        }
        Ok(Grant::at(b.reserve(limit, now_ms, room_after_ms)))
    }
}

impl Pacer for MemoryPacer {
    fn reserve<'a>(
        &'a self,
        bucket: &'a str,
        limit: u32,
        now_ms: u64,
        room_after_ms: u64,
    ) -> BoxFuture<'a, Result<Grant, Error>> {
        Box::pin(async move { self.reserve_now(bucket, limit, now_ms, room_after_ms) })
    }
}

/// The refusal for a queue whose next free slot is `wait_ms` away.
pub fn queue_full(wait_ms: u64) -> Error {
    Error::new(
        ErrorKind::RateLimited,
        format!(
            "Too many requests are queued; the next free slot is {} s away.",
            wait_ms / 1000
        ),
    )
    .suggest(
        "Retry in a minute, batch ids into fewer requests, or stage large sets with entrez_data.",
    )
    .suggest("An NCBI API key raises the limit from 3 to 10 requests per second.")
}

/// Where a request's time went before it left: what [`take_slot`] measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    /// The slot it was granted.
    pub grant: Grant,
    /// When it asked the authority, Unix ms.
    pub asked_ms: u64,
    /// When the grant reached it.
    pub granted_ms: u64,
    /// When it woke to leave.
    pub woke_ms: u64,
    /// Slots given up for waking too late before this one.
    pub retakes: u32,
    /// The authority that granted it ([`Pacer::authority`]).
    pub authority: &'static str,
}

impl Slot {
    /// The `X-Entrez-Pacing` header value of a traced request (see `Config::pacing_trace`).
    pub fn trace(&self) -> String {
        format!(
            "slot={};asked={};granted={};woke={};retakes={};by={}",
            self.grant.at_ms,
            self.asked_ms,
            self.granted_ms,
            self.woke_ms,
            self.retakes,
            self.authority
        )
    }
}

/// The header a traced request carries.
pub const TRACE_HEADER: &str = "X-Entrez-Pacing";

/// Waits for a slot in `bucket` for a request to `url` and returns once it may leave: at its
/// slot and by its deadline. A wake-up past the deadline (a busy machine, a grant that
/// travelled long) gives that slot up, unused, and takes the next one. A cold send (a new
/// connection, likely) asks for room after its slot.
pub async fn take_slot(
    pacer: &dyn Pacer,
    transport: &dyn Transport,
    platform: &dyn Platform,
    bucket: &str,
    limit: u32,
    url: &str,
) -> Result<Slot, Error> {
    let room = if transport.cold(url, platform.now_unix_ms()) {
        COLD_SEND_ROOM_MS
    } else {
        0
    };
    for retakes in 0..MAX_RETAKES {
        let asked_ms = platform.now_unix_ms();
        let grant = pacer.reserve(bucket, limit, asked_ms, room).await?;
        let granted_ms = platform.now_unix_ms();
        if grant.at_ms > granted_ms {
            transport.sleep(grant.at_ms - granted_ms).await;
        }
        let woke_ms = platform.now_unix_ms();
        if woke_ms <= grant.latest_ms {
            return Ok(Slot {
                grant,
                asked_ms,
                granted_ms,
                woke_ms,
                retakes,
                authority: pacer.authority(),
            });
        }
    }
    Err(Error::new(
        ErrorKind::Unavailable,
        format!("This server woke too late for {MAX_RETAKES} pacing slots in a row, so the request was not sent (it could have gone over the upstream rate limit)."),
    )
    .suggest("The server is overloaded; retry in a moment."))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Largest number of times inside any half-open window of `window` ms.
    fn max_in_window(times: &[u64], window: u64) -> usize {
        times
            .iter()
            .map(|s| {
                times
                    .iter()
                    .filter(|t| **t >= *s && **t < s + window)
                    .count()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn slots_are_spaced_evenly_at_92_percent_of_the_limit() {
        assert_eq!(
            (spacing_ms(3), spacing_ms(5), spacing_ms(10)),
            (363, 218, 109)
        );
        for limit in [3u32, 5, 10] {
            let mut b = Bucket::default();
            let slots: Vec<u64> = (0..100).map(|_| b.reserve(limit, 10_000, 0)).collect();
            assert_eq!(slots[0], 10_000);
            // Past the burst's first moments, the gaps are even.
            let ramp = slots
                .iter()
                .position(|s| *s >= 10_000 + BURST_RAMP_MS)
                .unwrap();
            let slots = &slots[ramp..];
            assert!(slots.windows(2).all(|w| w[1] - w[0] == spacing_ms(limit)));
            // Every one of them may leave up to the tolerance late, and still no second
            // holds more than the limit.
            let worst: Vec<u64> = slots
                .iter()
                .enumerate()
                .map(|(i, s)| s + if i % 2 == 0 { SEND_TOLERANCE_MS } else { 0 })
                .collect();
            assert!(max_in_window(&worst, 1_000) <= limit as usize, "{limit}");
            let rate = 1000.0 / spacing_ms(limit) as f64 / f64::from(limit);
            assert!((0.91..0.93).contains(&rate), "{limit}: {rate}");
        }
    }

    #[test]
    fn an_idle_bucket_grants_at_once_and_a_limit_change_keeps_the_queue() {
        let mut b = Bucket::default();
        assert_eq!(b.reserve(3, 1_000, 0), 1_000);
        // Behind a slot that has come: the usual gap.
        assert_eq!(b.reserve(3, 1_000, 0), 1_363);
        // Behind one still to come, in a young burst: room before it. A key raises the limit:
        // the slot already promised stands, the gaps shrink.
        assert_eq!(b.reserve(10, 1_000, 0), 1_726 + BURST_ROOM_MS);
        assert_eq!(b.reserve(10, 1_000, 0), 2_026 + 109 + BURST_ROOM_MS);
        assert_eq!(b.reserve(10, 1_000, 0), 2_435 + 109 + BURST_ROOM_MS);
        // Past the burst's first 1.5 s, the usual gap again.
        assert_eq!(b.reserve(10, 1_000, 0), 2_844 + 109);
        assert_eq!(b.reserve(10, 9_000, 0), 9_000);
        // A cold send leaves room after its slot; the next waits that much longer.
        assert_eq!(b.reserve(10, 20_000, COLD_SEND_ROOM_MS), 20_000);
        assert_eq!(b.reserve(10, 20_500, 0), 20_000 + 109 + COLD_SEND_ROOM_MS);
    }

    #[test]
    fn a_caller_alone_never_waits_for_a_bursts_room() {
        // Each request reserves once the one before it has answered (`answer_ms` after it
        // left), the first a cold send: it waits for the usual gap at most, never for room.
        for (limit, answer_ms) in [(3u32, 250u64), (3, 30), (10, 150), (10, 40)] {
            let mut b = Bucket::default();
            let (mut now, mut earliest) = (1_000, 0);
            for i in 0..20 {
                let room = if i == 0 { COLD_SEND_ROOM_MS } else { 0 };
                let slot = b.reserve(limit, now, room);
                assert_eq!(slot, now.max(earliest), "{limit}/{answer_ms}: request {i}");
                earliest = slot + spacing_ms(limit) + room;
                now = slot + answer_ms;
            }
        }
    }

    #[test]
    fn a_send_of_a_young_burst_may_arrive_late_and_still_crowd_no_second() {
        for limit in [3u32, 10] {
            let mut b = Bucket::default();
            let slots: Vec<u64> = (0..60).map(|_| b.reserve(limit, 0, 0)).collect();
            // The slots of a burst's first moments (a loaded machine's), each arriving as
            // late as measured; later ones up to the usual tolerance.
            for late in 0..slots.len() {
                let mut arrivals = slots.clone();
                arrivals[late] += if slots[late] < BURST_RAMP_MS {
                    BURST_ROOM_MS
                } else {
                    SEND_TOLERANCE_MS
                };
                arrivals.sort_unstable();
                assert!(
                    max_in_window(&arrivals, 1_000) <= limit as usize,
                    "{limit}: slot {late} late"
                );
            }
        }
    }

    #[test]
    fn buckets_are_independent_and_long_queues_are_refused() {
        let p = MemoryPacer::new();
        assert_eq!(p.reserve_now("anonymous", 3, 0, 0).unwrap(), Grant::at(0));
        assert_eq!(p.reserve_now("anonymous", 3, 0, 0).unwrap(), Grant::at(363));
        assert_eq!(p.reserve_now("key-abc", 10, 0, 0).unwrap(), Grant::at(0));
        assert_eq!(Grant::at(363).latest_ms, 363 + SEND_TOLERANCE_MS);
        let mut last = Ok(Grant::at(0));
        for _ in 0..200 {
            last = p.reserve_now("anonymous", 3, 0, 0);
            if last.is_err() {
                break;
            }
        }
        assert_eq!(last.unwrap_err().kind, ErrorKind::RateLimited);
    }

    #[test]
    fn a_refusal_takes_no_slot() {
        let p = MemoryPacer::new();
        let mut last = Grant::at(0);
        while let Ok(g) = p.reserve_now("anonymous", 3, 0, 0) {
            last = g;
        }
        // Refused again and again, at once: none of the refusals lengthens the queue.
        for _ in 0..5 {
            assert!(p.reserve_now("anonymous", 3, 0, 0).is_err());
        }
        // The moment the next slot is exactly as far off as a queue may be, it is granted, and
        // it is the slot right after the last one granted: no refusal took one in between.
        let next_ms = last.at_ms + spacing_ms(3);
        let g = p
            .reserve_now("anonymous", 3, next_ms - MAX_QUEUE_MS, 0)
            .unwrap();
        assert_eq!(g, Grant::at(next_ms));
    }

    #[test]
    fn no_limit_plus_one_sends_share_a_second_even_the_first_late_and_the_last_on_time() {
        // The worst pair for any second: send i as late as it may leave, send i + limit as
        // early (its slot). Every pair, for every limit and every offset, not one pattern.
        for limit in [3u32, 5, 10] {
            let mut b = Bucket::default();
            let slots: Vec<u64> = (0..120).map(|_| b.reserve(limit, 10_000, 0)).collect();
            let n = limit as usize;
            for i in 0..slots.len() - n {
                let span = slots[i + n] - (slots[i] + SEND_TOLERANCE_MS);
                assert!(span >= 1_000, "{limit}: slots {i} and {}: {span} ms", i + n);
            }
        }
    }

    /// A clock and a sleep that wakes late by a scripted amount, for [`take_slot`].
    struct LateWaker {
        now: std::sync::atomic::AtomicU64,
        late: Mutex<Vec<u64>>,
    }

    impl Platform for LateWaker {
        fn now_unix_ms(&self) -> u64 {
            self.now.load(std::sync::atomic::Ordering::SeqCst)
        }
        fn fill_random(&self, _buf: &mut [u8]) {}
    }

    impl Transport for LateWaker {
        fn send<'a>(
            &'a self,
            _call: crate::net::HttpCall,
        ) -> BoxFuture<'a, Result<crate::net::HttpReply, Error>> {
            Box::pin(async { Err(Error::internal("not sent in this test")) })
        }
        fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()> {
            let late = {
                let mut l = self.late.lock().unwrap();
                if l.is_empty() {
                    0
                } else {
                    l.remove(0)
                }
            };
            self.now
                .fetch_add(ms + late, std::sync::atomic::Ordering::SeqCst);
            Box::pin(async {})
        }
    }

    fn slot_for(pacer: &MemoryPacer, clock: &LateWaker) -> Result<Slot, Error> {
        use futures_util::FutureExt;
        take_slot(pacer, clock, clock, "b", 3, "http://ncbi/")
            .now_or_never()
            .expect("nothing here waits")
    }

    #[test]
    fn a_request_that_wakes_too_late_gives_its_slot_up_and_takes_the_next() {
        let pacer = MemoryPacer::new();
        // Two slots are taken first, so that the request waits; it then wakes 200 ms late
        // (past the tolerance) twice, and on time the third time.
        pacer.reserve_now("b", 3, 0, 0).unwrap();
        pacer.reserve_now("b", 3, 0, 0).unwrap();
        let clock = LateWaker {
            now: 0.into(),
            late: Mutex::new(vec![200, 200, 0]),
        };
        let slot = slot_for(&pacer, &clock).unwrap();
        assert_eq!(slot.retakes, 2, "{slot:?}");
        assert!(slot.woke_ms <= slot.grant.latest_ms, "{slot:?}");
        // The slots given up stay taken: never handed to anyone again, so a late sender
        // cannot crowd the one after it.
        assert!(slot.grant.at_ms > 2 * spacing_ms(3) + 200, "{slot:?}");
        let after = pacer.reserve_now("b", 3, slot.woke_ms, 0).unwrap();
        assert!(after.at_ms >= slot.grant.at_ms + spacing_ms(3), "{after:?}");
    }

    /// Grants every request a slot 100 ms on, and counts them.
    #[derive(Default)]
    struct Ahead(std::sync::atomic::AtomicU32);

    impl Pacer for Ahead {
        fn reserve<'a>(
            &'a self,
            _bucket: &'a str,
            _limit: u32,
            now_ms: u64,
            _room_after_ms: u64,
        ) -> BoxFuture<'a, Result<Grant, Error>> {
            self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Box::pin(async move { Ok(Grant::at(now_ms + 100)) })
        }
    }

    #[test]
    fn a_machine_that_never_wakes_in_time_sends_nothing() {
        use futures_util::FutureExt;
        let pacer = Ahead::default();
        let clock = LateWaker {
            now: 0.into(),
            late: Mutex::new(vec![5_000; 20]),
        };
        let e = take_slot(&pacer, &clock, &clock, "b", 3, "http://ncbi/")
            .now_or_never()
            .expect("nothing here waits")
            .unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unavailable);
        assert_eq!(
            pacer.0.load(std::sync::atomic::Ordering::SeqCst),
            MAX_RETAKES
        );
    }
}
