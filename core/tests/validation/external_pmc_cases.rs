//! Corpus cases for `entrez_external` service pmc, and checks of what the findings say.
//!
//! The PMC services fail quietly on the wrong kind of id, so the cases walk
//! each operation with every id type (PMC3531190 is PMID 23193287 and DOI
//! 10.1093/nar/gks1195). The tests below the cases read the messages,
//! suggestions and normalised arguments of both services, not just codes.

use super::counted_server;
use super::external_cases::{compound, pc, pm, search, with, ASPIRIN_KEY, ASPIRIN_SMILES, T};
use super::{bad, bad_warned, ok, warned, Case};
use crate::common::call_tool;
use serde_json::{json, Value};

fn valid_pmc() -> Vec<Case> {
    vec![
        warned(
            T,
            pm("id_convert", json!({"ids": ["PMC3531190"]})),
            &[("default_chosen", "$.idtype")],
        ),
        ok(
            T,
            pm("id_convert", json!({"ids": ["23193287"], "idtype": "pmid"})),
        ),
        warned(
            T,
            pm("id_convert", json!({"ids": [23193287]})),
            &[("default_chosen", "$.idtype")],
        ),
        ok(
            T,
            pm(
                "id_convert",
                json!({"ids": ["10.1093/nar/gks1195"], "idtype": "doi"}),
            ),
        ),
        ok(
            T,
            pm(
                "id_convert",
                json!({"ids": ["NIHMS311352"], "idtype": "mid"}),
            ),
        ),
        ok(
            T,
            pm("id_convert", json!({"ids": ["3531190"], "idtype": "pmcid"})),
        ),
        warned(
            T,
            pm("id_convert", json!({"ids": ["PMC3531190", "PMC5334499"]})),
            &[("default_chosen", "$.idtype")],
        ),
        ok(T, pm("oa_service", json!({"ids": ["PMC3531190"]}))),
        // full_text takes PMIDs, PMCIDs and DOIs in one call, and sections by heading.
        ok(
            T,
            pm(
                "full_text",
                json!({"ids": ["23193287", "PMC3531190", "10.1093/nar/gks1195"], "sections": ["methods"]}),
            ),
        ),
        ok(
            T,
            pm("oa_service", json!({"ids": ["pmc5334499", "PMC3531190"]})),
        ),
        ok(
            T,
            pm(
                "citation_export",
                json!({"ids": ["23193287"], "database": "pubmed", "format": "ris"}),
            ),
        ),
        ok(T, pm("citation_export", json!({"ids": ["PMC3531190"]}))),
        ok(
            T,
            pm(
                "citation_export",
                json!({"ids": ["3531190"], "database": "pmc", "format": "csl"}),
            ),
        ),
        ok(
            T,
            pm(
                "citation_export",
                json!({"ids": ["23193287", "25428349"], "format": "bibtex"}),
            ),
        ),
    ]
}

fn warned_pmc() -> Vec<Case> {
    vec![
        warned(
            T,
            pm("oa_service", json!({"ids": ["5334499"]})),
            &[("ambiguous_id", "$.ids[0]")],
        ),
        warned(
            T,
            pm("id_convert", json!({"ids": ["PMC3531190", "pmc3531190"]})),
            &[("default_chosen", "$.idtype"), ("duplicate_id", "$.ids[1]")],
        ),
    ]
}

fn bad_pmc_ids() -> Vec<Case> {
    let many: Vec<String> = (0..201).map(|n| (23193287 + n).to_string()).collect();
    vec![
        bad(
            T,
            pm("id_convert", json!({"ids": ["PMC3531190", "23193287"]})),
            &[("mixed_id_types", "$.ids")],
        ),
        bad(
            T,
            pm(
                "id_convert",
                json!({"ids": ["PMC3531190"], "idtype": "pmid"}),
            ),
            &[("idtype_mismatch", "$.ids[0]")],
        ),
        bad(
            T,
            pm(
                "id_convert",
                json!({"ids": ["23193287", "10.1093/nar/gks1195"], "idtype": "pmid"}),
            ),
            &[("idtype_mismatch", "$.ids[1]")],
        ),
        bad(
            T,
            pm(
                "id_convert",
                json!({"ids": ["https://doi.org/10.1093/nar/gks1195"], "idtype": "doi"}),
            ),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            T,
            pm("id_convert", json!({"ids": ["abc"]})),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            T,
            pm("id_convert", json!({"ids": [" "]})),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad_warned(
            T,
            pm("id_convert", json!({"ids": many})),
            &[("schema_max_items", "$.ids"), ("too_many_ids", "$.ids")],
            &[("default_chosen", "$.idtype")],
        ),
        bad(
            T,
            pm("oa_service", json!({"ids": ["10.1093/nar/gks1195"]})),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            T,
            pm("full_text", json!({"ids": ["23193287", "NIHMS311352"]})),
            &[("invalid_id", "$.ids[1]")],
        ),
        bad(
            T,
            pm("full_text", json!({"ids": many[..21].to_vec()})),
            &[("schema_max_items", "$.ids"), ("too_many_ids", "$.ids")],
        ),
        warned(
            T,
            pm(
                "bioc",
                json!({"ids": ["PMC3531190"], "sections": ["methods"]}),
            ),
            &[("ignored_parameter", "$.sections")],
        ),
        bad(
            T,
            pm("oa_service", json!({"ids": ["PMC3531190.1"]})),
            &[("invalid_id", "$.ids[0]")],
        ),
        bad(
            T,
            pm(
                "citation_export",
                json!({"ids": ["PMC3531190"], "database": "pubmed"}),
            ),
            &[("idtype_mismatch", "$.ids[0]")],
        ),
        bad(
            T,
            pm(
                "citation_export",
                json!({"ids": ["23193287", "PMC3531190"]}),
            ),
            &[("mixed_id_types", "$.ids")],
        ),
        bad(
            T,
            pm("citation_export", json!({"ids": ["10.1093/nar/gks1195"]})),
            &[("invalid_id", "$.ids[0]")],
        ),
    ]
}

/// Every entrez_external case for service pmc.
pub(super) fn cases() -> Vec<Case> {
    let mut all = valid_pmc();
    all.extend(warned_pmc());
    all.extend(bad_pmc_ids());
    all
}

/// The first error's message and every suggestion of one validate call.
fn said(args: Value) -> (String, String) {
    let (s, _) = counted_server();
    let v = call_tool(&s, "validate", json!({"tool": T, "arguments": args}));
    let sc = &v["structuredContent"];
    let first = sc["details"]["errors"]
        .as_array()
        .and_then(|e| {
            e.iter()
                .find(|f| !f["code"].as_str().unwrap_or("").starts_with("schema_"))
        })
        .map(|f| f["message"].as_str().unwrap_or("").to_string())
        .unwrap_or_default();
    (first, sc["suggestions"].to_string())
}

#[test]
fn external_messages_name_the_right_service_namespace_and_split() {
    let (m, s) =
        said(json!({"service": "pubchem", "operation": "id_convert", "ids": ["PMC3531190"]}));
    assert_eq!(
        m,
        "operation id_convert belongs to service pmc, not pubchem."
    );
    assert!(s.contains("Set service to \\\"pmc\\\""), "{s}");
    let (m, s) = said(compound("name", json!(ASPIRIN_KEY)));
    assert!(
        m.contains("an InChIKey") && m.contains("use namespace inchikey"),
        "{m}"
    );
    assert!(s.contains("Set namespace to \\\"inchikey\\\""), "{s}");
    let (m, _) = said(compound("inchikey", json!("2244")));
    assert!(m.contains("use namespace cid"), "{m}");
    let (m, s) = said(search("similarity", "smiles", json!(ASPIRIN_KEY)));
    assert!(m.contains("operation compound, namespace inchikey"), "{m}");
    assert!(s.contains("then search with namespace cid"), "{s}");
    let (m, s) = said(pm("id_convert", json!({"ids": ["PMC3531190", "23193287"]})));
    assert!(
        m.contains("1 pmcid id(s) (e.g. PMC3531190) and 1 pmid id(s)"),
        "{m}"
    );
    assert!(s.contains("\\\"idtype\\\": \\\"pmid\\\""), "{s}");
    let (m, s) = said(pm(
        "id_convert",
        json!({"ids": ["PMC3531190"], "idtype": "pmid"}),
    ));
    assert!(m.contains("is a PMCID, but idtype is pmid"), "{m}");
    assert!(s.contains("Set idtype to \\\"pmcid\\\""), "{s}");
    let (_, s) = said(with(
        search("similarity", "smiles", json!(ASPIRIN_SMILES)),
        json!({"threshold": 0.95}),
    ));
    assert!(s.contains("write 95"), "{s}");
    let (m, _) = said(compound("smiles", json!("CC(C")));
    assert!(m.contains("unclosed"), "{m}");
}

#[test]
fn external_arguments_are_normalized_as_the_tool_reads_them() {
    let (s, _) = counted_server();
    let norm = |args: Value| {
        let v = call_tool(&s, "validate", json!({"tool": T, "arguments": args}));
        v["structuredContent"]["normalized_arguments"].clone()
    };
    assert_eq!(
        norm(pc("compound", json!({"identifier": "2244, 2519"}))),
        json!({"service": "pubchem", "operation": "compound", "namespace": "cid", "identifier": ["2244", "2519"], "data": "properties"})
    );
    assert_eq!(
        norm(pc(
            "structure_search",
            json!({"search_type": "similarity", "identifier": ASPIRIN_SMILES})
        )),
        json!({"service": "pubchem", "operation": "structure_search", "search_type": "similarity", "namespace": "smiles",
            "identifier": ASPIRIN_SMILES, "mode": "fast", "threshold": 90})
    );
    // No PubChem defaults leak into a PMC call.
    assert_eq!(
        norm(pm("id_convert", json!({"ids": [" 23193287 "]}))),
        json!({"service": "pmc", "operation": "id_convert", "ids": ["23193287"], "idtype": "pmid", "format": "json"})
    );
    assert_eq!(
        norm(pm("oa_service", json!({"ids": ["5334499", "pmc3531190"]})))["ids"],
        json!(["PMC5334499", "PMC3531190"])
    );
    assert_eq!(
        norm(pm("citation_export", json!({"ids": ["PMC3531190"]}))),
        json!({"service": "pmc", "operation": "citation_export", "ids": ["PMC3531190"], "database": "pmc", "format": "citation"})
    );
}
