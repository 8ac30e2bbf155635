//! NIH iCite's `/api/pubs`, as its documentation describes it, over the replay's records.
//!
//! iCite cannot be reached from where this project is tested; its help page ("Bulk Data and
//! API", tests/fixtures/external/PROVENANCE.md) documents the request and the fields. Each
//! paper's `cited_by` and `references` are the shared citation graph's
//! ([`crate::ncbi::graph`]), its title, year, journal and authors the NCBI stand-in's record
//! ([`Catalogue`]); the metrics are computed from those by [`metrics`], deterministically.
//! PMIDs the NCBI stand-in does not hold, and [`graph::ICITE_MISSING`], are absent from `data`.

use crate::external::form::Params;
use crate::external::server::Reply;
use crate::ncbi::citations::Catalogue;
use crate::ncbi::fixtures::Corpus;
use crate::ncbi::graph;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// The documented ceiling of PMIDs a request (the current help page: "up to 200 at a time").
pub const MAX_PMIDS: usize = 200;
/// The year the stand-in's metrics are computed in (citations per year count up to it).
pub const CURRENT_YEAR: u64 = 2026;
/// The fields iCite documents, in its order.
pub const FIELDS: [&str; 26] = [
    "pmid",
    "year",
    "title",
    "authors",
    "journal",
    "is_research_article",
    "relative_citation_ratio",
    "nih_percentile",
    "human",
    "animal",
    "molecular_cellular",
    "apt",
    "is_clinical",
    "citation_count",
    "citations_per_year",
    "expected_citations_per_year",
    "field_citation_rate",
    "provisional",
    "x_coord",
    "y_coord",
    "cited_by_clin",
    "cited_by",
    "references",
    "doi",
    "last_modified",
    "_id",
];

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(|| Catalogue::of(&Corpus::load()))
}

fn error(status: u16, message: &str) -> Reply {
    Reply::json(status, &json!({"error": message}))
}

/// `GET /api/pubs?pmids=…&fl=…&legacy=…` and `/api/pubs/{pmid}`.
pub fn handle(path: &str, params: &Params) -> Reply {
    let single = path.strip_prefix("/api/pubs/").filter(|s| !s.is_empty());
    let raw = match single {
        Some(id) => id.to_string(),
        None => match params.get("pmids") {
            Some(p) => p.to_string(),
            None => {
                return error(
                    400,
                    "The stand-in answers only pmids= lists (no offset/limit listing).",
                )
            }
        },
    };
    if params.get("format").is_some_and(|f| f != "json") {
        return error(400, "Only format=json is served by the stand-in.");
    }
    let legacy = match params.get("legacy").map(str::to_ascii_lowercase).as_deref() {
        None | Some("true") => true,
        Some("false") => false,
        Some(other) => return error(400, &format!("Invalid value for legacy: {other}")),
    };
    let mut pmids = Vec::new();
    for piece in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match piece.parse::<u64>() {
            Ok(n) => pmids.push(n),
            Err(_) => return error(400, &format!("Invalid PMID: {piece}")),
        }
    }
    if pmids.len() > MAX_PMIDS {
        return error(
            400,
            &format!("Too many PMIDs: up to {MAX_PMIDS} may be requested at a time."),
        );
    }
    let fl: Option<Vec<&str>> = params.get("fl").map(|f| {
        f.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    });
    if let Some(unknown) = fl.iter().flatten().find(|f| !FIELDS.contains(f)) {
        return error(400, &format!("Unknown field in fl: {unknown}"));
    }
    let mut seen = std::collections::BTreeSet::new();
    let data: Vec<Value> = pmids
        .iter()
        .filter(|p| seen.insert(**p))
        .filter_map(|p| record(*p))
        .map(|r| select(r, fl.as_deref(), legacy))
        .collect();
    if let Some(id) = single {
        // One publication by path: the record itself, or 404.
        return match data.into_iter().next() {
            Some(v) => Reply::json(200, &v),
            None => error(404, &format!("Publication {id} not found")),
        };
    }
    let fl_text = params.get("fl").unwrap_or("");
    Reply::json(
        200,
        &json!({
            "meta": {"pmids": raw, "fl": fl_text, "legacy": legacy, "count": data.len()},
            "links": {"self": format!("/api/pubs?pmids={raw}")},
            "data": data,
        }),
    )
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// The metrics of a paper, from its year and citers. A made-up but fixed rule: the field
/// citation rate is 2 + (pmid mod 50) / 10 a year, the expected rate 0.8 of it, the RCR the
/// paper's citations per year over the expected (2 decimals), its NIH percentile
/// 100 · RCR / (1 + RCR) (1 decimal); provisional from 2024 on.
pub fn metrics(pmid: u64, year: u64, citation_count: usize) -> Map<String, Value> {
    let years = CURRENT_YEAR.saturating_sub(year).max(1) as f64;
    let per_year = citation_count as f64 / years;
    let fcr = 2.0 + (pmid % 50) as f64 / 10.0;
    let expected = fcr * 0.8;
    let rcr = round(per_year / expected, 2);
    let mut m = Map::new();
    m.insert("relative_citation_ratio".into(), json!(rcr));
    m.insert(
        "nih_percentile".into(),
        json!(round(100.0 * rcr / (1.0 + rcr), 1)),
    );
    m.insert("citation_count".into(), json!(citation_count));
    m.insert("citations_per_year".into(), json!(per_year));
    m.insert("expected_citations_per_year".into(), json!(expected));
    m.insert("field_citation_rate".into(), json!(fcr));
    let yes = |b: bool| json!(if b { "Yes" } else { "No" });
    m.insert("provisional".into(), yes(year >= 2024));
    m.insert(
        "apt".into(),
        json!([0.05, 0.25, 0.5, 0.75, 0.95][(pmid % 5) as usize]),
    );
    m.insert("is_clinical".into(), yes(pmid.is_multiple_of(11)));
    m
}

/// The whole legacy record of `pmid`, or None when iCite would not hold it.
pub fn record(pmid: u64) -> Option<Map<String, Value>> {
    if graph::ICITE_MISSING.contains(&pmid) {
        return None;
    }
    let c = catalogue().get(pmid)?;
    let g = graph::graph();
    let cited_by = g.citers(pmid);
    let references = g.references(pmid);
    let year: u64 = c.year.parse().unwrap_or(CURRENT_YEAR);
    let research = !c
        .types
        .iter()
        .any(|t| t == "Review" || t.starts_with("Retraction") || t == "Comment");
    let human = if pmid.is_multiple_of(3) { 0.0 } else { 1.0 };
    let mut r = Map::new();
    r.insert("_id".into(), json!(pmid.to_string()));
    r.insert("pmid".into(), json!(pmid));
    r.insert("year".into(), json!(year));
    r.insert("title".into(), json!(c.title));
    r.insert("authors".into(), json!(c.authors.join(", ")));
    r.insert("journal".into(), json!(c.iso));
    r.insert(
        "is_research_article".into(),
        json!(if research { "Yes" } else { "No" }),
    );
    r.extend(metrics(pmid, year, cited_by.len()));
    r.insert("human".into(), json!(human));
    r.insert("animal".into(), json!(1.0 - human));
    r.insert("molecular_cellular".into(), json!(0.0));
    r.insert("x_coord".into(), json!(0.0));
    r.insert("y_coord".into(), json!(human));
    // Citers whose PMID is a multiple of 7 stand for clinical articles.
    let clin: Vec<u64> = cited_by
        .iter()
        .copied()
        .filter(|p| p.is_multiple_of(7))
        .collect();
    r.insert("cited_by_clin".into(), json!(clin));
    // One record comes without its two lists (graph::ICITE_MALFORMED), as a record in
    // another layout would: a client reads it as malformed, not as uncited.
    if pmid != graph::ICITE_MALFORMED {
        r.insert("cited_by".into(), json!(cited_by));
        r.insert("references".into(), json!(references));
    }
    r.insert(
        "doi".into(),
        if c.doi.is_empty() {
            Value::Null
        } else {
            json!(c.doi)
        },
    );
    r.insert("last_modified".into(), json!("11/01/2026, 00:00:00"));
    Some(r)
}

/// The fields asked for, under legacy or database names. With `legacy=false` the help
/// page's look-up names stand for the flags it shows changed: `citedByClinicalArticle` for
/// `cited_by_clin` (true when any), and booleans for the Yes/No fields.
fn select(mut r: Map<String, Value>, fl: Option<&[&str]>, legacy: bool) -> Value {
    if let Some(fl) = fl {
        r.retain(|k, _| fl.contains(&k.as_str()));
    }
    if !legacy {
        for key in ["is_research_article", "is_clinical", "provisional"] {
            if let Some(v) = r.get_mut(key) {
                *v = json!(v.as_str() == Some("Yes"));
            }
        }
        if let Some(clin) = r.remove("cited_by_clin") {
            let any = clin.as_array().is_some_and(|a| !a.is_empty());
            r.insert("citedByClinicalArticle".into(), json!(any));
        }
    } else {
        r.remove("_id");
    }
    Value::Object(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(q: &str) -> Params {
        Params(crate::external::form::pairs(q))
    }

    #[test]
    fn records_carry_the_graph_and_unknown_ones_are_absent() {
        let seed = graph::SEEDS[0];
        let q = format!("pmids={seed},1,{}", graph::RETRACTED);
        let reply = handle("/api/pubs", &params(&q));
        assert_eq!(reply.status, 200);
        let v: Value = serde_json::from_slice(&reply.body).unwrap();
        let data = v["data"].as_array().unwrap();
        assert_eq!(data.len(), 2);
        assert_eq!(data[0]["pmid"], seed);
        assert_eq!(data[0]["citation_count"], 150);
        assert_eq!(data[0]["references"].as_array().unwrap().len(), 61);
        // Two seeds, fifteen citers and its retraction notice.
        assert_eq!(data[1]["citation_count"], 18);
    }

    #[test]
    fn errors_for_too_many_bad_ids_and_fields() {
        let many: Vec<String> = (0..201).map(|i| (90_000_001 + i).to_string()).collect();
        let reply = handle("/api/pubs", &params(&format!("pmids={}", many.join(","))));
        assert_eq!(reply.status, 400);
        assert_eq!(handle("/api/pubs", &params("pmids=12a")).status, 400);
        assert_eq!(
            handle("/api/pubs", &params("pmids=1&fl=pmid,nope")).status,
            400
        );
        let ok = handle(
            "/api/pubs",
            &params("pmids=90050001&fl=pmid,citation_count"),
        );
        let v: Value = serde_json::from_slice(&ok.body).unwrap();
        assert_eq!(v["data"][0].as_object().unwrap().len(), 2);
    }
}
