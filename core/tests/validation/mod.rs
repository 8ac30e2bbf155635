//! The validation corpus: every case through `validate` and through `tools/call`.
//!
//! Each case states the exact error and warning codes with their JSONPaths.
//! Running it through both doors proves the claim the semantic level rests
//! on: `validate` and `tools/call` agree, a call validate rejects never
//! reaches the (counting) transport, and a call it passes does. The corpus
//! also proves that every code the output schema documents can be produced.

mod external_cases;
mod external_pmc_cases;
mod link_cases;
mod other_cases;
mod pug_rest_cases;
mod query_cases;
mod record_cases;

use crate::common::offline::{NoWait, Recording};
use crate::common::*;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::net::Network;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// One call and what validation must say about it.
pub(crate) struct Case {
    /// Target tool.
    pub tool: &'static str,
    /// The arguments.
    pub args: Value,
    /// Expected errors as (code, path); empty means valid.
    pub errors: Vec<(&'static str, String)>,
    /// Expected warnings as (code, path).
    pub warnings: Vec<(&'static str, String)>,
}

/// A valid call with no warnings.
pub(crate) fn ok(tool: &'static str, args: Value) -> Case {
    Case {
        tool,
        args,
        errors: vec![],
        warnings: vec![],
    }
}

/// A valid call with warnings.
pub(crate) fn warned(tool: &'static str, args: Value, warnings: &[(&'static str, &str)]) -> Case {
    Case {
        warnings: own(warnings),
        ..ok(tool, args)
    }
}

/// An invalid call.
pub(crate) fn bad(tool: &'static str, args: Value, errors: &[(&'static str, &str)]) -> Case {
    Case {
        errors: own(errors),
        ..ok(tool, args)
    }
}

/// An invalid call that also has warnings.
pub(crate) fn bad_warned(
    tool: &'static str,
    args: Value,
    errors: &[(&'static str, &str)],
    warnings: &[(&'static str, &str)],
) -> Case {
    Case {
        errors: own(errors),
        warnings: own(warnings),
        ..ok(tool, args)
    }
}

fn own(list: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
    list.iter().map(|(c, p)| (*c, p.to_string())).collect()
}

fn counted_server() -> (Server, Recording) {
    let sent = Recording::default();
    let (server, _) = server_with(Config::defaults());
    let server = server.with_network(Network {
        transport: Box::new(sent.clone()),
        pacer: Box::new(NoWait),
        cache: None,
    });
    (server, sent)
}

fn pairs(list: &Value) -> BTreeSet<(String, String)> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            (
                f["code"].as_str().unwrap_or("").to_string(),
                f["path"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn expected(list: &[(&'static str, String)]) -> BTreeSet<(String, String)> {
    list.iter()
        .map(|(c, p)| (c.to_string(), p.clone()))
        .collect()
}

fn all_cases() -> Vec<Case> {
    let mut cases = query_cases::cases();
    cases.extend(record_cases::cases());
    cases.extend(link_cases::cases());
    cases.extend(other_cases::cases());
    cases.extend(external_cases::cases());
    cases.extend(external_pmc_cases::cases());
    cases.extend(pug_rest_cases::cases());
    cases
}

/// Runs one case through both doors; returns every code validate reported.
fn run(s: &Server, sent: &Recording, c: &Case) -> Vec<String> {
    let label = format!("{} {}", c.tool, c.args);
    let before = sent.count();
    let v = call_tool(s, "validate", json!({"tool": c.tool, "arguments": c.args}));
    let sc = &v["structuredContent"];
    assert_eq!(v["isError"], false, "{label}: {v}");
    assert_eq!(sc["level"], "semantic", "{label}");
    assert_eq!(
        pairs(&sc["details"]["errors"]),
        expected(&c.errors),
        "errors of {label}"
    );
    assert_eq!(
        pairs(&sc["details"]["warnings"]),
        expected(&c.warnings),
        "warnings of {label}"
    );
    assert_eq!(sc["valid"], c.errors.is_empty(), "{label}");
    for f in sc["details"]["errors"]
        .as_array()
        .into_iter()
        .chain(sc["details"]["warnings"].as_array())
        .flatten()
    {
        let m = f["message"].as_str().unwrap_or("");
        // Specific messages only: long enough to name the value, never a generic "invalid input".
        assert!(
            m.len() >= 15 && !m.to_lowercase().contains("invalid input"),
            "{label}: {m}"
        );
    }
    assert_eq!(sent.count(), before, "validate sent a request: {label}");

    let real = call_tool(s, c.tool, c.args.clone());
    let details = &real["structuredContent"]["error"]["details"];
    let rejected = real["isError"] == true && details["errors"].is_array();
    assert_eq!(
        rejected,
        !c.errors.is_empty(),
        "tools/call disagrees on {label}: {real}"
    );
    if rejected {
        assert_eq!(sent.count(), before, "a rejected call was sent: {label}");
        // Reading and the schema check run first; the semantic rules only on arguments that pass both.
        let schema: Vec<_> = c
            .errors
            .iter()
            .filter(|(code, _)| code.starts_with("schema_") || code.starts_with("argument_"))
            .cloned()
            .collect();
        let want = if schema.is_empty() {
            &c.errors
        } else {
            &schema
        };
        assert_eq!(
            pairs(&details["errors"]),
            expected(want),
            "tools/call errors of {label}"
        );
    } else if matches!(c.tool, "entrez_query" | "entrez_external") {
        // Tools that reach NCBI: a valid call is sent, and fails there for want of a network.
        assert!(sent.count() > before, "a valid call was not sent: {label}");
        assert_eq!(real["isError"], true, "{label}");
    } else {
        assert_eq!(real["isError"], false, "{label}: {real}");
    }
    sc["details"]["errors"]
        .as_array()
        .into_iter()
        .chain(sc["details"]["warnings"].as_array())
        .flatten()
        .map(|f| f["code"].as_str().unwrap_or("").to_string())
        .collect()
}

fn documented(schema: &Value, pointer: &str) -> BTreeSet<String> {
    schema
        .pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no enum at {pointer}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_corpus_agrees_through_validate_and_tools_call_and_reaches_every_code() {
    let (s, sent) = counted_server();
    let cases = all_cases();
    assert!(cases.len() >= 150, "only {} cases", cases.len());
    let valid = cases.iter().filter(|c| c.errors.is_empty()).count();
    assert!(
        valid >= 60 && cases.len() - valid >= 60,
        "{valid} valid of {}",
        cases.len()
    );
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for c in &cases {
        seen.extend(run(&s, &sent, c));
    }
    let out = &s.registry.get("validate").unwrap().output_schema;
    let errors = documented(
        out,
        "/$defs/single/properties/details/properties/errors/items/properties/code/anyOf/0/enum",
    );
    let warnings = documented(
        out,
        "/$defs/single/properties/details/properties/warnings/items/properties/code/enum",
    );
    let code_list = |l: &[&str]| l.iter().map(|c| c.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(
        errors,
        code_list(entrez_mcp_core::validation::codes::ERRORS)
    );
    assert_eq!(
        warnings,
        code_list(entrez_mcp_core::validation::codes::WARNINGS)
    );
    // The dataset and SQL codes need a staged dataset; tests/suite/validation/validate_sql.rs reaches each of them.
    // The runtime codes need NCBI (the replay server); tests/suite/validation/validate_runtime.rs reaches those.
    // results_cut is raised while a call runs (tests/suite/replay/budgets.rs reaches it).
    seen.extend(
        entrez_mcp_core::validation::codes::DATASET_ERRORS
            .iter()
            .chain(entrez_mcp_core::validation::codes::RUNTIME_CODES)
            .chain(&[entrez_mcp_core::validation::codes::RESULTS_CUT])
            .map(|c| c.to_string()),
    );
    for code in errors.iter().chain(&warnings) {
        assert!(
            seen.contains(code),
            "documented code {code} is never produced by the corpus"
        );
    }
    for code in &seen {
        assert!(
            errors.contains(code) || warnings.contains(code) || code.starts_with("schema_"),
            "{code} is produced but not documented"
        );
    }
}

#[test]
fn every_schema_example_passes_the_semantic_level() {
    let (s, _) = counted_server();
    for tool in s.registry.tools() {
        for example in tool.input_schema["examples"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let v = call_tool(
                &s,
                "validate",
                json!({"tool": tool.spec.name, "arguments": example}),
            );
            let sc = &v["structuredContent"];
            assert_eq!(
                sc["valid"], true,
                "{} example {example}: {sc}",
                tool.spec.name
            );
            assert_eq!(
                sc["details"]["warnings"],
                json!([]),
                "{} example {example}",
                tool.spec.name
            );
        }
    }
}

#[test]
fn normalized_arguments_are_the_call_as_sent() {
    let (s, _) = counted_server();
    let norm = |args: Value| {
        let v = call_tool(
            &s,
            "validate",
            json!({"tool": "entrez_query", "arguments": args}),
        );
        v["structuredContent"]["normalized_arguments"].clone()
    };
    assert_eq!(
        norm(json!({"operation": "search", "database": "PubMed", "term": "asthma"})),
        json!({"operation": "search", "database": "pubmed", "term": "asthma", "retstart": 0, "retmax": 20, "usehistory": false, "retmode": "xml"})
    );
    assert_eq!(
        norm(json!({"operation": "fetch", "ids": [" 19304878 ", 30242208]})),
        json!({"operation": "fetch", "database": "pubmed", "ids": ["19304878", "30242208"], "retmode": "xml", "max_records": 50})
    );
    assert_eq!(
        norm(json!({"operation": "fetch", "database": "Protein", "ids": ["NP_000537.3"]})),
        json!({"operation": "fetch", "database": "protein", "ids": ["NP_000537.3"], "rettype": "gp", "retmode": "xml", "max_records": 50})
    );
    assert_eq!(
        norm(json!({"operation": "fetch", "webenv": "W", "query_key": 1, "retmax": 600})),
        json!({"operation": "fetch", "database": "pubmed", "webenv": "W", "query_key": 1, "retmax": 500, "retmode": "xml", "max_records": 50})
    );
    assert_eq!(
        norm(json!({"operation": "summary", "database": "gene", "ids": ["7157"]})),
        json!({"operation": "summary", "database": "gene", "ids": ["7157"], "retmode": "json", "max_records": 50})
    );
    assert_eq!(
        norm(json!({"operation": "link", "ids": ["19304878"]})),
        json!({"operation": "link", "dbfrom": "pubmed", "database": "pubmed", "cmd": "neighbor", "ids": ["19304878"], "retmode": "xml"})
    );
    // info without a database lists every database: no pubmed default may appear.
    assert_eq!(
        norm(json!({"operation": "info"})),
        json!({"operation": "info", "retmode": "xml"})
    );
    let global =
        norm(json!({"operation": "global_query", "term": "x", "databases": ["PubMed", "GENE"]}));
    assert_eq!(global["databases"], json!(["pubmed", "gene"]));
}

#[test]
fn messages_name_the_value_and_the_fix() {
    let (s, _) = counted_server();
    let first = |args: Value| {
        let v = call_tool(
            &s,
            "validate",
            json!({"tool": "entrez_query", "arguments": args}),
        );
        let sc = v["structuredContent"].clone();
        (
            sc["details"]["errors"][0]["message"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            sc["suggestions"].to_string(),
        )
    };
    let (m, sug) = first(json!({"operation": "search", "database": "pubmd", "term": "x"}));
    assert_eq!(m, "Invalid database \"pubmd\". Did you mean \"pubmed\"?");
    assert!(sug.contains("Use \\\"pubmed\\\" at $.database."), "{sug}");
    let (m, _) =
        first(json!({"operation": "summary", "database": "pubmed", "ids": ["NP_000537.3"]}));
    assert_eq!(
        m,
        "NP_000537.3 is a protein accession; use database protein."
    );
    let (m, _) = first(json!({"operation": "summary", "database": "unigene", "ids": ["1"]}));
    assert!(m.contains("retired") && m.contains("\"gene\""), "{m}");
    let (m, sug) = first(json!({"operation": "search", "term": "asthma", "retstart": 9995}));
    assert!(
        m.contains("10000") && sug.contains("usehistory"),
        "{m} {sug}"
    );
    assert!(
        sug.contains("date slices") && sug.contains("entrez_data"),
        "{sug}"
    );
    let (m, _) = first(
        json!({"operation": "fetch", "database": "nuccore", "ids": ["NM_000546.6"], "rettype": "gbwithparts"}),
    );
    assert!(m.contains("retmode text") && m.contains("default"), "{m}");
    let (m, _) = first(json!({"operation": "summary", "database": "gene", "ids": ["BRCA1"]}));
    assert!(m.contains("BRCA1[sym]"), "{m}");
}

#[test]
fn tools_call_rejects_with_the_findings_and_one_shared_code() {
    let (s, sent) = counted_server();
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "fetch", "database": "pubmed", "ids": ["NP_000537.3", "PMC7096066"]}),
    );
    let err = &r["structuredContent"]["error"];
    assert_eq!(err["code"], "id_wrong_database");
    assert_eq!(err["details"]["errors"][1]["path"], "$.ids[1]");
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("$.ids[0]"));
    let mixed = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "fetch", "database": "pubmed", "ids": ["NP_000537.3"], "rettype": "gb"}),
    );
    assert_eq!(
        mixed["structuredContent"]["error"]["code"],
        "invalid_arguments"
    );
    let warned = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "summary", "ids": ["19304878", "19304878"]}),
    );
    // Warnings do not block: the call went upstream (and failed there, with no network).
    assert_eq!(
        warned["structuredContent"]["error"]["code"],
        "upstream_unavailable"
    );
    assert!(sent.count() > 0);
}

#[test]
fn batches_use_the_semantic_level_for_every_call() {
    let (s, _) = counted_server();
    let v = call_tool(
        &s,
        "validate",
        json!({"calls": [
            {"tool": "entrez_query", "arguments": {"operation": "search", "term": "asthma"}},
            {"tool": "entrez_query", "arguments": {"operation": "search", "database": "pubmd", "term": "asthma"}},
            {"tool": "entrez_tool_info", "arguments": {"name": "entrez_tool_inf"}}
        ]}),
    );
    let sc = &v["structuredContent"];
    assert_eq!(sc["level"], "semantic");
    assert_eq!(sc["valid"], false);
    assert_eq!(sc["results"][0]["valid"], true);
    assert_eq!(
        sc["results"][1]["details"]["errors"][0]["code"],
        "invalid_database"
    );
    assert_eq!(
        sc["results"][2]["details"]["errors"][0]["code"],
        "unknown_tool"
    );
    assert_eq!(
        sc["errors"],
        json!([
            "calls[1] (entrez_query): [invalid_database] $.database: Invalid database \"pubmd\". Did you mean \"pubmed\"?",
            "calls[2] (entrez_tool_info): [unknown_tool] $.name: Unknown tool \"entrez_tool_inf\". Did you mean \"entrez_tool_info\"?"
        ])
    );
    let text = v["content"][1]["text"].as_str().unwrap();
    assert!(
        text.contains("1 of 3 call(s) valid (semantic level)"),
        "{text}"
    );
}

/// Reads a validate result the way the validation protocol's reference client does.
fn as_reference_client(result: &Value) -> (bool, String, String) {
    let text = result["content"][0]["text"]
        .as_str()
        .expect("content[0].text");
    let parsed: Value = serde_json::from_str(text).expect("content[0].text is JSON");
    let join = |key: &str| {
        parsed[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key} is an array: {parsed}"))
            .iter()
            .map(|e| {
                e.as_str()
                    .unwrap_or_else(|| panic!("{key} holds strings: {e}"))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    (
        parsed["valid"].as_bool().unwrap(),
        join("errors"),
        join("warnings"),
    )
}

#[test]
fn the_reference_client_reads_every_kind_of_answer() {
    let (s, _) = counted_server();
    let valid = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": {"operation": "search", "term": "asthma"}}),
    );
    assert_eq!(
        as_reference_client(&valid),
        (true, String::new(), String::new())
    );
    // The first block is the structured result itself; a readable one follows.
    let first: Value = serde_json::from_str(valid["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(first, valid["structuredContent"]);
    assert!(valid["content"][1]["text"]
        .as_str()
        .unwrap()
        .starts_with("Call to entrez_query is valid"));

    let typo = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": {"operation": "search", "database": "pubmd", "term": "asthma"}}),
    );
    assert_eq!(
        as_reference_client(&typo),
        (
            false,
            "[invalid_database] $.database: Invalid database \"pubmd\". Did you mean \"pubmed\"?"
                .into(),
            String::new()
        )
    );
    let warned = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_query", "arguments": {"operation": "summary", "ids": ["19304878", "19304878"]}}),
    );
    let (ok, errors, warnings) = as_reference_client(&warned);
    assert!(ok && errors.is_empty(), "{warned}");
    assert!(
        warnings.starts_with("[duplicate_id] $.ids[1]: "),
        "{warnings}"
    );

    let unknown = call_tool(
        &s,
        "validate",
        json!({"tool": "entrez_qurey", "arguments": {}}),
    );
    let (ok, errors, _) = as_reference_client(&unknown);
    assert!(!ok);
    assert_eq!(
        errors,
        "[unknown_tool] $.tool: Unknown tool \"entrez_qurey\". Did you mean \"entrez_query\"?"
    );

    // A malformed validate call is an error result, still readable the same way.
    let malformed = call_tool(&s, "validate", json!({"level": "semantic"}));
    assert_eq!(malformed["isError"], true);
    let (ok, errors, _) = as_reference_client(&malformed);
    assert!(!ok);
    assert!(errors.starts_with("[schema_one_of] $: "), "{errors}");
    assert_eq!(
        malformed["structuredContent"]["error"]["code"],
        "invalid_arguments"
    );
}

#[test]
fn embedded_ncbi_data_is_a_copy_of_the_shared_recordings() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    for name in ["einfo1.xml", "einfo2.xml"] {
        let data = std::fs::read(format!("{root}/data/ncbi/{name}")).unwrap();
        let shared = std::fs::read(format!("{root}/tests/fixtures/ncbi/eutils/{name}")).unwrap();
        assert!(
            data == shared,
            "data/ncbi/{name} differs from the shared recording"
        );
    }
}
