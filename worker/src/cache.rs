//! The Worker's store of upstream answers: the Cache API (`caches.default`).
//!
//! Entries are kept under a URL of their own (`https://entrez-mcp.cache/answer/<key>`, never
//! fetched), with `Cache-Control: max-age` so Cloudflare drops them when they expire; the
//! expiry is also written in a header and checked on every read, to the millisecond. The
//! cache is per data center and shared by the isolates there; how its bytes are bounded, and
//! where it keeps nothing, is on [`CacheApiAnswers`].

use entrez_mcp_core::net::cache::lru::Lru;
use entrez_mcp_core::net::cache::{Entry, ResponseStore};
use entrez_mcp_core::platform::BoxFuture;
use std::sync::Mutex;
use worker::{Cache, Headers, Response};

const STORED: &str = "x-entrez-stored-ms";
const EXPIRES: &str = "x-entrez-expires-ms";

/// Answers in the data center's cache, bounded per isolate.
///
/// The byte bound holds per isolate: each keeps an index of what it stored or read ([`Lru`])
/// and deletes its least recently used entries past `ENTREZ_CACHE_MAX_BYTES`, while Cloudflare
/// evicts on its own besides. On `*.workers.dev` addresses the Cache API keeps nothing
/// (Cloudflare's documented behaviour): answers are then shared only in flight.
pub struct CacheApiAnswers {
    index: Mutex<Lru>,
}

impl CacheApiAnswers {
    /// A store holding at most `max_bytes` of this isolate's entries.
    pub fn new(max_bytes: u64) -> CacheApiAnswers {
        CacheApiAnswers {
            index: Mutex::new(Lru::new(max_bytes)),
        }
    }

    fn index(&self) -> std::sync::MutexGuard<'_, Lru> {
        self.index.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn url(key: &str) -> String {
    format!("https://entrez-mcp.cache/answer/{key}")
}

async fn read(key: &str) -> Option<Entry> {
    let mut response = Cache::default().get(url(key), false).await.ok()??;
    let headers = response.headers();
    let number = |name: &str| headers.get(name).ok()??.parse::<u64>().ok();
    let (stored_ms, expires_ms) = (number(STORED)?, number(EXPIRES)?);
    let content_type = headers.get("content-type").ok().flatten();
    let status = response.status_code();
    let body = response.bytes().await.ok()?;
    Some(Entry {
        status,
        content_type,
        body,
        stored_ms,
        expires_ms,
    })
}

async fn write(key: &str, entry: Entry) -> worker::Result<()> {
    let headers = Headers::new();
    if let Some(kind) = &entry.content_type {
        headers.set("content-type", kind)?;
    }
    headers.set(STORED, &entry.stored_ms.to_string())?;
    headers.set(EXPIRES, &entry.expires_ms.to_string())?;
    let seconds = entry
        .expires_ms
        .saturating_sub(entry.stored_ms)
        .div_ceil(1000);
    headers.set("cache-control", &format!("max-age={}", seconds.max(1)))?;
    let response = Response::from_bytes(entry.body)?
        .with_status(entry.status)
        .with_headers(headers);
    Cache::default().put(url(key), response).await
}

impl ResponseStore for CacheApiAnswers {
    fn get<'a>(&'a self, key: &'a str, now_ms: u64) -> BoxFuture<'a, Option<Entry>> {
        Box::pin(async move {
            let Some(entry) = read(key).await else {
                // Gone (evicted by Cloudflare, or never kept: a *.workers.dev address keeps
                // nothing): the index stops counting it.
                self.index().remove(key);
                return None;
            };
            if entry.expires_ms <= now_ms {
                self.index().remove(key);
                let _ = Cache::default().delete(url(key), false).await;
                return None;
            }
            // An entry another isolate stored counts here from its first use.
            let dropped = {
                let mut index = self.index();
                if index.contains(key) || !index.fits(entry.bytes()) {
                    index.touch(key);
                    Vec::new()
                } else {
                    index.insert(key, entry.bytes())
                }
            };
            forget(dropped).await;
            Some(entry)
        })
    }

    fn put<'a>(&'a self, key: &'a str, entry: Entry) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let bytes = entry.bytes();
            if !self.index().fits(bytes) || write(key, entry).await.is_err() {
                return;
            }
            let dropped = self.index().insert(key, bytes);
            forget(dropped).await;
        })
    }

    fn usage(&self) -> (u64, u64) {
        self.index().usage()
    }
}

/// Deletes entries the index dropped to stay within the bound.
async fn forget(keys: Vec<String>) {
    for gone in keys {
        let _ = Cache::default().delete(url(&gone), false).await;
    }
}
