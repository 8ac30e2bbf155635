//! MCP session ids that any instance can verify.
//!
//! An id is `<32 hex random><16 hex issue time>[v].<32 hex MAC>`, the MAC being
//! HMAC-SHA256 of the first part under the session key; the `v` says the client declared
//! at `initialize` that it renders MCP Apps views ([`crate::apps`]), which later requests
//! of the session cannot say again. A Worker runs in many
//! isolates that share no memory; signing lets every isolate accept the ids
//! any other issued, while forged or expired ids get 404 and the client starts
//! a new session, as the specification prescribes.

use crate::hex::hex;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::HashMap;
use std::sync::Mutex;

type HmacSha256 = Hmac<Sha256>;

/// The outcome of checking a session id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionState {
    /// Issued by this server, unexpired, not terminated.
    Active,
    /// Malformed, forged, expired or terminated: the client must re-initialize.
    Unknown,
}

/// Issues, verifies and terminates session ids.
pub struct Sessions {
    key: Vec<u8>,
    ttl_secs: u64,
    terminated: Option<Mutex<HashMap<String, u64>>>,
}

impl Sessions {
    /// Sessions signed with `key`; `supports_termination` enables DELETE (needs shared memory).
    pub fn new(key: Vec<u8>, ttl_secs: u64, supports_termination: bool) -> Sessions {
        Sessions {
            key,
            ttl_secs,
            terminated: supports_termination.then(|| Mutex::new(HashMap::new())),
        }
    }

    /// Whether DELETE can end a session on this edge.
    pub fn supports_termination(&self) -> bool {
        self.terminated.is_some()
    }

    /// A new session id from 16 random bytes, issued at `now_ms` to `principal`, marked when
    /// its client renders MCP Apps views (`views`).
    pub fn issue(&self, random: [u8; 16], now_ms: u64, principal: &str, views: bool) -> String {
        let mark = if views { "v" } else { "" };
        let payload = format!("{}{:016x}{mark}", hex(&random), now_ms / 1000);
        format!("{payload}.{}", hex(&self.mac(&payload, principal)[..16]))
    }

    /// Whether the session `id` (checked [`SessionState::Active`] first) was opened by a
    /// client that renders MCP Apps views.
    pub fn renders_views(id: &str) -> bool {
        id.split_once('.')
            .is_some_and(|(payload, _)| payload.len() == 49 && payload.ends_with('v'))
    }

    /// Checks an id at `now_ms`.
    pub fn check(&self, id: &str, now_ms: u64, principal: &str) -> SessionState {
        let Some(issued) = self.verify(id, principal) else {
            return SessionState::Unknown;
        };
        if (now_ms / 1000).saturating_sub(issued) > self.ttl_secs {
            return SessionState::Unknown;
        }
        if let Some(t) = &self.terminated {
            if t.lock().map(|m| m.contains_key(id)).unwrap_or(true) {
                return SessionState::Unknown;
            }
        }
        SessionState::Active
    }

    /// Ends a session; false when the id is not active or termination is unsupported.
    pub fn terminate(&self, id: &str, now_ms: u64, principal: &str) -> bool {
        if self.check(id, now_ms, principal) != SessionState::Active {
            return false;
        }
        let (Some(t), Some(issued)) = (&self.terminated, self.verify(id, principal)) else {
            return false;
        };
        let Ok(mut map) = t.lock() else { return false };
        // Expired ids fail the time check anyway, so the list only needs live ones.
        let now = now_ms / 1000;
        map.retain(|_, at| now.saturating_sub(*at) <= self.ttl_secs);
        map.insert(id.to_string(), issued);
        true
    }

    fn verify(&self, id: &str, principal: &str) -> Option<u64> {
        let (payload, mac_hex) = id.split_once('.')?;
        let marked = payload.len() == 49 && payload.ends_with('v');
        if (payload.len() != 48 && !marked) || mac_hex.len() != 32 {
            return None;
        }
        let mac = unhex(mac_hex)?;
        let mut m = HmacSha256::new_from_slice(&self.key).ok()?;
        m.update(payload.as_bytes());
        m.update(b"\0");
        m.update(principal.as_bytes());
        m.verify_truncated_left(&mac).ok()?;
        u64::from_str_radix(&payload[32..48], 16).ok()
    }

    fn mac(&self, payload: &str, principal: &str) -> Vec<u8> {
        let mut m = HmacSha256::new_from_slice(&self.key).expect("HMAC takes keys of any length");
        m.update(payload.as_bytes());
        // Bound to who opened it: a session is no credential for another caller.
        m.update(b"\0");
        m.update(principal.as_bytes());
        m.finalize().into_bytes().to_vec()
    }
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: u64 = 1_700_000_000_000;

    #[test]
    fn issued_ids_verify_until_they_expire() {
        let s = Sessions::new(b"k".to_vec(), 60, true);
        let id = s.issue([7; 16], T0, "", false);
        assert!(id.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        assert_eq!(s.check(&id, T0 + 59_000, ""), SessionState::Active);
        assert_eq!(s.check(&id, T0 + 61_000, ""), SessionState::Unknown);
    }

    #[test]
    fn a_session_remembers_that_its_client_renders_views_and_the_mark_cannot_be_forged() {
        let s = Sessions::new(b"k".to_vec(), 60, false);
        let marked = s.issue([7; 16], T0, "", true);
        let plain = s.issue([7; 16], T0, "", false);
        assert_eq!(s.check(&marked, T0, ""), SessionState::Active);
        assert!(Sessions::renders_views(&marked) && !Sessions::renders_views(&plain));
        // Adding the mark to an id without it breaks its MAC.
        let (payload, mac) = plain.split_once('.').unwrap();
        assert_eq!(
            s.check(&format!("{payload}v.{mac}"), T0, ""),
            SessionState::Unknown
        );
    }

    #[test]
    fn forged_and_foreign_ids_are_unknown() {
        let s = Sessions::new(b"k".to_vec(), 60, false);
        let other = Sessions::new(b"other".to_vec(), 60, false);
        let id = other.issue([1; 16], T0, "", false);
        assert_eq!(s.check(&id, T0, ""), SessionState::Unknown);
        let mut tampered = s.issue([1; 16], T0, "", false);
        tampered.replace_range(0..1, "f");
        assert_eq!(s.check(&tampered, T0, ""), SessionState::Unknown);
        assert_eq!(s.check("nonsense", T0, ""), SessionState::Unknown);
    }

    #[test]
    fn termination_ends_a_session_once() {
        let s = Sessions::new(b"k".to_vec(), 60, true);
        let id = s.issue([2; 16], T0, "", false);
        assert!(s.terminate(&id, T0, ""));
        assert_eq!(s.check(&id, T0, ""), SessionState::Unknown);
        assert!(!s.terminate(&id, T0, ""));
        let stateless = Sessions::new(b"k".to_vec(), 60, false);
        let id2 = stateless.issue([3; 16], T0, "", false);
        assert!(!stateless.terminate(&id2, T0, ""));
        assert_eq!(stateless.check(&id2, T0, ""), SessionState::Active);
    }

    #[test]
    fn a_session_is_bound_to_the_caller_who_opened_it() {
        let s = Sessions::new(b"k".to_vec(), 60, true);
        let alice = s.issue([9; 16], T0, "alice-key", false);
        assert_eq!(s.check(&alice, T0, "alice-key"), SessionState::Active);
        assert_eq!(s.check(&alice, T0, "bob-key"), SessionState::Unknown);
        assert_eq!(s.check(&alice, T0, ""), SessionState::Unknown);
        assert!(!s.terminate(&alice, T0, "bob-key"));
    }
}
