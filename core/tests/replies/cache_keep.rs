//! The cache's judgement of recorded answers (`net::cache::keep`): every whole NCBI reply
//! may be kept, and the recorded errors and the truncated einfo may not.

use crate::common::fixtures;
use entrez_mcp_core::net::cache::keep::storable;
use entrez_mcp_core::net::HttpReply;
use std::path::Path;

fn reply(path: &Path, content_type: &str) -> HttpReply {
    HttpReply {
        status: 200,
        headers: vec![("content-type".into(), content_type.into())],
        body: std::fs::read(path).unwrap(),
    }
}

#[test]
fn every_recorded_answer_is_kept_and_every_recorded_error_is_not() {
    let dir = fixtures::path("ncbi/eutils");
    // Errors NCBI sent in a 200 (an <ERROR> with its message, an ErrorList), NCBI's own
    // truncated einfo, and an HTML page where XML was asked for.
    let refused = [
        "einfo4.xml",
        "epost2.xml",
        "epost3.xml",
        "esearch8.xml",
        "esummary8.xml",
        "pubmed3.html",
    ];
    let mut kept = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let kind = if name.ends_with(".html") {
            "text/html"
        } else {
            "text/xml"
        };
        let want = !refused.contains(&name.as_str());
        assert_eq!(storable(&reply(&path, kind)), want, "{name}");
        kept += usize::from(want);
    }
    assert!(kept >= 35, "{kept} recorded answers kept");
    let json = fixtures::path("ncbi/json");
    for name in ["elink_gene_nuccore.json", "esearch_gene_history.json"] {
        assert!(
            storable(&reply(&json.join(name), "application/json")),
            "{name}"
        );
    }
    let pubchem = fixtures::path("external/pubchem");
    assert!(storable(&reply(
        &pubchem.join("compound_2244_record.json"),
        "application/json"
    )));
    // A whole PubChem Fault, as PUG REST sends one, is an error however whole.
    let faults: serde_json::Value =
        serde_json::from_slice(&std::fs::read(pubchem.join("faults.json")).unwrap()).unwrap();
    let body = serde_json::json!({ "Fault": faults["PUGREST.NotFound"]["Fault"] });
    let fault = HttpReply {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: body.to_string().into_bytes(),
    };
    assert!(
        !storable(&fault),
        "{}",
        String::from_utf8_lossy(&fault.body)
    );
}
