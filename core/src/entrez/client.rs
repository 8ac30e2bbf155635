//! Sending one E-utilities request: pace, send, retry, and name every failure.

use crate::config::Config;
use crate::entrez::request::EutilsRequest;
use crate::error::{Error, ErrorKind};
use crate::net::cache::{CallLog, ResponseCache};
use crate::net::pacing::{Pacer, ANONYMOUS_RATE_LIMIT, KEYED_RATE_LIMIT};
use crate::net::retry::{is_transient, RetryPolicy};
use crate::net::send::{Judged, Sender, Upstream};
use crate::net::{HttpReply, Transport};
use crate::parse::body_errors::body_error;
use crate::platform::{BoxFuture, Platform};
use crate::secret::ApiKey;
use sha2::{Digest, Sha256};

/// Everything needed to talk to the E-utilities on behalf of one caller.
pub struct EntrezClient<'a> {
    /// Base URLs, tool and email.
    pub config: &'a Config,
    /// Sends HTTP and sleeps.
    pub transport: &'a dyn Transport,
    /// The pacing authority.
    pub pacer: &'a dyn Pacer,
    /// Clock and entropy (for jitter).
    pub platform: &'a dyn Platform,
    /// The key in effect for this caller, if any.
    pub api_key: Option<&'a ApiKey>,
    /// Retry limits.
    pub retry: RetryPolicy,
    /// The server's cache of answers and this tool call's log of it; `None` sends every request.
    pub cache: Option<(&'a ResponseCache, &'a CallLog)>,
}

/// The pacing bucket for a key: a hash, so the key never becomes a name anywhere.
pub fn bucket_for(api_key: Option<&ApiKey>) -> String {
    match api_key {
        None => "anonymous".to_string(),
        Some(k) => {
            let digest = Sha256::digest(k.expose().as_bytes());
            format!("key-{}", crate::hex::hex(&digest[..8]))
        }
    }
}

impl<'a> EntrezClient<'a> {
    /// NCBI's limit for this caller.
    pub fn rate_limit(&self) -> u32 {
        if self.api_key.is_some() {
            KEYED_RATE_LIMIT
        } else {
            ANONYMOUS_RATE_LIMIT
        }
    }

    /// Sends `request` and returns the 200 reply, retrying transient failures.
    pub async fn send(&self, request: &EutilsRequest) -> Result<HttpReply, Error> {
        let mut call = request.build(
            &self.config.eutils_base_url,
            &self.config.tool,
            self.config.email.as_deref(),
            self.api_key,
        );
        call.timeout_ms = self.config.attempt_timeout_ms(call.timeout_ms);
        let sender = Sender {
            transport: self.transport,
            pacer: self.pacer,
            platform: self.platform,
            trace: self.config.pacing_trace,
            cache: self.cache,
        };
        let eutils = Eutils {
            bucket: bucket_for(self.api_key),
            limit: self.rate_limit(),
            request,
            follow_redirects: call.follow_redirects,
        };
        sender.send(&call, &eutils, self.retry).await
    }
}

/// The E-utilities as the send loop sees them: what a reply means.
struct Eutils<'r> {
    bucket: String,
    limit: u32,
    request: &'r EutilsRequest,
    follow_redirects: bool,
}

impl Upstream for Eutils<'_> {
    fn bucket(&self) -> &str {
        &self.bucket
    }

    fn limit(&self) -> u32 {
        self.limit
    }

    fn judge<'a>(&'a self, reply: HttpReply, _attempt: u32) -> BoxFuture<'a, Judged> {
        Box::pin(async move {
            match reply.status {
                // elink retmode=ref: the redirect names the provider's page, and that is the answer.
                300..=399 if !self.follow_redirects => Judged::Done(Ok(reply)),
                // NCBI reports many mistakes as 200 with an error body: never a silent success.
                200 => Judged::Done(
                    match body_error(&reply.body, reply.header("content-type")) {
                        Some(e) => Err(e.into()),
                        None => Ok(reply),
                    },
                ),
                s if is_transient(Some(s)) => Judged::Retry {
                    status: s,
                    retry_after: reply.header("retry-after").map(str::to_string),
                    min_wait_ms: 0,
                    error: status_error(self.request, &reply),
                },
                _ => Judged::Done(Err(status_error(self.request, &reply))),
            }
        })
    }
}

/// The error for a non-200 reply; NCBI's own words are quoted, never a key.
fn status_error(request: &EutilsRequest, reply: &HttpReply) -> Error {
    let utility = request.utility.path();
    let snippet = ncbi_message(&reply.body);
    match reply.status {
        429 => Error::new(
            ErrorKind::RateLimited,
            format!("NCBI refused {utility} with 429 Too Many Requests after retries."),
        )
        .suggest("Wait a few seconds and retry; this server paces requests, so repeated 429s mean another client shares your IP or key.")
        .suggest("Set NCBI_API_KEY or send X-NCBI-API-Key for 10 requests per second."),
        s if (500..600).contains(&s) => Error::new(
            ErrorKind::Unavailable,
            format!("NCBI {utility} failed with HTTP {s} after retries{snippet}."),
        )
        .suggest("NCBI may be under maintenance or overloaded; retry in a few minutes."),
        s => Error::new(
            ErrorKind::Upstream,
            format!("NCBI rejected {utility} with HTTP {s}{snippet}."),
        )
        .with_code("ncbi_http_error")
        .suggest("Check the database name, ids and parameters; the validate tool checks a call without sending it."),
    }
}

/// A short, key-free excerpt of an error body.
fn ncbi_message(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(600)]);
    let cleaned: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if cleaned.is_empty() || cleaned.contains("api-key") || cleaned.contains("api_key") {
        return String::new();
    }
    format!(": {}", cleaned.chars().take(200).collect::<String>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_hash_keys() {
        assert_eq!(bucket_for(None), "anonymous");
        let b = bucket_for(Some(&ApiKey::new("supersecret")));
        assert!(b.starts_with("key-") && b.len() == 20);
        assert!(!b.contains("supersecret"));
    }

    #[test]
    fn error_bodies_that_mention_keys_are_not_quoted() {
        assert_eq!(
            ncbi_message(br#"{"error":"API rate limit exceeded","api-key":"1.2.3.4"}"#),
            ""
        );
        assert_eq!(ncbi_message(b"Bad   Request\n"), ": Bad Request");
    }
}
