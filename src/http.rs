//! Streamable HTTP on axum: converts requests into core data and back.

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::response::Response;
use entrez_mcp_core::http::stream;
use entrez_mcp_core::http::{sse_headers, Endpoint, HttpRequest, MAX_BODY_BYTES};
use futures_util::StreamExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;

/// What one client may hold of the server, so slow or idle peers cannot starve the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Time to send a request's headers, and to send the next one on a kept-alive connection.
    pub header_timeout: Duration,
    /// Time to send a request's body once its headers arrived.
    pub body_timeout: Duration,
    /// Open connections at once; beyond it a new one gets 503 and is closed.
    pub max_connections: usize,
    /// Requests being handled at once; beyond it a request gets 503 with Retry-After.
    pub max_in_flight: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 512,
            max_in_flight: 128,
        }
    }
}

impl Limits {
    /// The defaults, overridden by `ENTREZ_HTTP_HEADER_TIMEOUT_MS`, `ENTREZ_HTTP_BODY_TIMEOUT_MS`,
    /// `ENTREZ_HTTP_MAX_CONNECTIONS` and `ENTREZ_HTTP_MAX_IN_FLIGHT`.
    pub fn from_env() -> Limits {
        let get = |name: &str| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|n| *n > 0)
        };
        let d = Limits::default();
        Limits {
            header_timeout: get("ENTREZ_HTTP_HEADER_TIMEOUT_MS")
                .map_or(d.header_timeout, Duration::from_millis),
            body_timeout: get("ENTREZ_HTTP_BODY_TIMEOUT_MS")
                .map_or(d.body_timeout, Duration::from_millis),
            max_connections: get("ENTREZ_HTTP_MAX_CONNECTIONS")
                .map_or(d.max_connections, |n| n as usize),
            max_in_flight: get("ENTREZ_HTTP_MAX_IN_FLIGHT").map_or(d.max_in_flight, |n| n as usize),
        }
    }
}

/// Serves the endpoint on `addr` until the process is stopped, driving the `steps` of the
/// stagings it continues by itself.
pub async fn serve(
    endpoint: Endpoint,
    addr: SocketAddr,
    steps: Option<crate::background::Steps>,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "entrez-mcp {} listening on http://{}/mcp",
        entrez_mcp_core::SERVER_VERSION,
        listener.local_addr()?
    );
    serve_on(listener, endpoint, Limits::from_env(), steps, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// The address a connection came from.
#[derive(Debug, Clone, Copy)]
struct Peer(SocketAddr);

struct App {
    endpoint: Endpoint,
    limits: Limits,
    in_flight: Arc<Semaphore>,
}

/// Serves on `listener` within `limits` until `shutdown` completes, driving `steps`.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    endpoint: Endpoint,
    limits: Limits,
    steps: Option<crate::background::Steps>,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let state = Arc::new(App {
        endpoint,
        limits,
        in_flight: Arc::new(Semaphore::new(limits.max_in_flight)),
    });
    if let Some(steps) = steps {
        steps.drive(&state, |app| &app.endpoint.server);
    }
    let app = axum::Router::new().fallback(pump).with_state(state);
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    tokio::pin!(shutdown);
    loop {
        let (mut stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of file descriptors and the like: wait a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => return Ok(()),
        };
        let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
            // Full: say so and close at once, without reading from the peer.
            tokio::spawn(async move {
                let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(BUSY)).await;
            });
            continue;
        };
        // The peer's address rides along with each request (anonymous callers are limited by it).
        let service = TowerToHyperService::new(app.clone().layer(axum::Extension(Peer(peer))));
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            let _ = builder
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

/// The whole reply to a connection over the cap.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 42\r\n\r\nToo many connections; retry in a second.\r\n";

fn plain(status: u16, retry_after: Option<&str>, text: &str) -> Response {
    let mut builder = Response::builder()
        .status(status)
        .header("Content-Type", "text/plain");
    if let Some(r) = retry_after {
        builder = builder.header("Retry-After", r);
    }
    builder
        .body(Body::from(text.to_string()))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}

async fn pump(State(app): State<Arc<App>>, request: Request) -> Response {
    let Ok(_permit) = Arc::clone(&app.in_flight).try_acquire_owned() else {
        return plain(
            503,
            Some("1"),
            "Too many requests in progress; retry in a second.\n",
        );
    };
    let endpoint = &app.endpoint;
    let (parts, body) = request.into_parts();
    let headers = parts
        .headers
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
        .collect();
    // One byte over the limit is enough for the core to answer 413; a body that
    // trickles in slower than the body timeout is cut off.
    let body =
        match tokio::time::timeout(app.limits.body_timeout, to_bytes(body, MAX_BODY_BYTES + 1))
            .await
        {
            Ok(Ok(b)) => b.to_vec(),
            Ok(Err(_)) => vec![0; MAX_BODY_BYTES + 1],
            Err(_) => {
                return plain(
                    408,
                    None,
                    "The request body did not arrive in time; the connection is closed.\n",
                )
            }
        };
    let request = HttpRequest {
        method: parts.method.as_str().to_string(),
        path: parts.uri.path().to_string(),
        headers,
        body,
        client_ip: parts.extensions.get::<Peer>().map(|p| p.0.ip().to_string()),
    };
    let reply = if endpoint.wants_stream(&request) {
        let (tx, rx) = stream::channel();
        let task_app = Arc::clone(&app);
        tokio::spawn(async move {
            let notifier = stream::ChannelNotifier(tx.clone());
            let reply = task_app
                .endpoint
                .handle_notifying(request, Some(&notifier))
                .await;
            let _ = tx.unbounded_send(stream::Message::Done(reply));
        });
        match stream::first(rx).await {
            stream::Answer::Whole(reply) => reply,
            stream::Answer::Stream(head, rest) => {
                let body = futures_util::stream::once(async move { head })
                    .chain(stream::frames(rest))
                    .map(Ok::<_, std::convert::Infallible>);
                let mut builder = Response::builder().status(200);
                for (k, v) in sse_headers() {
                    builder = builder.header(k, v);
                }
                return builder
                    .body(Body::from_stream(body))
                    .unwrap_or_else(|_| Response::new(Body::empty()));
            }
        }
    } else {
        endpoint.handle(request).await
    };
    let mut builder = Response::builder().status(reply.status);
    for (k, v) in &reply.headers {
        builder = builder.header(k, v);
    }
    builder
        .body(Body::from(reply.body))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}
