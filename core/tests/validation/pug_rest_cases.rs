//! Corpus cases for `entrez_external pug_rest`: PubChem's documented grammar, part by part.
//!
//! Valid requests come from PubChem's PUG REST page and tutorial (the whole documented set
//! runs in `core/tests/construction/ncbi_docs.rs`); each invalid one breaks one part of the grammar and must
//! be named at that part.

use super::external_cases::{pc, T};
use super::{bad, ok, warned, Case};
use serde_json::json;

/// The cases.
pub(super) fn cases() -> Vec<Case> {
    let pug = |extra| pc("pug_rest", extra);
    vec![
        ok(
            T,
            pug(
                json!({"domain": "compound", "namespace": "cid", "identifier": [2244, 2519], "data": "property/MolecularFormula,XLogP", "output": "CSV"}),
            ),
        ),
        ok(
            T,
            pug(
                json!({"domain": "compound", "namespace": "fastsubstructure/smiles", "identifier": "C1=NC2=C(N1)C(=O)N=C(N2)N", "data": "cids", "output": "XML", "options": {"MatchIsotopes": true, "MaxRecords": 100}}),
            ),
        ),
        ok(
            T,
            pug(json!({"path": "gene/genesymbol/EGFR/10090/summary/JSON"})),
        ),
        // options beside a path are sent with it, merged into its query string.
        ok(
            T,
            pug(
                json!({"path": "compound/fastsimilarity_2d/cid/2244/cids/JSON", "options": {"Threshold": 99}}),
            ),
        ),
        ok(
            T,
            pug(
                json!({"path": "compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=99", "options": {"threshold": "99"}}),
            ),
        ),
        bad(
            T,
            pug(
                json!({"path": "compound/fastsimilarity_2d/cid/2244/cids/JSON?Threshold=95", "options": {"Threshold": 99}}),
            ),
            &[("argument_conflict", "$.options.Threshold")],
        ),
        // A field the path says otherwise is ignored, and named.
        warned(
            T,
            pug(json!({"path": "compound/cid/2244/property/XLogP/JSON", "output": "XML"})),
            &[("ignored_parameter", "$.output")],
        ),
        ok(
            T,
            pug(
                json!({"domain": "substance", "namespace": "sourceid", "source": "DTP.NCI", "identifier": "747285", "output": "SDF"}),
            ),
        ),
        ok(
            T,
            pug(
                json!({"domain": "compound", "namespace": "molecular_weight/range", "identifier": ["400.0", "400.05"], "data": "cids", "output": "JSON"}),
            ),
        ),
        warned(
            T,
            pug(
                json!({"domain": "assay", "namespace": "aid", "identifier": 1000, "data": "summary"}),
            ),
            &[("format_chosen", "$.output")],
        ),
        warned(
            T,
            pug(
                json!({"domain": "compound", "namespace": "cid", "identifier": 2244, "data": "cids", "output": "JSON", "options": {"StripHydrogen": true}}),
            ),
            &[("ignored_parameter", "$.options.StripHydrogen")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compounds", "namespace": "cid", "identifier": 2244, "output": "JSON"}),
            ),
            &[("invalid_domain", "$.domain")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "fastsubstructure", "identifier": "CCO", "data": "cids", "output": "JSON"}),
            ),
            &[("invalid_namespace", "$.namespace")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "cid", "identifier": 2244, "data": "property/MolecularWieght", "output": "JSON"}),
            ),
            &[("invalid_pug_operation", "$.data")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "cid", "identifier": 2244, "data": "cids", "output": "PNG"}),
            ),
            &[("unsupported_output", "$.output")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "cid", "identifier": 2244, "data": "property/MolecularFormula,XLogP", "output": "TXT"}),
            ),
            &[("unsupported_output", "$.output")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "fastsimilarity_2d/cid", "identifier": 2244, "data": "cids", "output": "JSON", "options": {"Treshold": 95}}),
            ),
            &[("unknown_option", "$.options.Treshold")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "fastsimilarity_2d/cid", "identifier": 2244, "data": "cids", "output": "JSON", "options": {"Threshold": "high"}}),
            ),
            &[("invalid_option_value", "$.options.Threshold")],
        ),
        bad(
            T,
            pug(
                json!({"domain": "compound", "namespace": "cid", "identifier": "aspirin", "data": "cids", "output": "JSON"}),
            ),
            &[("invalid_id", "$.identifier[0]")],
        ),
        bad(
            T,
            pug(json!({"path": "compound/cid/2244/JSON/extra"})),
            &[("invalid_path", "$.path")],
        ),
        bad(
            T,
            pc(
                "compound",
                json!({"identifier": 2244, "properties": ["XLogP", "Mass"]}),
            ),
            &[("invalid_pug_operation", "$.properties[1]")],
        ),
        bad(
            T,
            pc(
                "compound",
                json!({"namespace": "name", "identifier": "aspirin", "options": {"name_kind": "word"}}),
            ),
            &[("unknown_option", "$.options.name_kind")],
        ),
    ]
}
