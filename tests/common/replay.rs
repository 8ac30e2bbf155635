//! Starting the NCBI replay server for a test, and talking to its control endpoints.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running replay server, killed when dropped.
pub struct Replay {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Replay {
    /// Starts `ncbi-replay` on a free loopback port.
    pub fn start() -> Replay {
        Replay::start_binary(env!("CARGO_BIN_EXE_ncbi-replay"))
    }

    /// Starts any of the project's replay binaries, which all print `listening on http://ADDR` first.
    pub fn start_binary(path: &str) -> Replay {
        let mut child = Command::new(path)
            .args(["--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("replay server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("replay prints its address");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Replay { child, addr }
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

impl Drop for Replay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
