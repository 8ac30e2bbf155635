//! entrez_external end to end through the dispatcher, against external-replay (a local
//! stand-in answering in the documented formats from hand-written fixtures), plus
//! scripted-transport tests of polling and throttling that need no network at all. PubChem's
//! lookups, searches and pug_rest are in `pubchem.rs`, its faults, throttling and polling in
//! `throttling.rs`, PMC's services in `pmc.rs`.
//!
//! Tests marked `#[ignore]` talk to the live services; NCBI is unreachable where this
//! project is tested. Run them from a machine with internet access with
//! `cargo test --test entrez_external_replay -- --ignored live_`.

mod pmc;
mod pubchem;
mod throttling;

use crate::common::external_replay::{scripted, ExternalReplay};
use crate::common::*;
use base64::Engine as _;
use entrez_mcp::transport::ReqwestTransport;
use entrez_mcp::SystemPlatform;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::net::pacing::MemoryPacer;
use entrez_mcp_core::net::Network;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};
use std::sync::Arc;

fn server(replay: &ExternalReplay) -> Server {
    let env: Vec<(String, Option<String>)> = [
        "PUBCHEM_BASE_URL",
        "PMC_IDCONV_URL",
        "PMC_OA_URL",
        "PMC_CLOUD_URL",
        "PMC_CTXP_URL",
        "PMC_BIOC_URL",
    ]
    .iter()
    .map(|k| (k.to_string(), replay.env(k)))
    .collect();
    let config = Config::from_lookup(move |k| {
        if k == "NCBI_EMAIL" {
            return Some("tests@example.org".into());
        }
        env.iter()
            .find(|(name, _)| name == k)
            .and_then(|(_, v)| v.clone())
    });
    crate::common::live_server(config)
}

fn call(s: &Server, args: Value) -> Value {
    call_tool(s, "entrez_external", args)
}

fn ok(s: &Server, args: Value) -> Value {
    let r = call(s, args.clone());
    assert_eq!(r["isError"], false, "{args} → {r}");
    r["structuredContent"].clone()
}

fn err(s: &Server, args: Value) -> Value {
    let r = call(s, args.clone());
    assert_eq!(r["isError"], true, "{args} should fail → {r}");
    let e = r["structuredContent"]["error"].clone();
    assert!(!e["suggestions"].as_array().unwrap().is_empty(), "{e}");
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("Error ["));
    e
}

fn pubchem(op: &str, extra: Value) -> Value {
    let mut v = json!({"service": "pubchem", "operation": op});
    v.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    v
}

fn pmc(op: &str, extra: Value) -> Value {
    let mut v = json!({"service": "pmc", "operation": op});
    v.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    v
}

fn log(replay: &ExternalReplay) -> Vec<Value> {
    replay.stats()["log"].as_array().unwrap().clone()
}

fn live_server() -> Server {
    Server::new(
        Config::from_lookup(|k| (k == "NCBI_EMAIL").then(|| "entrez-mcp-tests@example.org".into())),
        Box::new(SystemPlatform),
    )
    .unwrap()
    .with_network(Network {
        transport: Box::new(ReqwestTransport::new().unwrap()),
        pacer: Box::new(MemoryPacer::new()),
        cache: None,
    })
}

#[test]
#[ignore = "needs the live PubChem service: cargo test --test entrez_external_replay -- --ignored live_"]
fn live_pubchem_aspirin_properties_and_picture() {
    let s = live_server();
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "aspirin", "data": "picture"}),
        ),
    );
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(r["structuredContent"]["compounds"][0]["cid"], 2244);
    assert!(
        r["structuredContent"]["compounds"][0]["smiles"].is_string(),
        "{r}"
    );
    assert!(r["content"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["type"] == "image"));
    let sim = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "CC(=O)OC1=CC=CC=C1C(=O)O", "threshold": 95, "max_records": 10}),
        ),
    );
    assert!(sim["cids"].as_array().unwrap().contains(&json!(2244)));
}

#[test]
#[ignore = "needs the live PMC services: cargo test --test entrez_external_replay -- --ignored live_"]
fn live_pmc_id_converter_oa_and_citations() {
    let s = live_server();
    let ids = ok(
        &s,
        pmc("id_convert", json!({"ids": ["23193287"], "idtype": "pmid"})),
    );
    assert_eq!(ids["records"][0]["pmcid"], "PMC3531190");
    let oa = call(&s, pmc("oa_service", json!({"ids": ["PMC5334499"]})));
    assert!(
        oa["structuredContent"].get("records").is_some() || oa["isError"] == true,
        "{oa}"
    );
    let ris = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "ris"}),
        ),
    );
    assert!(ris["citations"][0]["text"]
        .as_str()
        .unwrap()
        .contains("TY  -"));
}
