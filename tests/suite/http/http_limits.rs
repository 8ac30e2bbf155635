//! The native HTTP server under slow, idle and greedy clients, on 127.0.0.1.
//!
//! Small limits make the behaviour quick to observe: a client that sends its
//! headers or body too slowly is cut off, connections past the cap are turned
//! away at once, and through all of it a well-behaved client is answered.

use entrez_mcp::http::{serve_on, Limits};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const LIMITS: Limits = Limits {
    header_timeout: Duration::from_millis(700),
    body_timeout: Duration::from_millis(700),
    max_connections: 6,
    max_in_flight: 4,
};

async fn start() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let (endpoint, _) = crate::common::endpoint();
    tokio::spawn(serve_on(
        listener,
        endpoint,
        LIMITS,
        None,
        std::future::pending(),
    ));
    addr
}

/// Reads until the server closes or `limit` passes; returns what came and whether it closed.
async fn drain(stream: &mut TcpStream, limit: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&out).into(), true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&out).into(), false),
        }
    }
}

/// A well-formed GET of the server's description page, answered within a second.
async fn healthy(addr: &str) {
    let (reply, closed) = get_root(addr).await;
    assert!(closed && reply.starts_with("HTTP/1.1 200"), "{reply}");
}

/// Whether `GET /` is answered 200 right now.
async fn answers_200(addr: &str) -> bool {
    let (reply, closed) = get_root(addr).await;
    closed && reply.starts_with("HTTP/1.1 200")
}

async fn get_root(addr: &str) -> (String, bool) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    drain(&mut s, Duration::from_secs(2)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_are_cut_off_and_others_are_still_served() {
    let addr = start().await;
    let mut slow = TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    healthy(&addr).await;
    let (_, closed) = drain(&mut slow, Duration::from_secs(5)).await;
    assert!(closed, "a client that never finished its headers was kept");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_kept_alive_connection_is_closed() {
    let addr = start().await;
    let mut idle = TcpStream::connect(&addr).await.unwrap();
    idle.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let (first, closed) = drain(&mut idle, Duration::from_secs(4)).await;
    assert!(first.starts_with("HTTP/1.1 200"), "{first}");
    assert!(
        closed,
        "an idle keep-alive connection was kept past the header timeout"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_trickles_in_gets_408() {
    let addr = start().await;
    let mut slow = TcpStream::connect(&addr).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
        .await
        .unwrap();
    let (reply, _) = drain(&mut slow, Duration::from_secs(4)).await;
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    healthy(&addr).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_cap_are_turned_away_at_once() {
    let addr = start().await;
    let mut held = Vec::new();
    for _ in 0..LIMITS.max_connections {
        let mut s = TcpStream::connect(&addr).await.unwrap();
        // Half a request: each holds a connection until the header timeout.
        s.write_all(b"GET / HTTP/1.1\r\n").await.unwrap();
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut extra = TcpStream::connect(&addr).await.unwrap();
    let (reply, closed) = drain(&mut extra, Duration::from_secs(2)).await;
    assert!(closed && reply.starts_with("HTTP/1.1 503"), "{reply}");
    assert!(reply.contains("Retry-After: 1"), "{reply}");
    // Once the held ones are gone, the server takes connections again: as soon as it has
    // seen them close, which a loaded machine may take a while to get to.
    drop(held);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if answers_200(&addr).await || tokio::time::Instant::now() > deadline {
            break;
        }
    }
    healthy(&addr).await;
}
