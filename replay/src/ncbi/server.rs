//! The HTTP side: turns requests into parameters, applies NCBI's rate limit
//! and any injected faults, asks the routing table for an answer, and exposes
//! the control endpoints tests drive (/__replay/stats, /reset, /fail).
//!
//! Per-request log lines are opt-in: a harness that pipes stderr and never
//! reads it would otherwise stall the server once the pipe buffer fills.

use crate::ncbi::citations::Catalogue;
use crate::ncbi::fixtures::{Corpus, Fixture, EINFO4_TRUNCATED, PUBMED3_HTML};
use crate::ncbi::hostile::Hostile;
use crate::ncbi::limiter::{Decision, Identity, Limiter};
use crate::ncbi::params::Params;
use crate::ncbi::routes::{route, Ctx, Reply, UTILITIES};
use crate::ncbi::stats::{Fetched, Stats};
use crate::ncbi::synthetic::Templates;
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Largest request body read; 100k ids as a form is about 1 MB.
const MAX_BODY: usize = 64 * 1024 * 1024;
/// Most faults one /__replay/fail call may queue.
const MAX_FAULTS: u64 = 100_000;

/// Startup options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Address to bind.
    pub listen: SocketAddr,
    /// Requests per second without an api_key.
    pub anonymous_limit: usize,
    /// Requests per second with an api_key.
    pub key_limit: usize,
    /// Whether to log one line per E-utilities request.
    pub log_requests: bool,
}

/// One queued fault: the status to answer and what to send with it, or (a delay) the
/// ordinary answer, late.
#[derive(Debug, Clone)]
struct Fault {
    status: u16,
    retry_after: Option<String>,
    fixture: Option<Fixture>,
    hostile: Option<Hostile>,
    /// Answer as usual after this long: a slow NCBI, for tests that need a staging to take
    /// a known least time whatever the machine's speed.
    delay_ms: Option<u64>,
    /// Answer as usual with this `Cache-Control` header (`no-store`, `private`): what a
    /// proxy in front of NCBI may add, for tests of a client's cache.
    cache_control: Option<String>,
}

#[derive(Debug)]
struct Shared {
    limiter: Limiter,
    stats: Stats,
    faults: VecDeque<Fault>,
}

/// Everything the handlers share.
pub struct App {
    corpus: Corpus,
    templates: Templates,
    catalogue: Catalogue,
    options: Options,
    start: Instant,
    start_epoch_us: u64,
    shared: Mutex<Shared>,
}

impl App {
    /// Indexes the recordings and sets up empty limiter and stats.
    pub fn new(options: Options) -> App {
        let corpus = Corpus::load();
        let templates = Templates::from_corpus(&corpus);
        let catalogue = Catalogue::of(&corpus);
        let start_epoch_us = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_micros() as u64);
        App {
            shared: Mutex::new(Shared {
                limiter: Limiter::new(options.anonymous_limit, options.key_limit),
                stats: Stats::default(),
                faults: VecDeque::new(),
            }),
            corpus,
            templates,
            catalogue,
            options,
            start: Instant::now(),
            start_epoch_us,
        }
    }

    // A poisoned lock only means a handler panicked mid-update; the counters
    // are still worth serving.
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    // Epoch-anchored but monotonic, so windows never run backwards.
    fn epoch_us(&self, at: Instant) -> u64 {
        self.start_epoch_us + at.duration_since(self.start).as_micros() as u64
    }
}

/// Binds, prints the port line, and serves until SIGINT or SIGTERM.
pub async fn run(options: Options) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(options.listen).await?;
    let local = listener.local_addr()?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{local}")?;
        out.flush()?;
    }
    serve(listener, options, shutdown_signal()).await
}

/// Serves on `listener` until `stop` completes (in process, for tests).
pub async fn serve(
    listener: tokio::net::TcpListener,
    options: Options,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Arc::new(App::new(options));
    eprintln!(
        "ncbi-replay: {} PubMed articles indexed; limits {}/s anonymous, {}/s with api_key",
        app.corpus
            .pubmed
            .iter()
            .map(|s| s.records.len())
            .sum::<usize>(),
        app.options.anonymous_limit,
        app.options.key_limit
    );
    let service = router(app).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(stop)
        .await
}

async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = interrupt => {},
        _ = terminate => {},
    }
    eprintln!("ncbi-replay: shutting down");
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/entrez/eutils/{utility}", get(eutils).post(eutils))
        .route("/__replay/stats", get(stats))
        .route("/__replay/reset", post(reset))
        .route("/__replay/fail", post(fail))
        .fallback(|| async { plain(StatusCode::NOT_FOUND, "Not Found\n") })
        .with_state(app)
}

enum Gate {
    Serve,
    Limited { count: usize, limit: usize },
    Fault(Fault),
}

async fn eutils(
    State(app): State<Arc<App>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(utility): Path<String>,
    request: Request,
) -> Response {
    if !UTILITIES.contains(&utility.as_str()) {
        return plain(StatusCode::NOT_FOUND, "Not Found\n");
    }
    let post = request.method() == Method::POST;
    let form = is_form(request.headers());
    // A server under ENTREZ_PACING_TRACE says when each request was paced.
    let paced = request
        .headers()
        .get("x-entrez-pacing")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let query = request.uri().query().unwrap_or("").as_bytes().to_vec();
    let Ok(body) = to_bytes(request.into_body(), MAX_BODY).await else {
        return plain(StatusCode::PAYLOAD_TOO_LARGE, "Request body too large\n");
    };
    let mut params = Params::default();
    params.extend_from(&query);
    if post && form {
        params.extend_from(&body);
    }
    let who = Identity::of(params.get("api_key"), peer.ip());
    let label = who.label();
    let began = Instant::now();
    let gate = {
        let mut s = app.lock();
        // Taken under the lock so arrivals are recorded in time order.
        let now = Instant::now();
        let at = app.epoch_us(now);
        s.stats.arrival(&label, at, post, !params.has("tool"));
        if let Some(trace) = &paced {
            s.stats.paced(&label, at, trace);
        }
        match s.limiter.check(&who, now) {
            Decision::Limited { count, limit } => {
                s.stats.limited();
                Gate::Limited { count, limit }
            }
            Decision::Allowed => match s.faults.pop_front() {
                Some(f) => {
                    s.stats.faulted();
                    Gate::Fault(f)
                }
                None => Gate::Serve,
            },
        }
    };
    // An efetch answered as NCBI would is written down with what it asked for (a refused
    // or faulted one fetched nothing).
    let ordinary = match &gate {
        Gate::Serve => true,
        Gate::Fault(f) => f.delay_ms.is_some() || f.cache_control.is_some(),
        Gate::Limited { .. } => false,
    };
    if ordinary && utility == "efetch.fcgi" {
        let ids = params.ids();
        let what = if ids.is_empty() {
            Fetched::History {
                retstart: params.number("retstart", 0),
                retmax: params.number("retmax", 20),
            }
        } else {
            Fetched::Ids(ids)
        };
        let db = match params.lower("db") {
            d if d.is_empty() => "pubmed".to_string(),
            d => d,
        };
        app.lock().stats.fetched(&label, &db, what);
    }
    let (response, source) = match gate {
        Gate::Limited { count, limit } => (rate_limited(peer.ip(), count, limit), "limiter".into()),
        Gate::Fault(Fault {
            delay_ms: Some(ms), ..
        }) => {
            tokio::time::sleep(std::time::Duration::from_millis(ms)).await;
            answer(&app, &utility, params).await
        }
        Gate::Fault(Fault {
            cache_control: Some(cc),
            ..
        }) => {
            let (mut response, source) = answer(&app, &utility, params).await;
            if let Ok(v) = HeaderValue::from_str(&cc) {
                response.headers_mut().insert(header::CACHE_CONTROL, v);
            }
            (response, source)
        }
        Gate::Fault(f) => match f.hostile {
            Some(h) => (h.response(params.get("api_key")), "hostile".into()),
            None => {
                let limit = app.lock().limiter.limit_for(&who);
                (fault_response(&f, peer.ip(), limit), "fault".into())
            }
        },
        Gate::Serve => answer(&app, &utility, params).await,
    };
    if app.options.log_requests {
        // The label stands in for the caller; parameters (and api_key) are never printed.
        eprintln!(
            "{} {} {} -> {} ({}) {} ms",
            if post { "POST" } else { "GET" },
            utility,
            label,
            response.status().as_u16(),
            source,
            began.elapsed().as_millis()
        );
    }
    response
}

fn is_form(headers: &HeaderMap) -> bool {
    match headers.get(header::CONTENT_TYPE) {
        None => true,
        Some(v) => v
            .to_str()
            .unwrap_or("")
            .to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded"),
    }
}

fn to_response(reply: Reply) -> Response {
    let mut response = Response::new(Body::from(reply.body));
    *response.status_mut() = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(reply.content_type),
    );
    if let Ok(v) = HeaderValue::from_str(&reply.source) {
        headers.insert("x-replay-source", v);
    }
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    with_body(
        status,
        "text/plain; charset=UTF-8",
        Bytes::from_static(text.as_bytes()),
    )
}

fn with_body(status: StatusCode, content_type: &'static str, body: Bytes) -> Response {
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    response
}

/// NCBI's 429: its JSON body, key order as NCBI writes it, and Retry-After.
fn rate_limited(ip: IpAddr, count: usize, limit: usize) -> Response {
    let body = format!(
        r#"{{"error":"API rate limit exceeded","api-key":"{ip}","count":"{count}","limit":"{limit}"}}"#
    );
    let mut response = with_body(
        StatusCode::TOO_MANY_REQUESTS,
        "application/json",
        Bytes::from(body),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

fn fault_response(fault: &Fault, ip: IpAddr, limit: usize) -> Response {
    let status = StatusCode::from_u16(fault.status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    let mut response = if let Some(f) = fault.fixture {
        let mut r = to_response(Reply::fixture(f));
        *r.status_mut() = status;
        r
    } else if status == StatusCode::TOO_MANY_REQUESTS {
        let mut r = rate_limited(ip, limit + 1, limit);
        r.headers_mut().remove(header::RETRY_AFTER);
        r
    } else {
        // The page NCBI's nginx front ends send for gateway failures (synthetic).
        let code = status.as_u16();
        let reason = status.canonical_reason().unwrap_or("Error");
        let page = format!(
            "<html>\r\n<head><title>{code} {reason}</title></head>\r\n<body>\r\n<center><h1>{code} {reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
        );
        with_body(status, "text/html", Bytes::from(page))
    };
    if let Some(v) = fault
        .retry_after
        .as_deref()
        .and_then(|s| HeaderValue::from_str(s).ok())
    {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

fn json_response(status: StatusCode, value: Value) -> Response {
    with_body(status, "application/json", Bytes::from(value.to_string()))
}

async fn stats(State(app): State<Arc<App>>) -> Response {
    let s = app.lock();
    let mut report = s.stats.to_json();
    report["pending_faults"] = json!(s.faults.len());
    json_response(StatusCode::OK, report)
}

/// The ordinary answer to an E-utilities request, and what produced it.
async fn answer(app: &Arc<App>, utility: &str, params: Params) -> (Response, String) {
    // Synthetic efetch can copy hundreds of megabytes; keep that off
    // the threads that accept connections.
    let worker = app.clone();
    let utility = utility.to_string();
    let answer = tokio::task::spawn_blocking(move || {
        let ctx = Ctx {
            corpus: &worker.corpus,
            templates: &worker.templates,
            catalogue: &worker.catalogue,
        };
        route(&utility, &params, &ctx)
    })
    .await;
    match answer {
        Ok(Some(reply)) => {
            let source = reply.source.clone();
            (to_response(reply), source)
        }
        Ok(None) => (plain(StatusCode::NOT_FOUND, "Not Found\n"), "none".into()),
        Err(_) => (
            plain(StatusCode::INTERNAL_SERVER_ERROR, "replay routing failed\n"),
            "panic".into(),
        ),
    }
}

async fn reset(State(app): State<Arc<App>>) -> Response {
    let mut s = app.lock();
    s.stats.clear();
    s.limiter.clear();
    s.faults.clear();
    eprintln!("ncbi-replay: reset stats, limiter and pending faults");
    json_response(StatusCode::OK, json!({"ok": true}))
}

async fn fail(State(app): State<Arc<App>>, body: Bytes) -> Response {
    let parsed = serde_json::from_slice::<Value>(&body)
        .map_err(|e| format!("body is not JSON: {e}"))
        .and_then(|v| parse_fault(&v));
    match parsed {
        Ok((fault, count)) => {
            let mut s = app.lock();
            for _ in 0..count {
                s.faults.push_back(fault.clone());
            }
            let pending = s.faults.len();
            eprintln!(
                "ncbi-replay: next {count} E-utilities requests answer {}",
                fault.status
            );
            json_response(StatusCode::OK, json!({"ok": true, "pending": pending}))
        }
        Err(message) => json_response(StatusCode::BAD_REQUEST, json!({"error": message})),
    }
}

/// Reads `{"status": 503, "count": 2, "retry_after": "1", "fixture": "einfo4.xml"}`,
/// `{"body": "endless"}` (a hostile body, status 200 unless given), or `{"delay_ms": 2000}`
/// (the ordinary answer, that much later; at most a minute).
impl Fault {
    /// The ordinary answer, unchanged (a delay or a header is then set on it).
    fn ordinary() -> Fault {
        Fault {
            status: 200,
            retry_after: None,
            fixture: None,
            hostile: None,
            delay_ms: None,
            cache_control: None,
        }
    }
}

/// How many requests a fault answers: `count`, 1 when absent.
fn count_of(v: &Value) -> Result<u64, String> {
    v.get("count")
        .map_or(Some(1), Value::as_u64)
        .filter(|c| *c <= MAX_FAULTS)
        .ok_or(format!("count must be a number up to {MAX_FAULTS}"))
}

fn parse_fault(v: &Value) -> Result<(Fault, u64), String> {
    if let Some(delay) = v.get("delay_ms") {
        let ms = delay
            .as_u64()
            .filter(|ms| *ms <= 60_000)
            .ok_or("delay_ms must be a number of milliseconds up to 60000")?;
        let fault = Fault {
            delay_ms: Some(ms),
            ..Fault::ordinary()
        };
        return Ok((fault, count_of(v)?));
    }
    if let Some(cc) = v.get("cache_control") {
        let cc = cc
            .as_str()
            .filter(|c| c.len() <= 200)
            .ok_or("cache_control must be a header value of up to 200 characters")?;
        let fault = Fault {
            cache_control: Some(cc.to_string()),
            ..Fault::ordinary()
        };
        return Ok((fault, count_of(v)?));
    }
    let fixture = match v.get("fixture").and_then(Value::as_str) {
        None => None,
        Some("einfo4.xml") => Some(EINFO4_TRUNCATED),
        Some("pubmed3.html") => Some(PUBMED3_HTML),
        Some(other) => {
            return Err(format!(
                "unknown fixture {other:?}; use einfo4.xml or pubmed3.html"
            ))
        }
    };
    let hostile = match v.get("body").and_then(Value::as_str) {
        None => None,
        Some(name) => Some(Hostile::parse(name).ok_or_else(|| {
            format!(
                "unknown body {name:?}; use endless, gzip_bomb, declared, drip, reset or quote_key"
            )
        })?),
    };
    let status = match (
        v.get("status").and_then(Value::as_u64),
        fixture.is_some() || hostile.is_some(),
    ) {
        (Some(s), _) if (100..=599).contains(&s) => s as u16,
        (None, true) => 200,
        _ => return Err("status must be a number from 100 to 599".into()),
    };
    let count = count_of(v)?;
    let retry_after = match v.get("retry_after") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => return Err("retry_after must be a string or number".into()),
    };
    Ok((
        Fault {
            status,
            retry_after,
            fixture,
            hostile,
            delay_ms: None,
            cache_control: None,
        },
        count,
    ))
}
