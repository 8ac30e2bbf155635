//! `#[event(fetch)]`: Worker requests into core data and back.
//!
//! Configuration comes from Worker vars and secrets under the same names the
//! native binary reads from its environment. The endpoint is built once per
//! isolate. Sessions are signed with `MCP_SESSION_SECRET`, so every isolate
//! accepts every other isolate's ids; they end by expiry, not DELETE, because
//! isolates share no memory in which to record a termination. The MCP Apps view
//! is a static asset, read once per isolate through the `ASSETS` binding.

use crate::cache::CacheApiAnswers;
use crate::data::DurableStore;
use crate::net::{DurablePacer, FetchTransport};
use crate::platform::WorkerPlatform;
use crate::verify::WebCryptoVerifier;
use entrez_mcp_core::auth::{AuthConfig, Authenticator};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::http::stream;
use entrez_mcp_core::http::{sse_headers, Endpoint, HttpRequest, Sessions};
use entrez_mcp_core::net::cache::ResponseCache;
use entrez_mcp_core::net::pacing::{MemoryPacer, Pacer};
use entrez_mcp_core::net::Network;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::{Limits, Staging};
use futures_util::StreamExt;
use std::cell::{Cell, OnceCell};
use worker::{event, Context, Env, Request, Response, Result};

thread_local! {
    static ENDPOINT: OnceCell<&'static Endpoint> = const { OnceCell::new() };
    static VIEW: OnceCell<&'static str> = const { OnceCell::new() };
    static VIEW_ASKED: Cell<bool> = const { Cell::new(false) };
}

/// The asset the view is (wrangler.toml's `[assets]`, filled by scripts/build-worker.sh).
const VIEW_ASSET: &str = "https://assets.invalid/view.html";

/// The MCP Apps view's HTML, once [`load_view`] has read it.
fn view() -> Option<&'static str> {
    VIEW.with(|cell| cell.get().copied())
}

/// Reads the view from the static assets, once per isolate: it is not in the wasm (the
/// native binary embeds it). Without it, no client is offered the view.
async fn load_view(env: &Env) {
    if VIEW_ASKED.with(|asked| asked.replace(true)) {
        return;
    }
    let html = async {
        let mut reply = env.assets("ASSETS")?.fetch(VIEW_ASSET, None).await?;
        if reply.status_code() != 200 {
            return Err(worker::Error::RustError(format!(
                "status {}",
                reply.status_code()
            )));
        }
        reply.text().await
    }
    .await;
    match html {
        Ok(html) => VIEW.with(|cell| {
            let _ = cell.set(Box::leak(html.into_boxed_str()));
        }),
        Err(e) => worker::console_warn!("the MCP Apps view could not be read from ASSETS: {e}"),
    }
}

pub(crate) fn lookup(env: &Env, name: &str) -> Option<String> {
    env.secret(name)
        .map(|s| s.to_string())
        .or_else(|_| env.var(name).map(|v| v.to_string()))
        .ok()
}

fn build(env: &Env) -> std::result::Result<Endpoint, String> {
    let mut config = Config::from_lookup(|name| lookup(env, name));
    // A Worker is reachable from anywhere: its anonymous callers are never "local".
    config.auth = AuthConfig::from_lookup(&|name| lookup(env, name), false)?;
    let auth = Authenticator::new(config.auth.clone(), Some(Box::new(WebCryptoVerifier)));
    let key = match &config.session_secret {
        Some(secret) => secret.expose().as_bytes().to_vec(),
        None => {
            // Isolates would each pick their own key: sessions then only work while one
            // isolate serves them (wrangler dev). Production sets MCP_SESSION_SECRET.
            worker::console_warn!(
                "MCP_SESSION_SECRET is not set; session ids are valid in this isolate only"
            );
            let mut k = vec![0u8; 32];
            WorkerPlatform.fill_random(&mut k);
            k
        }
    };
    let sessions = Sessions::new(key, config.session_ttl_secs, false);
    let pacer: Box<dyn Pacer> = match DurablePacer::from_env(env) {
        Some(p) => Box::new(p),
        None => {
            // Without the binding the limit holds per isolate only; say so loudly.
            worker::console_warn!("ENTREZ_PACER binding missing: NCBI pacing is per isolate");
            Box::new(MemoryPacer::new())
        }
    };
    let network = Network {
        transport: Box::new(FetchTransport::default()),
        pacer,
        cache: config.cache.enabled.then(|| {
            let store = CacheApiAnswers::new(config.cache.max_bytes);
            ResponseCache::new(Box::new(store), config.cache)
        }),
    };
    let mut server = Server::new(config, Box::new(WorkerPlatform))?
        .with_network(network)
        .with_view(view);
    let trace = lookup(env, "ENTREZ_STAGING_TRACE").as_deref() == Some("1");
    match DurableStore::from_env(env, trace) {
        Some(store) => {
            let limits = Limits::from_lookup(|name| lookup(env, name));
            let mut staging = Staging::new(store, limits);
            if let Some(scheduler) = crate::data::DurableCarrier::from_env(env) {
                staging = staging.with_scheduler(Box::new(scheduler));
            }
            if let Some(ledger) = crate::data::DurableLedger::from_env(env) {
                staging.ledger = Box::new(ledger);
            }
            server = server.with_staging(staging)?;
        }
        // Without the bindings there is nowhere to keep datasets: entrez_data is not listed.
        None => worker::console_warn!(
            "ENTREZ_DATASET/ENTREZ_CATALOG bindings missing: entrez_data is disabled"
        ),
    }
    Ok(Endpoint::new(server, sessions).with_auth(auth))
}

pub(crate) fn endpoint(env: &Env) -> std::result::Result<&'static Endpoint, String> {
    ENDPOINT.with(|cell| {
        if let Some(e) = cell.get() {
            return Ok(*e);
        }
        let e: &'static Endpoint = Box::leak(Box::new(build(env)?));
        let _ = cell.set(e);
        Ok(e)
    })
}

#[event(fetch)]
async fn fetch(mut req: Request, env: Env, _ctx: Context) -> Result<Response> {
    console_error_panic_hook::set_once();
    load_view(&env).await;
    let endpoint = match endpoint(&env) {
        Ok(e) => e,
        Err(message) => return Response::error(format!("server failed to start: {message}"), 500),
    };
    let headers = req.headers().entries().collect();
    let body = req.bytes().await.unwrap_or_default();
    // Cloudflare sets CF-Connecting-IP itself; a client cannot forge it.
    let client_ip = req.headers().get("CF-Connecting-IP").ok().flatten();
    let request = HttpRequest {
        method: req.method().to_string(),
        path: req.path(),
        headers,
        body,
        client_ip,
    };
    let reply = if endpoint.wants_stream(&request) {
        let (tx, rx) = stream::channel();
        worker::wasm_bindgen_futures::spawn_local(async move {
            let notifier = stream::ChannelNotifier(tx.clone());
            let reply = endpoint.handle_notifying(request, Some(&notifier)).await;
            let _ = tx.unbounded_send(stream::Message::Done(reply));
        });
        match stream::first(rx).await {
            stream::Answer::Whole(reply) => reply,
            stream::Answer::Stream(head, rest) => {
                let body = futures_util::stream::once(async move { head })
                    .chain(stream::frames(rest))
                    .map(Ok::<Vec<u8>, worker::Error>);
                let headers = worker::Headers::new();
                for (k, v) in sse_headers() {
                    headers.set(&k, &v)?;
                }
                return Ok(Response::from_stream(body)?.with_headers(headers));
            }
        }
    } else {
        endpoint.handle(request).await
    };
    let out_headers = worker::Headers::new();
    for (k, v) in &reply.headers {
        out_headers.append(k, v)?;
    }
    // ENTREZ_STARTUP_TRACE=1 (the end-to-end suites): how this isolate's start-up went.
    if lookup(&env, "ENTREZ_STARTUP_TRACE").as_deref() == Some("1") {
        let report: String = crate::startup_report().chars().take(512).collect();
        out_headers.set("x-entrez-startup", &report.replace(['\r', '\n'], " "))?;
    }
    Ok(Response::from_bytes(reply.body)?
        .with_status(reply.status)
        .with_headers(out_headers))
}
