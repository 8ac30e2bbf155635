//! The HTTP side: routing, per-service rate limits, injected refusals, the
//! throttling header, request log and the control endpoints tests drive.

use crate::external::data::Data;
use crate::external::form;
use crate::external::form::Params;
use crate::external::{bioc, cloud, icite, pmc, pubchem};
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use axum::routing::{any, get, post};
use axum::Router;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

const MAX_BODY: usize = 4 * 1024 * 1024;
const LOG_LIMIT: usize = 500;
/// PubChem's documented per-minute allowance, for the Request Count percentage.
const PER_MINUTE: usize = 400;
/// iCite publishes no rate limit; the stand-in refuses beyond NCBI's keyless 3 a second, the
/// pace the client promises to keep.
const ICITE_LIMIT: usize = 3;

/// Startup options.
#[derive(Debug, Clone)]
pub struct Options {
    /// Address to bind.
    pub listen: SocketAddr,
    /// PubChem requests per second.
    pub pubchem_limit: usize,
    /// Requests per second to the three PMC services together.
    pub pmc_limit: usize,
    /// Whether to log one line per request to stderr.
    pub log_requests: bool,
}

/// One answer, before it becomes an HTTP response.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Content-Type.
    pub content_type: String,
    /// Body bytes.
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON reply.
    pub fn json(status: u16, v: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json".into(),
            body: v.to_string().into_bytes(),
        }
    }

    /// A reply with any content type.
    pub fn body(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status,
            content_type: content_type.into(),
            body: body.into(),
        }
    }
}

/// A refusal queued by `/__replay/fail`.
#[derive(Debug, Clone)]
struct Fault {
    service: String,
    status: u16,
    level: String,
    /// Answer as usual after this long instead (a slow service, for timeout tests).
    delay_ms: Option<u64>,
    /// Only a request whose query string holds this text takes the fault (suites running
    /// side by side each fail their own requests).
    matching: Option<String>,
}

/// An asynchronous search PubChem is "still running".
#[derive(Debug, Clone)]
pub struct Pending {
    /// The hits, once ready.
    pub cids: Vec<u64>,
    /// Polls still to be answered with `Waiting`.
    pub waits_left: u32,
}

/// Mutable state shared by the handlers.
#[derive(Debug, Default)]
pub struct Shared {
    arrivals: HashMap<&'static str, VecDeque<Instant>>,
    max_in_1s: HashMap<&'static str, usize>,
    requests: HashMap<String, u64>,
    throttled: u64,
    faulted: u64,
    posts: u64,
    missing_tool: u64,
    faults: VecDeque<Fault>,
    forced_level: Option<String>,
    /// Answer like a PubChem from before the 2025 SMILES renaming.
    pub legacy_smiles: bool,
    /// How many polls a new asynchronous search stays Waiting.
    pub async_waits: u32,
    /// Running asynchronous searches by ListKey.
    pub listkeys: HashMap<String, Pending>,
    /// The next ListKey to hand out.
    pub next_listkey: u64,
    log: VecDeque<Value>,
}

/// Everything the handlers share.
pub struct App {
    /// The fixtures.
    pub data: Data,
    options: Options,
    shared: Mutex<Shared>,
}

impl App {
    /// A poisoned lock only means a handler panicked mid-update; the state is still usable.
    pub fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn fresh_shared() -> Shared {
    Shared {
        async_waits: 1,
        next_listkey: 3_571_000_000_000_000_001,
        ..Shared::default()
    }
}

/// Binds, prints the port line, and serves until the process is stopped.
pub async fn run(options: Options) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(options.listen).await?;
    let local = listener.local_addr()?;
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{local}")?;
        out.flush()?;
    }
    serve(listener, options, std::future::pending()).await
}

/// Serves on `listener` until `stop` completes (in process, for tests).
pub async fn serve(
    listener: tokio::net::TcpListener,
    options: Options,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Arc::new(App {
        data: Data::load(),
        options,
        shared: Mutex::new(fresh_shared()),
    });
    eprintln!(
        "external-replay: {} compounds; limits {}/s PubChem, {}/s PMC",
        app.data.compounds.len(),
        app.options.pubchem_limit,
        app.options.pmc_limit
    );
    axum::serve(listener, router(app))
        .with_graceful_shutdown(stop)
        .await
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/rest/pug/{*path}", any(service_handler))
        .route("/tools/idconv/api/v1/articles", any(service_handler))
        .route("/tools/idconv/api/v1/articles/", any(service_handler))
        .route("/pmc/utils/oa/oa.fcgi", any(service_handler))
        .route("/pmc-oa-opendata/", any(service_handler))
        .route("/pmc-oa-opendata/{*key}", any(service_handler))
        .route("/api/ctxp/v1/{db}", any(service_handler))
        .route("/api/ctxp/v1/{db}/", any(service_handler))
        .route(
            "/research/bionlp/RESTful/pmcoa.cgi/{*path}",
            any(service_handler),
        )
        .route("/api/pubs", any(service_handler))
        .route("/api/pubs/{pmid}", any(service_handler))
        .route("/__replay/stats", get(stats))
        .route("/__replay/reset", post(reset))
        .route("/__replay/fail", post(fail))
        .route("/__replay/throttle", post(throttle))
        .route("/__replay/legacy_smiles", post(legacy_smiles))
        .route("/__replay/async", post(async_waits))
        .fallback(|| async { to_response(Reply::body(404, "text/plain", "Not Found\n"), None) })
        .with_state(app)
}

/// Which upstream a path belongs to, and the pacing family it counts against.
fn service_of(path: &str) -> (&'static str, &'static str) {
    if path.starts_with("/rest/pug/") {
        ("pubchem", "pubchem")
    } else if path.starts_with("/tools/idconv/") {
        ("idconv", "pmc")
    } else if path.starts_with(cloud::ROOT) {
        ("cloud", "cloud")
    } else if path.starts_with("/pmc/utils/oa/") {
        ("oa", "pmc")
    } else if path.starts_with("/api/pubs") {
        ("icite", "icite")
    } else if path.starts_with("/research/bionlp/") {
        ("bioc", "pmc")
    } else {
        ("ctxp", "pmc")
    }
}

fn is_form(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.to_ascii_lowercase()
                .starts_with("application/x-www-form-urlencoded")
        })
}

/// What a request looked like, for handlers.
pub struct Incoming {
    /// GET or POST.
    pub post: bool,
    /// The raw path, still percent-encoded.
    pub path: String,
    /// Query and (for form POSTs) body parameters.
    pub params: Params,
    /// Form body parameters alone.
    pub form: Params,
}

async fn service_handler(State(app): State<Arc<App>>, request: Request) -> Response {
    let post = request.method() == axum::http::Method::POST;
    let path = request.uri().path().to_string();
    let query = request.uri().query().unwrap_or("").to_string();
    let form_body = is_form(request.headers());
    let Ok(body) = to_bytes(request.into_body(), MAX_BODY).await else {
        return to_response(
            Reply::body(413, "text/plain", "Request body too large\n"),
            None,
        );
    };
    let body_text = String::from_utf8_lossy(&body).into_owned();
    let form = if post && form_body {
        Params(form::pairs(&body_text))
    } else {
        Params::default()
    };
    let mut params = Params(form::pairs(&query));
    params.0.extend(form.0.iter().cloned());
    let (service, family) = service_of(&path);
    let incoming = Incoming {
        post,
        path: path.clone(),
        params,
        form,
    };
    let began = Instant::now();
    let limit = if family == "pubchem" {
        app.options.pubchem_limit
    } else if family == "icite" {
        ICITE_LIMIT
    } else if family == "cloud" {
        // S3 allows thousands of GETs a second per prefix; the stand-in only bounds a runaway.
        100
    } else {
        app.options.pmc_limit
    };
    // Gate: arrival, rate limit and queued faults decided under one lock, in arrival order.
    let (gate, count_pct) = {
        let mut s = app.lock();
        let now = Instant::now();
        *s.requests.entry(service.to_string()).or_default() += 1;
        if post {
            s.posts += 1;
        }
        if !matches!(service, "pubchem" | "cloud" | "icite")
            && incoming.params.get("tool").is_none()
        {
            s.missing_tool += 1;
        }
        s.log.push_back(
            json!({"service": service, "method": if post { "POST" } else { "GET" },
            "path": path, "query": query, "body": body_text.chars().take(500).collect::<String>()}),
        );
        while s.log.len() > LOG_LIMIT {
            s.log.pop_front();
        }
        let window = s.arrivals.entry(family).or_default();
        while window
            .front()
            .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(60))
        {
            window.pop_front();
        }
        window.push_back(now);
        let in_minute = window.len();
        let in_second = window
            .iter()
            .filter(|t| now.duration_since(**t) < Duration::from_secs(1))
            .count();
        let peak = s.max_in_1s.entry(family).or_default();
        *peak = (*peak).max(in_second);
        let pct = in_minute * 100 / PER_MINUTE;
        let gate = if in_second > limit {
            s.throttled += 1;
            Gate::Limited(in_second * 100 / limit)
        } else {
            let pos = s.faults.iter().position(|f| {
                (f.service == service || f.service == family)
                    && f.matching
                        .as_ref()
                        .is_none_or(|m| query.contains(m.as_str()))
            });
            match pos.and_then(|p| s.faults.remove(p)) {
                Some(f) => {
                    s.faulted += 1;
                    Gate::Fault(f)
                }
                None => Gate::Serve,
            }
        };
        // The log says how each request was met: served, refused over the limit, or faulted.
        if let Some(last) = s.log.back_mut() {
            last["gate"] = json!(match &gate {
                Gate::Serve => "served",
                Gate::Limited(_) => "limited",
                Gate::Fault(_) => "fault",
            });
        }
        (gate, pct)
    };
    let forced = app.lock().forced_level.clone();
    let gate = match gate {
        Gate::Fault(Fault {
            delay_ms: Some(ms), ..
        }) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Gate::Serve
        }
        g => g,
    };
    let (reply, header_level) = match gate {
        Gate::Limited(pct) => (refusal(&app, family, 503), Some(("Black".to_string(), pct))),
        Gate::Fault(f) => {
            let level = f.level.clone();
            (refusal(&app, family, f.status), Some((level, 100)))
        }
        Gate::Serve => {
            let reply = match service {
                "pubchem" => pubchem::handle(&app, &incoming),
                "idconv" => pmc::idconv(&app, &incoming),
                "oa" => pmc::oa(&app, &incoming),
                "cloud" => cloud::handle(&incoming),
                "bioc" => bioc::handle(&incoming),
                "icite" => icite::handle(&incoming.path, &incoming.params),
                _ => pmc::ctxp(&app, &incoming),
            };
            let level = forced.unwrap_or_else(|| level_for(count_pct).to_string());
            (reply, Some((level, count_pct)))
        }
    };
    if app.options.log_requests {
        eprintln!(
            "{} {} -> {} ({} ms)",
            if post { "POST" } else { "GET" },
            path,
            reply.status,
            began.elapsed().as_millis()
        );
    }
    let throttling = (family == "pubchem").then(|| {
        let (level, pct) = header_level.unwrap_or(("Green".into(), 0));
        format!(
            "Request Count status: {level} ({pct}%), Request Time status: Green ({}%), Service status: Green (10%)",
            pct / 4
        )
    });
    let retry_after = (family == "pmc" && reply.status == 429).then_some("1");
    let mut response = to_response(reply, throttling);
    if let Some(r) = retry_after {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static(r));
    }
    response
}

enum Gate {
    Serve,
    Limited(usize),
    Fault(Fault),
}

fn level_for(pct: usize) -> &'static str {
    match pct {
        0..50 => "Green",
        50..75 => "Yellow",
        75..=100 => "Red",
        _ => "Black",
    }
}

/// The answer to a refused request: PubChem's busy fault, or NCBI's 429 for PMC.
fn refusal(app: &App, family: &str, status: u16) -> Reply {
    if family == "pubchem" {
        let mut fault = app.data.faults["PUGREST.ServerBusy"].clone();
        if let Some(o) = fault.as_object_mut() {
            o.remove("status");
        }
        Reply::json(status, &fault)
    } else if status == 429 {
        Reply::json(
            429,
            &json!({"error": "API rate limit exceeded", "count": "4", "limit": "3"}),
        )
    } else {
        Reply::body(
            status,
            "text/html",
            format!(
                "<html><head><title>{status}</title></head><body><h1>{status}</h1></body></html>"
            ),
        )
    }
}

fn to_response(reply: Reply, throttling: Option<String>) -> Response {
    let mut response = Response::new(Body::from(reply.body));
    *response.status_mut() = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::OK);
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&reply.content_type) {
        headers.insert(header::CONTENT_TYPE, v);
    }
    if let Some(t) = throttling.and_then(|t| HeaderValue::from_str(&t).ok()) {
        headers.insert("x-throttling-control", t);
    }
    response
}

async fn stats(State(app): State<Arc<App>>) -> Response {
    let s = app.lock();
    let report = json!({
        "requests": s.requests,
        "total": s.requests.values().sum::<u64>(),
        "throttled": s.throttled,
        "faulted": s.faulted,
        "posts": s.posts,
        "missing_tool": s.missing_tool,
        "max_in_any_1s_window": s.max_in_1s,
        "pending_faults": s.faults.len(),
        "log": s.log,
    });
    to_response(Reply::json(200, &report), None)
}

async fn reset(State(app): State<Arc<App>>) -> Response {
    *app.lock() = fresh_shared();
    to_response(Reply::json(200, &json!({"ok": true})), None)
}

fn control_body(body: &Bytes) -> Result<Value, Box<Response>> {
    serde_json::from_slice(body).map_err(|e| {
        Box::new(to_response(
            Reply::json(400, &json!({"error": format!("body is not JSON: {e}")})),
            None,
        ))
    })
}

/// Queues refusals: `{"service": "pubchem", "status": 503, "count": 2, "level": "Black"}`;
/// with `"delay_ms": N` the requests are answered as usual, N ms late; with `"match": TEXT`
/// only requests whose query string holds TEXT take them.
async fn fail(State(app): State<Arc<App>>, body: Bytes) -> Response {
    let v = match control_body(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    let service = v["service"].as_str().unwrap_or("pubchem").to_string();
    let status = v["status"].as_u64().unwrap_or(503) as u16;
    let count = v["count"].as_u64().unwrap_or(1).min(10_000);
    let level = v["level"].as_str().unwrap_or("Black").to_string();
    let delay_ms = v["delay_ms"].as_u64().map(|d| d.min(120_000));
    let matching = v["match"].as_str().map(String::from);
    let mut s = app.lock();
    for _ in 0..count {
        s.faults.push_back(Fault {
            service: service.clone(),
            status,
            level: level.clone(),
            delay_ms,
            matching: matching.clone(),
        });
    }
    to_response(
        Reply::json(200, &json!({"ok": true, "pending": s.faults.len()})),
        None,
    )
}

/// Forces the Request Count level on PubChem replies: `{"level": "Yellow"}` (null clears).
async fn throttle(State(app): State<Arc<App>>, body: Bytes) -> Response {
    let v = match control_body(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    app.lock().forced_level = v["level"].as_str().map(String::from);
    to_response(Reply::json(200, &json!({"ok": true})), None)
}

/// `{"on": true}`: only the pre-2025 property names are accepted.
async fn legacy_smiles(State(app): State<Arc<App>>, body: Bytes) -> Response {
    let v = match control_body(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    app.lock().legacy_smiles = v["on"].as_bool().unwrap_or(true);
    to_response(Reply::json(200, &json!({"ok": true})), None)
}

/// `{"waits": N}`: how many polls a new asynchronous search answers `Waiting`.
async fn async_waits(State(app): State<Arc<App>>, body: Bytes) -> Response {
    let v = match control_body(&body) {
        Ok(v) => v,
        Err(r) => return *r,
    };
    app.lock().async_waits = v["waits"].as_u64().unwrap_or(1) as u32;
    to_response(Reply::json(200, &json!({"ok": true})), None)
}
