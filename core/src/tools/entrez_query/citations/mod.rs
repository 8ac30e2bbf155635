//! `citations`: for each PMID, who cites it and what it cites, with its metrics.
//!
//! The links and metrics come from [`crate::citations`] (NIH iCite, 200 PMIDs a request;
//! elink for what iCite lacks or when it fails), the title, year and retraction flag from
//! PubMed's summaries (JSON esummary, 200 a request, #42's integrity). Counts are always
//! given; the id lists as far as the budget allows ([`ID_CAPS`]), with the call that returns
//! the rest. Each paper says its source; an unknown PMID says so on its own line.

use crate::allowance::{Need, CPU_US_PER_CITATION, PER_CALL_US};
use crate::citations::request::ICITE_BATCH;
use crate::citations::{CitationClient, Citations, Paper, Source};
use crate::entrez::{EntrezClient, EutilsRequest, Utility};
use crate::error::{Error, ErrorKind, Result};
use crate::framework::budget;
use crate::framework::view::{Detail, View};
use crate::framework::ToolOutput;
use crate::framework::{KeySource, ToolContext};
use crate::json;
use crate::parse;
use crate::parse::pubmed::integrity::Flag;
use crate::parse::pubmed::Integrity;
use crate::tools::entrez_query::integrity::Flagged;
use crate::tools::entrez_query::operations::{output, to_value};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};

/// Most PMIDs one call takes (five iCite requests, five summaries).
pub const MAX_IDS: usize = 1_000;
/// How many ids of each list a paper shows, tried from the first: the first whose papers
/// all fit the budget is taken.
pub const ID_CAPS: [usize; 7] = [usize::MAX, 1_000, 200, 50, 20, 5, 0];
/// Fields `brief` keeps.
const BRIEF: &[&str] = &[
    "pmid",
    "status",
    "message",
    "title",
    "year",
    "retracted",
    "source",
    "cited_by_count",
    "references_count",
    "relative_citation_ratio",
];
/// Fields `standard` adds to `brief`.
const STANDARD: &[&str] = &["nih_percentile", "cited_by", "references"];
/// Kept whatever `fields` names.
const ALWAYS: &[&str] = &["pmid", "status", "message", "source"];

/// A paper's title, year and integrity, from its PubMed summary.
struct Record {
    title: Option<String>,
    year: Option<u16>,
    integrity: Integrity,
}

/// What PubMed's summaries said of the PMIDs.
#[derive(Default)]
struct Records {
    found: BTreeMap<u64, Record>,
    unknown: BTreeMap<u64, String>,
    failed: Option<Error>,
    requests: u32,
}

/// Answers `citations` for `pmids` (as given: each a PMID, else answered invalid).
pub async fn citations(ctx: &ToolContext<'_>, pmids: &[String], view: &View) -> Result<ToolOutput> {
    // Made a task, more than one batch runs in the background (see `tasks::calls`), where the
    // run acts for nobody: only when it would send the same key the caller's call would.
    let same_key = match ctx.effective_api_key().1 {
        KeySource::ServerSecret => true,
        KeySource::None => ctx.config.api_key.is_none(),
        KeySource::CallerHeader => false,
    };
    if pmids.len() > ICITE_BATCH && same_key {
        if let Some(apart) = crate::framework::as_task::in_background(ctx) {
            return Err(apart);
        }
    }
    let numbers: Vec<Option<u64>> = pmids
        .iter()
        .map(|p| p.trim().parse::<u64>().ok().filter(|n| *n > 0))
        .collect();
    let mut seen = BTreeSet::new();
    let valid: Vec<u64> = numbers
        .iter()
        .flatten()
        .copied()
        .filter(|n| seen.insert(*n))
        .collect();
    // A batch of 200 sends iCite and esummary when all goes well, and at worst elink both
    // ways too (what iCite lacks), each tried as often as the client may: the allowance
    // bounds the batches sent now by that worst case, as a staging counts its batches; and
    // the papers by the CPU their replies take to read (at least one paper a call).
    let attempts = crate::net::retry::RetryPolicy::default().max_attempts;
    let need = Need::default().requests(0, 4, attempts);
    let batches = ctx.allowance().fits(&need).max(1) as usize;
    let by_cpu = ctx
        .allowance()
        .fits(&Need::cpu_us(PER_CALL_US, CPU_US_PER_CITATION))
        .max(1);
    let by_cpu = usize::try_from(by_cpu).unwrap_or(usize::MAX);
    let now_count = valid
        .len()
        .min(batches * ICITE_BATCH)
        .min(by_cpu)
        .min(MAX_IDS);
    let (now, later) = valid.split_at(now_count);
    let client = CitationClient::new(ctx.entrez()?);
    let found = client.lookup(now).await;
    let records = summaries(&ctx.entrez()?, now).await;
    if found.papers.is_empty() && !now.is_empty() {
        if let Some(f) = found.failures.iter().find(|f| f.source == "elink") {
            let kind = if f.code.contains("rate") {
                ErrorKind::RateLimited
            } else {
                ErrorKind::Unavailable
            };
            return Err(Error::new(
                kind,
                format!("No source answered for these PMIDs: {}", sentences(&found)),
            )
            .with_code(f.code.clone())
            .suggest("Retry in a few minutes; iCite and NCBI were both unreachable."));
        }
    }
    let papers = entries(pmids, &numbers, &found, &records);
    Ok(answer(pmids.len(), papers, &found, &records, later, view))
}

/// One esummary (JSON) a batch of 200: titles, years and integrity; ids PubMed says it
/// does not hold are unknown. A failure leaves the flags unknown and is said.
async fn summaries(entrez: &EntrezClient<'_>, pmids: &[u64]) -> Records {
    let mut out = Records::default();
    for batch in pmids.chunks(ICITE_BATCH) {
        let ids: Vec<String> = batch.iter().map(u64::to_string).collect();
        let request = EutilsRequest::new(Utility::Summary)
            .param("db", "pubmed")
            .param("id", ids.join(","))
            .param("retmode", "json");
        out.requests += 1;
        let parsed = match entrez.send(&request).await {
            Ok(reply) => parse::esummary::parse_esummary_json(&reply.body).map_err(Error::from),
            Err(e) => Err(e),
        };
        match parsed {
            Ok(p) => {
                for d in &p.docs {
                    let Ok(pmid) = d.uid.parse::<u64>() else {
                        continue;
                    };
                    let h = parse::esummary::headline(d);
                    let integrity = Integrity::of_summary(&d.fields);
                    out.found.insert(
                        pmid,
                        Record {
                            title: h.title,
                            year: h.year,
                            integrity,
                        },
                    );
                }
                for e in &p.errors {
                    if let Some(pmid) = e.uid.as_deref().and_then(|u| u.parse::<u64>().ok()) {
                        out.unknown.insert(pmid, e.message.clone());
                    }
                }
            }
            Err(e) => {
                out.failed.get_or_insert(e);
            }
        }
    }
    out
}

fn round(x: f64) -> Value {
    json!((x * 100.0).round() / 100.0)
}

fn ids(list: &[u64]) -> Vec<String> {
    list.iter().map(u64::to_string).collect()
}

/// One entry per PMID given, in order, every field at `full` detail.
fn entries(
    given: &[String],
    numbers: &[Option<u64>],
    found: &Citations,
    records: &Records,
) -> Vec<Value> {
    let by_pmid: BTreeMap<u64, &Paper> = found.papers.iter().map(|p| (p.pmid, p)).collect();
    let mut shown = BTreeSet::new();
    let mut out = Vec::new();
    for (raw, n) in given.iter().zip(numbers) {
        let Some(pmid) = *n else {
            out.push(json!({"pmid": raw.trim(), "status": "invalid", "message": "Not a PMID (a positive whole number)."}));
            continue;
        };
        if !shown.insert(pmid) {
            continue;
        }
        if let Some(message) = records.unknown.get(&pmid) {
            // iCite may hold a PMID PubMed has dropped; PubMed's word decides.
            if by_pmid.get(&pmid).is_none_or(|p| p.icite.is_none()) {
                out.push(json!({"pmid": pmid.to_string(), "status": "unknown",
                    "message": format!("PubMed has no record with this PMID ({message}).")}));
                continue;
            }
        }
        let Some(paper) = by_pmid.get(&pmid) else {
            if found.unanswered.contains(&pmid) {
                out.push(json!({"pmid": pmid.to_string(), "status": "failed",
                    "message": "Neither iCite nor PubMed's links could be read for it (see warnings); call again later."}));
            } else {
                out.push(json!({"pmid": pmid.to_string(), "status": "not_looked_up",
                    "message": "Not looked up in this call (the call's allowance of requests and CPU); next_call asks for it."}));
            }
            continue;
        };
        out.push(entry(paper, records.found.get(&pmid)));
    }
    out
}

fn entry(paper: &Paper, record: Option<&Record>) -> Value {
    let mut e = Map::new();
    // A paper found has a source and no status: 200 papers fit the default budget.
    e.insert("pmid".into(), json!(paper.pmid.to_string()));
    let icite = paper.icite.as_ref();
    let title = record
        .and_then(|r| r.title.clone())
        .or_else(|| icite.and_then(|i| i.title.clone()));
    let year = record
        .and_then(|r| r.year.map(u32::from))
        .or_else(|| icite.and_then(|i| i.year));
    e.insert("title".into(), json!(title));
    e.insert("year".into(), json!(year));
    // Unknown (null) without PubMed's summary of it: the summaries failed, or PubMed has
    // no record of a PMID iCite holds.
    let retracted = match record {
        Some(r) => json!(r.integrity.flags.contains(&Flag::Retracted)),
        None => Value::Null,
    };
    e.insert("retracted".into(), retracted);
    e.insert("source".into(), json!(paper.source.name()));
    e.insert("cited_by_count".into(), json!(paper.cited_by.len()));
    e.insert("references_count".into(), json!(paper.references.len()));
    if let Some(i) = icite {
        let metrics = [
            ("relative_citation_ratio", i.relative_citation_ratio),
            ("nih_percentile", i.nih_percentile),
            ("citations_per_year", i.citations_per_year),
            ("expected_citations_per_year", i.expected_citations_per_year),
            ("field_citation_rate", i.field_citation_rate),
            ("apt", i.apt),
        ];
        for (k, v) in metrics {
            e.insert(k.into(), v.map_or(Value::Null, round));
        }
        e.insert("citation_count".into(), json!(i.citation_count));
        e.insert("is_clinical".into(), json!(i.is_clinical));
        e.insert("provisional".into(), json!(i.provisional));
        e.insert("is_research_article".into(), json!(i.is_research_article));
        e.insert("journal".into(), json!(i.journal));
        e.insert("doi".into(), json!(i.doi));
        e.insert("cited_by_clin".into(), json!(ids(&i.cited_by_clin)));
    }
    e.insert("cited_by".into(), json!(ids(&paper.cited_by)));
    e.insert("references".into(), json!(ids(&paper.references)));
    if let Some(r) = record.filter(|r| !r.integrity.flags.is_empty()) {
        e.insert("integrity".into(), to_value(&r.integrity));
    }
    Value::Object(e)
}

/// The entry as the view asks, its id lists cut to `cap`.
fn shaped(full: &Value, view: &View, cap: usize) -> Value {
    let Value::Object(map) = full else {
        return full.clone();
    };
    let wanted = |k: &str| -> bool {
        if ALWAYS.contains(&k) {
            return true;
        }
        if !view.fields.is_empty() {
            return view.fields.iter().any(|f| f == k);
        }
        match view.detail {
            Detail::Brief => BRIEF.contains(&k),
            Detail::Standard => BRIEF.contains(&k) || STANDARD.contains(&k) || k == "integrity",
            Detail::Full => true,
        }
    };
    let mut out = Map::new();
    for (k, v) in map {
        if !wanted(k) {
            continue;
        }
        let list = matches!(k.as_str(), "cited_by" | "references" | "cited_by_clin");
        if list && cap == 0 {
            continue;
        }
        let v = match (k.as_str(), v) {
            ("cited_by" | "references" | "cited_by_clin", Value::Array(a)) if a.len() > cap => {
                Value::Array(a[..cap].to_vec())
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

fn sentences(found: &Citations) -> String {
    found
        .failures
        .iter()
        .map(|f| {
            let instead = match f.fallback {
                Some(s) => format!("; {s} answered instead, without metrics"),
                None => String::new(),
            };
            format!(
                "{} failed for {} PMID(s) ({}: {}){instead}.",
                f.source, f.pmids, f.code, f.message
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The result: the papers within the budget (id lists cut first, then papers), the
/// sources, and the calls for what was left out.
fn answer(
    asked: usize,
    papers: Vec<Value>,
    found: &Citations,
    records: &Records,
    later: &[u64],
    view: &View,
) -> ToolOutput {
    let mut warnings: Vec<String> = Vec::new();
    if !found.failures.is_empty() {
        warnings.push(sentences(found));
    }
    if let Some(e) = &records.failed {
        warnings.push(format!(
            "PubMed's summaries could not be read ({}: {}): titles come from iCite where it answered, and retraction flags are unknown (null).",
            e.code, e.message
        ));
    }
    let flagged = Flagged::of(
        papers
            .iter()
            .filter_map(|p| p["pmid"].as_str())
            .filter_map(|p| Some((p, &records.found.get(&p.parse::<u64>().ok()?)?.integrity))),
    );
    warnings.splice(0..0, flagged.warnings("papers"));
    let count = |s: &str| {
        papers
            .iter()
            .filter(|p| p["status"].as_str().unwrap_or("found") == s)
            .count()
    };
    let by_source = |s: Source| found.papers.iter().filter(|p| p.source == s).count();
    let sources = json!({
        "icite": {"requests": found.icite_requests, "papers": by_source(Source::Icite)},
        "elink": {"requests": found.elink_requests, "papers": by_source(Source::Elink)},
        "esummary": {"requests": records.requests},
    });
    let failures: Vec<Value> = found
        .failures
        .iter()
        .map(|f| json!({"source": f.source, "code": f.code, "message": f.message, "pmids": f.pmids, "fallback": f.fallback}))
        .collect();
    let later_call = (!later.is_empty()).then(|| {
        let mut a = Map::new();
        a.insert("operation".into(), json!("citations"));
        a.insert("ids".into(), json!(ids(later)));
        budget::next_call("entrez_query", a, view)
    });
    let summary = json!({"asked": asked, "found": count("found"), "unknown": count("unknown"),
        "invalid": count("invalid"), "failed": count("failed"), "retracted": flagged.retracted.len()});
    let at_ceiling = view.max_characters >= crate::framework::view::CEILING;
    let mut chosen = None;
    for cap in ID_CAPS {
        let list: Vec<Value> = papers.iter().map(|p| shaped(p, view, cap)).collect();
        let build = |k: usize| {
            let cut: Vec<String> = papers[..k]
                .iter()
                .filter(|p| lists_cut(p, cap))
                .filter_map(|p| p["pmid"].as_str().map(String::from))
                .collect();
            // At the largest budget already, the same call would cut them again: no loop
            // offered, the text points at a network staging instead.
            let ids_call = (!cut.is_empty() && !at_ceiling).then(|| {
                let mut a = Map::new();
                a.insert("operation".into(), json!("citations"));
                a.insert(
                    "ids".into(),
                    json!(budget::next_ids(&cut, view.max_characters)),
                );
                a.insert("fields".into(), json!(["cited_by", "references"]));
                a.insert(
                    "max_characters".into(),
                    json!(crate::framework::view::CEILING),
                );
                json!({"tool": "entrez_query", "arguments": a})
            });
            let mut structured = json!({
                "operation": "citations", "count": k, "summary": &summary, "sources": &sources,
                "failures": &failures, "flagged": flagged.to_value(), "papers": list[..k],
                "ids_cut_to": (cap != usize::MAX && !cut.is_empty()).then_some(cap),
                "ids_next_call": ids_call, "next_call": &later_call, "warnings": &warnings,
            });
            if let Value::Object(m) = &mut structured {
                m.retain(|_, v| !v.is_null());
            }
            let text = render(
                &summary,
                &list[..k],
                (cap, at_ceiling),
                &cut,
                &warnings,
                &later_call,
            );
            (structured, text)
        };
        let fitted = budget::fit(list.len(), view.max_characters, build);
        let whole = fitted.shown == fitted.total && !fitted.cut_first;
        if whole || cap == 0 {
            chosen = Some(fitted);
            break;
        }
    }
    let Some(mut fitted) = chosen else {
        unreachable!("ID_CAPS ends with 0")
    };
    let (structured, text) = fitted.take();
    let out = output(structured, text, None);
    let left: Vec<String> = papers[fitted.shown..]
        .iter()
        .filter_map(|p| p["pmid"].as_str().map(String::from))
        .collect();
    let again = (fitted.shown < fitted.total).then(|| {
        let mut rest = left.clone();
        rest.extend(ids(later));
        let mut a = Map::new();
        a.insert("operation".into(), json!("citations"));
        a.insert("ids".into(), json!(rest));
        budget::next_call("entrez_query", a, view)
    });
    budget::left_out(out, &fitted, view.max_characters, "papers", &left, again)
}

fn lists_cut(p: &Value, cap: usize) -> bool {
    let n = |k: &str| p[k].as_array().map_or(0, Vec::len);
    n("cited_by") > cap || n("references") > cap
}

/// The text block: the counts, then two lines per paper (three or four with ids).
fn render(
    summary: &Value,
    papers: &[Value],
    (cap, at_ceiling): (usize, bool),
    cut: &[String],
    warnings: &[String],
    later: &Option<Value>,
) -> String {
    let n = |k: &str| summary[k].as_u64().unwrap_or(0);
    let mut out = format!(
        "Citations of {} PMID(s): {} found, {} unknown, {} invalid{}{}.\n",
        n("asked"),
        n("found"),
        n("unknown"),
        n("invalid"),
        if n("failed") > 0 {
            format!(", {} failed", n("failed"))
        } else {
            String::new()
        },
        if n("retracted") > 0 {
            format!("; {} RETRACTED", n("retracted"))
        } else {
            String::new()
        },
    );
    for (i, p) in papers.iter().enumerate() {
        let s = |k: &str| p[k].as_str().unwrap_or("");
        out.push_str(&format!("{}. PMID {}", i + 1, s("pmid")));
        if p.get("status").is_some() {
            out.push_str(&format!(
                " [{}] {}\n",
                s("status").to_ascii_uppercase(),
                s("message")
            ));
            continue;
        }
        if let Some(y) = p["year"].as_u64() {
            out.push_str(&format!(" ({y})"));
        }
        if p["retracted"] == true {
            out.push_str(" RETRACTED");
        }
        if !s("title").is_empty() {
            out.push_str(&format!(" {}", s("title")));
        }
        out.push('\n');
        let mut line = Vec::new();
        for (k, label) in [
            ("cited_by_count", "cited by"),
            ("references_count", "cites"),
        ] {
            if let Some(c) = p[k].as_u64() {
                line.push(format!("{label} {c}"));
            }
        }
        if let Some(r) = p["relative_citation_ratio"].as_f64() {
            let pct = p["nih_percentile"]
                .as_f64()
                .map(|x| format!(", NIH percentile {x}"))
                .unwrap_or_default();
            line.push(format!("RCR {r}{pct}"));
        }
        if let Some(c) = p["citations_per_year"].as_f64() {
            line.push(format!("{c} citations/yr"));
        }
        line.push(format!("source {}", s("source")));
        out.push_str(&format!("   {}\n", line.join(" · ")));
        for (k, label) in [("cited_by", "cited by"), ("references", "cites")] {
            if let Some(list) = p[k].as_array().filter(|l| !l.is_empty()) {
                let shown: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
                let total = p[&format!("{k}_count")]
                    .as_u64()
                    .unwrap_or(shown.len() as u64);
                let more = if (shown.len() as u64) < total {
                    format!(" … ({} of {total})", shown.len())
                } else {
                    String::new()
                };
                out.push_str(&format!("   {label}: {}{more}\n", shown.join(", ")));
            }
        }
    }
    if !cut.is_empty() && cap != usize::MAX {
        out.push_str(&if at_ceiling {
            format!(
                "Id lists cut to {cap} each even at the largest budget ({} papers): lists this long do not fit one answer; stage them as a citation network (entrez_data fetch_and_stage, network \"citers\" or \"references\", these ids) and query them in SQL.\n",
                cut.len()
            )
        } else {
            format!(
                "Id lists cut to {cap} each to fit max_characters ({} papers); ids_next_call asks for them at the largest budget (200,000 characters: lists of up to about 10,000 ids; longer ones: stage a citation network).\n",
                cut.len()
            )
        });
    }
    if let Some(call) = later {
        out.push_str(&format!(
            "Not looked up in this call: next_call {}\n",
            budget::next_call_text(call)
        ));
    }
    for w in warnings {
        out.push_str(&format!("Warning: {w}\n"));
    }
    out
}

#[cfg(test)]
mod tests;
