//! Streamable HTTP on axum: converts requests into core data and back.

use crate::edge::stream;
use crate::http::{sse_headers, Endpoint, HttpRequest, MAX_BODY_BYTES};
use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::response::Response;
use futures_util::StreamExt;
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
    let request = HttpRequest {
        method: parts.method.as_str().to_string(),
        path: parts.uri.path().to_string(),
        headers,
        body,
    };
    let reply = if endpoint.wants_stream(&request) {
        let (tx, rx) = stream::channel();
        let task_endpoint = Arc::clone(&endpoint);
        tokio::spawn(async move {
            let notifier = stream::ChannelNotifier(tx.clone());
            let reply = task_endpoint
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
