//! Identical requests in flight at once wait for one upstream request.
//!
//! The first to ask for a key leads: it sends, and leaves its answer (or its
//! error) in the key's slot for every follower that joined while it was out.
//! Followers look at the slot on a timer of their own rather than being woken
//! by the leader: a Worker cancels a request that waits on nothing but another
//! request's work as hung, and a timer is something of its own to wait on. A
//! leader that is dropped before it answers (its caller went away) marks the
//! slot abandoned, and its followers send for themselves.

use crate::error::Error;
use crate::net::{HttpReply, Transport};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// What one upstream request ends in, shared by everyone who waited for it.
pub type Answer = Result<HttpReply, Error>;

/// How often a follower looks for the leader's answer.
pub const POLL_MS: u64 = 10;

#[derive(Debug, Default)]
enum Slot {
    #[default]
    Pending,
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
    /// Leads `key` if no one is sending it, else follows whoever is.
    pub fn join(&self, key: &str) -> Turn<'_> {
        let Ok(mut out) = self.out.lock() else {
            // A poisoned map coalesces nothing; each caller sends alone.
            return Turn::Lead(Lead {
                flight: self,
                key: None,
                slot: Shared::default(),
            });
        };
        if let Some(slot) = out.get(key) {
            return Turn::Follow(Follow(Arc::clone(slot)));
        }
        let slot = Shared::default();
        out.insert(key.to_string(), Arc::clone(&slot));
        Turn::Lead(Lead {
            flight: self,
            key: Some(key.to_string()),
            slot,
        })
    }

    fn settle(&self, key: &str, slot: &Shared, outcome: Slot) {
        if let Ok(mut out) = self.out.lock() {
            out.remove(key);
        }
        if let Ok(mut s) = slot.lock() {
            *s = outcome;
        }
    }
}

/// The leader's hold on a key; released when finished or dropped.
pub struct Lead<'a> {
    flight: &'a InFlight,
    key: Option<String>,
    slot: Shared,
}

impl Lead<'_> {
    /// Leaves `answer` for every follower; returns how many were waiting.
    pub fn finish(mut self, answer: &Answer) -> usize {
        let Some(key) = self.key.take() else {
            return 0;
        };
        self.flight
            .settle(&key, &self.slot, Slot::Done(answer.clone()));
        // The map's reference is gone: what is left besides ours is the followers'.
        Arc::strong_count(&self.slot) - 1
    }
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            self.flight.settle(&key, &self.slot, Slot::Abandoned);
        }
    }
}

/// A follower's view of the leader's slot.
pub struct Follow(Shared);

impl Follow {
    /// The leader's answer, or `None` when it went away without one.
    pub async fn answer(self, timer: &dyn Transport) -> Option<Answer> {
        loop {
            match self.0.lock().as_deref() {
                Ok(Slot::Done(answer)) => return Some(answer.clone()),
                Ok(Slot::Pending) => {}
                Ok(Slot::Abandoned) | Err(_) => return None,
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
        let flight = InFlight::default();
        let Turn::Lead(lead) = flight.join("k") else {
            panic!("the first caller leads")
        };
        let Turn::Follow(a) = flight.join("k") else {
            panic!("the second follows")
        };
        let Turn::Follow(b) = flight.join("k") else {
            panic!("the third follows")
        };
        // Another key is another request.
        assert!(matches!(flight.join("other"), Turn::Lead(_)));
        assert_eq!(lead.finish(&Ok(reply("x"))), 2);
        for follow in [a, b] {
            let got = follow.answer(&Instant).now_or_never().expect("answered");
            assert_eq!(got.expect("not abandoned").expect("ok").body, b"x");
        }
        assert!(matches!(flight.join("k"), Turn::Lead(_)));
    }

    #[test]
    fn a_dropped_leader_lets_its_followers_send_for_themselves() {
        let flight = InFlight::default();
        let lead = flight.join("k");
        let Turn::Follow(follow) = flight.join("k") else {
            panic!("follows")
        };
        drop(lead);
        assert!(follow
            .answer(&Instant)
            .now_or_never()
            .expect("resolved")
            .is_none());
        assert!(matches!(flight.join("k"), Turn::Lead(_)));
    }
}
