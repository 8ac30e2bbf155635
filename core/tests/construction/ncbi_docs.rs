//! NCBI's own documented calls (`tests/fixtures/ncbi-docs/`): every one is accepted and sent
//! exactly as the documentation writes it.
//!
//! The corpus: the example URLs of the E-utilities book, PUG REST and the PMC API pages,
//! each with its source and its translation into this server's arguments. Each valid one
//! passes `validate` and sends the documented request value by value; anything extra is a
//! default NCBI documents or a choice named in a `format_chosen` warning. Retired examples
//! are refused or answered by their documented successor.

use crate::common::call_tool_with;
use crate::common::offline::Recording;
use entrez_mcp_core::caller::RequestContext;
use entrez_mcp_core::net::percent_decode;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const CORPORA: &[(&str, &str)] = &[
    (
        "eutils",
        include_str!("../../../tests/fixtures/ncbi-docs/eutils.json"),
    ),
    (
        "pugrest",
        include_str!("../../../tests/fixtures/ncbi-docs/pugrest.json"),
    ),
    (
        "pmc",
        include_str!("../../../tests/fixtures/ncbi-docs/pmc.json"),
    ),
];

/// Parameters NCBI documents a default for, which the server may send unasked.
const EUTILS_DEFAULTS: &[(&str, &str, &str)] = &[
    // NBK25499, ESearch: retstart "default=0", retmax "default=20".
    ("esearch.fcgi", "retstart", "0"),
    ("esearch.fcgi", "retmax", "20"),
    // NBK25499, ELink: cmd "neighbor (default)".
    ("elink.fcgi", "cmd", "neighbor"),
];

/// EFetch's retmode when NCBI's Table 1 offers only that one for the database and rettype.
fn sole_retmode(db: &str, rettype: Option<&str>) -> Option<&'static str> {
    use entrez_mcp_core::tools::entrez_query::validation::rettypes::TABLE;
    let db = entrez_mcp_core::entrez::databases::canonical(db);
    let modes: Vec<&str> = TABLE
        .iter()
        .filter(|r| r.dbs.contains(&db) && r.rettype == rettype.unwrap_or(""))
        .map(|r| r.retmode)
        .collect();
    match modes.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

fn entries() -> Vec<(String, Value)> {
    CORPORA
        .iter()
        .flat_map(|(name, text)| {
            let corpus: Value =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            corpus["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (name.to_string(), e.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

fn server() -> (Server, Recording) {
    crate::common::offline::recording_server()
}

fn ctx() -> RequestContext {
    RequestContext {
        session_id: Some("docs".into()),
        ..Default::default()
    }
}

/// `(method, path, parameters)` of a URL (query and, for POST, the form body).
fn request_parts(method: &str, url: &str, body: &str) -> (String, String, Vec<(String, String)>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let plus = !path.contains("/rest/pug/");
    let mut params: Vec<(String, String)> = Vec::new();
    for source in [query, body] {
        if source.starts_with("--") {
            // A multipart body: one field.
            let name = source
                .split("name=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or("");
            let value = source
                .split("\r\n\r\n")
                .nth(1)
                .or_else(|| source.split("\n\n").nth(1))
                .unwrap_or("");
            let value = value
                .split("\r\n--")
                .next()
                .unwrap_or(value)
                .split("\n--")
                .next()
                .unwrap_or(value);
            params.push((name.to_string(), value.trim().to_string()));
            continue;
        }
        for pair in source.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            params.push((percent_decode(k, plus), percent_decode(v, plus)));
        }
    }
    params.retain(|(k, _)| !matches!(k.as_str(), "tool" | "email" | "api_key"));
    (method.to_string(), path.to_string(), params)
}

/// The first request the call sent: `METHOD URL BODY` as the recording transport writes it.
fn sent(recorded: &str) -> (String, String, Vec<(String, String)>) {
    let mut parts = recorded.splitn(3, ' ');
    let method = match parts.next().unwrap_or("") {
        "Get" => "GET",
        _ => "POST",
    };
    request_parts(
        method,
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    )
}

/// Parameters named by a `format_chosen`, `results_capped` or `default_chosen` warning (`$.version` → version);
/// a rettype and its retmode are one format, so a warning at either names both.
fn chosen(result: &Value) -> Vec<String> {
    let mut named: Vec<String> = result["structuredContent"]["call_warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|w| {
            matches!(
                w["code"].as_str(),
                Some("format_chosen" | "results_capped" | "default_chosen")
            )
        })
        .map(|w| {
            w["path"]
                .as_str()
                .unwrap_or("")
                .trim_start_matches("$.")
                .to_string()
        })
        .collect();
    if named.iter().any(|n| n == "rettype" || n == "retmode") {
        named.extend(["rettype".to_string(), "retmode".to_string()]);
    }
    named
}

/// A PUG REST request as one sequence of path segments, the identifiers spliced back after
/// the namespace segment that names them when they travelled in a body or a query argument.
fn pug_sequence(path: &str, params: &mut Vec<(String, String)>) -> Vec<String> {
    let tail = path.split("/rest/pug/").nth(1).unwrap_or(path);
    let mut segs: Vec<String> = tail
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode(s, false))
        .collect();
    let mut i = 0;
    while i < params.len() {
        let key = params[i].0.clone();
        match segs.iter().position(|s| *s == key) {
            Some(at) if segs.get(at + 1).is_none_or(|n| n != &params[i].1) => {
                let (_, value) = params.remove(i);
                segs.insert(at + 1, value);
            }
            _ => i += 1,
        }
    }
    segs
}

fn compare(
    label: &str,
    corpus: &str,
    entry: &Value,
    recorded: &str,
    result: &Value,
) -> Result<(), String> {
    let documented = request_parts(
        entry["method"].as_str().unwrap_or("GET"),
        entry["url"].as_str().unwrap(),
        entry["body"].as_str().unwrap_or(""),
    );
    let (_, sent_path, mut sent_params) = sent(recorded);
    let (_, doc_path, mut doc_params) = documented;
    let named = chosen(result);
    let mut problems = Vec::new();
    match corpus {
        "pugrest" => {
            let ours = pug_sequence(&sent_path, &mut sent_params);
            let theirs = pug_sequence(&doc_path, &mut doc_params);
            let output_chosen = named.iter().any(|n| n == "output");
            let (mut a, mut b) = (ours.clone(), theirs.clone());
            if output_chosen && a.len() == b.len() + 1 {
                a.pop(); // the output format the server chose, named in its warning
            }
            a.iter_mut().chain(b.iter_mut()).for_each(|s| {
                if [
                    "xml", "json", "jsonp", "csv", "txt", "sdf", "png", "asnt", "asnb",
                ]
                .contains(&s.to_ascii_lowercase().as_str())
                {
                    *s = s.to_ascii_uppercase();
                }
            });
            if a != b {
                problems.push(format!("path {ours:?}, documented {theirs:?}"));
            }
        }
        "eutils" => {
            let utility = |p: &str| p.rsplit('/').next().unwrap_or("").to_string();
            if utility(&sent_path) != utility(&doc_path) {
                problems.push(format!(
                    "utility {} vs {}",
                    utility(&sent_path),
                    utility(&doc_path)
                ));
            }
            let fold = |v: &mut Vec<(String, String)>| {
                for (k, val) in v.iter_mut() {
                    if matches!(k.as_str(), "db" | "dbfrom") {
                        *val = val.to_ascii_lowercase();
                    }
                }
            };
            fold(&mut sent_params);
            fold(&mut doc_params);
            let u = utility(&sent_path);
            let documents = |k: &str| doc_params.iter().any(|(x, _)| x == k);
            let value = |k: &str| {
                sent_params
                    .iter()
                    .find(|(x, _)| x == k)
                    .map(|(_, v)| v.clone())
            };
            let sole = (u == "efetch.fcgi")
                .then(|| {
                    sole_retmode(
                        &value("db").unwrap_or_default(),
                        value("rettype").as_deref(),
                    )
                })
                .flatten();
            sent_params.retain(|(k, v)| {
                let default = EUTILS_DEFAULTS
                    .iter()
                    .any(|(ut, dk, dv)| *ut == u && k == dk && v == dv)
                    || (k == "retmode" && sole == Some(v.as_str()));
                !default || documents(k)
            });
        }
        _ => {
            // PMC: the service's own path words after the configured base, then the query.
            let words = |p: &str| {
                p.rsplit('/')
                    .filter(|s| !s.is_empty())
                    .take(3)
                    .map(String::from)
                    .collect::<Vec<_>>()
            };
            if corpus == "pmc"
                && entry["call"]["arguments"]["operation"] == "bioc"
                && words(&sent_path) != words(&doc_path)
            {
                problems.push(format!("path {sent_path} vs {doc_path}"));
            }
        }
    }
    let count = |v: &[(String, String)]| {
        let mut m: BTreeMap<(String, String), usize> = BTreeMap::new();
        for p in v {
            *m.entry(p.clone()).or_default() += 1;
        }
        m
    };
    let (ours, theirs) = (count(&sent_params), count(&doc_params));
    for (pair, n) in ours.iter() {
        if theirs.get(pair) != Some(n) && !named.contains(&pair.0) {
            problems.push(format!(
                "sent {}={} ({n}×) that the documentation does not",
                pair.0, pair.1
            ));
        }
    }
    for (pair, n) in theirs.iter() {
        if ours.get(pair) != Some(n) && !named.contains(&pair.0) {
            problems.push(format!("documented {}={} ({n}×) not sent", pair.0, pair.1));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{label}: {}\n    sent {recorded}",
            problems.join("; ")
        ))
    }
}

#[test]
fn the_corpus_is_large_and_sourced() {
    let all = entries();
    assert!(all.len() >= 150, "{} entries", all.len());
    for (_, e) in &all {
        assert!(
            e["source"]["url"]
                .as_str()
                .is_some_and(|u| u.starts_with("http")),
            "{e}"
        );
        assert!(
            e["documented"].as_str().is_some_and(|d| !d.is_empty()),
            "{e}"
        );
    }
    let valid = all.iter().filter(|(_, e)| e["status"] == "valid").count();
    assert!(valid >= 150, "{valid} valid entries");
}

#[test]
fn every_documented_call_is_valid_and_sent_as_documented() {
    let (s, recording) = server();
    let mut failures = Vec::new();
    let mut compared = 0;
    for (corpus, entry) in entries() {
        if entry["status"] != "valid" {
            continue;
        }
        let id = entry["id"].as_str().unwrap();
        let tool = entry["call"]["tool"].as_str().unwrap();
        let args = entry["call"]["arguments"].clone();
        let label = format!("{id} ({})", entry["documented"].as_str().unwrap());
        let v = call_tool_with(
            &s,
            "validate",
            json!({"tool": tool, "arguments": args}),
            &ctx(),
        );
        let sc = &v["structuredContent"];
        if sc["valid"] != true {
            failures.push(format!("{label}: validate says {}", sc["errors"]));
            continue;
        }
        recording.take();
        let result = call_tool_with(&s, tool, args.clone(), &ctx());
        let requests = recording.take();
        let Some(first) = requests.first() else {
            failures.push(format!(
                "{label}: nothing was sent: {}",
                result["structuredContent"]
            ));
            continue;
        };
        // NCBI retired the OA web service in August 2026: by id, its successor is PMC's
        // Cloud Service, whose listing of the article's version folders comes first.
        let url = entry["url"].as_str().unwrap_or("");
        if let Some((_, id)) = url.split_once("oa.fcgi?id=") {
            let listing = format!(
                "https://pmc-oa-opendata.s3.amazonaws.com/?list-type=2&prefix={id}.&delimiter=%2F"
            );
            if first.contains(&listing) {
                compared += 1;
            } else {
                failures.push(format!(
                    "{label}: sent {first}, not the Cloud Service's {listing}"
                ));
            }
            continue;
        }
        match compare(&label, &corpus, &entry, first, &result) {
            Ok(()) => compared += 1,
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the documented calls differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 150, "only {compared} compared");
}

#[test]
fn retired_examples_are_refused_or_answered_by_their_successor() {
    let (s, recording) = server();
    for (_, entry) in entries() {
        if entry["status"] != "retired" || entry["call"].is_null() {
            continue;
        }
        let tool = entry["call"]["tool"].as_str().unwrap();
        let args = entry["call"]["arguments"].clone();
        let label = entry["id"].as_str().unwrap();
        let v = call_tool_with(
            &s,
            "validate",
            json!({"tool": tool, "arguments": args}),
            &ctx(),
        );
        let sc = &v["structuredContent"];
        if args["operation"] == "global_query" {
            // EGQuery's documented successor: one count search per database.
            assert_eq!(sc["valid"], true, "{label}: {sc}");
            recording.take();
            call_tool_with(&s, tool, args.clone(), &ctx());
            let sent = recording.take();
            assert!(
                sent.iter()
                    .all(|r| r.contains("esearch.fcgi") && r.contains("rettype=count")),
                "{label}: {sent:?}"
            );
        } else {
            assert_eq!(sc["valid"], false, "{label}: {sc}");
            let codes: Vec<&str> = sc["details"]["errors"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|e| e["code"].as_str())
                .collect();
            assert!(
                codes
                    .iter()
                    .any(|c| *c == "retired_database" || *c == "invalid_database"),
                "{label}: {codes:?}"
            );
        }
    }
}
