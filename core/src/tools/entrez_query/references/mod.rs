//! `check_references`: a reference list checked against PubMed, one verdict per reference.
//!
//! Each reference ([`input::Reference`]) is looked up the cheapest way NCBI offers, in as few
//! requests as the list allows: one ECitMatch for every reference with journal, year and
//! volume or page; one search for every DOI (`"…"[doi] OR …`); a title search for each of
//! the rest; then one ESummary for every candidate found. Each candidate is compared with
//! what the reference says ([`compare`]): `verified` when it agrees, `mismatch` when an id
//! or a citation points at a record whose title, year or first author disagree (the usual
//! sign of a made-up citation), `ambiguous` with candidates, `not_found`, or `invalid`
//! input. Each record's `integrity` comes with its verdict, so a verified but retracted
//! paper is seen at once. A list that outlasts the call's requests is answered for what was
//! checked, with `next_call` for the rest.

pub mod compare;
pub mod input;
pub mod read;

use crate::error::Result;
use crate::framework::budget;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::parse;
use crate::parse::pubmed::integrity::Flag;
use crate::tools::entrez_query::call::{
    CheckReferences, Citation, CitationMatch, Records, ReplyMode, Search, Summary,
};
use crate::tools::entrez_query::plan;
use compare::{Candidate, Comparison};
use input::Reference;
use serde_json::Value;
use std::collections::BTreeMap;

/// How a reference's candidate was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    /// The PMID it names.
    Pmid,
    /// The DOI it names.
    Doi,
    /// ECitMatch, on journal, year, volume, first page and author.
    CitationMatch,
    /// A search of its title words.
    Title,
}

impl Route {
    fn name(self) -> &'static str {
        match self {
            Route::Pmid => "pmid",
            Route::Doi => "doi",
            Route::CitationMatch => "citation_match",
            Route::Title => "title_search",
        }
    }
}

/// What the lookups found for one reference.
#[derive(Debug, Clone, Default)]
struct Found {
    route: Option<Route>,
    candidates: Vec<String>,
    /// ECitMatch's own word when it found no single article ("AMBIGUOUS (5 citations)").
    said: Option<String>,
    /// Not looked up in this call: its requests ran out first, or a lookup failed (why).
    unchecked: bool,
    /// Why its lookup failed, when it did.
    failed: Option<String>,
}

/// The most candidates a title search brings back for one reference.
const TITLE_CANDIDATES: u64 = 5;
/// The most ids one JSON ESummary takes (NCBI refuses more).
const SUMMARY_BATCH: usize = 500;

/// Checks the references of `call` and answers one verdict per reference.
pub async fn check_references(ctx: &ToolContext<'_>, call: &CheckReferences) -> Result<ToolOutput> {
    let refs = &call.references;
    let client = ctx.entrez()?;
    let limits = ctx.staging.map(|s| s.limits).unwrap_or_default();
    // Every request may be tried up to the client's attempts, each counted against the
    // call's subrequests (the Workers Free plan allows 50); one is kept for each summary batch.
    let attempts = u64::from(crate::net::retry::RetryPolicy::default().max_attempts).max(1);
    let mut requests_left = (limits.subrequests / attempts).max(3);
    let mut found: Vec<Found> = vec![Found::default(); refs.len()];
    let mut warnings = Vec::new();
    let mut sent = 0u64;
    let mut first_error: Option<crate::error::Error> = None;
    let live = |r: &Reference| r.invalid.is_none();

    // PMIDs given: straight to the summaries.
    for (i, r) in refs.iter().enumerate().filter(|(_, r)| live(r)) {
        if let Some(p) = &r.pmid {
            found[i] = Found {
                route: Some(Route::Pmid),
                candidates: vec![p.clone()],
                ..Found::default()
            };
        }
    }
    // One ECitMatch for every citable reference without an id.
    let citable: Vec<usize> = (0..refs.len())
        .filter(|&i| {
            live(&refs[i]) && found[i].route.is_none() && refs[i].doi.is_none() && refs[i].citable()
        })
        .collect();
    if !citable.is_empty() && requests_left > 1 {
        let lines: Vec<Citation> = citable
            .iter()
            .map(|&i| citation_line(&refs[i], i))
            .collect();
        let request = plan::citation_match(&CitationMatch {
            citations: lines,
            retmode: Some("xml".into()),
            rettype: None,
        });
        requests_left -= 1;
        sent += 1;
        match client.send(&request).await {
            Ok(reply) => {
                let text = String::from_utf8_lossy(&reply.body);
                for m in parse::ecitmatch::parse_ecitmatch(&text) {
                    let Some(i) = m
                        .key
                        .strip_prefix('k')
                        .and_then(|k| k.parse::<usize>().ok())
                    else {
                        continue;
                    };
                    if !citable.contains(&i) {
                        continue;
                    }
                    match &m.pmid {
                        Some(p) => {
                            found[i] = Found {
                                route: Some(Route::CitationMatch),
                                candidates: vec![p.clone()],
                                ..Found::default()
                            }
                        }
                        None => found[i].said = m.detail.clone().or(Some("NOT_FOUND".into())),
                    }
                }
            }
            Err(e) => {
                // Those with a title are searched by title below; the others cannot be checked.
                for &i in citable.iter().filter(|&&i| refs[i].title.is_none()) {
                    found[i].failed = Some(format!("ECitMatch failed: {}", e.message));
                }
                warnings.push(format!("ECitMatch could not be asked ({}); those references with a title were searched by title instead.", e.message));
                first_error.get_or_insert(e);
            }
        }
        progress(ctx, sent, "citations matched");
    }
    // One search for every DOI.
    let with_doi: Vec<usize> = (0..refs.len())
        .filter(|&i| live(&refs[i]) && found[i].route.is_none() && refs[i].doi.is_some())
        .collect();
    if !with_doi.is_empty() && requests_left > 1 {
        let term = doi_term(with_doi.iter().filter_map(|&i| refs[i].doi.as_deref()));
        requests_left -= 1;
        sent += 1;
        match search_ids(ctx, &term, (with_doi.len() as u64) * 2).await {
            Ok(ids) => {
                for &i in &with_doi {
                    // Which PMID is whose DOI is read from the summaries below.
                    found[i] = Found {
                        route: Some(Route::Doi),
                        candidates: ids.clone(),
                        ..Found::default()
                    };
                }
            }
            Err(e) => {
                for &i in &with_doi {
                    found[i].failed = Some(format!("the DOI search failed: {}", e.message));
                }
                first_error.get_or_insert(e);
            }
        }
        progress(ctx, sent, "DOIs searched");
    }
    // A title search for each of the rest.
    for i in 0..refs.len() {
        let r = &refs[i];
        if !live(r) || found[i].route.is_some() || found[i].failed.is_some() {
            continue;
        }
        let Some(term) = r.title.as_deref().and_then(title_term) else {
            continue;
        };
        if requests_left <= 1 {
            found[i].unchecked = true;
            continue;
        }
        requests_left -= 1;
        sent += 1;
        match search_ids(ctx, &term, TITLE_CANDIDATES).await {
            Ok(ids) => {
                found[i] = Found {
                    route: Some(Route::Title),
                    candidates: ids,
                    said: found[i].said.take(),
                    ..Found::default()
                }
            }
            Err(e) => {
                found[i].failed = Some(format!("the title search failed: {}", e.message));
                first_error.get_or_insert(e);
            }
        }
        progress(ctx, sent, "titles searched");
    }
    // One summary for every candidate.
    let mut wanted: Vec<String> = found
        .iter()
        .flat_map(|f| f.candidates.iter().cloned())
        .collect();
    wanted.sort();
    wanted.dedup();
    let mut docs: BTreeMap<String, Candidate> = BTreeMap::new();
    for batch in wanted.chunks(SUMMARY_BATCH) {
        sent += 1;
        let request = plan::summary(&Summary {
            database: "pubmed".into(),
            records: Records::Ids {
                ids: batch.to_vec(),
            },
            retmode: ReplyMode::Json,
            version: None,
            max_records: SUMMARY_BATCH,
            view: Default::default(),
        });
        match client.send(&request).await {
            Ok(reply) => {
                let parsed = parse::esummary::parse_esummary_json(&reply.body)?;
                for d in &parsed.docs {
                    docs.insert(d.uid.clone(), Candidate::of(d));
                }
            }
            Err(e) => {
                for f in found
                    .iter_mut()
                    .filter(|f| f.candidates.iter().any(|c| batch.contains(c)))
                {
                    f.failed = Some(format!(
                        "the candidates' summaries could not be read: {}",
                        e.message
                    ));
                }
                first_error.get_or_insert(e);
            }
        }
        progress(ctx, sent, "candidates read");
    }
    // Nothing checked for want of NCBI: that is the answer, not a list of unchecked verdicts.
    let checked = refs
        .iter()
        .zip(&found)
        .any(|(r, f)| live(r) && !f.unchecked && f.failed.is_none());
    if let (false, Some(e)) = (checked, first_error) {
        return Err(e);
    }
    // The verdicts.
    let results: Vec<Value> = refs
        .iter()
        .zip(&found)
        .map(|(r, f)| verdict(r, f, &docs))
        .collect();
    Ok(answer(call, results, warnings, sent))
}

/// An ECitMatch line for reference `i`, keyed `k<i>` so the answer finds its way back.
pub fn citation_line(r: &Reference, i: usize) -> Citation {
    let clean = |s: &str| s.replace(['|', '\r', '\n'], " ");
    Citation {
        journal: clean(r.journal.as_deref().unwrap_or("")),
        year: r.year.map(|y| y.to_string()).unwrap_or_default(),
        volume: clean(r.volume.as_deref().unwrap_or("")),
        first_page: clean(r.first_page.as_deref().unwrap_or("")),
        author: r
            .authors
            .first()
            .map(|a| a.to_ascii_lowercase())
            .unwrap_or_default(),
        key: format!("k{i}"),
    }
}

/// One search for several DOIs: each quoted (DOIs hold parentheses and semicolons) and
/// tagged `[doi]`, ORed.
pub fn doi_term<'a>(dois: impl Iterator<Item = &'a str>) -> String {
    dois.map(|d| format!("\"{d}\"[doi]"))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// A title as a PubMed search: its longest words, each `[ti]`, ANDed (punctuation and
/// word order do not then matter); None for a title without words to search.
pub fn title_term(title: &str) -> Option<String> {
    let mut words: Vec<String> = title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 4)
        .map(|w| w.to_lowercase())
        .collect();
    words.dedup();
    if words.is_empty() {
        return None;
    }
    // The longest ten: distinctive enough, short enough for the query's length.
    let mut by_length = words.clone();
    by_length.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    by_length.truncate(10);
    let kept: Vec<String> = words
        .into_iter()
        .filter(|w| by_length.contains(w))
        .collect();
    Some(
        kept.iter()
            .map(|w| format!("{w}[ti]"))
            .collect::<Vec<_>>()
            .join(" AND "),
    )
}

/// The PMIDs a PubMed search returns, at most `retmax`.
async fn search_ids(ctx: &ToolContext<'_>, term: &str, retmax: u64) -> Result<Vec<String>> {
    let search = Search::ids_of("pubmed", term.to_string(), retmax);
    let reply = ctx.entrez()?.send(&plan::search(&search)).await?;
    Ok(parse::esearch::parse_esearch_xml(&reply.body)?.ids)
}

fn progress(ctx: &ToolContext<'_>, sent: u64, what: &str) {
    if let Some(p) = ctx.progress {
        p.report(sent as f64, None, &format!("{what} ({sent} requests)"));
    }
}

/// One reference's verdict and its evidence.
fn verdict(r: &Reference, f: &Found, docs: &BTreeMap<String, Candidate>) -> Value {
    let mut out = json!({"key": r.key});
    let given = serde_json::to_value(r).unwrap_or(Value::Null);
    if let Some(why) = &r.invalid {
        out["verdict"] = json!("invalid");
        out["message"] = json!(why);
        out["given"] = given;
        return out;
    }
    if f.unchecked || f.failed.is_some() {
        out["verdict"] = json!("unchecked");
        out["message"] = json!(match &f.failed {
            Some(why) => format!("Not checked: {why}; next_call tries it again."),
            None =>
                "Not checked in this call: its requests ran out first; next_call checks it.".into(),
        });
        return out;
    }
    let route = f.route;
    out["matched_by"] = json!(route.map(Route::name));
    let candidates: Vec<&Candidate> = f.candidates.iter().filter_map(|p| docs.get(p)).collect();
    let (verdict, chosen, message): (&str, Option<(&Candidate, Comparison)>, String) = match route {
        None => match &f.said {
            Some(said) if said.starts_with("AMBIGUOUS") => ("ambiguous", None, format!("ECitMatch: {said}; add the title or the first author.")),
            Some(said) => ("not_found", None, format!("No PubMed record matches (ECitMatch: {said}), and there was no title to search.")),
            None => ("not_found", None, "Nothing in the reference could be looked up: give a title, a DOI, a PMID, or journal, year, volume and first page.".into()),
        },
        Some(Route::Pmid | Route::CitationMatch) => match candidates.first() {
            None => ("not_found", None, match route {
                Some(Route::Pmid) => format!("PMID {} is not in PubMed.", f.candidates.first().map_or("", String::as_str)),
                _ => "ECitMatch named a record PubMed could not summarize.".into(),
            }),
            Some(c) => decided(r, c, match route {
                Some(Route::Pmid) => "its PMID",
                _ => "its journal, year, volume and page (ECitMatch)",
            }),
        },
        Some(Route::Doi) => {
            let doi = r.doi.as_deref().unwrap_or("");
            let owners: Vec<&&Candidate> = candidates.iter().filter(|c| c.doi.as_deref().is_some_and(|d| d.eq_ignore_ascii_case(doi))).collect();
            match owners.as_slice() {
                [] => ("not_found", None, format!("No PubMed record has the DOI {doi}.")),
                [c] => decided(r, c, "its DOI"),
                _ => ("ambiguous", None, format!("{} PubMed records carry the DOI {doi}.", owners.len())),
            }
        }
        Some(Route::Title) => by_title(r, &candidates),
    };
    out["verdict"] = json!(verdict);
    if let Some((c, cmp)) = &chosen {
        out["pmid"] = json!(c.pmid);
        out["doi"] = json!(c.doi);
        out["pmcid"] = json!(c.pmcid);
        out["title"] = json!(c.title);
        out["citation"] = json!(c.citation());
        out["agreed"] = json!(cmp.agreed);
        out["disagreed"] = json!(cmp.disagreed);
        out["title_similarity"] = json!(cmp.title_similarity);
        out["integrity"] = serde_json::to_value(&c.integrity).unwrap_or(Value::Null);
    }
    if verdict == "ambiguous" && chosen.is_none() {
        let listed: Vec<Value> = candidates
            .iter()
            .map(|c| json!({"pmid": c.pmid, "title": c.title, "citation": c.citation(), "title_similarity": compare::compare(r, c).title_similarity}))
            .collect();
        out["candidates"] = json!(listed);
    }
    out["message"] = json!(message);
    out
}

/// The verdict on the one record an id or a citation points at.
fn decided<'a>(
    r: &Reference,
    c: &'a Candidate,
    how: &str,
) -> (&'static str, Option<(&'a Candidate, Comparison)>, String) {
    let cmp = compare::compare(r, c);
    if cmp.disagreed.is_empty() {
        let then = match cmp.agreed.as_slice() {
            [] => "the reference says nothing else to compare".to_string(),
            fields => format!("it agrees on {}", fields.join(", ")),
        };
        (
            "verified",
            Some((c, cmp)),
            format!("PMID {}, found by {how}: {then}.", c.pmid),
        )
    } else {
        let fields = cmp.disagreed.join(", ");
        ("mismatch", Some((c, cmp)), format!(
            "PMID {} exists, but its {fields} disagree with the reference: the citation may be wrong or made up.",
            c.pmid
        ))
    }
}

/// The verdict among a title search's candidates.
fn by_title<'a>(
    r: &Reference,
    candidates: &[&'a Candidate],
) -> (&'static str, Option<(&'a Candidate, Comparison)>, String) {
    let mut scored: Vec<(&Candidate, Comparison)> = candidates
        .iter()
        .map(|c| (*c, compare::compare(r, c)))
        .collect();
    scored.sort_by(|a, b| b.1.title_similarity.total_cmp(&a.1.title_similarity));
    let close: Vec<&(&Candidate, Comparison)> = scored
        .iter()
        .filter(|(_, c)| c.title_similarity >= compare::SAME_TITLE)
        .collect();
    match close.as_slice() {
        [] if scored
            .first()
            .is_some_and(|(_, c)| c.title_similarity >= compare::LIKE_TITLE) =>
        {
            (
                "ambiguous",
                None,
                "No record has this title; the closest are listed.".into(),
            )
        }
        [] => (
            "not_found",
            None,
            "No PubMed record has a title like this one.".into(),
        ),
        [(c, cmp)] if cmp.disagreed.is_empty() => (
            "verified",
            Some((*c, cmp.clone())),
            format!("Found by title: PMID {}.", c.pmid),
        ),
        [(c, cmp)] => {
            let fields = cmp.disagreed.join(", ");
            (
                "mismatch",
                Some((*c, cmp.clone())),
                format!(
                    "The title is PMID {}'s, but its {fields} disagree with the reference.",
                    c.pmid
                ),
            )
        }
        several => {
            // Several records share the title: the one whose other fields all agree, if one.
            let agreeing: Vec<&&(&Candidate, Comparison)> = several
                .iter()
                .filter(|(_, c)| c.disagreed.is_empty() && !c.agreed.iter().all(|f| *f == "title"))
                .collect();
            match agreeing.as_slice() {
                [(c, cmp)] => (
                    "verified",
                    Some((*c, cmp.clone())),
                    format!("Found by title, year and authors: PMID {}.", c.pmid),
                ),
                _ => (
                    "ambiguous",
                    None,
                    format!(
                        "{} records have this title; add the year or the first author.",
                        several.len()
                    ),
                ),
            }
        }
    }
}

/// The result: one entry per reference, the counts, and the call for what was not checked.
fn answer(
    call: &CheckReferences,
    results: Vec<Value>,
    mut warnings: Vec<String>,
    sent: u64,
) -> ToolOutput {
    let mut counts: BTreeMap<&str, u64> = [
        "verified",
        "mismatch",
        "ambiguous",
        "not_found",
        "invalid",
        "unchecked",
    ]
    .into_iter()
    .map(|k| (k, 0))
    .collect();
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
        if flags.contains(&Flag::Retracted.name()) {
            retracted.push(format!(
                "{} (PMID {})",
                r["key"].as_str().unwrap_or(""),
                r["pmid"].as_str().unwrap_or("")
            ));
        }
    }
    let line = format!(
        "Checked {} references: {} verified, {} mismatch, {} ambiguous, {} not found, {} invalid{}{}.",
        results.len(),
        counts["verified"],
        counts["mismatch"],
        counts["ambiguous"],
        counts["not_found"],
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
        .map(|(given, _)| serde_json::to_value(given).unwrap_or(Value::Null))
        .collect();
    let next_call = (!unchecked.is_empty()).then(|| {
        json!({"tool": "entrez_query", "arguments": {"operation": "check_references", "references": unchecked}})
    });
    let summary = json!({
        "verified": counts["verified"], "mismatch": counts["mismatch"], "ambiguous": counts["ambiguous"],
        "not_found": counts["not_found"], "invalid": counts["invalid"], "unchecked": counts["unchecked"],
        "retracted": retracted.len(),
    });
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
    let rest: Vec<Value> = call.references[fitted.shown..]
        .iter()
        .map(|r| serde_json::to_value(r).unwrap_or(Value::Null))
        .collect();
    let again = (!rest.is_empty()).then(|| {
        let mut a = serde_json::Map::new();
        a.insert("operation".into(), json!("check_references"));
        a.insert("references".into(), json!(rest));
        budget::next_call("entrez_query", a, &call.view)
    });
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
