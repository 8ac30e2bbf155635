//! Corpus cases for the local tools: capabilities, tool info, key status and validate itself.
//!
//! These tools never reach NCBI; their cases prove the schema level and the
//! tool-name rule agree between `validate` and `tools/call`.

use super::{bad, ok, warned, Case};
use serde_json::json;

fn capabilities() -> Vec<Case> {
    let t = "entrez_capabilities";
    vec![
        ok(t, json!({})),
        ok(t, json!({"format": "summary"})),
        ok(t, json!({"format": "detailed"})),
        ok(
            t,
            json!({"format": "json", "tool": "system_api_key_status"}),
        ),
        ok(t, json!({"tool": "entrez_query"})),
        ok(t, json!({"tool": "validate"})),
        bad(t, json!({"format": "xml"}), &[("schema_enum", "$.format")]),
        bad(
            t,
            json!({"format": true}),
            &[("schema_type", "$.format"), ("schema_enum", "$.format")],
        ),
        bad(
            t,
            json!({"tool": "entrez_qurey"}),
            &[("unknown_tool", "$.tool")],
        ),
        bad(t, json!({"tool": "pubchem"}), &[("unknown_tool", "$.tool")]),
        warned(t, json!({"tool": ""}), &[("argument_omitted", "$.tool")]),
        bad(
            t,
            json!({"verbose": true}),
            &[("schema_additional_properties", "$")],
        ),
    ]
}

fn tool_info() -> Vec<Case> {
    let t = "entrez_tool_info";
    vec![
        ok(t, json!({"name": "entrez_query"})),
        ok(t, json!({"name": "validate"})),
        ok(t, json!({"name": "entrez_capabilities"})),
        ok(t, json!({"name": "system_api_key_status"})),
        bad(t, json!({}), &[("schema_required", "$")]),
        bad(
            t,
            json!({"name": "entrez_tool_inf"}),
            &[("unknown_tool", "$.name")],
        ),
        bad(
            t,
            json!({"name": "Entrez_Query"}),
            &[("unknown_tool", "$.name")],
        ),
        bad(t, json!({"name": [3]}), &[("schema_type", "$.name")]),
        bad(
            t,
            json!({"name": "x", "extra": 1}),
            &[
                ("schema_additional_properties", "$"),
                ("unknown_tool", "$.name"),
            ],
        ),
    ]
}

fn key_status() -> Vec<Case> {
    let t = "system_api_key_status";
    vec![
        ok(t, json!({})),
        bad(
            t,
            json!({"verbose": true}),
            &[("schema_additional_properties", "$")],
        ),
        bad(
            t,
            json!({"key": "abc"}),
            &[("schema_additional_properties", "$")],
        ),
    ]
}

fn validate() -> Vec<Case> {
    let t = "validate";
    let many: Vec<_> = (0..21).map(|_| json!({"tool": "validate"})).collect();
    vec![
        ok(t, json!({"tool": "entrez_capabilities"})),
        ok(
            t,
            json!({"tool": "entrez_capabilities", "arguments": {"format": "detailed"}}),
        ),
        // A call that describes an invalid call is itself a valid call to validate.
        ok(
            t,
            json!({"tool": "entrez_query", "arguments": {"operation": "fetch", "database": "pubmd"}}),
        ),
        ok(t, json!({"tool": "no_such_tool"})),
        ok(
            t,
            json!({"tool": "entrez_query", "arguments": {"operation": "info"}, "level": "syntax"}),
        ),
        ok(
            t,
            json!({"calls": [{"tool": "system_api_key_status"}], "level": "semantic"}),
        ),
        ok(
            t,
            json!({"calls": [{"tool": "entrez_tool_info", "arguments": {"name": "validate"}}, {"tool": "system_api_key_status"}]}),
        ),
        bad(t, json!({}), &[("schema_one_of", "$")]),
        // The runtime level has nothing to ask NCBI about a validate call: it is the semantic answer.
        ok(
            t,
            json!({"tool": "validate", "arguments": {"tool": "entrez_query", "arguments": {"operation": "info"}}, "level": "runtime"}),
        ),
        bad(
            t,
            json!({"tool": "validate", "level": "deep"}),
            &[("schema_enum", "$.level")],
        ),
        bad(
            t,
            json!({"tool": "validate", "calls": [{"tool": "validate"}]}),
            &[("schema_one_of", "$")],
        ),
        bad(
            t,
            json!({"calls": many}),
            &[("schema_max_items", "$.calls")],
        ),
        bad(t, json!({"calls": []}), &[("schema_min_items", "$.calls")]),
        bad(
            t,
            json!({"tool": "validate", "arguments": []}),
            &[("schema_type", "$.arguments")],
        ),
    ]
}

/// Every case for the local tools.
pub(super) fn cases() -> Vec<Case> {
    let mut all = capabilities();
    all.extend(tool_info());
    all.extend(key_status());
    all.extend(validate());
    all
}
