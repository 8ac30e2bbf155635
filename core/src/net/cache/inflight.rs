//! Identical requests in flight at once wait for one upstream request.
//!
//! The first to ask for a key leads: it sends, and hands its answer (or its
//! error) to every follower that joined while it was out. Followers wait on a
//! oneshot channel, which needs no runtime. A leader that is dropped before it
//! answers (its caller went away) releases the key, and its followers, told
//! their channel closed, send for themselves.

use crate::error::Error;
use crate::net::HttpReply;
use futures_channel::oneshot;
use std::collections::HashMap;
use std::sync::Mutex;

/// What one upstream request ends in, shared by everyone who waited for it.
pub type Answer = Result<HttpReply, Error>;

type Waiting = HashMap<String, Vec<oneshot::Sender<Answer>>>;

/// The requests out now, by cache key.
#[derive(Debug, Default)]
pub struct InFlight {
    waiting: Mutex<Waiting>,
}

/// A caller's turn for a key.
pub enum Turn<'a> {
    /// Send, then [`Lead::finish`] with the answer.
    Lead(Lead<'a>),
    /// Wait for the leader's answer; `Err` means it went away without one.
    Follow(oneshot::Receiver<Answer>),
}

impl InFlight {
    /// Leads `key` if no one is sending it, else follows whoever is.
    pub fn join(&self, key: &str) -> Turn<'_> {
        let Ok(mut waiting) = self.waiting.lock() else {
            // A poisoned map coalesces nothing; each caller sends alone.
            return Turn::Lead(Lead {
                flight: self,
                key: None,
            });
        };
        if let Some(followers) = waiting.get_mut(key) {
            let (tx, rx) = oneshot::channel();
            followers.push(tx);
            return Turn::Follow(rx);
        }
        waiting.insert(key.to_string(), Vec::new());
        Turn::Lead(Lead {
            flight: self,
            key: Some(key.to_string()),
        })
    }

    fn release(&self, key: &str) -> Vec<oneshot::Sender<Answer>> {
        self.waiting
            .lock()
            .ok()
            .and_then(|mut w| w.remove(key))
            .unwrap_or_default()
    }
}

/// The leader's hold on a key; released when finished or dropped.
pub struct Lead<'a> {
    flight: &'a InFlight,
    key: Option<String>,
}

impl Lead<'_> {
    /// Hands `answer` to every follower; returns how many there were.
    pub fn finish(mut self, answer: &Answer) -> usize {
        let Some(key) = self.key.take() else {
            return 0;
        };
        let followers = self.flight.release(&key);
        let n = followers.len();
        for tx in followers {
            let _ = tx.send(answer.clone());
        }
        n
    }
}

impl Drop for Lead<'_> {
    fn drop(&mut self) {
        // Dropping the senders tells each follower to send for itself.
        if let Some(key) = self.key.take() {
            drop(self.flight.release(&key));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::FutureExt;

    fn reply(body: &str) -> HttpReply {
        HttpReply {
            status: 200,
            headers: vec![],
            body: body.as_bytes().to_vec(),
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
        for rx in [a, b] {
            let got = rx.now_or_never().expect("answered").expect("not dropped");
            assert_eq!(got.expect("ok").body, b"x");
        }
        assert!(matches!(flight.join("k"), Turn::Lead(_)));
    }

    #[test]
    fn a_dropped_leader_lets_its_followers_send_for_themselves() {
        let flight = InFlight::default();
        let lead = flight.join("k");
        let Turn::Follow(rx) = flight.join("k") else {
            panic!("follows")
        };
        drop(lead);
        assert!(rx.now_or_never().expect("resolved").is_err());
        assert!(matches!(flight.join("k"), Turn::Lead(_)));
    }
}
