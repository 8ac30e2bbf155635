//! A [`ResponseStore`] in this process's memory, bounded in bytes.
//!
//! What the core's tests use, and a store for any edge without a better one.

use crate::net::cache::lru::Lru;
use crate::net::cache::{Entry, ResponseStore};
use crate::platform::BoxFuture;
use std::collections::HashMap;
use std::sync::Mutex;

/// Entries in memory, the least recently used dropped past the bound.
#[derive(Debug)]
pub struct MemoryStore {
    inner: Mutex<(Lru, HashMap<String, Entry>)>,
}

impl MemoryStore {
    /// An empty store that holds at most `max_bytes` of bodies.
    pub fn new(max_bytes: u64) -> MemoryStore {
        MemoryStore {
            inner: Mutex::new((Lru::new(max_bytes), HashMap::new())),
        }
    }
}

impl ResponseStore for MemoryStore {
    fn get<'a>(&'a self, key: &'a str, now_ms: u64) -> BoxFuture<'a, Option<Entry>> {
        Box::pin(async move {
            let mut inner = self.inner.lock().ok()?;
            let (lru, map) = &mut *inner;
            let entry = map.get(key)?.clone();
            if entry.expires_ms <= now_ms {
                map.remove(key);
                lru.remove(key);
                return None;
            }
            lru.touch(key);
            Some(entry)
        })
    }

    fn put<'a>(&'a self, key: &'a str, entry: Entry) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let Ok(mut inner) = self.inner.lock() else {
                return;
            };
            let (lru, map) = &mut *inner;
            if !lru.fits(entry.bytes()) {
                return;
            }
            for gone in lru.insert(key, entry.bytes()) {
                map.remove(&gone);
            }
            map.insert(key.to_string(), entry);
        })
    }

    fn usage(&self) -> (u64, u64) {
        self.inner.lock().map(|i| i.0.usage()).unwrap_or_default()
    }
}
