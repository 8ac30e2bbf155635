//! Request construction for every entrez_external operation: exact method, URL and body,
//! plus the inputSchema rules that tie operations to services. Pure: no network. PubChem's
//! requests are in `pubchem.rs`, PMC's in `pmc.rs`.

mod pmc;
mod pubchem;

use entrez_mcp_core::config::Config;
use entrez_mcp_core::framework::Registry;
use entrez_mcp_core::net::{HttpCall, Method};
use entrez_mcp_core::tools::entrez_external::args::ExternalArgs;
use entrez_mcp_core::tools::entrez_external::call::ExternalCall;
use serde_json::{json, Value};

fn config() -> Config {
    Config::from_lookup(|k| (k == "NCBI_EMAIL").then(|| "dev@example.org".to_string()))
}

fn get(call: &HttpCall) -> &str {
    assert_eq!(call.method, Method::Get, "{call:?}");
    assert!(call.body.is_none());
    &call.url
}

fn post(call: &HttpCall) -> (&str, String) {
    assert_eq!(call.method, Method::Post, "{call:?}");
    assert!(call
        .headers
        .iter()
        .any(|(k, v)| k == "Content-Type" && v == "application/x-www-form-urlencoded"));
    (
        &call.url,
        String::from_utf8(call.body.clone().unwrap()).unwrap(),
    )
}

/// `args` with `operation` set when the test leaves it out.
fn read(args: &Value, operation: &str) -> ExternalCall {
    let mut args = args.clone();
    args.as_object_mut()
        .unwrap()
        .entry("operation")
        .or_insert(json!(operation));
    ExternalCall::of(&ExternalArgs::read(&args)).expect("an operation")
}

fn findings(args: Value) -> Vec<String> {
    let registry = Registry::builtin(entrez_mcp_core::tools::CATALOG).unwrap();
    let tool = registry.get("entrez_external").unwrap();
    registry
        .findings(tool, &args)
        .errors
        .iter()
        .map(|e| format!("{} {}", e["path"], e["message"]))
        .collect()
}

#[test]
fn the_input_schema_ties_operations_to_services_and_parameters() {
    let ok = [
        json!({"service": "pubchem", "operation": "compound", "namespace": "name", "identifier": "aspirin"}),
        json!({"service": "pubchem", "operation": "compound", "identifier": [1, 2, 3], "data": "cids"}),
        json!({"service": "pmc", "operation": "citation_export", "ids": ["23193287"], "format": "bibtex"}),
    ];
    for args in ok {
        assert!(
            findings(args.clone()).is_empty(),
            "{args}: {:?}",
            findings(args.clone())
        );
    }
    let bad = [
        json!({"service": "pubchem", "operation": "id_convert", "ids": ["1"]}),
        json!({"service": "pmc", "operation": "compound", "identifier": 1}),
        json!({"operation": "compound", "identifier": 1}),
        json!({"service": "pubchem", "operation": "compound"}),
        json!({"service": "pubchem", "operation": "compound", "namespace": "smiles", "identifier": ["C", "CC"]}),
        json!({"service": "pubchem", "operation": "compound", "namespace": "sid", "identifier": 1}),
        json!({"service": "pubchem", "operation": "substance", "namespace": "sourceid", "identifier": "1"}),
        json!({"service": "pubchem", "operation": "bioassay", "identifier": 1000, "data": "picture"}),
        json!({"service": "pubchem", "operation": "structure_search", "identifier": "C"}),
        json!({"service": "pubchem", "operation": "structure_search", "search_type": "substructure", "identifier": "C", "threshold": 90}),
        json!({"service": "pubchem", "operation": "compound", "identifier": 1, "image_size": "large"}),
        json!({"service": "pmc", "operation": "id_convert", "ids": ["1"], "namespace": "cid"}),
        json!({"service": "pmc", "operation": "oa_service", "ids": (0..21).map(|i| format!("PMC{i}")).collect::<Vec<_>>()}),
        json!({"service": "pmc", "operation": "id_convert"}),
        json!({"service": "pmc", "operation": "citation_export", "ids": ["1"], "format": "docx"}),
    ];
    for args in bad {
        assert!(
            !findings(args.clone()).is_empty(),
            "{args} should be refused"
        );
    }
}
