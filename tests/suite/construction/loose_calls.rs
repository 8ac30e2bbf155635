//! Calls as language models send them (`tests/fixtures/loose-calls/corpus.json`).
//!
//! Each clear call must mean exactly its canonical form: through `validate`
//! it is valid, reports each repair (code and JSONPath) and normalizes to the
//! same arguments as the canonical call; through `tools/call` it sends the
//! very same upstream requests (URL and body, recorded by the transport) and
//! returns the same result, plus `call_warnings` naming the repairs. Each
//! hopeless call is refused by both doors with its code at its path, and
//! nothing is sent.

use crate::common::call_tool_with;
use crate::common::offline::Recording;
use entrez_mcp::store::SqliteStore;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::{Limits, Staging};
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn corpus() -> Value {
    let text = include_str!("../../fixtures/loose-calls/corpus.json");
    serde_json::from_str(text).expect("corpus is JSON")
}

fn server() -> (Server, Recording) {
    let (server, recording) = crate::common::offline::recording_server();
    let server = server
        .with_staging(Staging::new(
            SqliteStore::in_memory().unwrap(),
            Limits::default(),
        ))
        .unwrap();
    (server, recording)
}

fn ctx() -> RequestContext {
    RequestContext {
        session_id: Some("loose".into()),
        ..Default::default()
    }
}

fn validate(s: &Server, tool: &str, args: &Value) -> Value {
    let r = call_tool_with(
        s,
        "validate",
        json!({"tool": tool, "arguments": args}),
        &ctx(),
    );
    assert_eq!(r["isError"], false, "{r}");
    r["structuredContent"].clone()
}

/// `code path` of each finding in `list`, split into the intake's and the rest.
fn split(list: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    at(list)
        .into_iter()
        .partition(|s| s.starts_with("argument_"))
}

/// `code path` of each finding in `list`.
fn at(list: &Value) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{} {}",
                f["code"].as_str().unwrap(),
                f["path"].as_str().unwrap()
            )
        })
        .collect()
}

fn expected(case: &Value) -> BTreeSet<String> {
    case["repairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_corpus_has_enough_of_each_kind() {
    let c = corpus();
    assert!(c["clear"].as_array().unwrap().len() >= 80);
    assert!(c["hopeless"].as_array().unwrap().len() >= 25);
}

#[test]
fn clear_calls_validate_as_their_canonical_form_with_each_repair_named() {
    let (s, sent) = server();
    for case in corpus()["clear"].as_array().unwrap() {
        let tool = case["tool"].as_str().unwrap();
        let label = format!("{tool} {} ({})", case["sent"], case["why"]);
        let loose = validate(&s, tool, &case["sent"]);
        let canonical = validate(&s, tool, &case["becomes"]);
        assert_eq!(loose["valid"], true, "{label}: {loose}");
        assert_eq!(canonical["valid"], true, "{label}: canonical {canonical}");
        let (repairs, others) = split(&loose["details"]["warnings"]);
        let (none, canonical_others) = split(&canonical["details"]["warnings"]);
        assert_eq!(repairs, expected(case), "repairs of {label}");
        assert!(
            none.is_empty(),
            "the canonical form of {label} needed repairs: {none:?}"
        );
        assert_eq!(others, canonical_others, "other warnings of {label}");
        assert_eq!(
            loose["normalized_arguments"], canonical["normalized_arguments"],
            "{label}"
        );
        assert!(sent.take().is_empty(), "validate sent a request: {label}");
    }
}

#[test]
fn clear_calls_send_exactly_what_their_canonical_form_sends() {
    let (s, sent) = server();
    for case in corpus()["clear"].as_array().unwrap() {
        let tool = case["tool"].as_str().unwrap();
        let label = format!("{tool} {} ({})", case["sent"], case["why"]);
        let mut loose = call_tool_with(&s, tool, case["sent"].clone(), &ctx());
        let loose_sent = sent.take();
        let mut canonical = call_tool_with(&s, tool, case["becomes"].clone(), &ctx());
        let canonical_sent = sent.take();
        assert_eq!(loose_sent, canonical_sent, "requests of {label}");
        if matches!(tool, "entrez_query" | "entrez_external")
            || case["becomes"]["operation"] == "fetch_and_stage"
        {
            assert!(!loose_sent.is_empty(), "{label} sent nothing");
        }
        // The repairs are reported on the result, successful or not.
        let structured = loose["structuredContent"].as_object_mut().unwrap();
        let notes = match structured.remove("call_warnings") {
            Some(notes) => notes,
            None => loose["structuredContent"]["error"]["details"]["warnings"].clone(),
        };
        let (repairs, _) = split(&notes);
        assert_eq!(repairs, expected(case), "call_warnings of {label}: {loose}");
        canonical["structuredContent"]
            .as_object_mut()
            .unwrap()
            .remove("call_warnings");
        if case["becomes"]["operation"] != "fetch_and_stage" && tool != "validate" {
            // Results that carry no fresh dataset id or readable echo of the call are identical.
            assert_eq!(
                loose["structuredContent"], canonical["structuredContent"],
                "result of {label}"
            );
        }
        assert_eq!(loose["isError"], canonical["isError"], "{label}");
    }
}

#[test]
fn hopeless_calls_are_refused_by_both_doors_and_never_sent() {
    let (s, sent) = server();
    for case in corpus()["hopeless"].as_array().unwrap() {
        let tool = case["tool"].as_str().unwrap();
        let label = format!("{tool} {} ({})", case["sent"], case["why"]);
        let want = format!(
            "{} {}",
            case["code"].as_str().unwrap(),
            case["path"].as_str().unwrap()
        );
        let v = validate(&s, tool, &case["sent"]);
        assert_eq!(v["valid"], false, "{label}: {v}");
        let found = at(&v["details"]["errors"]);
        assert!(found.contains(&want), "{label}: {found:?}");
        let message = &v["details"]["errors"][0]["message"];
        assert!(
            message.as_str().unwrap().len() >= 20,
            "{label}: a message that names the value: {message}"
        );
        let r = call_tool_with(&s, tool, case["sent"].clone(), &ctx());
        assert_eq!(r["isError"], true, "{label}: {r}");
        let refused = at(&r["structuredContent"]["error"]["details"]["errors"]);
        assert!(refused.contains(&want), "{label}: {refused:?}");
        assert!(sent.take().is_empty(), "a refused call was sent: {label}");
    }
}

/// The query parameters of a recorded request, percent-decoded, in order.
fn params(recorded: &str) -> Vec<(String, String)> {
    let mut parts = recorded.splitn(3, ' ');
    let (_method, url, body) = (parts.next(), parts.next().unwrap_or(""), parts.next());
    let query = match body.filter(|b| !b.is_empty()) {
        Some(b) => b.to_string(),
        None => url
            .split_once('?')
            .map(|(_, q)| q)
            .unwrap_or("")
            .to_string(),
    };
    let decode = |s: &str| {
        let bytes = s.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' && i + 2 < bytes.len() {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            } else {
                out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    };
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .filter(|(k, _)| !matches!(k.as_str(), "tool" | "email" | "api_key"))
        .collect()
}

/// The E-utilities parameters `normalized_arguments` says will be sent.
fn said(n: &Value) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for (key, value) in n.as_object().unwrap() {
        let param = match key.as_str() {
            // Local: which operation, and how many parsed records the result shows.
            "operation" | "max_records" | "databases" => continue,
            "database" => "db",
            "ids" => {
                let ids: Vec<String> = value.as_array().unwrap().iter().map(text).collect();
                out.insert(("id".into(), ids.join(",")));
                continue;
            }
            "webenv" => "WebEnv",
            "usehistory" if value == true => {
                out.insert(("usehistory".into(), "y".into()));
                continue;
            }
            "usehistory" => continue,
            // XML is NCBI's own default for these: nothing is sent for it.
            "retmode" if n["operation"] != "fetch" && value == "xml" => continue,
            // Version 1.0 is NCBI's default: no `version` is sent for it.
            "version" if value == "1.0" => continue,
            "citations" => {
                let lines: Vec<String> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        ["journal", "year", "volume", "first_page", "author", "key"]
                            .iter()
                            .map(|f| format!("{}|", text(&c[*f])))
                            .collect::<String>()
                    })
                    .collect();
                out.insert(("bdata".into(), lines.join("\r")));
                out.insert(("db".into(), "pubmed".into()));
                out.insert(("retmode".into(), "xml".into()));
                continue;
            }
            other => other,
        };
        out.insert((param.to_string(), text(value)));
    }
    out
}

#[test]
fn normalized_arguments_are_exactly_the_request_sent() {
    let (s, sent) = server();
    let mut checked = 0;
    for case in corpus()["clear"].as_array().unwrap() {
        if case["tool"] != "entrez_query" {
            continue;
        }
        let label = format!("{} ({})", case["sent"], case["why"]);
        let n = validate(&s, "entrez_query", &case["sent"])["normalized_arguments"].clone();
        call_tool_with(&s, "entrez_query", case["sent"].clone(), &ctx());
        let from_loose = sent.take();
        // The normalized call, sent as it is, is the same request: it is a fixed point.
        call_tool_with(&s, "entrez_query", n.clone(), &ctx());
        assert_eq!(sent.take(), from_loose, "{label}: {n}");
        let first = from_loose
            .first()
            .unwrap_or_else(|| panic!("{label}: nothing sent"));
        if n["operation"] == "global_query" {
            // One count search per database, in the order normalized_arguments lists them.
            let mut dbs: Vec<String> = from_loose
                .iter()
                .map(|r| params(r).into_iter().find(|(k, _)| k == "db").unwrap().1)
                .collect();
            // The transport fails every request, so each is tried again: count each database once.
            dbs.dedup();
            let listed: Vec<String> = n["databases"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap().to_string())
                .collect();
            // A failed count stops nothing, but a transport error may end the list early.
            assert!(listed.starts_with(&dbs), "{label}: {dbs:?} vs {listed:?}");
            continue;
        }
        // Parameter by parameter, both ways: nothing sent that validate did not show, nothing shown that was not sent.
        let on_wire: BTreeSet<(String, String)> = params(first).into_iter().collect();
        assert_eq!(on_wire, said(&n), "{label}: {n}");
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} entrez_query calls compared");
}

#[test]
fn normalized_arguments_of_every_tool_send_the_same_requests() {
    let (s, sent) = server();
    let mut checked = 0;
    for case in corpus()["clear"].as_array().unwrap() {
        let tool = case["tool"].as_str().unwrap();
        if !matches!(tool, "entrez_external" | "entrez_data") {
            continue;
        }
        let label = format!("{tool} {} ({})", case["sent"], case["why"]);
        let n = validate(&s, tool, &case["sent"])["normalized_arguments"].clone();
        let original = call_tool_with(&s, tool, case["sent"].clone(), &ctx());
        let from_loose = sent.take();
        let normalized = call_tool_with(&s, tool, n.clone(), &ctx());
        assert_eq!(sent.take(), from_loose, "{label}: {n}");
        assert_eq!(original["isError"], normalized["isError"], "{label}: {n}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} calls compared");
}
