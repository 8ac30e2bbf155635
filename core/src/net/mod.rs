//! Outbound HTTP as data, and the small trait each edge implements to send it.
//!
//! The core builds an [`HttpCall`] and reads an [`HttpReply`]; it never opens
//! a socket. Natively the edge sends calls with reqwest on tokio; on Workers,
//! with the Fetch API. Tests send them to a replay server or to a closure.

pub mod cache;
pub mod pacing;
pub mod retry;
pub mod send;

use crate::error::{Error, ErrorKind};
use crate::platform::{BoxFuture, MaybeSendSync};

/// HTTP method of an outbound call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET with the parameters in the query string.
    Get,
    /// POST with a form-encoded body.
    Post,
}

/// One outbound HTTP request, fully built.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpCall {
    /// GET or POST.
    pub method: Method,
    /// Absolute URL, query string included for GET.
    pub url: String,
    /// Extra request headers.
    pub headers: Vec<(String, String)>,
    /// The body for POST.
    pub body: Option<Vec<u8>>,
    /// How long the edge may wait for the whole reply.
    pub timeout_ms: u64,
    /// The most reply bytes (after decompression) the edge may read; past it the call fails.
    pub max_bytes: u64,
    /// Whether the edge follows a 3xx to its Location; when false the 3xx itself is the reply
    /// (elink `retmode=ref` answers with the provider's URL as a redirect, which is the result).
    pub follow_redirects: bool,
}

#[cfg(test)]
impl HttpCall {
    /// A GET of `url` with no headers (for tests).
    pub(crate) fn get(url: &str) -> HttpCall {
        HttpCall {
            method: Method::Get,
            url: url.to_string(),
            headers: vec![],
            body: None,
            timeout_ms: 1,
            max_bytes: 1,
            follow_redirects: true,
        }
    }
}

impl std::fmt::Debug for HttpCall {
    // URLs carry api_key; Debug output must never show it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpCall")
            .field("method", &self.method)
            .field("url", &redact_query(&self.url))
            .field("body_bytes", &self.body.as_ref().map(Vec::len))
            .field("timeout_ms", &self.timeout_ms)
            .field("max_bytes", &self.max_bytes)
            .field("follow_redirects", &self.follow_redirects)
            .finish()
    }
}

/// A reply as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpReply {
    /// Status code.
    pub status: u16,
    /// Response headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl HttpReply {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

/// The first of `headers` named `name`, compared case-insensitively, as HTTP compares them.
pub fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Sends calls and sleeps; supplied by each edge.
pub trait Transport: MaybeSendSync {
    /// Sends one call; transport failures and timeouts are `Unavailable` errors.
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>>;
    /// Waits `ms` milliseconds.
    fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()>;
    /// Whether a send to `url` at `now_ms` is likely to need a new connection: the first to its
    /// host, or the first after a pause. Such a send may leave much later than asked (a Worker
    /// isolate's first fetch, or its first after a pause, arrives ~150-180 ms late under
    /// wrangler dev), so the pacer leaves room after its slot. Told to the first caller that
    /// asks; the sends queued behind it find the connection made.
    fn cold(&self, _url: &str, _now_ms: u64) -> bool {
        false
    }
}

/// A pause after which a host's connection may be gone (a send is then [`Transport::cold`]).
pub const COLD_AFTER_MS: u64 = 1_000;

/// When a transport last sent to each host, for [`Transport::cold`].
#[derive(Debug, Default)]
pub struct SeenHosts(std::sync::Mutex<std::collections::BTreeMap<String, u64>>);

impl SeenHosts {
    /// Whether a send to `url`'s host at `now_ms` comes first or after a pause of
    /// [`COLD_AFTER_MS`]; the first to ask is told so, and those asking after it are not.
    pub fn cold(&self, url: &str, now_ms: u64) -> bool {
        let Ok(mut hosts) = self.0.lock() else {
            return true;
        };
        let last = hosts.insert(host_of(url), now_ms);
        last.is_none_or(|t| now_ms.saturating_sub(t) >= COLD_AFTER_MS)
    }

    /// Notes a send to `url`'s host at `now_ms`.
    pub fn sent(&self, url: &str, now_ms: u64) {
        if let Ok(mut hosts) = self.0.lock() {
            let last = hosts.entry(host_of(url)).or_insert(now_ms);
            *last = (*last).max(now_ms);
        }
    }
}

/// A reply body read chunk by chunk, refused as soon as it passes its ceiling.
///
/// Both edges read upstream bodies through this: a declared length over the
/// ceiling is refused before any byte is read, and an endless or decompressing
/// body is cut off at the ceiling, so one reply can never take more memory
/// than its call allows.
#[derive(Debug)]
pub struct BoundedBody {
    max: u64,
    host: String,
    len: u64,
    // Chunks joined once at the end: no doubling reallocation, so a body at
    // the ceiling costs at most twice its size, never three times.
    chunks: Vec<Vec<u8>>,
}

impl BoundedBody {
    /// An empty body for a reply from `host`; `declared` is its Content-Length, when sent.
    pub fn new(host: &str, max: u64, declared: Option<u64>) -> Result<BoundedBody, Error> {
        if let Some(n) = declared.filter(|n| *n > max) {
            return Err(too_large(host, max, Some(n)));
        }
        Ok(BoundedBody {
            max,
            host: host.to_string(),
            len: 0,
            chunks: Vec::new(),
        })
    }

    /// Appends a chunk, or fails when the body would pass its ceiling.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Error> {
        self.len = self.len.saturating_add(chunk.len() as u64);
        if self.len > self.max {
            self.chunks = Vec::new();
            return Err(too_large(&self.host, self.max, None));
        }
        self.chunks.push(chunk.to_vec());
        Ok(())
    }

    /// The whole body.
    pub fn into_bytes(self) -> Vec<u8> {
        if self.chunks.len() == 1 {
            return self.chunks.into_iter().next().unwrap_or_default();
        }
        let mut bytes = Vec::with_capacity(self.len as usize);
        for chunk in self.chunks {
            bytes.extend_from_slice(&chunk);
        }
        bytes
    }
}

/// The error for a reply larger than its call allows (`response_too_large`); never retried.
pub fn too_large(host: &str, max: u64, declared: Option<u64>) -> Error {
    let size = match declared {
        Some(n) => format!("declared {n} bytes"),
        None => "kept coming".to_string(),
    };
    Error::new(
        ErrorKind::LimitExceeded,
        format!("The reply from {host} {size}, more than the {max} bytes this request may read; it was not used."),
    )
    .with_code("response_too_large")
    .suggest("Ask for fewer records per call (fewer ids, a smaller retmax or max_records), or a smaller format (rettype fasta instead of GenBank).")
    .suggest("For many records, stage them with entrez_data fetch_and_stage, which fetches in batches.")
}

/// The host of a URL, which is all an error message needs (the query may hold a key).
pub fn host_of(url: &str) -> String {
    url.split("://")
        .nth(1)
        .and_then(|rest| rest.split(['/', '?']).next())
        .unwrap_or("upstream")
        .to_string()
}

/// `url` with every `api_key` value replaced, for messages and logs.
pub fn redact_query(url: &str) -> String {
    let Some((base, query)) = url.split_once('?') else {
        return url.to_string();
    };
    let parts: Vec<String> = query
        .split('&')
        .map(|p| match p.split_once('=') {
            Some(("api_key", _)) => "api_key=[redacted]".to_string(),
            _ => p.to_string(),
        })
        .collect();
    format!("{base}?{}", parts.join("&"))
}

/// Form/URL encoding of `pairs` (`application/x-www-form-urlencoded`).
pub fn form_encode(pairs: &[(String, String)]) -> String {
    let mut out = String::new();
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(&percent_encode(k));
        out.push('=');
        out.push_str(&percent_encode(v));
    }
    out
}

/// Decodes `%XX` escapes (and, for form bodies and query strings, `+` as a space);
/// a stray `%` stays as it is, and bytes that are not UTF-8 become U+FFFD.
pub fn percent_decode(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', h, l]) => hex(*h).zip(hex(*l)).map(|(h, l)| (h * 16 + l) as u8),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(byte), _) => {
                out.push(byte);
                i += 3;
                continue;
            }
            (None, b'+') if plus_is_space => out.push(b' '),
            (None, b) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes everything outside RFC 3986's unreserved set.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The outbound side of a server: how to send and who paces.
pub struct Network {
    /// Sends calls and sleeps.
    pub transport: Box<dyn Transport>,
    /// The pacing authority shared by every call of this server.
    pub pacer: Box<dyn crate::net::pacing::Pacer>,
    /// Upstream answers kept and shared (`ENTREZ_CACHE`); `None` sends every request.
    pub cache: Option<cache::ResponseCache>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_send_is_cold_first_and_after_a_pause_and_the_queue_behind_it_is_not() {
        let seen = SeenHosts::default();
        let url = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi?db=pubmed";
        assert!(seen.cold(url, 1_000));
        // Those asking right after the first find its connection being made.
        assert!(!seen.cold(url, 1_001));
        seen.sent(url, 1_400);
        assert!(!seen.cold(url, 2_300));
        // Another host has its own connection.
        assert!(seen.cold("https://pubchem.ncbi.nlm.nih.gov/rest/pug/x", 2_300));
        // A pause as long as COLD_AFTER_MS since the last send or ask: cold again.
        assert!(seen.cold(url, 2_300 + COLD_AFTER_MS));
    }

    #[test]
    fn encoding_and_redaction() {
        let pairs = vec![
            (
                "term".to_string(),
                "asthma[mh] AND 2020:2024[dp]".to_string(),
            ),
            ("id".to_string(), "1,2".to_string()),
        ];
        assert_eq!(
            form_encode(&pairs),
            "term=asthma%5Bmh%5D%20AND%202020%3A2024%5Bdp%5D&id=1%2C2"
        );
        assert_eq!(
            redact_query("https://x/esearch.fcgi?db=pubmed&api_key=SECRET&term=a"),
            "https://x/esearch.fcgi?db=pubmed&api_key=[redacted]&term=a"
        );
        let call = HttpCall {
            method: Method::Get,
            url: "https://x/e?api_key=SECRET".into(),
            headers: vec![],
            body: None,
            timeout_ms: 1,
            max_bytes: 1,
            follow_redirects: true,
        };
        assert!(!format!("{call:?}").contains("SECRET"));
    }

    #[test]
    fn decoding_reads_escapes_and_leaves_stray_percents() {
        assert_eq!(percent_decode("R%26D%20Chemicals", false), "R&D Chemicals");
        assert_eq!(percent_decode("a+b%2Bc", true), "a b+c");
        assert_eq!(percent_decode("a+b", false), "a+b");
        assert_eq!(percent_decode("100%", false), "100%");
        assert_eq!(percent_decode("%zz%4", false), "%zz%4");
        assert_eq!(percent_decode("%C3%A9", false), "é");
    }
}
