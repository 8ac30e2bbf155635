//! Outbound HTTP and pacing for the Worker edge.
//!
//! [`FetchTransport`] sends core calls with the Workers Fetch API. Pacing must hold across
//! every isolate the Worker runs in, which share no memory, so the authority is a Durable
//! Object: one [`EntrezPacer`](crate::objects::pacer_object::EntrezPacer) object per bucket
//! (per API-key hash, or "anonymous" for the shared egress), addressed by name; how a grant
//! is waited for is on [`DurablePacer`].

use entrez_mcp_core::error::{Error, ErrorKind};
use entrez_mcp_core::net::pacing::{Grant, Pacer};
use entrez_mcp_core::net::{
    BoundedBody, HttpCall, HttpReply, Method as CoreMethod, SeenHosts, Transport,
};
use entrez_mcp_core::platform::BoxFuture;
use futures_util::StreamExt;
use std::time::Duration;
use worker::{
    AbortController, Date, Delay, Env, Fetch, Headers, Method, ObjectNamespace, Request,
    RequestInit, RequestRedirect,
};

/// The Durable Object binding name declared in wrangler.toml.
pub const PACER_BINDING: &str = "ENTREZ_PACER";

/// The most bytes one upstream reply may take in an isolate, whatever its call allows.
pub const WORKER_MAX_REPLY_BYTES: u64 = 32 * 1024 * 1024;

/// Sends calls with `fetch`, aborting them at their timeout.
#[derive(Default)]
pub struct FetchTransport {
    /// When this isolate last fetched from each host: its first fetch, or one after a pause,
    /// is slow.
    seen: SeenHosts,
}

impl Transport for FetchTransport {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, std::result::Result<HttpReply, Error>> {
        Box::pin(async move {
            let host = call
                .url
                .split("://")
                .nth(1)
                .and_then(|r| r.split(['/', '?']).next())
                .unwrap_or("upstream")
                .to_string();
            let fail = |what: &str| {
                Error::new(
                    ErrorKind::Unavailable,
                    format!("The request to {host} {what}."),
                )
                .suggest("Check the base URL settings (EUTILS_BASE_URL and friends) and retry.")
            };
            let headers = Headers::new();
            for (k, v) in &call.headers {
                headers
                    .set(k, v)
                    .map_err(|_| fail("had an invalid header"))?;
            }
            let mut init = RequestInit::new();
            init.with_method(match call.method {
                CoreMethod::Get => Method::Get,
                CoreMethod::Post => Method::Post,
            })
            .with_headers(headers);
            if !call.follow_redirects {
                init.with_redirect(RequestRedirect::Manual);
            }
            if let Some(body) = &call.body {
                init.with_body(Some(
                    worker::js_sys::Uint8Array::from(body.as_slice()).into(),
                ));
            }
            let request =
                Request::new_with_init(&call.url, &init).map_err(|_| fail("could not be built"))?;
            let controller = AbortController::default();
            let signal = controller.signal();
            let timeout = call.timeout_ms;
            worker::wasm_bindgen_futures::spawn_local(async move {
                Delay::from(Duration::from_millis(timeout)).await;
                controller.abort();
            });
            self.seen.sent(&call.url, Date::now().as_millis());
            let mut response = Fetch::Request(request)
                .send_with_signal(&signal)
                .await
                .map_err(|_| {
                    if signal.aborted() {
                        fail("timed out")
                    } else {
                        fail("could not connect")
                    }
                })?;
            let status = response.status_code();
            let headers = response
                .headers()
                .entries()
                .map(|(k, v)| (k.to_ascii_lowercase(), v))
                .collect();
            // An isolate has 128 MB: no reply may take more than a quarter of it.
            let max = call.max_bytes.min(WORKER_MAX_REPLY_BYTES);
            let declared = response
                .headers()
                .get("content-length")
                .ok()
                .flatten()
                .and_then(|v| v.trim().parse::<u64>().ok());
            let mut body = BoundedBody::new(&host, max, declared)?;
            let mut stream = response
                .stream()
                .map_err(|_| fail("broke off while reading"))?;
            while let Some(chunk) = stream.next().await {
                body.push(&chunk.map_err(|_| fail("broke off while reading"))?)?;
            }
            let body = body.into_bytes();
            Ok(HttpReply {
                status,
                headers,
                body,
            })
        })
    }

    fn sleep<'a>(&'a self, ms: u64) -> BoxFuture<'a, ()> {
        Box::pin(Delay::from(Duration::from_millis(ms)))
    }

    fn cold(&self, url: &str, now_ms: u64) -> bool {
        self.seen.cold(url, now_ms)
    }
}

/// Reserves slots from the [`EntrezPacer`](crate::objects::pacer_object::EntrezPacer) Durable
/// Object of each bucket.
///
/// A reservation never awaits inside the object, so reservations against its `MemoryPacer`
/// are serialized exactly as they are natively. The grant is a slot on the clock and a
/// deadline, not a wait: the isolate sleeps until the slot by its own clock, so the grant's way
/// back costs nothing unless it arrives after the deadline, when the core takes a new slot
/// (`net::pacing::take_slot`).
pub struct DurablePacer {
    namespace: ObjectNamespace,
}

impl DurablePacer {
    /// The pacer behind the `ENTREZ_PACER` binding, if the deployment declares it.
    pub fn from_env(env: &Env) -> Option<DurablePacer> {
        env.durable_object(PACER_BINDING)
            .ok()
            .map(|namespace| DurablePacer { namespace })
    }
}

impl Pacer for DurablePacer {
    fn authority(&self) -> &'static str {
        "durable_object"
    }

    fn reserve<'a>(
        &'a self,
        bucket: &'a str,
        limit: u32,
        _now_ms: u64,
        room_after_ms: u64,
    ) -> BoxFuture<'a, std::result::Result<Grant, Error>> {
        Box::pin(async move {
            let unreachable = || {
                Error::new(
                    ErrorKind::Unavailable,
                    "The rate-limit authority (Durable Object) did not answer.",
                )
                .suggest("Retry in a moment; requests are not sent to NCBI without a pacing slot.")
            };
            let stub = self
                .namespace
                .id_from_name(bucket)
                .and_then(|id| id.get_stub())
                .map_err(|_| unreachable())?;
            let mut reply = stub
                .fetch_with_str(&format!(
                    "https://pacer.internal/reserve?limit={limit}&room={room_after_ms}"
                ))
                .await
                .map_err(|_| unreachable())?;
            let text = reply.text().await.map_err(|_| unreachable())?;
            let value: serde_json::Value =
                entrez_mcp_core::json::from_str(&text).map_err(|_| unreachable())?;
            if reply.status_code() == 429 {
                let message = value["message"]
                    .as_str()
                    .unwrap_or("Too many requests are queued.")
                    .to_string();
                return Err(Error::new(ErrorKind::RateLimited, message)
                    .suggest("Retry in a minute, or batch ids into fewer requests."));
            }
            match (value["at_ms"].as_u64(), value["latest_ms"].as_u64()) {
                (Some(at_ms), Some(latest_ms)) => Ok(Grant { at_ms, latest_ms }),
                _ => Err(unreachable()),
            }
        })
    }
}
