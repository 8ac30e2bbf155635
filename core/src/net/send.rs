//! The one loop every upstream request goes through: pace, send, judge, retry.
//!
//! NCBI's E-utilities, PubChem and PMC differ in what their replies mean (a
//! 200 with `<ERROR>` inside, a PubChem `Fault`, a throttling header), and in
//! nothing else: each request takes a pacing slot in its bucket
//! ([`crate::net::pacing::take_slot`]), leaves, and a transient failure (429, 5xx,
//! a dropped connection) is retried under a [`RetryPolicy`] with jittered
//! backoff, honouring `Retry-After`, within the policy's deadline. What a
//! reply means is the [`Upstream`]'s to say; the loop is written once, here.

use crate::error::Error;
use crate::net::cache::{CallLog, ResponseCache};
use crate::net::pacing::{take_slot, Pacer, TRACE_HEADER};
use crate::net::retry::{RetryPolicy, Verdict};
use crate::net::{HttpCall, HttpReply, Transport};
use crate::platform::{BoxFuture, MaybeSendSync, Platform};

/// What a reply means, as one upstream service reads it.
pub enum Judged {
    /// Final: hand this to the caller.
    Done(Result<HttpReply, Error>),
    /// A transient refusal worth another attempt; `error` is what the caller gets if no
    /// attempt is left.
    Retry {
        /// The status that refused.
        status: u16,
        /// Its `Retry-After`, when sent.
        retry_after: Option<String>,
        /// The least wait before the next attempt (a throttled PubChem asks for more).
        min_wait_ms: u64,
        /// The error if this was the last attempt.
        error: Error,
    },
}

/// One upstream service: its pacing bucket, and how its replies are read.
pub trait Upstream: MaybeSendSync {
    /// The pacing bucket the request's slots come from.
    fn bucket(&self) -> &str;
    /// Requests per second the bucket allows.
    fn limit(&self) -> u32;
    /// What `reply` to attempt number `attempt` (from 1) means. May take extra pacing slots
    /// (a throttled service slows everyone).
    fn judge<'a>(&'a self, reply: HttpReply, attempt: u32) -> BoxFuture<'a, Judged>;
    /// Told before each attempt leaves.
    fn sending(&self) {}
    /// Told before an attempt is retried after `status` (`None`: no reply at all).
    fn retrying(&self, _status: Option<u16>) {}
}

/// Sends requests for one caller: the transport, the pacing authority and the clock.
#[derive(Clone, Copy)]
pub struct Sender<'a> {
    /// Sends HTTP and sleeps.
    pub transport: &'a dyn Transport,
    /// The pacing authority.
    pub pacer: &'a dyn Pacer,
    /// Clock and entropy (for jitter).
    pub platform: &'a dyn Platform,
    /// `ENTREZ_PACING_TRACE`: each request says when it was paced.
    pub trace: bool,
    /// The server's cache of upstream answers, and what this tool call was served from it.
    pub cache: Option<(&'a ResponseCache, &'a CallLog)>,
}

impl Sender<'_> {
    /// Sends `call` to `upstream` under `retry`, or answers it from the cache; the final
    /// reply, or the error once retries are spent.
    pub async fn send(
        &self,
        call: &HttpCall,
        upstream: &dyn Upstream,
        retry: RetryPolicy,
    ) -> Result<HttpReply, Error> {
        let exchange = self.exchange(call, upstream, retry);
        match self.cache {
            Some((cache, log)) => {
                let machine = (self.platform, self.transport);
                let request = (call, upstream.bucket());
                cache.through(request, Some(log), machine, exchange).await
            }
            None => exchange.await,
        }
    }

    /// The paced, retried exchange with upstream itself.
    async fn exchange(
        &self,
        call: &HttpCall,
        upstream: &dyn Upstream,
        retry: RetryPolicy,
    ) -> Result<HttpReply, Error> {
        let started = self.platform.now_unix_ms();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let slot = take_slot(
                self.pacer,
                self.transport,
                self.platform,
                upstream.bucket(),
                upstream.limit(),
                &call.url,
            )
            .await?;
            let mut sent = call.clone();
            if self.trace {
                sent.headers.push((TRACE_HEADER.to_string(), slot.trace()));
            }
            upstream.sending();
            let (status, retry_after, min_wait, failure) = match self.transport.send(sent).await {
                Ok(reply) => match upstream.judge(reply, attempt).await {
                    Judged::Done(result) => return result,
                    Judged::Retry {
                        status,
                        retry_after,
                        min_wait_ms,
                        error,
                    } => (Some(status), retry_after, min_wait_ms, error),
                },
                // A reply too large to read would be as large again: say so at once.
                Err(e) if e.code == "response_too_large" => return Err(e),
                Err(e) => (None, None, 0, e),
            };
            let elapsed = self.platform.now_unix_ms().saturating_sub(started);
            match retry.decide(
                attempt,
                status,
                retry_after.as_deref(),
                elapsed,
                jitter(self.platform),
            ) {
                Verdict::RetryAfter(ms) => {
                    let ms = ms.max(min_wait);
                    if elapsed.saturating_add(ms) > retry.deadline_ms {
                        return Err(failure);
                    }
                    upstream.retrying(status);
                    self.transport.sleep(ms).await;
                }
                Verdict::GiveUp => return Err(failure),
            }
        }
    }
}

/// A random number in [0, 1), from the platform's entropy: backoff jitter.
pub fn jitter(platform: &dyn Platform) -> f64 {
    let mut b = [0u8; 8];
    platform.fill_random(&mut b);
    (u64::from_le_bytes(b) >> 11) as f64 / (1u64 << 53) as f64
}
