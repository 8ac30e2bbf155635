//! Which entries to drop to stay within a byte bound: least recently used first.
//!
//! Bookkeeping only (keys and sizes, no bodies), so a store that keeps its
//! bodies elsewhere (the Worker's Cache API) bounds them with the same code
//! as one that keeps them here ([`crate::net::cache::memory::MemoryStore`]).

use std::collections::{BTreeMap, HashMap};

/// Keys with their sizes, in order of last use.
#[derive(Debug, Default)]
pub struct Lru {
    max_bytes: u64,
    total: u64,
    clock: u64,
    entries: HashMap<String, (u64, u64)>,
    order: BTreeMap<u64, String>,
}

impl Lru {
    /// An empty index that holds at most `max_bytes`.
    pub fn new(max_bytes: u64) -> Lru {
        Lru {
            max_bytes,
            ..Lru::default()
        }
    }

    /// Whether an entry of `bytes` may be kept at all (one larger than the bound never is).
    pub fn fits(&self, bytes: u64) -> bool {
        bytes <= self.max_bytes
    }

    /// Whether `key` is kept.
    pub fn contains(&self, key: &str) -> bool {
        self.entries.contains_key(key)
    }

    /// Notes a use of `key`, if kept.
    pub fn touch(&mut self, key: &str) {
        if let Some((bytes, last)) = self.entries.get(key).copied() {
            self.order.remove(&last);
            self.clock += 1;
            self.order.insert(self.clock, key.to_string());
            self.entries.insert(key.to_string(), (bytes, self.clock));
        }
    }

    /// Adds (or replaces) `key` of `bytes`; returns the keys dropped to stay within the bound.
    pub fn insert(&mut self, key: &str, bytes: u64) -> Vec<String> {
        self.remove(key);
        self.clock += 1;
        self.entries.insert(key.to_string(), (bytes, self.clock));
        self.order.insert(self.clock, key.to_string());
        self.total += bytes;
        let mut dropped = Vec::new();
        while self.total > self.max_bytes {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some((b, _)) = self.entries.remove(&oldest) {
                self.total -= b;
            }
            dropped.push(oldest);
        }
        dropped
    }

    /// Forgets `key`.
    pub fn remove(&mut self, key: &str) {
        if let Some((bytes, last)) = self.entries.remove(key) {
            self.order.remove(&last);
            self.total -= bytes;
        }
    }

    /// Entries and bytes kept.
    pub fn usage(&self) -> (u64, u64) {
        (self.entries.len() as u64, self.total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_go_first_and_the_bound_holds() {
        let mut lru = Lru::new(100);
        assert!(lru.insert("a", 40).is_empty());
        assert!(lru.insert("b", 40).is_empty());
        lru.touch("a");
        // c needs room: b was used longest ago.
        assert_eq!(lru.insert("c", 40), vec!["b".to_string()]);
        assert_eq!(lru.usage(), (2, 80));
        // Replacing a key counts its new size only.
        assert!(lru.insert("a", 50).is_empty());
        assert_eq!(lru.usage(), (2, 90));
        assert_eq!(lru.insert("d", 60), vec!["c".to_string(), "a".to_string()]);
        assert_eq!(lru.usage(), (1, 60));
        assert!(!lru.fits(101));
        lru.remove("d");
        assert_eq!(lru.usage(), (0, 0));
    }
}
