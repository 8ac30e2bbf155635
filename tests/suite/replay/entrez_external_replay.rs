//! entrez_external end to end through the dispatcher, against external-replay (a local
//! stand-in answering in the documented formats from hand-written fixtures), plus
//! scripted-transport tests of polling and throttling that need no network at all.
//!
//! Tests marked `#[ignore]` talk to the live services; NCBI is unreachable where this
//! project is tested. Run them from a machine with internet access with
//! `cargo test --test entrez_external_replay -- --ignored live_`.

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
    Server::new(config, Box::new(SystemPlatform))
        .unwrap()
        .with_network(Network {
            transport: Box::new(ReqwestTransport::new().unwrap()),
            pacer: Box::new(MemoryPacer::new()),
            cache: None,
        })
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

#[test]
fn compound_properties_by_name_with_both_smiles() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "aspirin"}),
        ),
    );
    let sc = &r["structuredContent"];
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(sc["count"], 1);
    let c = &sc["compounds"][0];
    assert_eq!(c["cid"], 2244);
    assert_eq!(c["molecular_formula"], "C9H8O4");
    assert_eq!(c["molecular_weight"], 180.16);
    assert_eq!(c["connectivity_smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(c["smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(c["inchikey"], "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
    assert_eq!(c["iupac_name"], "2-acetyloxybenzoic acid");
    assert_eq!(c["xlogp"], 1.2);
    assert_eq!(c["tpsa"], 63.6);
    assert_eq!(
        (
            c["hbond_donor_count"].as_u64(),
            c["hbond_acceptor_count"].as_u64()
        ),
        (Some(1), Some(4))
    );
    assert_eq!(sc["legacy_property_names"], false);
    assert_eq!(sc["throttling"]["worst"], "Green");
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("CID 2244 — Aspirin")
            && text.contains("InChIKey: BSYNRYMUTXBXSQ-UHFFFAOYSA-N"),
        "{text}"
    );
}

#[test]
fn picture_is_png_image_content_beside_the_record() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "caffeine", "data": "picture", "image_size": "large"}),
        ),
    );
    assert_eq!(r["isError"], false, "{r}");
    let sc = &r["structuredContent"];
    assert_eq!(sc["compounds"][0]["cid"], 2519);
    assert_eq!(sc["picture"]["cid"], 2519);
    assert_eq!(sc["picture"]["mime_type"], "image/png");
    let image = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .unwrap_or_else(|| panic!("no image block: {r}"));
    assert_eq!(image["mimeType"], "image/png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap())
        .unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(sc["picture"]["byte_length"], bytes.len());
    let paths: Vec<String> = log(&replay)
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    assert!(
        paths.contains(&"/rest/pug/compound/cid/2519/PNG".to_string()),
        "{paths:?}"
    );
    // A picture's record_type reaches the PNG (PUG REST's own example
    // compound/cid/2244/PNG?record_type=3d&image_size=small), not the property table.
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"identifier": 2244, "data": "picture", "image_size": "small", "options": {"record_type": "3d"}}),
        ),
    );
    assert_eq!(r["isError"], false, "{r}");
    let sent = log(&replay);
    assert!(
        sent.iter()
            .any(|l| l["path"] == "/rest/pug/compound/cid/2244/PNG"
                && l["query"] == "record_type=3d&image_size=small"),
        "{sent:?}"
    );
    assert!(
        !sent
            .iter()
            .any(|l| l["path"].as_str().unwrap().contains("/property/")
                && l["query"].as_str().unwrap_or("").contains("record_type")),
        "{sent:?}"
    );
    assert!(paths
        .iter()
        .all(|p| !(p.contains("/record/") && p.contains("PNG"))));
}

#[test]
fn structures_with_url_unsafe_characters_are_posted() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sc = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "smiles", "identifier": "C/C=C/C"}),
        ),
    );
    assert_eq!(sc["compounds"][0]["cid"], 62695);
    assert_eq!(sc["compounds"][0]["smiles"], "C/C=C/C");
    assert_eq!(sc["compounds"][0]["connectivity_smiles"], "CC=CC");
    let inchi = "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)";
    let sc = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "inchi", "identifier": inchi, "data": "cids"}),
        ),
    );
    assert_eq!(sc["cids"], json!([2244]));
    let sc = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "acetylsalicylic acid", "data": "cids"}),
        ),
    );
    assert_eq!(sc["cids"], json!([2244]));
    let posts: Vec<Value> = log(&replay)
        .into_iter()
        .filter(|l| l["method"] == "POST")
        .collect();
    assert_eq!(posts.len(), 3, "{posts:?}");
    assert_eq!(posts[0]["body"], "smiles=C%2FC%3DC%2FC");
    assert_eq!(posts[0]["path"], format!("/rest/pug/compound/smiles/property/{}/JSON",
        "Title,MolecularFormula,MolecularWeight,ConnectivitySMILES,SMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount"));
    assert!(posts[1]["body"]
        .as_str()
        .unwrap()
        .starts_with("inchi=InChI%3D1S%2F"));
    assert_eq!(posts[2]["body"], "name=acetylsalicylic%20acid");
}

#[test]
fn record_synonyms_description_cids_inchikey_and_formula() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let rec = ok(
        &s,
        pubchem(
            "compound",
            json!({"identifier": 2244, "data": "record", "detail": "full"}),
        ),
    );
    let c = &rec["compounds"][0];
    assert_eq!(c["cid"], 2244);
    assert_eq!(c["atom_count"], 13);
    assert_eq!(c["iupac_name"], "2-acetyloxybenzoic acid");
    assert_eq!(c["connectivity_smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(c["properties"]["Log P (XLogP3)"], 1.2);
    let syn = ok(
        &s,
        pubchem(
            "compound",
            json!({"identifier": [2244, 2519], "data": "synonyms"}),
        ),
    );
    assert_eq!(syn["count"], 2);
    assert_eq!(syn["synonyms"][0]["synonyms"][0], "aspirin");
    assert_eq!(syn["synonyms"][1]["cid"], 2519);
    let d = ok(
        &s,
        pubchem(
            "compound",
            json!({"identifier": 2244, "data": "description"}),
        ),
    );
    assert_eq!(d["descriptions"][0]["title"], "Aspirin");
    assert!(d["descriptions"][0]["descriptions"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("Aspirin is"));
    let k = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "inchikey", "identifier": "RYYVLZVUVIJVGH-UHFFFAOYSA-N"}),
        ),
    );
    assert_eq!(k["compounds"][0]["title"], "Caffeine");
    let f = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "formula", "identifier": "C9H8O4", "data": "cids"}),
        ),
    );
    assert_eq!(f["cids"], json!([2244]));
    assert_eq!(f["total"], 1);
}

#[test]
fn a_pubchem_that_only_knows_the_old_smiles_names_still_answers() {
    let replay = ExternalReplay::start();
    replay.control("POST", "/__replay/legacy_smiles", r#"{"on": true}"#);
    let s = server(&replay);
    let sc = ok(&s, pubchem("compound", json!({"identifier": 2244})));
    assert_eq!(sc["legacy_property_names"], true);
    assert_eq!(sc["compounds"][0]["smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(
        sc["compounds"][0]["connectivity_smiles"],
        "CC(=O)OC1=CC=CC=C1C(=O)O"
    );
    assert!(
        sc["warnings"][0]
            .as_str()
            .unwrap()
            .contains("CanonicalSMILES"),
        "{sc}"
    );
}

#[test]
fn substances_and_bioassays() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sub = ok(&s, pubchem("substance", json!({"identifier": 747285})));
    assert_eq!(sub["substances"][0]["sid"], 747285);
    assert_eq!(sub["substances"][0]["source_name"], "DTP/NCI");
    assert_eq!(
        sub["substances"][0]["compounds"][1],
        json!({"cid": 2244, "type": "standardized"})
    );
    let by_source = ok(
        &s,
        pubchem(
            "substance",
            json!({"namespace": "sourceid", "source": "DTP/NCI", "identifier": "747285", "data": "cids"}),
        ),
    );
    assert_eq!(by_source["cids"], json!([2244]));
    let syn = ok(
        &s,
        pubchem(
            "substance",
            json!({"namespace": "name", "identifier": "caffeine", "data": "synonyms"}),
        ),
    );
    assert_eq!(syn["synonyms"][0]["sid"], 4594);
    let summary = ok(&s, pubchem("bioassay", json!({"identifier": 1000})));
    let a = &summary["assays"][0];
    assert_eq!(a["aid"], 1000);
    assert_eq!(a["cid_count_active"], 7);
    assert_eq!(a["targets"][0]["name"], "Example enzyme");
    let desc = ok(
        &s,
        pubchem(
            "bioassay",
            json!({"namespace": "aid", "identifier": 1000, "data": "description"}),
        ),
    );
    assert_eq!(desc["assays"][0]["result_columns"][1]["name"], "IC50");
    let e = err(&s, pubchem("bioassay", json!({"identifier": 999})));
    assert_eq!(e["code"], "pubchem_not_found");
}

#[test]
fn structure_searches_fast_and_async() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sim = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "CC(=O)OC1=CC=CC=C1C(=O)O", "threshold": 95}),
        ),
    );
    assert_eq!(sim["cids"], json!([2244, 338, 5161]));
    assert_eq!(sim["threshold"], 95);
    assert_eq!(sim["mode"], "fast");
    assert_eq!(sim["polls"], 0);
    // Counted through a ListKey, then collected a page at a time: nothing cut without a word.
    assert_eq!(sim["total"], 3);
    assert_eq!(sim["truncated"], false);
    let searched: Vec<String> = log(&replay)
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string() + "?" + l["query"].as_str().unwrap_or(""))
        .collect();
    assert!(
        searched.iter().any(|p| p.contains("/cids/JSON?")
            && p.contains("list_return=listkey")
            && p.contains("Threshold=95")),
        "{searched:?}"
    );
    assert!(
        searched.iter().any(|p| p.contains("/compound/listkey/")
            && p.contains("listkey_start=0")
            && p.contains("listkey_count=1000")),
        "{searched:?}"
    );
    let sub = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async", "max_records": 5}),
        ),
    );
    assert_eq!(sub["count"], 5);
    // The replay keeps a new search "running" for the first poll, so it is collected on the second.
    assert_eq!(sub["polls"], 2);
    assert!(
        sub["listkey"].as_str().is_some_and(|k| !k.is_empty()),
        "{sub}"
    );
    assert!(sub["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("max_records")));
    let by_cid = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "identity", "namespace": "cid", "identifier": 2244}),
        ),
    );
    assert_eq!(by_cid["cids"], json!([2244]));
    let none = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "substructure", "identifier": "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"}),
        ),
    );
    assert_eq!(none["count"], 0);
    assert_eq!(none["warnings"][0], "No compound matched.");
    let listkey = sub["listkey"].as_str().unwrap();
    let later = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "listkey", "identifier": listkey, "data": "cids"}),
        ),
    );
    assert_eq!(later["count"], 5);
    let paths: Vec<String> = log(&replay)
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    assert!(paths
        .iter()
        .any(|p| p == &format!("/rest/pug/compound/listkey/{listkey}/cids/JSON")));
}

#[test]
fn faults_become_errors_with_pubchems_words_and_a_next_step() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let e = err(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "notachemical"}),
        ),
    );
    assert_eq!(e["code"], "pubchem_not_found");
    assert!(
        e["message"].as_str().unwrap().contains("No CID found"),
        "{e}"
    );
    assert_eq!(e["details"]["fault"]["code"], "PUGREST.NotFound");
    assert!(e["suggestions"][0].as_str().unwrap().contains("spelling"));
    // A ring that never closes only warns at validation (the sanity check is not a parser),
    // so PubChem's own refusal is what the caller sees.
    let e = err(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "C1CC"}),
        ),
    );
    assert_eq!(e["code"], "pubchem_bad_request");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("Unable to standardize"),
        "{e}"
    );
    let e = err(&s, pubchem("compound", json!({"identifier": 99999999})));
    assert_eq!(e["code"], "pubchem_not_found");
    // Arguments the schema refuses never reach PubChem.
    let before = replay.stats()["total"].as_u64().unwrap();
    let e = err(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "smiles", "identifier": ["C", "CC"]}),
        ),
    );
    assert_eq!(e["code"], "invalid_arguments");
    // So do structures the semantic check knows no reader accepts.
    let e = err(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "CC(C"}),
        ),
    );
    assert_eq!(e["code"], "invalid_structure");
    assert_eq!(replay.stats()["total"].as_u64().unwrap(), before);
}

#[test]
fn a_503_with_black_throttling_is_backed_off_and_retried() {
    let replay = ExternalReplay::start();
    replay.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "pubchem", "status": 503, "count": 1, "level": "Black"}"#,
    );
    let s = server(&replay);
    let started = std::time::Instant::now();
    let sc = ok(&s, pubchem("compound", json!({"identifier": 2244})));
    assert!(
        started.elapsed().as_millis() >= 2_000,
        "Black waits at least 2 s"
    );
    assert_eq!(sc["compounds"][0]["cid"], 2244);
    assert_eq!(sc["throttling"]["worst"], "Black");
    let warnings = sc["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("retried after HTTP 503")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("Request Count status: Black")),
        "{warnings:?}"
    );
    assert_eq!(replay.stats()["requests"]["pubchem"], 2);
}

#[test]
fn persistent_throttling_becomes_a_clear_rate_limited_error() {
    let replay = ExternalReplay::start();
    replay.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "pubchem", "status": 503, "count": 10, "level": "Black"}"#,
    );
    let s = server(&replay);
    let e = err(&s, pubchem("compound", json!({"identifier": 2244})));
    assert_eq!(e["code"], "pubchem_throttled");
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("HTTP 503 after 3 attempt(s)")
            && m.contains("Too many requests or server too busy"),
        "{m}"
    );
    assert!(m.contains("Request Count status: Black"), "{m}");
    assert_eq!(
        e["details"]["throttling"]["request_count"]["level"],
        "Black"
    );
    assert!(e["suggestions"][0]
        .as_str()
        .unwrap()
        .contains("Wait about a minute"));
}

#[test]
fn a_yellow_status_slows_pacing_and_says_so() {
    let replay = ExternalReplay::start();
    replay.control("POST", "/__replay/throttle", r#"{"level": "Yellow"}"#);
    let s = server(&replay);
    let sc = ok(
        &s,
        pubchem("compound", json!({"identifier": 2244, "data": "picture"})),
    );
    assert_eq!(sc["throttling"]["worst"], "Yellow");
    assert!(
        sc["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("2 extra pacing slot(s)")),
        "{sc}"
    );
}

#[test]
fn twenty_concurrent_pubchem_calls_stay_under_five_per_second() {
    let replay = ExternalReplay::start();
    let s = Arc::new(server(&replay));
    let results: Vec<Value> = block_on(async {
        let mut tasks = Vec::new();
        for i in 0..20 {
            let s = Arc::clone(&s);
            tasks.push(tokio::spawn(async move {
                let cid = [2244, 2519, 62695][i % 3];
                let msg = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                    "params": {"name": "entrez_external", "arguments": {"service": "pubchem", "operation": "compound", "identifier": cid}}});
                s.handle_bytes(msg.to_string().as_bytes(), &Default::default()).await.unwrap()
            }));
        }
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    for r in &results {
        assert_eq!(r["result"]["isError"], false, "{r}");
    }
    let stats = replay.stats();
    assert_eq!(stats["throttled"], 0, "{stats}");
    assert_eq!(stats["requests"]["pubchem"], 20);
    assert!(
        stats["max_in_any_1s_window"]["pubchem"].as_u64().unwrap() <= 5,
        "{stats}"
    );
}

#[test]
fn fields_keep_what_each_result_requires_and_detail_is_named_where_it_does_nothing() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sc = ok(
        &s,
        pmc(
            "id_convert",
            json!({"ids": ["23193287"], "fields": ["doi"], "detail": "brief"}),
        ),
    );
    let record = sc["records"][0].as_object().unwrap();
    let keys: Vec<&String> = record.keys().collect();
    assert_eq!(keys, ["doi", "requested_id", "status"]);
    let ignored: Vec<&Value> = sc["call_warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "ignored_parameter")
        .collect();
    assert_eq!(ignored.len(), 1, "{sc}");
    assert_eq!(ignored[0]["path"], "$.detail");
    let bioc = ok(
        &s,
        pmc(
            "bioc",
            json!({"ids": ["PMC3531190"], "fields": ["passages"]}),
        ),
    );
    assert_eq!(bioc["articles"][0]["ok"], true);
    assert_eq!(bioc["articles"][0]["id"], "PMC3531190");
}

#[test]
fn id_converter_reports_each_id() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sc = ok(&s, pmc("id_convert", json!({"ids": ["23193287", "1"]})));
    assert_eq!(sc["idtype"], "pmid");
    assert_eq!(
        (sc["count"].as_u64(), sc["converted"].as_u64()),
        (Some(2), Some(1))
    );
    let good = &sc["records"][0];
    assert_eq!(good["pmcid"], "PMC3531190");
    assert_eq!(good["pmid"], "23193287");
    assert_eq!(good["doi"], "10.1093/nar/gks1195");
    assert_eq!(
        good["versions"][0],
        json!({"pmcid": "PMC3531190.1", "mid": null, "current": true})
    );
    let bad = &sc["records"][1];
    assert_eq!(bad["status"], "error");
    assert_eq!(bad["error"], "Identifier not found in PMC");
    assert_eq!(sc["warnings"][0], "1: Identifier not found in PMC");
    let doi = ok(
        &s,
        pmc("id_convert", json!({"ids": ["10.1093/nar/gks1195"]})),
    );
    assert_eq!(doi["records"][0]["pmcid"], "PMC3531190");
    let e = err(&s, pmc("id_convert", json!({"ids": ["PMC1", "PMC2"]})));
    assert_eq!(e["code"], "pmc_id_not_found");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("PMC1: Identifier not found in PMC"));
    let e = err(
        &s,
        pmc("id_convert", json!({"ids": ["PMC3531190", "23193287"]})),
    );
    assert_eq!(e["code"], "mixed_id_types");
    let stats = replay.stats();
    assert_eq!(stats["missing_tool"], 0);
    assert!(log(&replay)
        .iter()
        .all(|l| l["query"].as_str().unwrap().contains("format=json")));
}

/// The stand-in bucket's metadata table (tests/fixtures/external/pmc/cloud/articles.json),
/// read by the test itself: the expected values come from the fixture, not the server.
fn cloud_versions(pmcid: &str) -> Vec<Value> {
    let table: Value = serde_json::from_str(include_str!(
        "../../fixtures/external/pmc/cloud/articles.json"
    ))
    .unwrap();
    table["versions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["pmcid"] == pmcid)
        .cloned()
        .collect()
}

#[test]
fn oa_service_answers_from_the_cloud_service_and_explains_absent_articles() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let versions = cloud_versions("PMC3531190");
    let newest = versions.last().unwrap();
    let sc = ok(&s, pmc("oa_service", json!({"ids": ["PMC3531190"]})));
    assert_eq!(sc["source"], "pmc_cloud");
    let r = &sc["records"][0];
    assert_eq!(r["open_access"], newest["is_pmc_openaccess"]);
    assert_eq!(r["license"], newest["license_code"]);
    assert_eq!(r["retracted"], newest["is_retracted"]);
    assert_eq!(r["citation"], newest["citation"]);
    assert_eq!(r["version"], newest["version"]);
    let listed: Vec<Value> = versions.iter().map(|v| v["version"].clone()).collect();
    assert_eq!(r["versions"], json!(listed));
    // The metadata's s3:// URL, as a public HTTPS link to the same key.
    let xml = newest["xml_url"].as_str().unwrap();
    let key = xml.strip_prefix("s3://pmc-oa-opendata/").unwrap();
    assert_eq!(r["links"][0]["format"], "xml");
    assert_eq!(
        r["links"][0]["href"],
        format!("https://pmc-oa-opendata.s3.amazonaws.com/{key}")
    );
    // A metadata URL outside the bucket (or climbing out of it) is not followed: the
    // folder's own key is linked instead, and the retraction flag is the metadata's.
    let odd = &cloud_versions("PMC5334499")[0];
    assert!(!odd["xml_url"].as_str().unwrap().contains("pmc-oa-opendata"));
    let sc = ok(&s, pmc("oa_service", json!({"ids": ["5334499"]})));
    let r = &sc["records"][0];
    assert_eq!(r["retracted"], odd["is_retracted"]);
    for l in r["links"].as_array().unwrap() {
        assert!(l["href"]
            .as_str()
            .unwrap()
            .starts_with("https://pmc-oa-opendata.s3.amazonaws.com/PMC5334499.1/"));
    }
    // The requests: one listing by prefix and delimiter, one metadata file; nothing elsewhere.
    let log = log(&replay);
    let cloud: Vec<&Value> = log.iter().filter(|l| l["service"] == "cloud").collect();
    assert!(cloud.iter().any(|l| l["query"]
        .as_str()
        .unwrap()
        .contains("list-type=2&prefix=PMC5334499.&delimiter=%2F")));
    assert!(log
        .iter()
        .all(|l| !l["path"].as_str().unwrap().contains("elsewhere")));
    // An article the bucket has no folder for.
    assert!(cloud_versions("PMC9999991").is_empty());
    let mixed = ok(
        &s,
        pmc("oa_service", json!({"ids": ["PMC3531190", "PMC9999991"]})),
    );
    assert_eq!(mixed["records"][1]["error"]["code"], "notInCloud");
    let e = err(&s, pmc("oa_service", json!({"ids": ["PMC9999991"]})));
    assert_eq!(e["code"], "pmc_not_open_access");
    assert!(e["message"].as_str().unwrap().contains("Cloud Service"));
}

#[test]
fn the_retired_oa_service_says_what_happened_and_what_to_use() {
    let replay = ExternalReplay::start();
    let a = replay.addr.clone();
    // The retired service answers 404 (the stand-in's unknown path stands for it).
    let config = Config::from_lookup(move |k| {
        (k == "PMC_OA_URL").then(|| format!("http://{a}/pmc/utils/oa/retired.fcgi"))
    });
    let s = Server::new(config, Box::new(SystemPlatform))
        .unwrap()
        .with_network(Network {
            transport: Box::new(ReqwestTransport::new().unwrap()),
            pacer: Box::new(MemoryPacer::new()),
            cache: None,
        });
    let e = err(&s, pmc("oa_service", json!({"from": "2026-09-01"})));
    assert_eq!(e["code"], "pmc_oa_retired");
    assert!(e["message"].as_str().unwrap().contains("August 2026"));
    assert!(e["suggestions"][0].as_str().unwrap().contains("ids"));
}

#[test]
fn citation_export_in_every_format() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let ris = call(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "ris"}),
        ),
    );
    let text = ris["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("TY  - JOUR") && text.contains("ER  -"),
        "{text}"
    );
    assert_eq!(ris["structuredContent"]["database"], "pubmed");
    let nbib = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "nbib"}),
        ),
    );
    assert!(nbib["citations"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("PMID- 23193287"));
    let csl = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "csl"}),
        ),
    );
    assert_eq!(csl["citations"][0]["csl"][0]["DOI"], "10.1093/nar/gks1195");
    let cit = ok(&s, pmc("citation_export", json!({"ids": ["PMC3531190"]})));
    assert_eq!(cit["database"], "pmc");
    assert_eq!(cit["format"], "citation");
    assert!(cit["citations"][0]["styles"]["apa"]
        .as_str()
        .unwrap()
        .contains("(2013)"));
    let bib = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287", "99999999"], "format": "bibtex"}),
        ),
    );
    assert_eq!(bib["exported"], 1);
    let entry = bib["citations"][0]["text"].as_str().unwrap();
    assert!(
        entry.starts_with("@article{ref23193287,") && entry.contains("doi = {10.1093/nar/gks1195}"),
        "{entry}"
    );
    assert!(bib["warnings"][0]
        .as_str()
        .unwrap()
        .starts_with("99999999: not found"));
    let e = err(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["99999999"], "database": "pubmed"}),
        ),
    );
    assert_eq!(e["code"], "pmc_citation_not_found");
    // Every exporter request named its format and id the documented way.
    for l in log(&replay) {
        let q = l["query"].as_str().unwrap();
        assert!(q.starts_with("format=") && q.contains("&id="), "{q}");
    }
}

#[test]
fn pmc_429s_are_retried() {
    let replay = ExternalReplay::start();
    replay.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "idconv", "status": 429, "count": 1}"#,
    );
    let s = server(&replay);
    let sc = ok(&s, pmc("id_convert", json!({"ids": ["23193287"]})));
    assert_eq!(sc["converted"], 1);
    assert!(
        sc["warnings"][0]
            .as_str()
            .unwrap()
            .contains("retried after HTTP 429"),
        "{sc}"
    );
}

#[test]
fn an_async_search_still_running_after_the_deadline_hands_back_its_listkey() {
    use scripted::*;
    let clock = Arc::new(Clock::default());
    let script = Arc::new(Script {
        clock: clock.clone(),
        reply: Box::new(|_| {
            json_reply(
                202,
                None,
                json!({"Waiting": {"ListKey": "42", "Message": "Your request is running"}}),
            )
        }),
        sent: Default::default(),
    });
    let pacer = Arc::new(CountingPacer::default());
    let s = scripted::server(script.clone(), pacer.clone());
    let e = err(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async"}),
        ),
    );
    assert_eq!(e["code"], "pubchem_search_pending");
    assert_eq!(e["details"]["listkey"], "42");
    assert!(e["suggestions"][0]
        .as_str()
        .unwrap()
        .contains("namespace listkey, identifier \"42\""));
    let sent = script.sent.lock().unwrap().clone();
    assert!(sent.len() > 10, "polled until the deadline: {sent:?}");
    assert!(sent[1..]
        .iter()
        .all(|u| u.ends_with("/compound/listkey/42/cids/JSON")));
    // Polls grow from 1 s to at most 4 s apart and stop inside 60 s.
    let waited = entrez_mcp_core::platform::Platform::now_unix_ms(&clock);
    assert!(waited <= 60_000, "{waited}");
    assert!(pacer.0.lock().unwrap().iter().all(|b| b == "pubchem"));
}

#[test]
fn throttling_levels_reserve_extra_slots_in_the_shared_pubchem_bucket() {
    use scripted::*;
    for (level, extra) in [("Green", 0), ("Yellow", 1), ("Red", 3)] {
        let clock = Arc::new(Clock::default());
        let header = format!("Request Count status: {level} (60%), Request Time status: Green (0%), Service status: Green (10%)");
        let script = Arc::new(Script {
            clock,
            reply: Box::new(move |_| {
                json_reply(
                    200,
                    Some(&header),
                    json!({"IdentifierList": {"CID": [2244]}}),
                )
            }),
            sent: Default::default(),
        });
        let pacer = Arc::new(CountingPacer::default());
        let s = scripted::server(script, pacer.clone());
        let sc = ok(
            &s,
            pubchem("compound", json!({"identifier": 2244, "data": "cids"})),
        );
        assert_eq!(pacer.0.lock().unwrap().len(), 1 + extra, "{level}");
        assert_eq!(sc["throttling"]["worst"], level);
    }
}

#[test]
fn pmc_services_pace_in_their_own_bucket() {
    use scripted::*;
    let clock = Arc::new(Clock::default());
    let script = Arc::new(Script {
        clock,
        reply: Box::new(|_| {
            json_reply(
                200,
                None,
                json!({"status": "ok", "records": [{"requested-id": "1", "pmcid": "PMC1", "pmid": "1"}]}),
            )
        }),
        sent: Default::default(),
    });
    let pacer = Arc::new(CountingPacer::default());
    let s = scripted::server(script, pacer.clone());
    ok(&s, pmc("id_convert", json!({"ids": ["1"]})));
    assert_eq!(*pacer.0.lock().unwrap(), vec!["pmc".to_string()]);
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

#[test]
fn pug_rest_answers_in_the_format_asked_for_and_faults_in_it_too() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let json_table = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "cid", "identifier": [2244, 2519], "data": "property/MolecularFormula,XLogP", "output": "JSON"}),
        ),
    );
    assert_eq!(
        json_table["data"]["PropertyTable"]["Properties"][0]["CID"],
        2244
    );
    assert_eq!(json_table["method"], "GET");
    let csv = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"path": "compound/cid/2244,2519/property/MolecularFormula,XLogP/CSV"}),
        ),
    );
    let text = csv["text"].as_str().unwrap();
    assert!(
        text.starts_with("\"CID\",\"MolecularFormula\",\"XLogP\""),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3, "{text}");
    assert_eq!(csv["request"]["data"], "property/MolecularFormula,XLogP");
    let txt = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "name", "identifier": "aspirin", "data": "cids", "output": "TXT"}),
        ),
    );
    assert_eq!(txt["text"], "2244\n");
    let png = call(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "cid", "identifier": 2244, "output": "PNG", "options": {"image_size": "small"}}),
        ),
    );
    assert_eq!(png["isError"], false, "{png}");
    assert!(png["content"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["type"] == "image"));
    assert!(log(&replay).iter().any(
        |l| l["path"] == "/rest/pug/compound/cid/2244/PNG" && l["query"] == "image_size=small"
    ));
    // options beside a path go out with it, in its query string.
    let by_path = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"path": "compound/cid/2244/PNG", "options": {"record_type": "3d", "image_size": "small"}}),
        ),
    );
    assert_eq!(
        by_path["request"]["options"],
        json!({"record_type": "3d", "image_size": "small"})
    );
    assert!(log(&replay).iter().any(|l| {
        let mut query: Vec<&str> = l["query"].as_str().unwrap_or("").split('&').collect();
        query.sort_unstable();
        l["path"] == "/rest/pug/compound/cid/2244/PNG"
            && query == ["image_size=small", "record_type=3d"]
    }));
    // An XML request meets an XML fault, read into PubChem's own words.
    let missing = err(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "name", "identifier": "notachemicalname", "data": "cids", "output": "XML"}),
        ),
    );
    assert_eq!(missing["code"], "pubchem_not_found", "{missing}");
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("No CID found"),
        "{missing}"
    );
    // An asynchronous search is polled and collected in the output asked for.
    let pending = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "substructure/smiles", "identifier": "C1=CC=CC=C1", "data": "cids", "output": "XML"}),
        ),
    );
    assert!(pending["polls"].as_u64().unwrap() >= 1, "{pending}");
    assert!(
        pending["text"].as_str().unwrap().contains("<CID>"),
        "{pending}"
    );
    let listkey = pending["listkey"].as_str().unwrap();
    assert!(log(&replay)
        .iter()
        .any(|l| l["path"] == format!("/rest/pug/compound/listkey/{listkey}/cids/XML")));
}

#[test]
fn pmc_listings_formats_and_full_text() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    // The OA service's identification, then a date listing paged by its resumption token.
    let ident = ok(&s, pmc("oa_service", json!({})));
    assert_eq!(ident["identification"]["formats"], json!(["tgz", "pdf"]));
    let first = call(
        &s,
        pmc(
            "oa_service",
            json!({"from": "2013-01-01", "until": "2017-12-31"}),
        ),
    );
    assert_eq!(first["isError"], false, "{first}");
    let sc = &first["structuredContent"];
    assert_eq!(sc["count"], 1);
    assert_eq!(sc["total"], 2);
    let token = sc["resumption_token"].as_str().unwrap().to_string();
    assert!(
        sc["call_warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "results_capped"),
        "{sc}"
    );
    assert!(log(&replay).iter().any(|l| l["query"]
        .as_str()
        .unwrap_or("")
        .contains("from=2013-01-01&until=2017-12-31")));
    let second = ok(&s, pmc("oa_service", json!({"resumption_token": token})));
    assert_eq!(second["count"], 1);
    assert!(second.get("resumption_token").is_none(), "{second}");
    assert_ne!(second["records"][0]["id"], sc["records"][0]["id"]);
    // The ID Converter's own XML, as the service writes it.
    let xml = ok(
        &s,
        pmc(
            "id_convert",
            json!({"ids": ["PMC3531190"], "idtype": "pmcid", "format": "xml", "versions": false}),
        ),
    );
    assert!(
        xml["text"].as_str().unwrap().contains("pmid=\"23193287\""),
        "{xml}"
    );
    assert!(log(&replay).iter().any(|l| l["query"]
        .as_str()
        .unwrap_or("")
        .contains("versions=no&format=xml")));
    // BioC: passages by section, XML as text, and an article outside the OA subset named.
    let bioc = ok(
        &s,
        pmc("bioc", json!({"ids": ["PMC3531190", "PMC9999991"]})),
    );
    assert_eq!(bioc["found"], 1);
    let passages = bioc["articles"][0]["passages"].as_array().unwrap();
    assert_eq!(passages[1]["section"], "ABSTRACT");
    assert!(bioc["warnings"][0].as_str().unwrap().contains("PMC9999991"));
    assert!(log(&replay)
        .iter()
        .any(|l| l["path"] == "/research/bionlp/RESTful/pmcoa.cgi/BioC_json/PMC3531190/unicode"));
    let as_xml = ok(
        &s,
        pmc(
            "bioc",
            json!({"ids": ["23193287"], "format": "xml", "encoding": "ascii"}),
        ),
    );
    assert!(as_xml["articles"][0]["xml"]
        .as_str()
        .unwrap()
        .contains("<collection>"));
    let none = err(&s, pmc("bioc", json!({"ids": ["PMC9999991"]})));
    assert_eq!(none["code"], "pmc_bioc_not_found");
}
