//! external-replay: a local stand-in for PubChem PUG REST and PMC's article services.
//!
//! NCBI cannot be reached from where this project is tested. This server
//! answers the requests `entrez_external` sends with replies in the formats
//! the services document, built from hand-written fixtures under
//! tests/fixtures/external/ (see PROVENANCE.md there: they are NOT
//! recordings). It is strict where the client's correctness depends on it:
//!
//! - PUG REST paths are parsed segment by segment from the raw URL, so a
//!   structure that should have been POSTed shows up garbled, not silently
//!   accepted; POSTed identifiers are read from the form body;
//! - PubChem's limit of 5 requests per second is enforced with 503, a
//!   `PUGREST.ServerBusy` fault and a Black `X-Throttling-Control` header,
//!   and every PubChem reply carries that header;
//! - the PMC services insist on the documented parameters (`format=json`
//!   for the ID Converter, `format` and `id` for the citation exporter) and
//!   are limited to 3 requests per second (429 beyond).
//!
//! Control endpoints for tests: `GET /__replay/stats`, `POST /__replay/reset`,
//! `POST /__replay/fail` (queue refusals), `POST /__replay/throttle` (force a
//! throttling level), `POST /__replay/legacy_smiles` (answer like a PubChem
//! from before the 2025 SMILES renaming), `POST /__replay/async` (how many
//! polls an asynchronous search stays "Waiting").
//!
//! Usage: `external-replay --listen 127.0.0.1:0 [--pubchem-limit 5] [--pmc-limit 3] [--log-requests]`
//! prints `listening on http://127.0.0.1:PORT` on stdout once bound.

#[cfg(not(target_arch = "wasm32"))]
mod data;
#[cfg(not(target_arch = "wasm32"))]
mod form;
#[cfg(not(target_arch = "wasm32"))]
mod pmc;
#[cfg(not(target_arch = "wasm32"))]
mod pubchem;
#[cfg(not(target_arch = "wasm32"))]
mod server;

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
const USAGE: &str = "usage: external-replay --listen 127.0.0.1:PORT [--pubchem-limit N] [--pmc-limit N] [--log-requests]";

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
            eprintln!("external-replay: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("external-replay: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(server::run(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("external-replay: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads the command line; `Ok(None)` means help was asked for.
#[cfg(not(target_arch = "wasm32"))]
fn parse_args(args: impl Iterator<Item = String>) -> Result<Option<server::Options>, String> {
    let mut options = server::Options {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        pubchem_limit: 5,
        pmc_limit: 3,
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
            "--pubchem-limit" => options.pubchem_limit = positive(&value(&flag)?, &flag)?,
            "--pmc-limit" => options.pmc_limit = positive(&value(&flag)?, &flag)?,
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
