//! Outbound HTTP for the native edge: reqwest on tokio.

use crate::SystemPlatform;
use entrez_mcp_core::error::{Error, ErrorKind};
use entrez_mcp_core::net::{
    host_of, BoundedBody, HttpCall, HttpReply, Method, SeenHosts, Transport,
};
use entrez_mcp_core::platform::{BoxFuture, Platform};
use std::time::Duration;

/// Sends core [`HttpCall`]s with one shared connection pool.
pub struct ReqwestTransport {
    client: reqwest::Client,
    /// The same pool settings with redirects left to the caller (elink `retmode=ref`).
    no_redirects: reqwest::Client,
    /// When this process last sent to each host: a first request, or one after a pause, may
    /// open a connection.
    seen: SeenHosts,
}

impl ReqwestTransport {
    /// A transport with a descriptive user agent.
    pub fn new() -> Result<Self, String> {
        let agent = concat!("entrez-mcp/", env!("CARGO_PKG_VERSION"));
        let client = reqwest::Client::builder()
            .user_agent(agent)
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        let no_redirects = reqwest::Client::builder()
            .user_agent(agent)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        Ok(ReqwestTransport {
            client,
            no_redirects,
            seen: SeenHosts::default(),
        })
    }
}

impl Transport for ReqwestTransport {
    fn send<'a>(&'a self, call: HttpCall) -> BoxFuture<'a, Result<HttpReply, Error>> {
        Box::pin(async move {
            let client = if call.follow_redirects {
                &self.client
            } else {
                &self.no_redirects
            };
            let mut req = match call.method {
                Method::Get => client.get(&call.url),
                Method::Post => client.post(&call.url),
            };
            for (k, v) in &call.headers {
                req = req.header(k, v);
            }
            if let Some(body) = call.body {
                req = req.body(body);
            }
            let host = host_of(&call.url);
            self.seen.sent(&call.url, SystemPlatform.now_unix_ms());
            let response = req
                .timeout(Duration::from_millis(call.timeout_ms))
                .send()
                .await
                .map_err(|e| unavailable(&host, &e))?;
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
                .collect();
            // Read within the call's ceiling: decompressed bytes count, and an endless body stops there.
            let mut body = BoundedBody::new(&host, call.max_bytes, response.content_length())?;
            let mut response = response;
            while let Some(chunk) = response.chunk().await.map_err(|e| unavailable(&host, &e))? {
                body.push(&chunk)?;
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
        Box::pin(tokio::time::sleep(Duration::from_millis(ms)))
    }

    fn cold(&self, url: &str, now_ms: u64) -> bool {
        self.seen.cold(url, now_ms)
    }
}

fn unavailable(host: &str, e: &reqwest::Error) -> Error {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "could not connect"
    } else {
        "failed"
    };
    Error::new(
        ErrorKind::Unavailable,
        format!("The request to {host} {what}."),
    )
    .suggest(
        "Check the network and the base URL settings (EUTILS_BASE_URL and friends), then retry.",
    )
}

#[cfg(test)]
mod tests {
    use super::host_of;

    #[test]
    fn host_is_taken_without_path_or_query() {
        assert_eq!(
            host_of("https://eutils.ncbi.nlm.nih.gov/entrez/eutils/esearch.fcgi?api_key=x"),
            "eutils.ncbi.nlm.nih.gov"
        );
        assert_eq!(host_of("http://127.0.0.1:9/x"), "127.0.0.1:9");
    }
}
