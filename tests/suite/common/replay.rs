//! Starting the NCBI replay server for a test, and talking to its control endpoints.

use entrez_mcp_replay::Running;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A replay server running in this process, stopped when dropped.
pub struct Replay {
    _running: Running,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Replay {
    /// Starts `ncbi-replay` in process on a free loopback port.
    pub fn start() -> Replay {
        Replay::from(entrez_mcp_replay::start_ncbi())
    }

    /// Wraps a replay started in process.
    pub fn from(running: Running) -> Replay {
        Replay {
            addr: running.addr.to_string(),
            _running: running,
        }
    }

    /// The E-utilities base URL to configure.
    pub fn eutils_base(&self) -> String {
        format!("http://{}/entrez/eutils/", self.addr)
    }

    /// A raw HTTP/1.1 exchange with the replay server; returns the body.
    pub fn control(&self, method: &str, path: &str, body: &str) -> String {
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
    pub fn stats(&self) -> serde_json::Value {
        let body = self.control("GET", "/__replay/stats", "");
        // Tolerate chunked framing from the server by taking the JSON object itself.
        let start = body.find('{').unwrap_or(0);
        let end = body.rfind('}').map(|i| i + 1).unwrap_or(body.len());
        serde_json::from_str(&body[start..end])
            .unwrap_or_else(|e| panic!("stats not JSON: {e}: {body}"))
    }
}
