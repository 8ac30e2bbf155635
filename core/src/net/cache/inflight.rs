//! Identical requests in flight at once wait for one upstream request.
//!
//! The first to ask for a key leads: it sends, and leaves its answer (or its error) in the
//! key's slot for every follower that joined while it was out. Followers look at the slot on
//! a timer of their own rather than being woken by the leader: a Worker cancels a request
//! that waits on nothing but another request's work as hung, and a timer is something of its
//! own to wait on. What happens to a leader that never answers is on [`Lead`].

use crate::error::Error;
use crate::net::{HttpReply, Transport};
use crate::platform::Platform;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What one upstream request ends in, shared by everyone who waited for it.
pub type Answer = Result<HttpReply, Error>;

/// How often a follower looks for the leader's answer.
pub const POLL_MS: u64 = 10;

/// The longest a follower waits: more than a request's whole retry deadline (60 s) and one
/// more attempt's time limit (35 s at most).
pub const FOLLOW_MS: u64 = 120_000;

#[derive(Debug)]
enum Slot {
    /// Sent at this time, no answer yet.
    Pending(u64),
    Done(Answer),
    Abandoned,
}

type Shared = Arc<Mutex<Slot>>;

/// The requests out now, by cache key.
#[derive(Debug, Default)]
pub struct InFlight {
    out: Mutex<HashMap<String, Shared>>,
}

/// A caller's turn for a key.
pub enum Turn<'a> {
    /// Send, then [`Lead::finish`] with the answer.
    Lead(Lead<'a>),
    /// Wait for the leader's answer with [`Follow::answer`].
    Follow(Follow),
}

impl InFlight {
    /// Leads `key` if no one is sending it (or its leader was sent more than [`FOLLOW_MS`]
    /// before `now_ms`), else follows whoever is.
    pub fn join(&self, key: &str, now_ms: u64) -> Turn<'_> {
        let slot = Arc::new(Mutex::new(Slot::Pending(now_ms)));
        let Ok(mut out) = self.out.lock() else {
            // A poisoned map coalesces nothing; each caller sends alone.
            return Turn::Lead(Lead {
                flight: self,
                key: None,
                slot,
            });
        };
        if let Some(theirs) = out.get(key) {
            let stale = match theirs.lock().as_deref() {
                Ok(Slot::Pending(since)) => now_ms.saturating_sub(*since) >= FOLLOW_MS,
                _ => true,
            };
            if !stale {
                return Turn::Follow(Follow(Arc::clone(theirs)));
            }
        }
        out.insert(key.to_string(), Arc::clone(&slot));
        Turn::Lead(Lead {
            flight: self,
            key: Some(key.to_string()),
            slot,
        })
    }

    /// Takes `key` off the map (if `slot` still holds it): no one can follow it after this.
    fn release(&self, key: &str, slot: &Shared) {
        if let Ok(mut out) = self.out.lock() {
            if out.get(key).is_some_and(|s| Arc::ptr_eq(s, slot)) {
                out.remove(key);
            }
        }
    }
}

/// The leader's hold on a key; released when finished or dropped.
///
/// A leader that is dropped before it answers (its caller went away) marks the slot
/// abandoned, and its followers send for themselves. A leader that is never heard from again
/// (a Worker request cancelled without its future being dropped) holds its key no longer than
/// [`FOLLOW_MS`]: its followers then send for themselves, and the next caller leads anew.
pub struct Lead<'a> {
    flight: &'a InFlight,
    key: Option<String>,
    slot: Shared,
}

impl Lead<'_> {
    /// Leaves `answer` for every follower; returns how many were waiting. The answer is
    /// copied only when someone waits for it.
    pub fn finish(mut self, answer: &Answer) -> usize {
        let Some(key) = self.key.take() else {
            return 0;
        };
        self.flight.release(&key, &self.slot);
        // Off the map, no one joins: what is left besides ours is the followers'.
        let followers = Arc::strong_count(&self.slot) - 1;
        if followers > 0 {
            if let Ok(mut s) = self.slot.lock() {
                *s = Slot::Done(answer.clone());
            }
        }
        followers
    }
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            self.flight.release(&key, &self.slot);
            if let Ok(mut s) = self.slot.lock() {
                *s = Slot::Abandoned;
            }
        }
    }
}

/// A follower's view of the leader's slot.
pub struct Follow(Shared);

impl Follow {
    /// The leader's answer, or `None` when it went away without one or took longer than
    /// [`FOLLOW_MS`] since it was sent.
    pub async fn answer(self, timer: &dyn Transport, clock: &dyn Platform) -> Option<Answer> {
        loop {
            match self.0.lock().as_deref() {
                Ok(Slot::Done(answer)) => return Some(answer.clone()),
                Ok(Slot::Pending(since))
                    if clock.now_unix_ms().saturating_sub(*since) < FOLLOW_MS => {}
                _ => return None,
            }
            timer.sleep(POLL_MS).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::BoxFuture;
    use futures_util::FutureExt;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A clock the test moves.
    #[derive(Default)]
    struct Clock(AtomicU64);

    impl Platform for Clock {
        fn now_unix_ms(&self) -> u64 {
            self.0.load(Ordering::SeqCst)
        }
        fn fill_random(&self, _: &mut [u8]) {}
    }

    fn reply(body: &str) -> HttpReply {
        HttpReply {
            status: 200,
            headers: vec![],
            body: body.as_bytes().to_vec(),
        }
    }

    /// A timer that returns at once: the slot is settled before anyone looks.
    struct Instant;

    impl Transport for Instant {
        fn send<'a>(&'a self, _: crate::net::HttpCall) -> BoxFuture<'a, Answer> {
            unreachable!("followers never send")
        }
        fn sleep<'a>(&'a self, _: u64) -> BoxFuture<'a, ()> {
            Box::pin(async {})
        }
    }

    #[test]
    fn followers_get_the_leaders_answer_and_the_key_is_free_after() {
        let (flight, clock) = (InFlight::default(), Clock::default());
        let Turn::Lead(lead) = flight.join("k", 0) else {
            panic!("the first caller leads")
        };
        let Turn::Follow(a) = flight.join("k", 1) else {
            panic!("the second follows")
        };
        let Turn::Follow(b) = flight.join("k", 2) else {
            panic!("the third follows")
        };
        // Another key is another request.
        assert!(matches!(flight.join("other", 2), Turn::Lead(_)));
        assert_eq!(lead.finish(&Ok(reply("x"))), 2);
        for follow in [a, b] {
            let got = follow
                .answer(&Instant, &clock)
                .now_or_never()
                .expect("answered");
            assert_eq!(got.expect("not abandoned").expect("ok").body, b"x");
        }
        assert!(matches!(flight.join("k", 3), Turn::Lead(_)));
        // With no one waiting, nothing is copied and nothing is left behind.
        let Turn::Lead(alone) = flight.join("k", 4) else {
            panic!("leads")
        };
        assert_eq!(alone.finish(&Ok(reply("y"))), 0);
        assert!(matches!(flight.join("k", 5), Turn::Lead(_)));
    }

    #[test]
    fn a_dropped_leader_lets_its_followers_send_for_themselves() {
        let (flight, clock) = (InFlight::default(), Clock::default());
        let lead = flight.join("k", 0);
        let Turn::Follow(follow) = flight.join("k", 0) else {
            panic!("follows")
        };
        drop(lead);
        let got = follow
            .answer(&Instant, &clock)
            .now_or_never()
            .expect("resolved");
        assert!(got.is_none());
        assert!(matches!(flight.join("k", 0), Turn::Lead(_)));
    }

    #[test]
    fn a_leader_never_heard_from_again_holds_its_key_for_a_while_only() {
        let (flight, clock) = (InFlight::default(), Clock::default());
        let Turn::Lead(silent) = flight.join("k", 0) else {
            panic!("leads")
        };
        let Turn::Follow(follow) = flight.join("k", FOLLOW_MS - 1) else {
            panic!("follows while the leader may still answer")
        };
        clock.0.store(FOLLOW_MS, Ordering::SeqCst);
        let got = follow
            .answer(&Instant, &clock)
            .now_or_never()
            .expect("gives up");
        assert!(got.is_none());
        // The next caller leads anew; the silent leader's late answer goes to no one.
        let Turn::Lead(fresh) = flight.join("k", FOLLOW_MS) else {
            panic!("a stale leader is replaced")
        };
        assert_eq!(silent.finish(&Ok(reply("late"))), 0);
        let Turn::Follow(_) = flight.join("k", FOLLOW_MS + 1) else {
            panic!("the new leader still holds the key")
        };
        drop(fresh);
    }
}
