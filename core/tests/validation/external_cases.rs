//! Corpus cases for `entrez_external` service pubchem: namespaces, structures, lists, searches.
//!
//! Valid calls use real identifiers (aspirin is CID 2244, InChIKey
//! BSYNRYMUTXBXSQ-UHFFFAOYSA-N; PMC3531190 is PMID 23193287, DOI
//! 10.1093/nar/gks1195) so each case reads as a call an assistant would make.
//! The PMC cases and the message checks are in `external_pmc_cases.rs`.
//! Every case also runs through tools/call, where a valid one must reach the
//! (counting) transport and an invalid one must not.

use super::{bad, bad_warned, ok, warned, Case};
use serde_json::{json, Value};

/// The tool under test.
pub(super) const T: &str = "entrez_external";
/// Aspirin (CID 2244) as PubChem writes it.
pub(super) const ASPIRIN_SMILES: &str = "CC(=O)OC1=CC=CC=C1C(=O)O";
pub(super) const ASPIRIN_INCHI: &str =
    "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)";
pub(super) const ASPIRIN_KEY: &str = "BSYNRYMUTXBXSQ-UHFFFAOYSA-N";

/// `base` with the keys of `extra` added.
pub(super) fn with(base: Value, extra: Value) -> Value {
    let mut v = base;
    for (k, x) in extra.as_object().cloned().unwrap_or_default() {
        v[k] = x;
    }
    v
}

/// A service pubchem call.
pub(super) fn pc(op: &str, extra: Value) -> Value {
    with(json!({"service": "pubchem", "operation": op}), extra)
}

/// A service pmc call.
/// id_convert's reply format is named, so cases about ids are not also about formats.
pub(super) fn pm(op: &str, extra: Value) -> Value {
    let base = match op {
        "id_convert" => json!({"service": "pmc", "operation": op, "format": "json"}),
        _ => json!({"service": "pmc", "operation": op}),
    };
    with(base, extra)
}

/// A compound lookup by `ns`.
pub(super) fn compound(ns: &str, id: Value) -> Value {
    pc("compound", json!({"namespace": ns, "identifier": id}))
}

/// A structure search of `kind` by `ns`.
pub(super) fn search(kind: &str, ns: &str, id: Value) -> Value {
    pc(
        "structure_search",
        json!({"search_type": kind, "namespace": ns, "identifier": id}),
    )
}

const ID: &str = "$.identifier";

fn valid_pubchem() -> Vec<Case> {
    vec![
        ok(T, compound("cid", json!(2244))),
        ok(
            T,
            pc(
                "compound",
                json!({"identifier": [2244, 2519], "data": "synonyms"}),
            ),
        ),
        ok(T, compound("cid", json!("2244,2519"))),
        ok(T, compound("name", json!("aspirin"))),
        ok(
            T,
            pc(
                "compound",
                json!({"namespace": "name", "identifier": "acetylsalicylic acid", "data": "cids"}),
            ),
        ),
        ok(T, compound("smiles", json!(ASPIRIN_SMILES))),
        ok(T, compound("smiles", json!("C[C@@H](C(=O)O)N"))),
        ok(T, compound("smiles", json!("[Na+].[Cl-]"))),
        ok(T, compound("inchi", json!(ASPIRIN_INCHI))),
        ok(T, compound("inchikey", json!(ASPIRIN_KEY))),
        ok(
            T,
            pc(
                "compound",
                json!({"namespace": "formula", "identifier": "C9H8O4", "data": "cids"}),
            ),
        ),
        ok(T, compound("listkey", json!("2840934385186214283"))),
        ok(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "data": "picture", "image_size": "large"}),
            ),
        ),
        // PUG REST's own compound/cid/2244/PNG?record_type=3d&image_size=small: the picture
        // options go on the PNG, where PubChem reads them.
        ok(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "data": "picture", "image_size": "small", "options": {"record_type": "3d"}}),
            ),
        ),
        // A property table has no 3-D form: PubChem ignores record_type there, and says nothing.
        warned(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "options": {"record_type": "3d"}}),
            ),
            &[("ignored_parameter", "$.options.record_type")],
        ),
        // image_size draws a picture only: the schema ties it to data picture.
        bad_warned(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "data": "properties", "image_size": "large"}),
            ),
            &[("schema_const", "$.data")],
            &[("ignored_parameter", "$.image_size")],
        ),
        bad(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "data": "picture", "image_size": "large", "options": {"image_size": "small"}}),
            ),
            &[("argument_conflict", "$.options.image_size")],
        ),
        // Parameters of other operations are named, never silently dropped.
        warned(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "data": "record", "properties": ["XLogP"]}),
            ),
            &[("ignored_parameter", "$.properties")],
        ),
        ok(T, pc("substance", json!({"identifier": 747285}))),
        ok(
            T,
            pc(
                "substance",
                json!({"namespace": "sourceid", "source": "DTP/NCI", "identifier": "747285"}),
            ),
        ),
        ok(
            T,
            pc(
                "substance",
                json!({"namespace": "name", "identifier": "aspirin", "data": "synonyms"}),
            ),
        ),
        ok(
            T,
            pc("bioassay", json!({"namespace": "aid", "identifier": 1000})),
        ),
        ok(
            T,
            pc(
                "bioassay",
                json!({"identifier": [1000, "1001"], "data": "description"}),
            ),
        ),
        ok(
            T,
            with(
                search("similarity", "smiles", json!(ASPIRIN_SMILES)),
                json!({"threshold": 95, "max_records": 20}),
            ),
        ),
        ok(
            T,
            with(
                search("substructure", "smiles", json!("C1=CC=CC=C1")),
                json!({"mode": "async"}),
            ),
        ),
        ok(
            T,
            with(
                search("identity", "cid", json!(2244)),
                json!({"identity_type": "same_connectivity"}),
            ),
        ),
        ok(T, search("superstructure", "inchi", json!(ASPIRIN_INCHI))),
        ok(
            T,
            search("substructure", "smarts", json!("[CX3](=O)[OX2H1]")),
        ),
        ok(
            T,
            pc(
                "structure_search",
                json!({"search_type": "similarity", "identifier": "c1ccccc1O", "threshold": 0}),
            ),
        ),
    ]
}

fn warned_pubchem() -> Vec<Case> {
    let ignored = "ignored_parameter";
    vec![
        warned(T, compound("name", json!("2244")), &[("ambiguous_id", ID)]),
        warned(
            T,
            compound("smiles", json!("C1CC")),
            &[("suspicious_structure", ID)],
        ),
        warned(
            T,
            compound("smiles", json!("NaCl")),
            &[("suspicious_structure", ID)],
        ),
        warned(
            T,
            compound("smiles", json!("CCO ethanol")),
            &[("suspicious_structure", ID)],
        ),
        warned(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "search_type": "similarity", "threshold": 90}),
            ),
            &[(ignored, "$.search_type"), (ignored, "$.threshold")],
        ),
        warned(
            T,
            compound("cid", json!([2244, "2244"])),
            &[("duplicate_id", "$.identifier[1]")],
        ),
        warned(
            T,
            compound("cid", json!("2244,2244")),
            &[("duplicate_id", ID)],
        ),
        warned(
            T,
            pc(
                "substance",
                json!({"namespace": "name", "identifier": "aspirin", "source": "DTP/NCI"}),
            ),
            &[(ignored, "$.source")],
        ),
    ]
}

fn wrong_services() -> Vec<Case> {
    vec![
        bad_warned(
            T,
            json!({"service": "pubchem", "operation": "id_convert", "ids": ["PMC3531190"]}),
            &[
                ("schema_enum", "$.operation"),
                ("schema_false_schema", "$.ids"),
                ("wrong_service", "$.service"),
            ],
            &[
                ("default_chosen", "$.idtype"),
                ("format_chosen", "$.format"),
            ],
        ),
        bad(
            T,
            json!({"service": "pmc", "operation": "compound", "identifier": 2244}),
            &[
                ("schema_enum", "$.operation"),
                ("schema_false_schema", ID),
                ("wrong_service", "$.service"),
            ],
        ),
        bad(
            T,
            json!({"operation": "citation_export", "ids": ["23193287"]}),
            &[("schema_required", "$")],
        ),
    ]
}

fn bad_pubchem_ids() -> Vec<Case> {
    let hundred_one: Vec<String> = (1..=101).map(|n| n.to_string()).collect();
    vec![
        bad(
            T,
            compound("cid", json!("aspirin")),
            &[("wrong_namespace", ID)],
        ),
        bad(T, compound("cid", json!("CID2244")), &[("invalid_id", ID)]),
        bad(T, compound("cid", json!("0")), &[("invalid_id", ID)]),
        bad(
            T,
            compound("cid", json!(0)),
            &[("schema_any_of", ID), ("invalid_id", ID)],
        ),
        bad(
            T,
            compound("cid", json!(["2244", ASPIRIN_KEY])),
            &[("wrong_namespace", "$.identifier[1]")],
        ),
        bad(
            T,
            compound("cid", json!("2244,,2519")),
            &[("invalid_id", ID)],
        ),
        bad_warned(
            T,
            compound("cid", json!([2244, 2244, "aspirin"])),
            &[("wrong_namespace", "$.identifier[2]")],
            &[("duplicate_id", "$.identifier[1]")],
        ),
        bad(
            T,
            compound("cid", json!(hundred_one.join(","))),
            &[("too_many_ids", ID)],
        ),
        bad(
            T,
            compound("name", json!(ASPIRIN_KEY)),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            compound("name", json!(ASPIRIN_INCHI)),
            &[("wrong_namespace", ID)],
        ),
        bad(T, compound("name", json!("   ")), &[("invalid_id", ID)]),
        bad(
            T,
            compound("inchikey", json!("2244")),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            compound("inchikey", json!(ASPIRIN_KEY.to_lowercase())),
            &[("invalid_id", ID)],
        ),
        bad(
            T,
            compound("inchikey", json!("BSYNRYMUTXBXSQ-UHFFFAOYSA")),
            &[("invalid_id", ID)],
        ),
        bad(
            T,
            compound("inchi", json!(&ASPIRIN_INCHI[6..])),
            &[("invalid_structure", ID)],
        ),
        bad(
            T,
            compound("inchi", json!("CC(=O)O")),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            compound("smiles", json!("CC(C")),
            &[("invalid_structure", ID)],
        ),
        bad(
            T,
            compound("smiles", json!("CC)C")),
            &[("invalid_structure", ID)],
        ),
        bad(
            T,
            compound("smiles", json!("C[NH4+")),
            &[("invalid_structure", ID)],
        ),
        bad(
            T,
            compound("smiles", json!("CC!C")),
            &[("invalid_structure", ID)],
        ),
        bad(
            T,
            compound("smiles", json!("aspirin")),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            compound("smiles", json!("C9H8O4")),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            compound("formula", json!("c9h8o4")),
            &[("invalid_id", ID)],
        ),
        bad(
            T,
            compound("formula", json!("C9H8Q4")),
            &[("invalid_id", ID)],
        ),
        bad(
            T,
            compound("formula", json!("aspirin")),
            &[("wrong_namespace", ID)],
        ),
        bad(T, compound("listkey", json!("abc")), &[("invalid_id", ID)]),
        bad(
            T,
            pc("substance", json!({"identifier": "aspirin"})),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            pc(
                "substance",
                json!({"namespace": "name", "identifier": ASPIRIN_KEY}),
            ),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            pc("bioassay", json!({"identifier": "aspirin"})),
            &[("invalid_id", ID)],
        ),
    ]
}

fn bad_searches() -> Vec<Case> {
    vec![
        bad(
            T,
            search("similarity", "cid", json!("2244,2519")),
            &[("too_many_ids", ID)],
        ),
        bad(
            T,
            search("similarity", "smiles", json!("2244")),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            search("similarity", "smiles", json!(ASPIRIN_KEY)),
            &[("wrong_namespace", ID)],
        ),
        bad(
            T,
            search("substructure", "smarts", json!("[CX3](=O")),
            &[("invalid_structure", ID)],
        ),
        bad(
            T,
            with(
                search("similarity", "smiles", json!(ASPIRIN_SMILES)),
                json!({"threshold": 0.95}),
            ),
            &[
                ("argument_unreadable", "$.threshold"),
                ("threshold_out_of_range", "$.threshold"),
            ],
        ),
        bad(
            T,
            with(
                search("similarity", "smiles", json!(ASPIRIN_SMILES)),
                json!({"threshold": 150}),
            ),
            &[
                ("schema_maximum", "$.threshold"),
                ("threshold_out_of_range", "$.threshold"),
            ],
        ),
        bad(
            T,
            search("similarity", "smiles", json!("CC(C1")),
            &[("invalid_structure", ID)],
        ),
    ]
}

/// Every entrez_external case for service pubchem, and the service mix-ups.
pub(super) fn cases() -> Vec<Case> {
    let mut all = valid_pubchem();
    all.extend(warned_pubchem());
    all.extend(wrong_services());
    all.extend(bad_pubchem_ids());
    all.extend(bad_searches());
    all
}
