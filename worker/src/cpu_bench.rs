//! CPU per operation in wasm, for `scripts/bench-worker-cpu.sh` (feature `cpu-bench`).
//!
//! A Worker's CPU limit counts the time its wasm runs, not the time it waits
//! on NCBI or on a Durable Object, so what needs measuring is the core's own
//! work per request. This module exports it to JavaScript, built with the
//! Worker's compiler settings and run under Node's V8: parsing ([`bench_parse`]),
//! a batch ([`bench_batch`]), a request ([`Bench::call`]), a staging step
//! ([`Bench::step`]), an export's writing ([`bench_export`]) and a chart's drawing ([`bench_chart`]). The Worker edge is left out of this build (it needs
//! `cloudflare:` modules).

use crate::platform::WorkerPlatform;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::export;
use entrez_mcp_core::http::{Endpoint, Sessions};
use entrez_mcp_core::net::Network;
use entrez_mcp_core::parse::pubmed::parse_pubmed;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::rows;
use entrez_mcp_core::staging::{Limits, Staging};
use entrez_mcp_rehearsal::stand_ins::{append_command, run_now, NoWait, Objects, Steps, Upstream};
use wasm_bindgen::prelude::wasm_bindgen;

/// What the Worker does once per isolate, when its module is first evaluated (global scope):
/// see `crate::startup`.
#[wasm_bindgen]
pub fn bench_startup() {
    crate::startup();
}

/// Builds a server as the Worker does on an isolate's first request, from its settings (here
/// none set) and its bindings (here stand-ins that hold nothing), and drops it; whether it
/// built. `Bench::new` builds one too, with the stand-ins' replies prepared besides, which is
/// not the Worker's work.
#[wasm_bindgen]
pub fn bench_server_build() -> bool {
    let network = Network {
        transport: Box::new(Upstream::new("", Vec::new())),
        pacer: Box::new(NoWait),
        cache: None,
    };
    let staging = Staging::new(Objects::default(), Limits::default())
        .with_scheduler(Box::new(Steps::default()));
    let Ok(server) = Server::new(Config::from_lookup(|_| None), Box::new(WorkerPlatform)) else {
        return false;
    };
    let Ok(server) = server.with_network(network).with_staging(staging) else {
        return false;
    };
    let sessions = Sessions::new(b"bench-session-key".to_vec(), 3600, false);
    drop(Endpoint::new(server, sessions));
    true
}

/// Parses a PubMed efetch body; returns the articles read.
#[wasm_bindgen]
pub fn bench_parse(body: &[u8]) -> u32 {
    parse_pubmed(body).map_or(0, |a| a.len() as u32)
}

/// Parses a PubMed efetch body into rows and encodes them as the Worker's append command;
/// returns the command's size in bytes. That is a batch's whole cost on the Worker.
#[wasm_bindgen]
pub fn bench_batch(body: &[u8]) -> u32 {
    let Ok(articles) = parse_pubmed(body) else {
        return 0;
    };
    let batch = rows::pubmed(articles);
    append_command(&batch).len() as u32
}

/// Writes records saved as JSON Lines (the `jsonl` export) in `format` (and `style`, for
/// `text` and `markdown`), as an export's pages are written; returns the bytes written, 0
/// when the input or a name is not read. Reading the rows from the Durable Object is left out.
#[wasm_bindgen]
pub fn bench_export(jsonl: &str, format: &str, style: &str) -> u32 {
    let (Ok(format), Ok(style)) = (export::Format::named(format), export::style_named(style))
    else {
        return 0;
    };
    let Ok(records) = export::records_from_jsonl(jsonl) else {
        return 0;
    };
    export::write_all(format, style, records).len() as u32
}

/// Draws a chart of `points` labelled numbers (years from 1975 when `years`, else names of
/// 30-odd letters, as journals are) as bars or a line, and writes it as PNG, as the chart
/// operation does after its query; returns the PNG's size in bytes.
#[wasm_bindgen]
pub fn bench_chart(points: u32, years: bool, line: bool) -> u32 {
    use entrez_mcp_core::chart::{draw, Chart, Kind};
    let points = (0..points)
        .map(|i| {
            let label = if years {
                (1975 + i).to_string()
            } else {
                format!("Journal of Something Studies {i}")
            };
            (label, f64::from((i * 37) % 101 + 5))
        })
        .collect();
    let chart = Chart::of(
        "Articles per year".into(),
        "Publication year".into(),
        "Articles".into(),
        if line { Kind::Line } else { Kind::Bar },
        points,
    );
    draw::png(&chart).len() as u32
}

/// A server whose NCBI and Durable Objects answer at once from memory. The store still
/// encodes every command as the Worker does, so a `fetch_and_stage` call runs exactly the
/// code it runs on Workers, minus the waiting.
#[wasm_bindgen]
pub struct Bench {
    endpoint: Endpoint,
    steps: Steps,
}

#[wasm_bindgen]
impl Bench {
    /// `articles`: `<PubmedArticle>` elements, cycled to fill each efetch reply;
    /// `esearch`: the reply to every search; `cpu_budget_ms`: `ENTREZ_CPU_BUDGET_MS`.
    #[wasm_bindgen(constructor)]
    pub fn new(articles: String, esearch: Vec<u8>, cpu_budget_ms: u32, subrequests: u32) -> Bench {
        let mut config = Config::defaults();
        config.allowance = Allowance {
            cpu_budget_ms: u64::from(cpu_budget_ms),
            subrequests: u64::from(subrequests),
        };
        let network = Network {
            transport: Box::new(Upstream::new(&articles, esearch)),
            pacer: Box::new(NoWait),
            cache: None,
        };
        let steps = Steps::default();
        let staging = Staging::new(Objects::default(), Limits::default())
            .with_scheduler(Box::new(steps.clone()));
        let server = Server::new(config, Box::new(WorkerPlatform))
            .expect("server builds")
            .with_network(network)
            .with_staging(staging)
            .expect("staging");
        let sessions = Sessions::new(b"bench-session-key".to_vec(), 3600, false);
        Bench {
            endpoint: Endpoint::new(server, sessions),
            steps,
        }
    }

    /// Runs the next step the server asked for; "" when none is waiting, else how it ended.
    /// On Workers such a step is an alarm of the dataset's Durable Object.
    pub fn step(&self) -> String {
        let Some(id) = self.steps.next() else {
            return String::new();
        };
        match run_now(self.endpoint.server.run_step(&id)).expect("no stand-in waits") {
            Ok(step) => format!("{step:?}"),
            Err(e) => format!("error: {}", e.message),
        }
    }

    /// One stateless (2026-07-28) `POST /mcp` with this JSON-RPC body, under a caller's own key,
    /// through the same `Endpoint` the Worker serves; returns the reply body.
    pub fn call(&self, method: &str, name: &str, body: &[u8]) -> String {
        // A caller's key makes its datasets listable (a stateless caller with neither session
        // nor key stages into the handle pool, which lists nothing).
        let request = entrez_mcp_rehearsal::request(
            method,
            name,
            body.to_vec(),
            Some("bench-caller-key-0123456789abcdef"),
        );
        let reply = run_now(self.endpoint.handle(request)).expect("no stand-in waits");
        String::from_utf8_lossy(&reply.body).into_owned()
    }
}
