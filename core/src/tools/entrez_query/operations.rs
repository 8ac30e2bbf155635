//! Running each `entrez_query` operation: send, parse, cap, describe.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::content::{Annotations, Content, Role};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::parse;
use crate::tools::entrez_query::call::{
    CitationMatch, CountByYear, GlobalQuery, Info, Link, LinkMode, Post, ReplyMode, Search, Spell,
};
use crate::tools::entrez_query::plan;
use crate::tools::entrez_query::render;
use crate::validation::codes;
use serde::Serialize;
use serde_json::Value;

pub(super) fn to_value<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The readable block for people and assistants, plus a hint block for the assistant alone.
pub(super) fn output(structured: Value, text: String, hint: Option<String>) -> ToolOutput {
    let mut out = ToolOutput::new(structured, text).with_text_annotations(
        Annotations::for_audience(&[Role::User, Role::Assistant]).with_priority(1.0),
    );
    if let Some(h) = hint {
        out = out.with_content(
            Content::text(h)
                .annotated(Annotations::for_audience(&[Role::Assistant]).with_priority(0.4)),
        );
    }
    out
}

/// Where to go when a result was capped.
pub(super) fn paging_hint(ctx: &ToolContext<'_>, shown: usize, total: usize) -> String {
    let staging = if ctx.registry.get("entrez_data").is_some() {
        " For the whole set, stage it with entrez_data (operation fetch_and_stage) and query it in SQL."
    } else {
        ""
    };
    format!(
        "Showing {shown} of {total} records. Page with retstart/retmax (search with usehistory=true, then fetch with webenv, query_key and retstart), or raise max_records (up to 500).{staging}"
    )
}

/// einfo.
pub async fn info(ctx: &ToolContext<'_>, call: &Info) -> Result<ToolOutput> {
    let reply = ctx.entrez()?.send(&plan::info(call)).await?;
    let parsed = match call.retmode {
        ReplyMode::Xml => parse::einfo::parse_einfo(&reply.body)?,
        ReplyMode::Json => parse::einfo_json::parse_einfo_json(&reply.body)?,
    };
    match parsed {
        parse::einfo::EInfo::Databases(dbs) => {
            let text = format!("{} Entrez databases:\n{}", dbs.len(), dbs.join(", "));
            Ok(output(
                json!({"operation": "info", "databases": dbs, "warnings": []}),
                text,
                Some("Call info with a database to see its search fields (for [tag] qualifiers) and link names.".into()),
            ))
        }
        parse::einfo::EInfo::Database(db) => {
            let value = to_value(&db);
            let text = render::db_info(&value);
            Ok(output(
                json!({"operation": "info", "database": value, "warnings": []}),
                text,
                None,
            ))
        }
    }
}

/// esearch.
pub async fn search(ctx: &ToolContext<'_>, call: &Search) -> Result<ToolOutput> {
    let db = &call.database;
    let reply = ctx.entrez()?.send(&plan::search(call)).await?;
    let r = match call.retmode {
        ReplyMode::Xml => parse::esearch::parse_esearch_xml(&reply.body)?,
        ReplyMode::Json => parse::esearch::parse_esearch_json(&reply.body)?,
    };
    let mut warnings: Vec<String> = Vec::new();
    for p in &r.error_list.phrases_not_found {
        warnings.push(format!(
            "PhraseNotFound: \"{p}\" matched nothing and was left out."
        ));
    }
    for f in &r.error_list.fields_not_found {
        warnings.push(format!(
            "FieldNotFound: [{f}] is not a search field of {db}."
        ));
    }
    for p in &r.warnings.phrases_ignored {
        warnings.push(format!("PhraseIgnored: \"{p}\" (a stop word) was ignored."));
    }
    for p in &r.warnings.quoted_phrases_not_found {
        warnings.push(format!("QuotedPhraseNotFound: \"{p}\"."));
    }
    warnings.extend(r.warnings.output_messages.iter().cloned());
    warnings.extend(r.errors.iter().map(|e| format!("NCBI: {e}")));
    // PubMed, when asked: how many of the matches are retracted, and which of those returned.
    // A search shows ids, not records, so by default it costs one request; the summaries
    // and records fetched next carry each record's flags.
    let flagged = if db == "pubmed" && call.check_retractions {
        let (flagged, said) =
            crate::tools::entrez_query::integrity::search_retractions(ctx, call, &r.ids, r.count)
                .await;
        warnings.splice(0..0, said);
        flagged
    } else {
        None
    };
    let mut structured = to_value(&r);
    json::set(&mut structured, "operation", json!("search"));
    json::set(&mut structured, "database", json!(db));
    json::set(&mut structured, "warnings", json!(warnings));
    if let Some(f) = flagged {
        json::set(&mut structured, "flagged", f);
    }
    let text = render::search(db, &structured);
    let hint = (r.count > r.ids.len() as u64).then(|| {
        format!(
            "{} of {} ids returned. Fetch details with operation summary or fetch and these ids{}.",
            r.ids.len(),
            r.count,
            if r.webenv.is_some() {
                ", or with webenv and query_key to page through all of them"
            } else {
                ""
            }
        )
    });
    Ok(output(structured, text, hint))
}

/// Names a cut made to a result (records beyond max_records, text beyond its bound) as a
/// `results_capped` warning with the total and the way to the rest.
pub(super) fn capped(out: ToolOutput, hint: Option<String>) -> ToolOutput {
    match hint {
        Some(h) => out.with_warning(codes::RESULTS_CAPPED, "$.max_records", h),
        None => out,
    }
}

/// elink, in XML, JSON, or (prlinks retmode=ref) as the provider URL NCBI redirects to.
pub async fn link(ctx: &ToolContext<'_>, call: &Link) -> Result<ToolOutput> {
    let reply = ctx.entrez()?.send(&plan::link(call)).await?;
    let r = match call.retmode {
        LinkMode::Xml => parse::elink::parse_elink_xml(&reply.body)?,
        LinkMode::Json => parse::elink::parse_elink_json(&reply.body)?,
        LinkMode::Ref => return Ok(link_ref(call, &reply)),
    };
    let mut structured = to_value(&r);
    json::set(&mut structured, "operation", json!("link"));
    json::set(&mut structured, "dbfrom", json!(call.dbfrom));
    json::set(&mut structured, "cmd", json!(call.cmd));
    structured["warnings"] = json!(r
        .errors
        .iter()
        .map(|e| format!("NCBI: {e}"))
        .collect::<Vec<_>>());
    let text = render::link(&structured);
    Ok(output(structured, text, None))
}

/// prlinks with retmode=ref: NCBI answers with a redirect to the full text, and its target is the result.
fn link_ref(call: &Link, reply: &crate::net::HttpReply) -> ToolOutput {
    let url = reply
        .header("location")
        .filter(|_| (300..400).contains(&reply.status));
    let id = call.records.ids().first().cloned().unwrap_or_default();
    let (text, warnings) = match url {
        Some(u) => (
            format!("{} {id}: the full text is at {u}", call.dbfrom),
            vec![],
        ),
        None => (
            format!("NCBI named no provider for {} {id}.", call.dbfrom),
            vec![format!(
                "NCBI answered HTTP {} without a redirect: no LinkOut provider for this id.",
                reply.status
            )],
        ),
    };
    let structured = json!({
        "operation": "link", "dbfrom": call.dbfrom, "cmd": call.cmd, "linksets": [],
        "url": url, "warnings": warnings,
    });
    output(structured, text, None)
}

/// epost.
pub async fn post(ctx: &ToolContext<'_>, call: &Post) -> Result<ToolOutput> {
    let db = &call.database;
    let reply = ctx.entrez()?.send(&plan::post(call)).await?;
    let r = parse::epost::parse_epost(&reply.body)?;
    let posted = call.ids.len();
    let mut structured = to_value(&r);
    json::set(&mut structured, "operation", json!("post"));
    json::set(&mut structured, "database", json!(db));
    json::set(
        &mut structured,
        "count",
        json!(posted.saturating_sub(r.invalid_ids.len())),
    );
    let mut warnings = r.warnings.clone();
    if !r.invalid_ids.is_empty() {
        warnings.push(format!(
            "NCBI rejected {} id(s): {}",
            r.invalid_ids.len(),
            r.invalid_ids.join(", ")
        ));
    }
    json::set(&mut structured, "warnings", json!(warnings));
    let text = format!(
        "Posted {} id(s) to the history server for {db}.\nwebenv: {}\nquery_key: {}\n{}",
        structured["count"],
        r.webenv,
        r.query_key,
        warnings.join("\n")
    );
    Ok(output(
        structured,
        text,
        Some("Use webenv and query_key with summary, fetch or link instead of ids.".into()),
    ))
}

/// espell.
pub async fn spell(ctx: &ToolContext<'_>, call: &Spell) -> Result<ToolOutput> {
    let reply = ctx.entrez()?.send(&plan::spell(call)).await?;
    let r = parse::espell::parse_espell(&reply.body)?;
    let mut structured = to_value(&r);
    json::set(&mut structured, "operation", json!("spell"));
    json::set(&mut structured, "warnings", json!([]));
    let text = if r.corrected_query.is_empty() || r.corrected_query == r.query {
        format!(
            "No spelling corrections for \"{}\" in {}.",
            r.query, r.database
        )
    } else {
        format!(
            "Did you mean: {}\n(original: {})",
            r.corrected_query, r.query
        )
    };
    Ok(output(structured, text, None))
}

/// ecitmatch.
pub async fn citation_match(ctx: &ToolContext<'_>, call: &CitationMatch) -> Result<ToolOutput> {
    let reply = ctx.entrez()?.send(&plan::citation_match(call)).await?;
    let text_body = String::from_utf8_lossy(&reply.body);
    let matches = parse::ecitmatch::parse_ecitmatch(&text_body);
    let found = matches.iter().filter(|m| m.pmid.is_some()).count();
    let mut text = format!("{found} of {} citation(s) matched a PMID.\n", matches.len());
    for m in &matches {
        text.push_str(&format!(
            "- {}: {} ({} {} {}, p. {})\n",
            m.key,
            m.pmid.as_deref().unwrap_or("no match"),
            m.journal,
            m.year,
            m.volume,
            m.first_page
        ));
    }
    let structured = json!({"operation": "citation_match", "count": matches.len(), "matched": found, "matches": matches, "warnings": []});
    Ok(output(structured, text, None))
}

/// Hit counts across databases, one paced esearch each (EGQuery's documented replacement).
pub async fn global_query(ctx: &ToolContext<'_>, call: &GlobalQuery) -> Result<ToolOutput> {
    let client = ctx.entrez()?;
    let term = &call.term;
    let mut results = Vec::new();
    let plans = plan::global_query(call);
    let total = plans.len() as f64;
    for (i, (db, req)) in plans.into_iter().enumerate() {
        let outcome = match client.send(&req).await {
            Ok(reply) => parse::esearch::parse_esearch_xml(&reply.body).map_err(Error::from),
            Err(e) => Err(e),
        };
        results.push(match outcome {
            Ok(r) if r.errors.is_empty() => json!({"database": db, "count": r.count}),
            Ok(r) => json!({"database": db, "count": null, "error": r.errors.join("; ")}),
            // A rate-limit refusal would hit every later database too: stop, say so.
            Err(e) if e.kind == ErrorKind::RateLimited => return Err(e),
            Err(e) => json!({"database": db, "count": null, "error": e.message}),
        });
        // Pacing makes a long database list take seconds; tell the client how far along it is.
        if let Some(p) = ctx.progress {
            p.report((i + 1) as f64, Some(total), &format!("counted {db}"));
        }
    }
    let mut sorted = results.clone();
    sorted.sort_by_key(|r| std::cmp::Reverse(r["count"].as_u64().unwrap_or(0)));
    let mut text = format!("Hits for \"{term}\" by database:\n");
    for r in &sorted {
        match r["count"].as_u64() {
            Some(c) => text.push_str(&format!(
                "  {:<14} {c}\n",
                r["database"].as_str().unwrap_or("")
            )),
            None => text.push_str(&format!(
                "  {:<14} error: {}\n",
                r["database"].as_str().unwrap_or(""),
                r["error"].as_str().unwrap_or("")
            )),
        }
    }
    let failed = results.iter().filter(|r| r["count"].is_null()).count();
    if failed == results.len() && !results.is_empty() {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("No database answered the count query for \"{term}\"."),
        )
        .suggest("Check the term's syntax with operation spell, or retry later."));
    }
    let structured =
        json!({"operation": "global_query", "term": term, "results": results, "warnings": []});
    Ok(output(structured, text, None))
}

/// Records per publication year of a term: one paced, cached count-only esearch per year, each
/// count named with the term it searched, drawn as a PNG chart.
pub async fn count_by_year(ctx: &ToolContext<'_>, call: &CountByYear) -> Result<ToolOutput> {
    use crate::chart::{self, Chart, Kind};
    let client = ctx.entrez()?;
    let plans = plan::count_by_year(call);
    let total = plans.len() as f64;
    let mut counts = Vec::new();
    let mut warnings = Vec::new();
    let mut points = Vec::new();
    for (i, (year, req)) in plans.into_iter().enumerate() {
        let term = plan::year_term(&call.term, year);
        let outcome = match client.send(&req).await {
            Ok(reply) => parse::esearch::parse_esearch_xml(&reply.body).map_err(Error::from),
            Err(e) => Err(e),
        };
        match outcome {
            Ok(r) if r.errors.is_empty() => {
                counts.push(json!({"year": year, "count": r.count, "term": term}));
                points.push((year.to_string(), r.count as f64));
            }
            Ok(r) => {
                let why = r.errors.join("; ");
                warnings.push(format!(
                    "{year}: NCBI answered {why}; the year is drawn as 0."
                ));
                counts.push(json!({"year": year, "count": null, "term": term, "error": why}));
                points.push((year.to_string(), 0.0));
            }
            // A rate-limit refusal would hit every later year too: stop, say so.
            Err(e) if e.kind == ErrorKind::RateLimited => return Err(e),
            Err(e) => {
                warnings.push(format!("{year}: {}; the year is drawn as 0.", e.message));
                counts.push(json!({"year": year, "count": null, "term": term, "error": e.message}));
                points.push((year.to_string(), 0.0));
            }
        }
        if let Some(p) = ctx.progress {
            p.report((i + 1) as f64, Some(total), &format!("counted {year}"));
        }
    }
    if !counts.is_empty() && counts.iter().all(|c| c["count"].is_null()) {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("No year's count of \"{}\" was answered.", call.term),
        )
        .suggest("Check the term's syntax with operation spell, or retry later."));
    }
    let c = Chart::of(
        format!("Records per year in {}: {}", call.database, call.term),
        "Publication year".into(),
        format!("Records ({})", call.database),
        Kind::Bar,
        points,
    );
    let png = chart::draw::png(&c);
    let mut text = chart::summary(&c);
    text.push_str(&format!(
        "\nEach year is one esearch of db={} term=\"(TERM) AND YYYY[pdat]\" rettype=count.",
        call.database
    ));
    for w in &warnings {
        text.push_str(&format!("\nNote: {w}"));
    }
    let sum: u64 = counts.iter().filter_map(|c| c["count"].as_u64()).sum();
    let structured = json!({
        "operation": "count_by_year",
        "database": call.database,
        "term": call.term,
        "from": call.from,
        "to": call.to,
        "counts": counts,
        "total": sum,
        "title": c.title,
        "image": {"mime_type": "image/png", "width": chart::draw::WIDTH, "height": chart::draw::HEIGHT, "bytes": png.len()},
        "warnings": warnings,
    });
    Ok(ToolOutput::new(structured, text).with_content(Content::image(&png, "image/png")))
}
