//! Streamable HTTP on axum: converts requests into core data and back.

use crate::http::{Endpoint, HttpRequest, MAX_BODY_BYTES};
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::response::Response;
use std::net::SocketAddr;
use std::sync::Arc;

/// Serves the endpoint on `addr` until the process is stopped.
pub async fn serve(endpoint: Endpoint, addr: SocketAddr) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!(
        "entrez-mcp {} listening on http://{}/mcp",
        crate::SERVER_VERSION,
        listener.local_addr()?
    );
    let app = axum::Router::new()
        .fallback(pump)
        .with_state(Arc::new(endpoint));
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}

async fn pump(State(endpoint): State<Arc<Endpoint>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let headers = parts
        .headers
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
        .collect();
    // One byte over the limit is enough for the core to answer 413.
    let body = match to_bytes(body, MAX_BODY_BYTES + 1).await {
        Ok(b) => b.to_vec(),
        Err(_) => vec![0; MAX_BODY_BYTES + 1],
    };
    let reply = endpoint
        .handle(HttpRequest {
            method: parts.method.as_str().to_string(),
            path: parts.uri.path().to_string(),
            headers,
            body,
        })
        .await;
    let mut builder = Response::builder().status(reply.status);
    for (k, v) in &reply.headers {
        builder = builder.header(k, v);
    }
    builder
        .body(Body::from(reply.body))
        .unwrap_or_else(|_| Response::new(Body::empty()))
}
