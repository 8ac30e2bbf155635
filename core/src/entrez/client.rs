//! Sending one E-utilities request: pace, send, retry, and name every failure.

use super::limiter::{take_slot, Pacer, ANONYMOUS_RATE_LIMIT, KEYED_RATE_LIMIT, TRACE_HEADER};
use super::request::EutilsRequest;
use super::retry::{RetryPolicy, Verdict};
use crate::config::Config;
use crate::error::{Error, ErrorKind};
use crate::net::{HttpReply, Transport};
use crate::parse::body_errors::body_error;
use crate::platform::Platform;
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
}

/// The pacing bucket for a key: a hash, so the key never becomes a name anywhere.
pub fn bucket_for(api_key: Option<&ApiKey>) -> String {
    match api_key {
        None => "anonymous".to_string(),
        Some(k) => {
            let digest = Sha256::digest(k.expose().as_bytes());
            let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            format!("key-{hex}")
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
        let bucket = bucket_for(self.api_key);
        let started = self.platform.now_unix_ms();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let slot = take_slot(
                self.pacer,
                self.transport,
                self.platform,
                &bucket,
                self.rate_limit(),
                &call.url,
            )
            .await?;
            let mut sent = call.clone();
            if self.config.pacing_trace {
                sent.headers.push((TRACE_HEADER.to_string(), slot.trace()));
            }
            let outcome = self.transport.send(sent).await;
            let (status, retry_after, failure) = match outcome {
                // elink retmode=ref: the redirect names the provider's page, and that is the answer.
                Ok(reply) if !call.follow_redirects && (300..400).contains(&reply.status) => {
                    return Ok(reply);
                }
                Ok(reply) if reply.status == 200 => {
                    // NCBI reports many mistakes as 200 with an error body: never a silent success.
                    return match body_error(&reply.body, reply.header("content-type")) {
                        Some(e) => Err(e.into()),
                        None => Ok(reply),
                    };
                }
                Ok(reply) => {
                    let retry_after = reply.header("retry-after").map(str::to_string);
                    (
                        Some(reply.status),
                        retry_after,
                        status_error(request, &reply),
                    )
                }
                // A reply too large to read would be as large again: say so at once.
                Err(e) if e.code == "response_too_large" => return Err(e),
                Err(e) => (None, None, e),
            };
            let elapsed = self.platform.now_unix_ms().saturating_sub(started);
            match self.retry.decide(
                attempt,
                status,
                retry_after.as_deref(),
                elapsed,
                self.jitter(),
            ) {
                Verdict::RetryAfter(ms) => self.transport.sleep(ms).await,
                Verdict::GiveUp => return Err(failure),
            }
        }
    }

    fn jitter(&self) -> f64 {
        let mut b = [0u8; 8];
        self.platform.fill_random(&mut b);
        (u64::from_le_bytes(b) >> 11) as f64 / (1u64 << 53) as f64
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
