//! ncbi-replay: a local stand-in for NCBI's E-utilities.
//!
//! NCBI cannot be reached from where this project is tested, and a mock that
//! answers whatever a test expects would only test the test. This server
//! answers with REAL responses NCBI sent (tests/fixtures/ncbi/, embedded at
//! build time), chosen by the parameters NCBI would have seen, and behaves like
//! NCBI where the client's correctness depends on it ([`params`], [`limiter`]).
//! For tests, [`server`] queues faults (`POST /__replay/fail`: a status, a hostile
//! body, a delay or a `Cache-Control` header); [`synthetic`] is what is made up.
//! Every response names what produced it in an `X-Replay-Source` header.

pub mod citations;
pub mod fixtures;
pub mod graph;
pub mod hostile;
pub mod limiter;
pub mod params;
pub mod pubmed;
pub mod query;
pub mod routes;
pub mod server;
pub mod stats;
pub mod synthetic;
pub mod synthetic_pmc;

/// The command line. Once bound, the server prints `listening on http://127.0.0.1:PORT` on
/// stdout; logs go to stderr. API keys are never logged: callers appear as `key:<hash prefix>`.
pub const USAGE: &str =
    "usage: ncbi-replay --listen 127.0.0.1:PORT [--limit N] [--key-limit N] [--log-requests]";

/// The binary's entry point: the command line, then the server until it fails.
pub fn main() -> std::process::ExitCode {
    let defaults = server::Options {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        anonymous_limit: 3,
        key_limit: 10,
        log_requests: false,
    };
    crate::cli::main("ncbi-replay", USAGE, defaults, server::run)
}

impl crate::cli::Options for server::Options {
    const LIMIT_FLAGS: &'static [&'static str] = &["--limit", "--key-limit"];

    fn common(&mut self) -> (&mut std::net::SocketAddr, &mut bool) {
        (&mut self.listen, &mut self.log_requests)
    }

    fn set_limit(&mut self, flag: &str, per_second: usize) {
        match flag {
            "--limit" => self.anonymous_limit = per_second,
            "--key-limit" => self.key_limit = per_second,
            _ => {}
        }
    }
}
