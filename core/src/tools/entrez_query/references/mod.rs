//! `check_references`: a reference list checked against PubMed, one verdict per reference.
//!
//! Each reference is read at the door ([`input`], [`read`]), looked up in as few requests as
//! the list allows ([`lookup`]: one ECitMatch, one identifier search, batched title
//! searches, one ESummary a round), and judged field by field ([`compare`], [`verdict`]):
//! `verified`, `mismatch` (naming the paper an identifier, title or citation really
//! belongs to), `ambiguous` with candidates, `not_found`, `unreadable`, `invalid`, or
//! `unchecked` with a `next_call`. Each record's `integrity` comes with its verdict.

pub mod authors;
pub mod compare;
pub mod fold;
pub mod identifiers;
pub mod input;
pub mod lookup;
pub mod parts;
pub mod read;
pub mod tagged;
pub mod verdict;

use crate::error::Result;
use crate::framework::budget;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::parse::pubmed::integrity::Flag;
use crate::tools::entrez_query::call::CheckReferences;
pub use lookup::{batch_term, citation_line, doi_term, id_term, loose_term, title_term};
use serde_json::Value;
use std::collections::BTreeMap;

/// Every verdict, in the order the summary counts them.
pub const VERDICTS: [&str; 7] = [
    "verified",
    "mismatch",
    "ambiguous",
    "not_found",
    "unreadable",
    "invalid",
    "unchecked",
];

/// Checks the references of `call` and answers one verdict per reference.
pub async fn check_references(ctx: &ToolContext<'_>, call: &CheckReferences) -> Result<ToolOutput> {
    let refs = &call.references;
    // Every request may be tried up to the client's attempts, each counted against the
    // call's subrequests (the Workers Free plan allows 50).
    let attempts = crate::net::retry::RetryPolicy::default().max_attempts;
    let one = crate::allowance::Need::default().requests(0, 1, attempts);
    let requests = ctx.allowance().fits(&one).max(3);
    let looked = lookup::run(ctx, refs, requests).await?;
    // Nothing checked for want of NCBI: that is the answer, not a list of unchecked verdicts.
    let checked = refs
        .iter()
        .zip(&looked.found)
        .any(|(r, f)| r.invalid.is_none() && !r.unread() && !f.unchecked && f.failed.is_none());
    let any_live = refs.iter().any(|r| r.invalid.is_none() && !r.unread());
    if let (false, true, Some(e)) = (checked, any_live, looked.first_error) {
        return Err(e);
    }
    let results: Vec<Value> = refs
        .iter()
        .zip(&looked.found)
        .map(|(r, f)| verdict::verdict(r, f, &looked.docs))
        .collect();
    Ok(answer(call, results, looked.warnings, looked.sent))
}

/// The result: one entry per reference, the counts, and the call for what was not checked.
fn answer(
    call: &CheckReferences,
    results: Vec<Value>,
    mut warnings: Vec<String>,
    sent: u64,
) -> ToolOutput {
    let mut counts: BTreeMap<&str, u64> = VERDICTS.into_iter().map(|k| (k, 0)).collect();
    let mut retracted = Vec::new();
    for r in &results {
        if let Some(v) = r["verdict"].as_str() {
            *counts.entry(v).or_insert(0) += 1;
        }
        let flags: Vec<&str> = r["integrity"]["flags"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        // The paper meant: a verified one, or the one a mismatch's title or citation names
        // (an identifier's record may be another paper the citation borrowed the id of).
        let meant = r["verdict"] == "verified"
            || (r["verdict"] == "mismatch"
                && matches!(
                    r["matched_by"].as_str(),
                    Some("title_search" | "citation_match")
                ));
        if meant && flags.contains(&Flag::Retracted.name()) {
            retracted.push(format!(
                "{} (PMID {})",
                r["key"].as_str().unwrap_or(""),
                r["pmid"].as_str().unwrap_or("")
            ));
        }
    }
    let line = format!(
        "Checked {} references: {} verified, {} mismatch, {} ambiguous, {} not found, {}{} invalid{}{}.",
        results.len(),
        counts["verified"],
        counts["mismatch"],
        counts["ambiguous"],
        counts["not_found"],
        if counts["unreadable"] > 0 { format!("{} unreadable, ", counts["unreadable"]) } else { String::new() },
        counts["invalid"],
        if counts["unchecked"] > 0 { format!(", {} unchecked (next_call checks them)", counts["unchecked"]) } else { String::new() },
        if retracted.is_empty() { String::new() } else { format!("; RETRACTED: {}", retracted.join(", ")) },
    );
    if !retracted.is_empty() {
        let verb = if retracted.len() == 1 { "is" } else { "are" };
        warnings.insert(0, format!(
            "{} of the {} references {verb} RETRACTED: {}. A retracted paper is not evidence for what it reported.",
            retracted.len(),
            results.len(),
            retracted.join(", ")
        ));
    }
    let unchecked: Vec<Value> = call
        .references
        .iter()
        .zip(&results)
        .filter(|(_, r)| r["verdict"] == "unchecked")
        .map(|(given, _)| given.given.clone())
        .collect();
    let next_call = (!unchecked.is_empty()).then(|| {
        json!({"tool": "entrez_query", "arguments": {"operation": "check_references", "references": unchecked}})
    });
    let mut summary = json!({"retracted": retracted.len()});
    for (k, n) in &counts {
        summary[*k] = json!(n);
    }
    let mut fitted = budget::fit(results.len(), call.view.max_characters, |k| {
        let structured = json!({
            "operation": "check_references", "count": results.len(), "requests": sent,
            "summary": &summary, "references": results[..k], "warnings": &warnings,
            "next_call": &next_call,
        });
        let text = render(&line, &results[..k], &warnings);
        (structured, text)
    });
    let (structured, text) = fitted.take();
    let out = ToolOutput::new(structured, text);
    let left: Vec<String> = results[fitted.shown..]
        .iter()
        .filter_map(|r| r["key"].as_str().map(String::from))
        .collect();
    // The references left out, and the unchecked among those shown, exactly as the caller
    // gave them (the input schema takes them): one next_call finishes the list.
    let rest: Vec<Value> = call.references[..fitted.shown]
        .iter()
        .zip(&results)
        .filter(|(_, r)| r["verdict"] == "unchecked")
        .map(|(given, _)| given.given.clone())
        .chain(
            call.references[fitted.shown..]
                .iter()
                .map(|r| r.given.clone()),
        )
        .collect();
    let again = (fitted.shown < results.len()).then(|| {
        let mut a = serde_json::Map::new();
        a.insert("operation".into(), json!("check_references"));
        a.insert("references".into(), json!(rest));
        budget::next_call("entrez_query", a, &call.view)
    });
    // A cut answer's one next_call is budget.next_call (the unchecked shown are in it too).
    let mut out = out;
    if let (Some(_), Value::Object(map)) = (&again, &mut out.structured) {
        map.insert("next_call".into(), Value::Null);
    }
    budget::left_out(
        out,
        &fitted,
        call.view.max_characters,
        "references",
        &left,
        again,
    )
}

/// The text block: the counts, then one line (or two) per reference.
fn render(line: &str, results: &[Value], warnings: &[String]) -> String {
    let mut out = format!("{line}\n");
    for (i, r) in results.iter().enumerate() {
        let s = |k: &str| r[k].as_str().unwrap_or("");
        let verdict = s("verdict").to_ascii_uppercase().replace('_', " ");
        out.push_str(&format!("{}. [{verdict}] {}", i + 1, s("key")));
        if !s("pmid").is_empty() {
            out.push_str(&format!(" → PMID {} · {}", s("pmid"), s("citation")));
        }
        out.push('\n');
        if let Some(h) = r["integrity"]["headline"].as_str() {
            out.push_str(&format!("   {h}\n"));
        }
        if !s("message").is_empty() {
            out.push_str(&format!("   {}\n", s("message")));
        }
        for c in r["candidates"].as_array().into_iter().flatten().take(5) {
            out.push_str(&format!(
                "   candidate PMID {}: {}\n",
                c["pmid"].as_str().unwrap_or(""),
                c["citation"].as_str().unwrap_or("")
            ));
        }
    }
    for w in warnings {
        out.push_str(&format!("Warning: {w}\n"));
    }
    out
}
