//! external-replay: a local stand-in for PubChem PUG REST, PMC's article services and NIH
//! iCite ([`icite`]).
//!
//! NCBI cannot be reached from where this project is tested. This server answers
//! the requests `entrez_external` sends in the formats the services document,
//! from hand-written fixtures under tests/fixtures/external/ (see PROVENANCE.md
//! there: they are NOT recordings). It is strict where the client's correctness
//! depends on it: PUG REST paths are split as PubChem splits them ([`pubchem`]);
//! the PMC services insist on their documented parameters (`format=json` for the
//! ID Converter, `format` and `id` for the citation exporter); each service's
//! rate limit is enforced ([`main`]). Control endpoints for tests are in [`server`].

pub mod bioc;
pub mod cloud;
pub mod data;
pub mod form;
pub mod icite;
pub mod pmc;
pub mod pubchem;
pub mod pug_formats;
pub mod server;

/// The command line. Once bound, the server prints `listening on http://127.0.0.1:PORT` on
/// stdout.
pub const USAGE: &str = "usage: external-replay --listen 127.0.0.1:PORT [--pubchem-limit N] [--pmc-limit N] [--log-requests]";

/// The binary's entry point: the command line, then the server until it fails.
///
/// The default limits are the services' own. PubChem's 5 requests per second is enforced
/// with 503, a `PUGREST.ServerBusy` fault and a Black `X-Throttling-Control` header, and
/// every PubChem reply carries that header; the PMC services allow 3 (429 beyond).
pub fn main() -> std::process::ExitCode {
    let defaults = server::Options {
        listen: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        pubchem_limit: 5,
        pmc_limit: 3,
        log_requests: false,
    };
    crate::cli::main("external-replay", USAGE, defaults, server::run)
}

impl crate::cli::Options for server::Options {
    const LIMIT_FLAGS: &'static [&'static str] = &["--pubchem-limit", "--pmc-limit"];

    fn common(&mut self) -> (&mut std::net::SocketAddr, &mut bool) {
        (&mut self.listen, &mut self.log_requests)
    }

    fn set_limit(&mut self, flag: &str, per_second: usize) {
        match flag {
            "--pubchem-limit" => self.pubchem_limit = per_second,
            "--pmc-limit" => self.pmc_limit = per_second,
            _ => {}
        }
    }
}
