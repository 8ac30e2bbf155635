//! Hostile replies, queued through `/__replay/fail` with `"body": ...`, for the
//! tests that check a server survives an upstream that misbehaves.
//!
//! These are not NCBI's behaviour; they are what a broken proxy, a captive
//! portal or an attacker on the path could send: a body that never ends, a
//! gzip bomb, a length no one could read, a body that drips in a byte at a
//! time, a connection reset halfway through, and an error that quotes the key.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::StreamExt;
use std::time::{Duration, Instant};

/// 256 MiB of zeros, gzip-compressed to 255 KB (tests/fixtures/hostile).
const GZIP_BOMB: &[u8] = include_bytes!("../../../tests/fixtures/hostile/zeros-256mib.gz");
/// An endless body stops by itself after this long, whatever the client does.
const ENDLESS_FOR: Duration = Duration::from_secs(30);

/// A hostile body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hostile {
    /// Chunked XML that never ends (until the client leaves or 30 s pass).
    Endless,
    /// A gzip body that inflates 1,000 times over.
    GzipBomb,
    /// A Content-Length of 2 GB over a few bytes.
    Declared,
    /// The start of a reply, then one byte every 250 ms (until the client leaves or 30 s pass).
    Drip,
    /// Half a reply, then the connection is cut.
    Reset,
    /// A 200 whose `<ERROR>` quotes the api_key of the request.
    QuoteKey,
}

impl Hostile {
    /// Reads the `body` of a fault.
    pub fn parse(name: &str) -> Option<Hostile> {
        Some(match name {
            "endless" => Hostile::Endless,
            "gzip_bomb" => Hostile::GzipBomb,
            "declared" => Hostile::Declared,
            "drip" => Hostile::Drip,
            "reset" => Hostile::Reset,
            "quote_key" => Hostile::QuoteKey,
            _ => return None,
        })
    }

    /// The reply; `api_key` is the request's own, for the one that quotes it.
    pub fn response(self, api_key: Option<&str>) -> Response {
        let mut response = match self {
            Hostile::Endless => {
                let started = Instant::now();
                let chunk = Bytes::from(format!("<Item>{}</Item>\n", "a".repeat(65_000)));
                let stream = futures_util::stream::unfold((), move |()| {
                    let chunk = chunk.clone();
                    async move {
                        (started.elapsed() < ENDLESS_FOR)
                            .then_some((Ok::<_, std::convert::Infallible>(chunk), ()))
                    }
                });
                Response::new(Body::from_stream(stream))
            }
            Hostile::Drip => {
                let started = Instant::now();
                let head = futures_util::stream::iter([Ok::<_, std::io::Error>(Bytes::from_static(
                    b"<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n",
                ))]);
                let drops = futures_util::stream::unfold((), move |()| async move {
                    if started.elapsed() >= ENDLESS_FOR {
                        return None;
                    }
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    Some((Ok(Bytes::from_static(b" ")), ()))
                });
                Response::new(Body::from_stream(head.chain(drops)))
            }
            Hostile::Reset => {
                let parts = futures_util::stream::iter([
                    Ok(Bytes::from_static(
                        b"<?xml version=\"1.0\" ?>\n<PubmedArticleSet>\n<PubmedArticle>",
                    )),
                    Err(std::io::Error::new(
                        std::io::ErrorKind::ConnectionReset,
                        "cut off on purpose",
                    )),
                ]);
                Response::new(Body::from_stream(parts))
            }
            Hostile::GzipBomb => {
                let mut r = Response::new(Body::from(GZIP_BOMB));
                r.headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                r
            }
            Hostile::Declared => {
                let mut r = Response::new(Body::from("<eSearchResult>"));
                r.headers_mut().insert(
                    header::CONTENT_LENGTH,
                    HeaderValue::from_static("2000000000"),
                );
                r
            }
            Hostile::QuoteKey => Response::new(Body::from(format!(
                "<?xml version=\"1.0\" ?>\n<eFetchResult><ERROR>API key invalid: {}</ERROR></eFetchResult>\n",
                api_key.unwrap_or("(none)")
            ))),
        };
        *response.status_mut() = StatusCode::OK;
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/xml"));
        response
    }
}
