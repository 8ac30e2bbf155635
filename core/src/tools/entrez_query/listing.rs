//! The operations that return records, summary and fetch: shaped to the caller's
//! `detail` and `fields`, fitted to `max_characters`, and what did not fit named
//! with the call that returns it.

use crate::entrez::databases;
use crate::error::Result;
use crate::framework::budget;
use crate::framework::shape;
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::parse;
use crate::parse::pubmed::Integrity;
use crate::parse::records::Records as Parsed;
use crate::tools::entrez_query::call::{Fetch, Records, ReplyMode, Summary, Version};
use crate::tools::entrez_query::integrity::Flagged;
use crate::tools::entrez_query::operations::{capped, output, paging_hint, to_value};
use crate::tools::entrez_query::plan;
use crate::tools::entrez_query::plan::Format;
use crate::tools::entrez_query::render;
use crate::validation::codes;
use serde_json::{Map, Value};

/// esummary; JSON per-uid errors are reported, never dropped.
pub async fn summary(ctx: &ToolContext<'_>, call: &Summary) -> Result<ToolOutput> {
    let db = &call.database;
    let reply = ctx.entrez()?.send(&plan::summary(call)).await?;
    let parsed = if call.retmode == ReplyMode::Json {
        parse::esummary::parse_esummary_json(&reply.body)?
    } else {
        parse::esummary::parse_esummary_xml(&reply.body)?
    };
    if parsed.docs.is_empty() && !parsed.errors.is_empty() {
        let messages: Vec<String> = parsed.errors.iter().map(|e| e.message.clone()).collect();
        return Err(crate::entrez::faults::ncbi_error(&messages));
    }
    let cap = call.max_records;
    let total = parsed.docs.len();
    // A PubMed docsum says what it can of retractions and corrections; other databases'
    // records have none.
    let integrity: Vec<Option<Integrity>> = parsed
        .docs
        .iter()
        .map(|d| (db == "pubmed").then(|| Integrity::of_summary(&d.fields)))
        .collect();
    let docs: Vec<Value> = parsed
        .docs
        .iter()
        .zip(&integrity)
        .take(cap)
        .map(|(d, i)| {
            let h = parse::esummary::headline(d);
            let mut doc = json!({"uid": d.uid, "title": h.title, "authors": h.authors, "source": h.source, "year": h.year, "fields": d.fields});
            if let Some(i) = i {
                doc["integrity"] = to_value(i);
            }
            shape::record(Kind::Summary, doc, &call.view)
        })
        .collect();
    let errors: Vec<Value> = parsed.errors.iter().map(to_value).collect();
    let mut warnings: Vec<String> = parsed
        .errors
        .iter()
        .map(|e| format!("{}: {}", e.uid.as_deref().unwrap_or("request"), e.message))
        .collect();
    let flagged = (db == "pubmed").then(|| {
        Flagged::of(
            parsed
                .docs
                .iter()
                .zip(&integrity)
                .filter_map(|(d, i)| Some((d.uid.as_str(), i.as_ref()?))),
        )
    });
    if let Some(f) = &flagged {
        warnings.splice(0..0, f.warnings("summaries"));
    }
    let flagged = flagged.map(|f| f.to_value());
    let mut fitted = budget::fit(docs.len(), call.view.max_characters, |k| {
        let mut structured = json!({
            "operation": "summary", "database": db, "count": k, "total": total,
            "truncated": total > k, "docs": docs[..k], "errors": errors, "warnings": warnings,
        });
        if let Some(f) = &flagged {
            structured["flagged"] = f.clone();
        }
        let text = render::summary(db, &structured);
        (structured, text)
    });
    let hint = (total > cap).then(|| paging_hint(ctx, cap, total));
    let (structured, text) = fitted.take();
    let out = capped(output(structured, text, hint.clone()), hint);
    let left = ids_of(Kind::Summary, &docs[fitted.shown..]);
    let rest = Rest {
        ids: &left,
        count: docs.len() - fitted.shown,
        shown: fitted.shown,
    };
    let next = next_call("summary", db, &call.records, &call.view, rest, |a| {
        if let Some(v) = call.version {
            a.insert("retmode".into(), json!("xml"));
            a.insert(
                "version".into(),
                json!(if v == Version::V1 { "1.0" } else { "2.0" }),
            );
        }
    });
    Ok(budget::left_out(
        out,
        &fitted,
        call.view.max_characters,
        "summaries",
        &left,
        next,
    ))
}

/// efetch, parsed according to the database and format.
pub async fn fetch(ctx: &ToolContext<'_>, call: &Fetch) -> Result<ToolOutput> {
    let db = &call.database;
    let format = call.format;
    let reply = ctx.entrez()?.send(&plan::fetch(call)).await?;
    let body = &reply.body;
    let mut flagged = None;
    let (kind, records): (Kind, Vec<Value>) = match parse::records::parse(format, body)? {
        Parsed::Pubmed(r) | Parsed::Medline(r) => {
            flagged = Some(Flagged::of(
                r.iter().map(|a| (a.pmid.as_str(), &a.integrity)),
            ));
            (Kind::Article, r.iter().map(to_value).collect())
        }
        Parsed::Pmc(r) => (Kind::PmcArticle, r.iter().map(to_value).collect()),
        Parsed::Sequences(r) => (Kind::Sequence, r.iter().map(to_value).collect()),
        Parsed::Taxa(r) => (Kind::Taxon, r.iter().map(to_value).collect()),
        Parsed::Ipg(r) => (Kind::Other, r.iter().map(to_value).collect()),
        Parsed::Generic(r) => (Kind::Other, r.iter().map(to_value).collect()),
        Parsed::Raw => (Kind::Other, Vec::new()),
    };
    if format == Format::Raw {
        return Ok(raw(call, &reply));
    }
    let requested = call.records.ids().len();
    let total = records.len();
    let cap = call.max_records;
    let shown = shape::records(kind, records.into_iter().take(cap).collect(), &call.view);
    let mut warnings: Vec<String> = Vec::new();
    if requested > 0 && total < requested && !matches!(format, Format::GenericXml | Format::IpgXml)
    {
        warnings.push(format!(
            "{requested} ids requested, {total} records returned: some ids were not found in {db}."
        ));
    }
    // Counted on every record the reply held, also those a budget leaves out below.
    if let Some(f) = &flagged {
        warnings.splice(0..0, f.warnings("records"));
    }
    let flagged = flagged.map(|f| f.to_value());
    let content_type = reply.header("content-type").unwrap_or("text/xml");
    let mut fitted = budget::fit(shown.len(), call.view.max_characters, |k| {
        let mut structured = json!({
            "operation": "fetch", "database": db, "format": format.name(),
            "content_type": content_type, "count": k, "total": total, "truncated": total > k,
            "records": shown[..k], "warnings": warnings,
        });
        if let Some(f) = &flagged {
            structured["flagged"] = f.clone();
        }
        let text = render::records(format, &structured);
        (structured, text)
    });
    let hint = (total > cap).then(|| paging_hint(ctx, cap, total));
    let (structured, text) = fitted.take();
    let out = capped(output(structured, text, hint.clone()), hint);
    let left = ids_of(kind, &shown[fitted.shown..]);
    let rest = Rest {
        ids: &left,
        count: shown.len() - fitted.shown,
        shown: fitted.shown,
    };
    let next = next_call("fetch", db, &call.records, &call.view, rest, |a| {
        if let Some(t) = &call.rettype {
            a.insert("rettype".into(), json!(t));
        }
        a.insert("retmode".into(), json!(call.retmode));
        // The same part of each sequence.
        let region = &call.region;
        let given = [
            ("seq_start", region.seq_start),
            ("seq_stop", region.seq_stop),
            ("strand", region.strand),
            ("complexity", region.complexity),
        ];
        for (name, value) in given {
            if let Some(v) = value {
                a.insert(name.into(), json!(v));
            }
        }
    });
    Ok(budget::left_out(
        out,
        &fitted,
        call.view.max_characters,
        "records",
        &left,
        next,
    ))
}

/// The id of each record, as its kind names it.
fn ids_of(kind: Kind, records: &[Value]) -> Vec<String> {
    records
        .iter()
        .filter_map(|r| shape::id_of(kind, r))
        .collect()
}

/// What a fitted list left out: the ids known, how many records, how many were shown.
struct Rest<'a> {
    ids: &'a [String],
    count: usize,
    shown: usize,
}

/// The call that returns the records the budget left out: the same call for the ids not
/// shown, or the history page that starts after the last record shown.
fn next_call(
    operation: &str,
    db: &str,
    records: &Records,
    view: &View,
    rest: Rest<'_>,
    extra: impl FnOnce(&mut Map<String, Value>),
) -> Option<Value> {
    let mut a = Map::new();
    a.insert("operation".into(), json!(operation));
    a.insert("database".into(), json!(db));
    match records {
        // Records without an id of their own cannot be asked for again by id.
        Records::Ids { .. } if rest.ids.is_empty() => return None,
        Records::Ids { .. } => {
            let ids = budget::next_ids(rest.ids, view.max_characters);
            a.insert("ids".into(), json!(ids));
        }
        Records::History { .. } if rest.count == 0 => return None,
        Records::History {
            webenv,
            query_key,
            retstart,
            ..
        } => {
            a.insert("webenv".into(), json!(webenv));
            a.insert("query_key".into(), json!(query_key));
            let start = retstart.unwrap_or(0) + rest.shown as u64;
            a.insert("retstart".into(), json!(start));
            a.insert("retmax".into(), json!(rest.count));
        }
    }
    extra(&mut a);
    Some(budget::next_call("entrez_query", a, view))
}

/// A reply returned as it came (`raw`): text, or base64 for binary ASN.1, cut to the budget.
fn raw(call: &Fetch, reply: &crate::net::HttpReply) -> ToolOutput {
    let db = &call.database;
    let body = &reply.body;
    // Binary replies (EFetch's binary ASN.1) travel as base64, never as mangled text.
    let (raw, encoding) = match std::str::from_utf8(body) {
        Ok(t) => (t.to_string(), "text"),
        Err(_) => {
            use base64::Engine;
            let encoded = base64::engine::general_purpose::STANDARD.encode(body);
            (encoded, "base64")
        }
    };
    // The reply appears in the text and in structuredContent: each copy within the budget.
    let limit = budget::room(call.view.max_characters) - 600;
    let length = raw.chars().count();
    let truncated = length > limit;
    let shown: String = raw.chars().take(limit).collect();
    let mut warnings = Vec::new();
    if truncated {
        warnings.push(format!(
            "The reply ({length} characters) was cut to its first {limit}: ask for fewer records per call{}.",
            if call.region.seq_start.is_some() || databases::genbank_rettype(db).is_some() {
                ", or a region of the sequence (seq_start, seq_stop)"
            } else {
                ""
            }
        ));
    }
    let structured = json!({
        "operation": "fetch", "database": db, "format": call.format.name(),
        "content_type": reply.header("content-type").unwrap_or("text/plain"),
        "count": 0, "total": 0, "truncated": truncated, "records": [], "raw": shown,
        "raw_length": length, "raw_encoding": encoding, "warnings": warnings,
    });
    let out = output(
        structured,
        shown,
        truncated.then(|| "The raw reply was shortened: fetch fewer ids per call, page a history set with retstart/retmax, or (sequences) ask for a region with seq_start/seq_stop.".to_string()),
    );
    match warnings.first() {
        Some(w) => out.with_warning(codes::RESULTS_CAPPED, "$.ids", w.clone()),
        None => out,
    }
}
