//! Upstream replies that try to exhaust memory or time, against the native transport.
//!
//! A local server on 127.0.0.1 answers with a body that declares two gigabytes,
//! one that never ends, and a gzip bomb (a small compressed body that inflates
//! to 256 MB). Each must fail as `response_too_large` once the call's ceiling is
//! passed, without reading on, and the E-utilities client must not retry it.
//! A key the upstream quotes back never reaches the caller.

use crate::common::call_tool;
use entrez_mcp::transport::ReqwestTransport;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::net::{HttpCall, Method, Transport};
use entrez_mcp_core::protocol::Server;
use serde_json::json;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// What the hostile server sends after the status line.
#[derive(Clone, Copy)]
enum Reply {
    /// Content-Length: 2 GB, then a little data and a close.
    Declared,
    /// Chunked encoding, 64 KiB chunks until the client goes away (at most 30 s).
    Endless,
    /// gzip of 64 MB of zeros (64 KB on the wire).
    Bomb,
    /// A 200 with an NCBI error body that quotes the key it was sent.
    QuotesKey,
}

/// Serves `reply` to every connection on a fresh port; returns the base URL and a request counter.
async fn hostile(reply: Reply) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    let bomb = Arc::new(match reply {
        Reply::Bomb => gzip_zeros(64 << 20),
        _ => Vec::new(),
    });
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            let bomb = bomb.clone();
            tokio::spawn(async move {
                let mut head = vec![0u8; 16 * 1024];
                let n = socket.read(&mut head).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&head[..n]).to_string();
                let started = Instant::now();
                let _ = match reply {
                    Reply::Declared => {
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 2000000000\r\n\r\n<x>")
                            .await;
                        socket.shutdown().await
                    }
                    Reply::Endless => {
                        let _ = socket
                            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n")
                            .await;
                        let chunk = format!("10000\r\n{}\r\n", "a".repeat(0x10000));
                        while started.elapsed() < Duration::from_secs(30) {
                            if socket.write_all(chunk.as_bytes()).await.is_err() {
                                break;
                            }
                        }
                        Ok(())
                    }
                    Reply::Bomb => {
                        let head = format!("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n", bomb.len());
                        let _ = socket.write_all(head.as_bytes()).await;
                        socket.write_all(&bomb).await
                    }
                    Reply::QuotesKey => {
                        let key = request
                            .split(['?', '&', ' '])
                            .find_map(|p| p.strip_prefix("api_key="))
                            .unwrap_or("none")
                            .to_string();
                        let body = format!(
                            "<eSearchResult><ERROR>API key invalid: {key}</ERROR></eSearchResult>"
                        );
                        let head = format!("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\n\r\n", body.len());
                        socket.write_all(format!("{head}{body}").as_bytes()).await
                    }
                };
            });
        }
    });
    (base, count)
}

fn gzip_zeros(n: usize) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let block = vec![0u8; 1 << 20];
    for _ in 0..n / block.len() {
        e.write_all(&block).unwrap();
    }
    e.finish().unwrap()
}

fn call(url: String) -> HttpCall {
    HttpCall {
        method: Method::Get,
        url,
        headers: Vec::new(),
        body: None,
        timeout_ms: 20_000,
        max_bytes: 1 << 20,
        follow_redirects: true,
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn oversized_endless_and_inflating_bodies_stop_at_the_ceiling() {
    let transport = ReqwestTransport::new().unwrap();
    for (name, reply) in [
        ("declared", Reply::Declared),
        ("endless", Reply::Endless),
        ("gzip bomb", Reply::Bomb),
    ] {
        let (base, _) = hostile(reply).await;
        let started = Instant::now();
        let e = transport
            .send(call(format!("{base}/efetch.fcgi")))
            .await
            .expect_err(name);
        assert_eq!(e.code, "response_too_large", "{name}: {e:?}");
        assert!(e.message.contains("1048576 bytes"), "{name}: {}", e.message);
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{name} took {:?}",
            started.elapsed()
        );
    }
}

fn server_against(base: &str, api_key: Option<&str>) -> Server {
    crate::common::networked_server(&format!("{base}/entrez/eutils/"), api_key)
}

#[test]
fn a_reply_too_large_is_a_clear_error_and_is_not_retried() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (base, count) = rt.block_on(hostile(Reply::Endless));
    let server = server_against(&base, None);
    let _guard = rt.enter();
    let r = call_tool(
        &server,
        "entrez_query",
        json!({"operation": "fetch", "database": "pubmed", "ids": ["19304878"]}),
    );
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(
        r["structuredContent"]["error"]["code"],
        "response_too_large"
    );
    assert!(!r["structuredContent"]["error"]["suggestions"]
        .as_array()
        .unwrap()
        .is_empty());
    assert_eq!(
        count.load(Ordering::SeqCst),
        1,
        "retried a reply too large to read"
    );
}

#[test]
fn a_key_quoted_back_by_upstream_never_reaches_the_caller() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (base, _) = rt.block_on(hostile(Reply::QuotesKey));
    let server_key = "0123456789abcdef0123456789abcdef0123";
    let server = server_against(&base, Some(server_key));
    let _guard = rt.enter();
    let search = json!({"operation": "search", "term": "asthma"});
    let r = call_tool(&server, "entrez_query", search.clone());
    let text = r.to_string();
    assert_eq!(r["isError"], true, "{r}");
    assert!(text.contains("[redacted]"), "{text}");
    assert!(
        !text.contains("0123456789ab"),
        "the server's key leaked: {text}"
    );
    // A caller's own key wins for its requests, and is scrubbed the same way.
    let caller_key = "fedcba9876543210fedcba9876543210fedc";
    let ctx = RequestContext {
        caller_api_key: Some(entrez_mcp_core::secret::ApiKey::new(caller_key)),
        ..Default::default()
    };
    let r = crate::common::call_tool_with(&server, "entrez_query", search, &ctx);
    let text = r.to_string();
    assert!(text.contains("[redacted]"), "{text}");
    assert!(
        !text.contains("fedcba987654"),
        "the caller's key leaked: {text}"
    );
}
