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
//! (`GET /__replay/stats`) and a reset (`POST /__replay/reset`).
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

#[cfg(not(target_arch = "wasm32"))]
mod fixtures;
#[cfg(not(target_arch = "wasm32"))]
mod limiter;
#[cfg(not(target_arch = "wasm32"))]
mod params;
#[cfg(not(target_arch = "wasm32"))]
mod pubmed;
#[cfg(not(target_arch = "wasm32"))]
mod routes;
#[cfg(not(target_arch = "wasm32"))]
mod server;
#[cfg(not(target_arch = "wasm32"))]
mod stats;
#[cfg(not(target_arch = "wasm32"))]
mod synthetic;

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
const USAGE: &str =
    "usage: ncbi-replay --listen 127.0.0.1:PORT [--limit N] [--key-limit N] [--log-requests]";

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::process::ExitCode;
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(Some(o)) => o,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("ncbi-replay: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ncbi-replay: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(server::run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ncbi-replay: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the command line; `Ok(None)` means help was asked for.
#[cfg(not(target_arch = "wasm32"))]
fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<server::Options>, String> {
    let mut options = server::Options {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        anonymous_limit: 3,
        key_limit: 10,
        log_requests: false,
    };
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| format!("{name} needs a value"))
        };
        match flag.as_str() {
            "--listen" => {
                let v = value("--listen")?;
                options.listen = v
                    .parse()
                    .map_err(|_| format!("--listen wants HOST:PORT, got {v:?}"))?;
            }
            "--limit" => options.anonymous_limit = positive(&value("--limit")?, "--limit")?,
            "--key-limit" => options.key_limit = positive(&value("--key-limit")?, "--key-limit")?,
            "--log-requests" => options.log_requests = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(Some(options))
}

#[cfg(not(target_arch = "wasm32"))]
fn positive(v: &str, name: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{name} wants a positive number, got {v:?}")),
    }
}
