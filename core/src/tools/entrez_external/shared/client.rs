//! Sending one call to PubChem or PMC: pace, send, read throttling, retry.
//!
//! Every request goes through the server's one send loop ([`Sender`]), as the E-utilities'
//! do, in the service's own pacing bucket (`pubchem` at 5 per second, `pmc` at 3), so neither
//! eats into the other's budget. Transient refusals (429, 5xx, transport failures) are
//! retried under a [`RetryPolicy`]; PubChem's `X-Throttling-Control` header becomes extra
//! pacer reservations and longer waits ([`crate::tools::entrez_external::shared::throttle`]).
//! Final replies (2xx, 4xx, PubChem's own timeout) go back to the slice, which reads them.

use crate::error::{Error, ErrorKind};
use crate::framework::ToolContext;
use crate::net::retry::RetryPolicy;
use crate::net::send::{Judged, Sender, Upstream};
use crate::net::{HttpCall, HttpReply};
use crate::platform::BoxFuture;
use crate::tools::entrez_external::shared::fault;
use crate::tools::entrez_external::shared::service::Service;
use crate::tools::entrez_external::shared::throttle::Level;
use crate::tools::entrez_external::shared::throttle::Throttling;
use std::sync::Mutex;

/// Retry limits for the external services: fewer, slower attempts than the E-utilities.
pub const EXTERNAL_RETRY: RetryPolicy = RetryPolicy {
    max_attempts: 3,
    base_ms: 1_000,
    max_backoff_ms: 8_000,
    deadline_ms: 45_000,
    max_retry_after_ms: 30_000,
};

/// What happened across the requests of one tool call, for the result's warnings.
#[derive(Debug, Clone, Default)]
pub struct Notes {
    /// Requests sent, retries included.
    pub requests: u32,
    /// Attempts that were retried.
    pub retries: u32,
    /// Statuses that caused retries.
    pub retried_statuses: Vec<u16>,
    /// The most severe throttling status PubChem reported.
    pub worst_throttling: Option<Throttling>,
    /// Extra pacer slots reserved because of throttling.
    pub extra_slots: u32,
}

/// Paces and sends calls to one external service on behalf of one tool call.
pub struct ExternalClient<'a> {
    /// Paces and sends, through the server's one send loop.
    pub sender: Sender<'a>,
    /// Which service, and so which bucket and limit.
    pub service: Service,
    /// Retry limits.
    pub retry: RetryPolicy,
    /// `ENTREZ_UPSTREAM_TIMEOUT_MS`, in place of the call's own time limit.
    pub timeout_ms: Option<u64>,
    /// A pending task's ListKey, collected instead of sending the request that asks for work.
    resume: Option<&'a str>,
    notes: Mutex<Notes>,
}

impl<'a> ExternalClient<'a> {
    /// A client for `service` from the tool context, or an error when the server has no network.
    pub fn new(ctx: &'a ToolContext<'_>, service: Service) -> Result<Self, Error> {
        let network = ctx.network.ok_or_else(|| {
            Error::new(ErrorKind::Unavailable, "This server instance has no outbound network configured.")
                .suggest("Run the server through its normal entry point (entrez-mcp serve/stdio, or the Worker).")
        })?;
        Ok(ExternalClient {
            sender: Sender {
                transport: network.transport.as_ref(),
                pacer: network.pacer.as_ref(),
                platform: ctx.platform,
                trace: ctx.config.pacing_trace,
                cache: ctx.cache(),
            },
            service,
            retry: EXTERNAL_RETRY,
            timeout_ms: ctx.config.upstream_timeout_ms,
            resume: ctx.resume.as_ref().map(|r| r.listkey.as_str()),
            notes: Mutex::new(Notes::default()),
        })
    }

    /// A copy of what has happened so far.
    pub fn notes(&self) -> Notes {
        self.notes.lock().map(|n| n.clone()).unwrap_or_default()
    }

    /// Sentences for the result's `warnings` about retries and throttling.
    pub fn warnings(&self) -> Vec<String> {
        let notes = self.notes();
        let mut out = Vec::new();
        if notes.retries > 0 {
            let statuses: Vec<String> = notes.retried_statuses.iter().map(u16::to_string).collect();
            out.push(format!(
                "{} {} request(s) were retried after {}.",
                notes.retries,
                self.service.label(),
                if statuses.is_empty() {
                    "transport failures".to_string()
                } else {
                    format!("HTTP {}", statuses.join(", "))
                }
            ));
        }
        if let Some(t) = notes
            .worst_throttling
            .as_ref()
            .filter(|t| t.worst() > Level::Green)
        {
            out.push(format!(
                "PubChem reported \"{}\"; this server slowed its PubChem requests ({} extra pacing slot(s)). Space out further PubChem calls.",
                t.raw, notes.extra_slots
            ));
        }
        out
    }

    fn note(&self, f: impl FnOnce(&mut Notes)) {
        if let Ok(mut n) = self.notes.lock() {
            f(&mut n);
        }
    }

    /// Reads the throttling header; a warning status costs extra slots in the shared bucket.
    async fn observe(&self, t: &Throttling) {
        let extra = t.extra_slots(self.service.limit());
        for _ in 0..extra {
            // The slot is taken, not waited for: the point is to push every caller's next slot back.
            let _ = self
                .sender
                .pacer
                .reserve(
                    self.service.bucket(),
                    self.service.limit(),
                    self.sender.platform.now_unix_ms(),
                    0,
                )
                .await;
        }
        self.note(|n| {
            n.extra_slots += extra;
            let worse = n
                .worst_throttling
                .as_ref()
                .is_none_or(|w| t.worst() >= w.worst());
            if worse {
                n.worst_throttling = Some(t.clone());
            }
        });
    }

    /// Sends the request that asks PubChem for work. For a pending task's look, PubChem's own
    /// `Waiting` for the task's ListKey stands in for it, so the call polls instead of asking
    /// again (see `listkey::collect`).
    pub async fn submit(&self, call: &HttpCall) -> Result<HttpReply, Error> {
        match self.resume {
            Some(listkey) => Ok(HttpReply {
                status: 202,
                headers: Vec::new(),
                // A ListKey is letters and digits (`pug::waiting_in`), so it needs no escaping.
                body: format!("{{\"Waiting\":{{\"ListKey\":\"{listkey}\"}}}}").into_bytes(),
            }),
            None => self.send(call).await,
        }
    }

    /// Sends `call`; returns the reply once it is final, or the error once retries are spent.
    pub async fn send(&self, call: &HttpCall) -> Result<HttpReply, Error> {
        let call = HttpCall {
            timeout_ms: self.timeout_ms.unwrap_or(call.timeout_ms),
            ..call.clone()
        };
        self.sender
            .send(&call, self, self.retry)
            .await
            .map_err(|e| match e.kind {
                ErrorKind::RateLimited if e.code.is_empty() || e.code == "rate_limited" => Error::new(
                    ErrorKind::RateLimited,
                    format!(
                        "Too many {} requests are queued in this server; the next free slot is more than 30 s away.",
                        self.service.label()
                    ),
                )
                .with_code(format!("{}_queue_full", self.service.bucket()))
                .suggest("Retry in a minute, and combine lookups: compound takes up to 100 CIDs, id_convert up to 200 ids per call."),
                _ => e,
            })
    }

    /// 429 and 5xx are worth another try, except PubChem's own "your request took too long".
    fn is_transient(&self, reply: &HttpReply) -> bool {
        match reply.status {
            429 | 500 | 502 | 503 => true,
            504 => fault::fault(&reply.body).is_none_or(|f| f.code != "PUGREST.Timeout"),
            _ => false,
        }
    }

    /// The error for a refusal that retries did not overcome.
    fn refusal(&self, reply: &HttpReply, throttling: Option<&Throttling>, attempts: u32) -> Error {
        let label = self.service.label();
        let bucket = self.service.bucket();
        let said = match fault::fault(&reply.body) {
            Some(f) => format!(": {}", f.sentence()),
            None => excerpt(&reply.body),
        };
        let throttled = reply.status == 429
            || throttling.is_some_and(|t| t.worst() >= Level::Red)
            || fault::fault(&reply.body).is_some_and(|f| f.code == "PUGREST.ServerBusy");
        if throttled {
            let mut message = format!(
                "{label} refused the request with HTTP {} after {attempts} attempt(s){said}.",
                reply.status
            );
            if let Some(t) = throttling {
                message.push_str(&format!(" Throttling status: {}.", t.raw));
            }
            let mut e = Error::new(ErrorKind::RateLimited, message)
                .with_code(format!("{bucket}_throttled"))
                .suggest(format!("Wait about a minute before calling {label} again; it blocks clients that keep exceeding its limits (PubChem: 5 requests per second, 400 per minute)."))
                .suggest("Combine lookups into fewer calls: compound accepts up to 100 CIDs, id_convert up to 200 ids.");
            if let Some(t) = throttling {
                e = e.with_details(
                    crate::json!({"status": reply.status, "throttling": t.to_value()}),
                );
            }
            e
        } else {
            Error::new(
                ErrorKind::Unavailable,
                format!(
                    "{label} failed with HTTP {} after {attempts} attempt(s){said}.",
                    reply.status
                ),
            )
            .with_code(format!("{bucket}_unavailable"))
            .suggest(format!(
                "{label} may be under maintenance or overloaded; retry in a few minutes."
            ))
        }
    }
}

impl Upstream for ExternalClient<'_> {
    fn bucket(&self) -> &str {
        self.service.bucket()
    }

    fn limit(&self) -> u32 {
        self.service.limit()
    }

    fn judge<'a>(&'a self, reply: HttpReply, attempt: u32) -> BoxFuture<'a, Judged> {
        Box::pin(async move {
            let throttling = reply
                .header("x-throttling-control")
                .and_then(Throttling::parse);
            let mut min_wait_ms = 0;
            if let Some(t) = &throttling {
                self.observe(t).await;
                min_wait_ms = t.min_retry_wait_ms();
            }
            // Final replies (2xx, 4xx, PubChem's own timeout) go back to the caller, which
            // knows how to read that service's error bodies.
            if !self.is_transient(&reply) {
                return Judged::Done(Ok(reply));
            }
            Judged::Retry {
                status: reply.status,
                retry_after: reply.header("retry-after").map(str::to_string),
                min_wait_ms,
                error: self.refusal(&reply, throttling.as_ref(), attempt),
            }
        })
    }

    fn sending(&self) {
        self.note(|n| n.requests += 1);
    }

    fn retrying(&self, status: Option<u16>) {
        self.note(|n| {
            n.retries += 1;
            n.retried_statuses.extend(status);
        });
    }
}

/// A short excerpt of a non-HTML error body, prefixed for a sentence.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(800)]);
    let cleaned: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let lower = cleaned.to_ascii_lowercase();
    if cleaned.is_empty() || lower.starts_with("<!doctype") || lower.starts_with("<html") {
        return String::new();
    }
    format!(": {}", cleaned.chars().take(200).collect::<String>())
}
