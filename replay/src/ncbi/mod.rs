//! ncbi-replay: a local stand-in for NCBI's E-utilities.
//!
//! NCBI cannot be reached from where this project is tested, and a mock that
//! answers whatever a test expects would only test the test. This server
//! answers with REAL responses NCBI sent (tests/fixtures/ncbi/, embedded at
//! build time), chosen by the parameters NCBI would have seen, and behaves
//! like NCBI where the client's correctness depends on it:
//!
//! - GET and POST (form body) are both accepted and merged, as NCBI does;
//! - the rate limit is NCBI's: per api_key, else per client IP, over a
//!   sliding second, answered with NCBI's 429 JSON body and `Retry-After: 1`;
//! - invalid databases get NCBI's `<ERROR>` answers, unknown paths a 404.
//!
//! For tests it adds fault injection (`POST /__replay/fail`), a stats report
//! (`GET /__replay/stats`) and a reset (`POST /__replay/reset`); a fault may
//! carry a hostile body (`"body": "endless" | "gzip_bomb" | "declared" | "quote_key"`), or
//! be a delay (`"delay_ms": 2000`: the ordinary answer, late, as from a slow NCBI), or
//! the ordinary answer with a `Cache-Control` header (`"cache_control": "no-store"`).
//!
//! Synthetic routes, where no recording exists (see synthetic.rs and
//! tests/fixtures/ncbi/synthetic/README.md): ecitmatch; PMIDs
//! 90000001..=90099999 (real articles cloned with their PMID rewritten);
//! esearch `term=replay-synthetic[all]`; `<ERROR>` envelopes with no recorded
//! counterpart; the fault pages. Every response names what produced it in an
//! `X-Replay-Source` header.
//!
//! Usage: `ncbi-replay --listen 127.0.0.1:0 [--limit 3] [--key-limit 10] [--log-requests]`
//! prints `listening on http://127.0.0.1:PORT` on stdout once bound; logs go
//! to stderr. API keys are never logged: callers appear as `key:<hash prefix>`.

pub mod fixtures;
pub mod hostile;
pub mod limiter;
pub mod params;
pub mod pubmed;
pub mod routes;
pub mod server;
pub mod stats;
pub mod synthetic;

/// The command line.
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
