//! Starting the NCBI replay server for a test, and talking to its control endpoints.

use entrez_mcp_replay::Running;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A replay server running in this process, stopped when dropped.
pub(crate) struct Replay {
    _running: Running,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Replay {
    /// Starts `ncbi-replay` in process on a free loopback port.
    pub(crate) fn start() -> Replay {
        Replay::from(entrez_mcp_replay::start_ncbi())
    }

    /// Wraps a replay started in process.
    pub(crate) fn from(running: Running) -> Replay {
        Replay {
            addr: running.addr.to_string(),
            _running: running,
        }
    }

    /// The E-utilities base URL to configure.
    pub(crate) fn eutils_base(&self) -> String {
        format!("http://{}/entrez/eutils/", self.addr)
    }

    /// A raw HTTP/1.1 exchange with the replay server; returns the body.
    pub(crate) fn control(&self, method: &str, path: &str, body: &str) -> String {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out.split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default()
    }

    /// The stats report as JSON.
    pub(crate) fn stats(&self) -> serde_json::Value {
        let body = self.control("GET", "/__replay/stats", "");
        // Tolerate chunked framing from the server by taking the JSON object itself.
        let start = body.find('{').unwrap_or(0);
        let end = body.rfind('}').map(|i| i + 1).unwrap_or(body.len());
        serde_json::from_str(&body[start..end])
            .unwrap_or_else(|e| panic!("stats not JSON: {e}: {body}"))
    }
}

/// What the replay served to efetch, one entry per request: the ids it named, or
/// `@N` for each position N of a history slice it asked for.
pub(crate) fn fetched(stats: &serde_json::Value) -> Vec<Vec<String>> {
    let Some(list) = stats["efetch"].as_array() else {
        panic!("no efetch list in the stats: {stats}")
    };
    list.iter()
        .map(|f| match f["ids"].as_array() {
            Some(ids) => ids
                .iter()
                .map(|i| i.as_str().unwrap_or_default().to_string())
                .collect(),
            None => {
                let start = f["retstart"].as_u64().unwrap_or(0);
                let max = f["retmax"].as_u64().unwrap_or(0);
                (start..start + max).map(|p| format!("@{p}")).collect()
            }
        })
        .collect()
}

/// How many times each id (or history position) was served to efetch.
pub(crate) fn fetch_counts(stats: &serde_json::Value) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for id in fetched(stats).into_iter().flatten() {
        *counts.entry(id).or_insert(0) += 1;
    }
    counts
}

/// Asserts that efetch served each of `ids` exactly once and nothing else.
pub(crate) fn assert_each_fetched_once(
    stats: &serde_json::Value,
    ids: impl IntoIterator<Item = String>,
) {
    let counts = fetch_counts(stats);
    let twice: Vec<_> = counts.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        twice.is_empty(),
        "fetched more than once: {} ids, first {:?}",
        twice.len(),
        twice.iter().take(5).collect::<Vec<_>>()
    );
    let want: std::collections::BTreeSet<String> = ids.into_iter().collect();
    let got: std::collections::BTreeSet<String> = counts.into_keys().collect();
    assert_eq!(
        want.len(),
        got.len(),
        "fetched {} ids, expected {}: first missing {:?}, first extra {:?}",
        got.len(),
        want.len(),
        want.difference(&got).next(),
        got.difference(&want).next()
    );
    assert!(want == got, "fetched other ids than expected");
}
