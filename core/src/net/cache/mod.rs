//! Upstream answers kept and shared, so NCBI's small budget is spent once.
//!
//! Every upstream request passes through [`ResponseCache::through`] on its way
//! to the send loop. [`policy`] decides from the request as sent whether its
//! answer may be kept and for how long, and [`keep`] whether a reply may be; a
//! kept answer is served without a request, and identical requests in flight
//! at once wait for one ([`inflight`]). Where answers live is each edge's
//! [`ResponseStore`]: natively a SQLite file under `ENTREZ_DATA_DIR`, on Workers
//! the Cache API, in tests [`memory::MemoryStore`]. Each tool call keeps a
//! [`CallLog`] of what it was served from here, which its result shows.

pub mod inflight;
pub mod keep;
pub mod lru;
pub mod memory;
pub mod policy;

use crate::json;
use crate::net::{HttpCall, HttpReply, Method, Transport};
use crate::platform::{BoxFuture, MaybeSendSync, Platform};
use inflight::{InFlight, Turn};
use keep::storable;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::future::Future;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering::Relaxed};

/// One kept answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The reply's status (always 200 today).
    pub status: u16,
    /// Its `Content-Type`, which readers consult.
    pub content_type: Option<String>,
    /// The whole body.
    pub body: Vec<u8>,
    /// When it was received, in Unix milliseconds.
    pub stored_ms: u64,
    /// When it stops being served.
    pub expires_ms: u64,
}

impl Entry {
    /// The bytes it takes, as the byte bound counts them.
    pub fn bytes(&self) -> u64 {
        (self.body.len() + self.content_type.as_ref().map_or(0, String::len)) as u64
    }

    /// The reply a reader gets, as it came.
    pub fn reply(self) -> HttpReply {
        HttpReply {
            status: self.status,
            headers: self
                .content_type
                .map(|c| vec![("content-type".to_string(), c)])
                .unwrap_or_default(),
            body: self.body,
        }
    }
}

/// Where an edge keeps answers; it bounds its own bytes and drops what has expired.
pub trait ResponseStore: MaybeSendSync {
    /// The entry under `key`, unless missing or expired at `now_ms`.
    fn get<'a>(&'a self, key: &'a str, now_ms: u64) -> BoxFuture<'a, Option<Entry>>;
    /// Keeps `entry` under `key`, dropping the least recently used past the bound; an entry
    /// larger than the whole bound is not kept.
    fn put<'a>(&'a self, key: &'a str, entry: Entry) -> BoxFuture<'a, ()>;
    /// Entries and bytes kept, as far as this process knows.
    fn usage(&self) -> (u64, u64);
}

/// The default byte bound: 64 MiB, some hundreds of fetches of 200 abstracts.
pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;

/// `ENTREZ_CACHE`, `ENTREZ_CACHE_MAX_BYTES`, `ENTREZ_CACHE_TTL_SCALE`: the same on both edges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CacheSettings {
    /// `ENTREZ_CACHE=on|off` (on unless `off`, `0` or `false`).
    pub enabled: bool,
    /// The most bytes of answers kept.
    pub max_bytes: u64,
    /// Every lifetime in the policy table is multiplied by this (tests shorten them).
    pub ttl_scale: f64,
}

impl Default for CacheSettings {
    fn default() -> Self {
        CacheSettings {
            enabled: true,
            max_bytes: DEFAULT_MAX_BYTES,
            ttl_scale: 1.0,
        }
    }
}

impl CacheSettings {
    /// Reads the settings; a value that does not parse keeps the default.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> CacheSettings {
        let d = CacheSettings::default();
        let read = |name| get(name).map(|v: String| v.trim().to_ascii_lowercase());
        CacheSettings {
            enabled: !matches!(read("ENTREZ_CACHE").as_deref(), Some("off" | "0" | "false")),
            max_bytes: read("ENTREZ_CACHE_MAX_BYTES")
                .and_then(|v| v.parse().ok())
                .unwrap_or(d.max_bytes),
            ttl_scale: read("ENTREZ_CACHE_TTL_SCALE")
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|s| s.is_finite() && *s >= 0.0)
                .unwrap_or(d.ttl_scale),
        }
    }
}

/// The key an answer is kept under: the request minus who asks, digested.
///
/// The digest covers the method, the URL and the form body, with `api_key`, `tool` and
/// `email` taken out: an answer does not depend on who asks, and no key is ever part of
/// what is stored.
pub fn key_of(call: &HttpCall) -> String {
    let (base, query) = call.url.split_once('?').unwrap_or((&call.url, ""));
    let mut digest = Sha256::new();
    digest.update(match call.method {
        Method::Get => "GET ",
        Method::Post => "POST ",
    });
    digest.update(base);
    digest.update("?");
    digest.update(anonymous(query));
    if let Some(body) = &call.body {
        digest.update("\n");
        digest.update(anonymous(&String::from_utf8_lossy(body)));
    }
    crate::hex::hex(&digest.finalize())
}

/// Form or query pairs without `api_key`, `tool` and `email` (named in any case or encoding).
fn anonymous(pairs: &str) -> String {
    let who = |p: &&str| {
        let name = crate::net::percent_decode(p.split('=').next().unwrap_or(""), true);
        ["api_key", "tool", "email"]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
    };
    pairs
        .split('&')
        .filter(|p| !who(p))
        .collect::<Vec<_>>()
        .join("&")
}

/// How one tool call uses the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Serve kept answers, keep new ones.
    Use,
    /// `fresh: true`: ask upstream, keep what comes back.
    Refresh,
    /// Neither read nor write (validate's runtime checks must see NCBI as it is now).
    Bypass,
}

/// What one tool call was served from the cache, for its result.
#[derive(Debug, Default)]
pub struct CallLog {
    mode: AtomicU8,
    hits: AtomicU32,
    shared: AtomicU32,
    oldest_ms: AtomicU64,
}

impl CallLog {
    /// Sets how this call uses the cache.
    pub fn set_mode(&self, mode: Mode) {
        self.mode.store(mode as u8, Relaxed);
    }

    /// How this call uses the cache.
    pub fn mode(&self) -> Mode {
        match self.mode.load(Relaxed) {
            1 => Mode::Refresh,
            2 => Mode::Bypass,
            _ => Mode::Use,
        }
    }

    /// The result's `cache` object, when any answer came from the cache or was shared.
    pub fn summary(&self) -> Option<Value> {
        let (hits, shared) = (self.hits.load(Relaxed), self.shared.load(Relaxed));
        (hits + shared > 0).then(|| {
            json!({
                "hits": hits,
                "shared": shared,
                "oldest_age_s": self.oldest_ms.load(Relaxed) / 1000,
            })
        })
    }

    /// The result's line about it.
    pub fn sentence(&self) -> Option<String> {
        let (hits, shared) = (self.hits.load(Relaxed), self.shared.load(Relaxed));
        let age = age_words(self.oldest_ms.load(Relaxed) / 1000);
        match (hits, shared) {
            (0, 0) => None,
            (0, s) => Some(format!("{s} upstream answer(s) were shared with identical requests in flight.")),
            (h, 0) => Some(format!(
                "{h} upstream answer(s) came from this server's cache (oldest {age} old); fresh: true asks again."
            )),
            (h, s) => Some(format!(
                "{h} upstream answer(s) came from this server's cache (oldest {age} old) and {s} were shared with identical requests in flight; fresh: true asks again."
            )),
        }
    }
}

fn age_words(s: u64) -> String {
    match s {
        0..=119 => format!("{s} s"),
        120..=7199 => format!("{} min", s / 60),
        _ => format!("{} h", s / 3600),
    }
}

/// Counts since the process (or isolate) started.
#[derive(Debug, Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    shared: AtomicU64,
    stored: AtomicU64,
    refreshed: AtomicU64,
}

/// The cache of one server: its store, its settings and the requests in flight.
pub struct ResponseCache {
    store: Box<dyn ResponseStore>,
    settings: CacheSettings,
    inflight: InFlight,
    counters: Counters,
}

impl ResponseCache {
    /// A cache over `store`, which holds `settings.max_bytes` at most.
    pub fn new(store: Box<dyn ResponseStore>, settings: CacheSettings) -> ResponseCache {
        ResponseCache {
            store,
            settings,
            inflight: InFlight::default(),
            counters: Counters::default(),
        }
    }

    /// The largest answer kept: a sixteenth of the bound (4 MiB by default), so that one
    /// staging's large batches cannot push every other answer out; at least 64 KiB, at most
    /// the bound.
    pub fn entry_cap(&self) -> u64 {
        let bound = self.settings.max_bytes;
        (bound / 16).max(64 << 10).min(bound)
    }

    /// How long `call`'s answer may be kept, after the TTL scale; `None` when never.
    pub fn ttl_ms(&self, call: &HttpCall) -> Option<u64> {
        let ms = policy::ttl_s(call)? as f64 * 1000.0 * self.settings.ttl_scale;
        Some(ms.round() as u64).filter(|ms| *ms > 0)
    }

    /// Answers `call` from the cache, from an identical request in flight in the same
    /// pacing `bucket` (looked for on `timer`), or by running `exchange` (the paced, retried
    /// send), keeping what may be kept. Requests in flight are shared within a bucket only:
    /// an error may belong to a key (a 429 on its budget, a key NCBI refused), and callers
    /// of one bucket spend one key.
    ///
    /// Only a final 200 that the send loop accepted is kept, whole, after the size ceilings
    /// of [`crate::net::BoundedBody`]; errors of every kind (in a 200 too), cut-off bodies and
    /// answers marked `no-store` or `private` never are. The history server, PubChem's jobs
    /// and anything the policy table does not name are never kept.
    pub async fn through(
        &self,
        (call, bucket): (&HttpCall, &str),
        log: Option<&CallLog>,
        (platform, timer): (&dyn Platform, &dyn Transport),
        exchange: impl Future<Output = inflight::Answer>,
    ) -> inflight::Answer {
        let mode = log.map_or(Mode::Use, CallLog::mode);
        let ttl_ms = match self.ttl_ms(call) {
            Some(t) if mode != Mode::Bypass => t,
            _ => return exchange.await,
        };
        let key = key_of(call);
        let lead = if mode == Mode::Use {
            let now = platform.now_unix_ms();
            if let Some(entry) = self.store.get(&key, now).await {
                self.counters.hits.fetch_add(1, Relaxed);
                if let Some(log) = log {
                    log.hits.fetch_add(1, Relaxed);
                    log.oldest_ms
                        .fetch_max(now.saturating_sub(entry.stored_ms), Relaxed);
                }
                return Ok(entry.reply());
            }
            self.counters.misses.fetch_add(1, Relaxed);
            match self.inflight.join(&format!("{bucket} {key}"), now) {
                Turn::Lead(lead) => Some(lead),
                Turn::Follow(follow) => match follow.answer(timer, platform).await {
                    Some(answer) => {
                        self.counters.shared.fetch_add(1, Relaxed);
                        if let Some(log) = log {
                            log.shared.fetch_add(1, Relaxed);
                        }
                        return answer;
                    }
                    // The leader's caller went away: send alone.
                    None => None,
                },
            }
        } else {
            self.counters.refreshed.fetch_add(1, Relaxed);
            None
        };
        let answer = exchange.await;
        let fits = |r: &&HttpReply| r.body.len() as u64 <= self.entry_cap();
        if let Some(reply) = answer.as_ref().ok().filter(|r| storable(r)).filter(fits) {
            let now = platform.now_unix_ms();
            let entry = Entry {
                status: reply.status,
                content_type: reply.header("content-type").map(str::to_string),
                body: reply.body.clone(),
                stored_ms: now,
                expires_ms: now.saturating_add(ttl_ms),
            };
            self.store.put(&key, entry).await;
            self.counters.stored.fetch_add(1, Relaxed);
        }
        if let Some(lead) = lead {
            lead.finish(&answer);
        }
        answer
    }

    /// What `system_api_key_status` reports: settings, usage and counts since start.
    pub fn stats(&self) -> Value {
        let (entries, bytes) = self.store.usage();
        let c = &self.counters;
        let (hits, misses) = (c.hits.load(Relaxed), c.misses.load(Relaxed));
        let rate = if hits + misses == 0 {
            0.0
        } else {
            (hits as f64 / (hits + misses) as f64 * 1000.0).round() / 1000.0
        };
        json!({
            "enabled": true,
            "entries": entries,
            "bytes": bytes,
            "max_bytes": self.settings.max_bytes,
            "ttl_scale": self.settings.ttl_scale,
            "hits": hits,
            "misses": misses,
            "hit_rate": rate,
            "shared": c.shared.load(Relaxed),
            "stored": c.stored.load(Relaxed),
            "refreshed": c.refreshed.load(Relaxed),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(url: &str) -> HttpCall {
        HttpCall::get(url)
    }

    #[test]
    fn keys_ignore_who_asks_and_never_hold_a_key() {
        let base = "https://x/entrez/eutils/efetch.fcgi?db=pubmed&id=1";
        let plain = key_of(&call(&format!("{base}&tool=a&email=a%40b")));
        let keyed = key_of(&call(&format!("{base}&api_key=SECRET&tool=b")));
        assert_eq!(plain, keyed);
        assert_eq!(plain.len(), 64);
        assert!(!keyed.contains("SECRET"));
        assert_ne!(plain, key_of(&call(&format!("{base}2"))));
        let mut posted = call("https://x/entrez/eutils/efetch.fcgi");
        posted.method = Method::Post;
        posted.body = Some(b"db=pubmed&id=1&api_key=K".to_vec());
        let mut other = posted.clone();
        other.body = Some(b"db=pubmed&id=2&api_key=K".to_vec());
        assert_ne!(key_of(&posted), key_of(&other));
        assert_ne!(key_of(&posted), plain);
    }

    #[test]
    fn one_answer_may_take_a_sixteenth_of_the_bound() {
        let cache = |max_bytes| {
            let store = Box::new(memory::MemoryStore::new(max_bytes));
            let settings = CacheSettings {
                max_bytes,
                ..CacheSettings::default()
            };
            ResponseCache::new(store, settings).entry_cap()
        };
        assert_eq!(cache(DEFAULT_MAX_BYTES), 4 << 20);
        assert_eq!(cache(2 << 20), 128 << 10);
        assert_eq!(cache(1 << 19), 64 << 10);
        assert_eq!(cache(40_000), 40_000);
    }

    #[test]
    fn settings_read_the_same_names_on_both_edges() {
        let s = CacheSettings::from_lookup(|n| match n {
            "ENTREZ_CACHE" => Some("OFF".into()),
            "ENTREZ_CACHE_MAX_BYTES" => Some("1000".into()),
            "ENTREZ_CACHE_TTL_SCALE" => Some("0.5".into()),
            _ => None,
        });
        assert_eq!(
            s,
            CacheSettings {
                enabled: false,
                max_bytes: 1000,
                ttl_scale: 0.5
            }
        );
        let d =
            CacheSettings::from_lookup(|n| (n == "ENTREZ_CACHE_TTL_SCALE").then(|| "-1".into()));
        assert_eq!(d, CacheSettings::default());
    }
}
