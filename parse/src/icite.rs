//! NIH iCite's `/api/pubs` replies into typed records.
//!
//! A list answer is `{"meta": …, "links": …, "data": [record, …]}`; `/api/pubs/{pmid}`
//! answers one record bare. A record carries its metrics (RCR, NIH percentile, citation
//! counts and rates, APT), its translation flags and the NIH Open Citation Collection's
//! `cited_by` and `references`. Flags are "Yes"/"No" under the legacy names and booleans
//! with `legacy=false`; numbers may come as strings; a PMID iCite does not hold is simply
//! absent from `data`. A refusal is `{"error": "…"}`, read as the service's own words.

use crate::envelope::{json_count, json_text};
use crate::error::{ParseError, Said};
use crate::xml::unexpected;
use serde::Serialize;
use serde_json::Value;

const WHAT: &str = "an iCite JSON reply";

/// One publication as iCite describes it. Absent or null values are `None`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IciteRecord {
    /// Its PMID.
    pub pmid: u64,
    /// Publication year.
    pub year: Option<u32>,
    /// Title.
    pub title: Option<String>,
    /// Authors, as iCite lists them (one string, comma-separated).
    pub authors: Option<String>,
    /// Journal (ISO abbreviation).
    pub journal: Option<String>,
    /// DOI.
    pub doi: Option<String>,
    /// Whether its publication types are those of a primary research article.
    pub is_research_article: Option<bool>,
    /// Relative Citation Ratio.
    pub relative_citation_ratio: Option<f64>,
    /// Percentile of its RCR among NIH-funded papers.
    pub nih_percentile: Option<f64>,
    /// Share of human-oriented MeSH terms.
    pub human: Option<f64>,
    /// Share of animal-oriented MeSH terms.
    pub animal: Option<f64>,
    /// Share of molecular/cellular MeSH terms.
    pub molecular_cellular: Option<f64>,
    /// Approximate Potential to Translate.
    pub apt: Option<f64>,
    /// Whether it is a clinical article.
    pub is_clinical: Option<bool>,
    /// Citations counted by iCite.
    pub citation_count: Option<u64>,
    /// Citations per year since publication.
    pub citations_per_year: Option<f64>,
    /// Citations per year expected of an NIH-funded paper in its field.
    pub expected_citations_per_year: Option<f64>,
    /// Its field's citation rate.
    pub field_citation_rate: Option<f64>,
    /// Whether the RCR is provisional (a recent paper).
    pub provisional: Option<bool>,
    /// Triangle of biomedicine coordinates.
    pub x_coord: Option<f64>,
    /// Triangle of biomedicine coordinates.
    pub y_coord: Option<f64>,
    /// Clinical articles citing it.
    pub cited_by_clin: Vec<u64>,
    /// Papers citing it.
    pub cited_by: Vec<u64>,
    /// Papers it cites.
    pub references: Vec<u64>,
    /// Whether the record carried `cited_by` (a record without it, in another layout or not
    /// asked for it, says nothing of its citers: not zero of them).
    pub has_cited_by: bool,
    /// Whether the record carried `references`.
    pub has_references: bool,
}

/// Parses a list answer (`data`) or a single record; a `{"error": …}` body is the
/// service's refusal.
pub fn parse_icite(bytes: &[u8]) -> Result<Vec<IciteRecord>, ParseError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| unexpected(WHAT, format!("invalid JSON: {e}")))?;
    let Value::Object(top) = &v else {
        return Err(unexpected(WHAT, "it is not a JSON object"));
    };
    if let Some(message) = json_text(top.get("error")).or_else(|| json_text(top.get("message"))) {
        if !top.contains_key("data") && !top.contains_key("pmid") {
            let said = Said {
                messages: vec![message.clone()],
                ..Said::default()
            };
            return Err(ParseError::reported(
                format!("iCite answered with an error: {message}"),
                said,
            ));
        }
    }
    match top.get("data") {
        // A record without a readable PMID is left out, not the whole batch: the PMID it
        // stood for is then one iCite did not answer.
        Some(Value::Array(items)) => Ok(items.iter().filter_map(|i| record(i).ok()).collect()),
        Some(_) => Err(unexpected(WHAT, "its \"data\" is not a list")),
        None if top.contains_key("pmid") => Ok(vec![record(&v)?]),
        None => Err(unexpected(WHAT, "it has neither \"data\" nor \"pmid\"")),
    }
}

fn record(v: &Value) -> Result<IciteRecord, ParseError> {
    let pmid = json_count(v.get("pmid"))
        .or_else(|| json_count(v.get("_id")))
        .ok_or_else(|| unexpected(WHAT, "a record has no numeric \"pmid\""))?;
    let text = |k: &str| json_text(v.get(k)).filter(|s| !s.is_empty());
    let number = |k: &str| match v.get(k) {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    };
    let flag = |k: &str| match v.get(k) {
        Some(Value::Bool(b)) => Some(*b),
        Some(Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "yes" | "true" | "y" => Some(true),
            "no" | "false" | "n" => Some(false),
            _ => None,
        },
        _ => None,
    };
    Ok(IciteRecord {
        pmid,
        year: json_count(v.get("year")).and_then(|y| u32::try_from(y).ok()),
        title: text("title"),
        authors: authors(v.get("authors")),
        journal: text("journal"),
        doi: text("doi"),
        is_research_article: flag("is_research_article"),
        relative_citation_ratio: number("relative_citation_ratio"),
        nih_percentile: number("nih_percentile"),
        human: number("human"),
        animal: number("animal"),
        molecular_cellular: number("molecular_cellular"),
        apt: number("apt"),
        is_clinical: flag("is_clinical"),
        citation_count: json_count(v.get("citation_count")),
        citations_per_year: number("citations_per_year"),
        expected_citations_per_year: number("expected_citations_per_year"),
        field_citation_rate: number("field_citation_rate"),
        provisional: flag("provisional"),
        x_coord: number("x_coord"),
        y_coord: number("y_coord"),
        cited_by_clin: pmids(v.get("cited_by_clin")),
        cited_by: pmids(v.get("cited_by")),
        references: pmids(v.get("references")),
        has_cited_by: v.get("cited_by").is_some(),
        has_references: v.get("references").is_some(),
    })
}

/// Authors as one string, whether iCite sends a string or (legacy=false) a list of names
/// or of `{"fullName": …}` objects.
fn authors(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Array(items) => {
            let names: Vec<String> = items
                .iter()
                .filter_map(|a| match a {
                    Value::Object(o) => json_text(o.get("fullName")),
                    other => json_text(Some(other)),
                })
                .collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => None,
    }
}

/// A PMID list: a JSON list of numbers or strings, or one string of ids separated by
/// spaces or commas (the CSV form); anything unreadable, and 0 (no PMID), is left out.
fn pmids(v: Option<&Value>) -> Vec<u64> {
    let all: Vec<u64> = match v {
        Some(Value::Array(items)) => items.iter().filter_map(|i| json_count(Some(i))).collect(),
        Some(Value::String(s)) => s
            .split([' ', ','])
            .filter_map(|p| p.trim().parse().ok())
            .collect(),
        _ => Vec::new(),
    };
    all.into_iter().filter(|p| *p > 0).collect()
}
