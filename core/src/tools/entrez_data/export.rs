//! `export` and `bibliography`: a dataset's records as a file, and formatted references.
//!
//! An export is planned by [`crate::export::prepare`], kept with its dataset, and answered
//! with a `resource_link` and a few lines: the file itself is read with `resources/read`
//! ([`super::resources`]), page by page, never through the model. A bibliography
//! of PMIDs is fetched and written into the result; one of a dataset is an export.

use crate::allowance::{Allowance, Need, CPU_US_PER_RECORD, CPU_US_PER_ROW, PER_CALL_US};
use crate::error::{Error, ErrorKind, Result};
use crate::export::record::Assembler;
use crate::export::style::{self, Markup};
use crate::export::{self as files, Export, Format, Request};
use crate::framework::budget;
use crate::framework::content::{Annotations, Content, Role};
use crate::framework::{ToolContext, ToolOutput};
use crate::json;
use crate::staging::layouts::named;
use crate::staging::store::DatasetInfo;
use crate::tools::entrez_data::call::{Bibliography, Choice, Export as ExportCall};
use crate::tools::entrez_data::{render, staging, status_warnings, wait};
use serde_json::Value;

/// What writing records (or, with `rows`, a query's rows) asks of a call: the call's own
/// cost, then [`CPU_US_PER_RECORD`] or [`CPU_US_PER_ROW`] each.
fn writing(rows: bool) -> Need {
    Need::cpu_us(
        PER_CALL_US,
        if rows {
            CPU_US_PER_ROW
        } else {
            CPU_US_PER_RECORD
        },
    )
}

/// Records (or rows) a page holds: `per_page`, or fewer where the request that reads the page
/// could not write them within what fits a call (the Workers Free plan's 10 ms: 46 records); at
/// least 10.
pub fn per_page_within(per_page: u64, allowance: &Allowance, rows: bool) -> u64 {
    per_page.min(allowance.fits(&writing(rows)).max(10))
}

fn known<T: Copy>(c: &Choice<T>, what: &str) -> Result<T> {
    match c {
        Choice::Known(t) => Ok(*t),
        Choice::Unknown(name) => Err(Error::new(
            ErrorKind::InvalidArguments,
            format!("Unknown {what} {name:?}."),
        )
        .with_code(format!("unknown_{what}"))),
    }
}

/// Runs `export`.
pub async fn export(ctx: &ToolContext<'_>, call: &ExportCall, wait_ms: u64) -> Result<ToolOutput> {
    let request = Request {
        format: known(&call.format, "format")?,
        style: known(&call.style, "style")?,
        sql: call.sql.clone(),
    };
    let (info, waited) = wait::dataset(ctx, &call.data_access_id, wait_ms).await?;
    exported(ctx, info, waited, request).await
}

/// Plans, measures and keeps an export of `info`, and answers with its link.
async fn exported(
    ctx: &ToolContext<'_>,
    info: DatasetInfo,
    waited: Option<String>,
    request: Request,
) -> Result<ToolOutput> {
    let staging = staging(ctx)?;
    let layout = named(&info.layout)?;
    let going_on = wait::staging_goes_on(&info);
    let rows_of_query = matches!(request.format, Format::Csv | Format::Jsonl)
        && (request.sql.is_some() || Assembler::for_layout(layout).is_none());
    if going_on && rows_of_query {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "Dataset {} is still loading ({} records so far): a query's rows cannot be held fixed while it grows.",
                info.id,
                render::thousands(info.records)
            ),
        )
        .with_code("dataset_busy")
        .suggest("Call again with wait_seconds (up to 120) to export once staging ends, or export the records staged so far without sql."));
    }
    if let Some(sql) = &request.sql {
        crate::staging::guard::check_text(sql)?;
        staging
            .store
            .check(&info.id, sql)
            .await
            .map_err(|e| crate::tools::entrez_data::preflight::explain(e, layout))?;
    }
    let mut id_bytes = [0u8; 8];
    ctx.platform.fill_random(&mut id_bytes);
    let now = ctx.platform.now_unix_ms();
    let time_limit = staging.limits.query_time_limit_ms;
    let mut plan = files::prepare(
        staging.store.as_ref(),
        &info,
        layout,
        &request,
        crate::hex::hex(&id_bytes),
        now,
        time_limit,
    )
    .await?;
    plan.per_page = per_page_within(plan.per_page, &ctx.allowance(), rows_of_query);
    if plan.count() == 0 {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "Nothing to export: {} selects no {}.",
                if request.sql.is_some() {
                    "the statement"
                } else {
                    "the dataset"
                },
                if rows_of_query { "rows" } else { "records" }
            ),
        )
        .with_code("export_empty")
        .suggest("Check the statement with operation query first."));
    }
    measure(ctx, &mut plan, layout, rows_of_query).await?;
    let body = serde_json::to_string(&plan).map_err(|e| Error::internal(e.to_string()))?;
    staging
        .store
        .save_export(&info.id, &plan.id, body, now)
        .await?;
    let mut warnings: Vec<String> = waited.into_iter().collect();
    if going_on {
        warnings.push(format!(
            "Still loading: holds the {} records staged so far; export again when complete.",
            render::thousands(plan.count())
        ));
    } else {
        warnings.extend(status_warnings(&info));
    }
    Ok(linked(&info, &plan, warnings))
}

/// Counts the export's bytes by writing every page, where the call's CPU budget pays for it
/// (always natively and on the Workers Paid plan; on the Free plan's 10 ms, an export of one
/// page); refuses an export past the dataset's byte ceiling.
async fn measure(
    ctx: &ToolContext<'_>,
    plan: &mut Export,
    layout: &'static crate::staging::schema::Layout,
    rows: bool,
) -> Result<()> {
    let staging = staging(ctx)?;
    let affordable = ctx.allowance().fits(&writing(rows)) >= plan.count() || plan.pages() == 1;
    let ceiling = staging.limits.max_dataset_bytes;
    let time_limit = staging.limits.query_time_limit_ms;
    let pages = if affordable { plan.pages() } else { 1 };
    let mut bytes = 0u64;
    for p in 1..=pages {
        bytes += files::page(staging.store.as_ref(), plan, layout, p, time_limit)
            .await?
            .len() as u64;
        // Past the ceiling already, or on course to pass it.
        let projected = bytes / p * plan.pages();
        if bytes > ceiling || (!affordable && projected > ceiling) {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                format!(
                    "This export would take {}{} bytes, over the {} bytes a dataset may take (ENTREZ_DATA_MAX_DATASET_BYTES).",
                    if affordable { "more than " } else { "about " },
                    render::thousands(bytes.max(projected)),
                    render::thousands(ceiling)
                ),
            )
            .with_code("export_too_large")
            .suggest("Export fewer records (sql selecting them) or a leaner format (csv, text)."));
        }
    }
    plan.bytes = affordable.then_some(bytes);
    Ok(())
}

/// The answer to an export: a resource link and a few lines.
fn linked(info: &DatasetInfo, plan: &Export, warnings: Vec<String>) -> ToolOutput {
    let pages = plan.pages();
    let noun = match plan.items {
        files::Items::Records { .. } => "records",
        files::Items::Rows { .. } => "rows",
    };
    let what = match plan.style {
        Some(s) => format!("a {} bibliography ({})", s.name(), plan.format.name()),
        None => plan.format.name().to_string(),
    };
    let size = plan.bytes.map_or_else(
        || "size counted per page".to_string(),
        |b| format!("{} bytes", render::thousands(b)),
    );
    let uri = plan.uri(None);
    // The URI is the link's (and the structured result's): the text does not repeat it.
    let mut text = format!(
        "Exported {} {noun} as {what}: {size}, {pages} page(s), linked: resources/read returns it{}; it lasts as long as its dataset (until {}).",
        render::thousands(plan.count()),
        if pages > 1 { format!(" (?page=1…{pages})") } else { String::new() },
        crate::staging::iso8601(info.expires_ms)
    );
    for w in &warnings {
        text.push_str(&format!("\nNote: {w}"));
    }
    let mut export = json!({
        "uri": uri,
        "format": plan.format.name(),
        "items": plan.count(),
        "pages": pages,
        "bytes": plan.bytes,
    });
    if let Some(s) = plan.style {
        json::set(&mut export, "style", json!(s.name()));
    }
    let structured = json!({
        "operation": "export",
        "data_access_id": info.id,
        "status": render::status(info),
        "export": export,
        "warnings": warnings,
    });
    let link = Content::ResourceLink {
        uri: plan.uri(None),
        name: plan.file_name(&info.database),
        title: None,
        description: Some(format!("{pages} page(s)")),
        mime_type: Some(plan.format.mime().to_string()),
        size: plan.bytes,
        annotations: None,
    };
    ToolOutput::new(structured, text).with_content(link)
}

/// Runs `bibliography`: of PMIDs in the result, of a dataset as an export.
pub async fn bibliography(
    ctx: &ToolContext<'_>,
    call: &Bibliography,
    wait_ms: u64,
) -> Result<ToolOutput> {
    let style = known(&call.style, "style")?;
    let format = known(&call.format, "format")?;
    if let Some(id) = &call.data_access_id {
        let (info, waited) = wait::dataset(ctx, id, wait_ms).await?;
        let request = Request {
            format,
            style,
            sql: call.sql.clone(),
        };
        return exported(ctx, info, waited, request).await;
    }
    let records = fetch_records(ctx, &call.ids).await?;
    let missing: Vec<String> = call
        .ids
        .iter()
        .filter(|id| !records.iter().any(|r| &r.key == *id))
        .cloned()
        .collect();
    let markup = if format == Format::Text {
        Markup::Text
    } else {
        Markup::Markdown
    };
    let entries: Vec<(String, String)> = style::arrange(style, &records)
        .into_iter()
        .map(|(i, place)| {
            let r = &records[i];
            (r.key.clone(), style::write(style, r, &place, markup))
        })
        .collect();
    let flagged = |flag: &str| -> Vec<&str> {
        records
            .iter()
            .filter(|r| {
                r.integrity.iter().any(|f| f == flag) || (flag == "retracted" && r.retracted())
            })
            .map(|r| r.key.as_str())
            .collect()
    };
    let (retracted, concern) = (flagged("retracted"), flagged("expression_of_concern"));
    let mut warnings = Vec::new();
    if !missing.is_empty() {
        warnings.push(format!(
            "PubMed returned no record for {} of the PMIDs: {}.",
            missing.len(),
            missing.join(", ")
        ));
    }
    if !retracted.is_empty() {
        warnings.push(format!(
            "Retracted, marked [RETRACTED] with the notice's PMID: {}.",
            retracted.join(", ")
        ));
    }
    if !concern.is_empty() {
        warnings.push(format!(
            "Under an expression of concern, marked [EXPRESSION OF CONCERN]: {}.",
            concern.join(", ")
        ));
    }
    let separator = if markup == Markup::Markdown {
        "\n\n"
    } else {
        "\n"
    };
    let budget = call.view.max_characters;
    let mut fitted = budget::fit(entries.len(), budget, |k| {
        let structured = json!({
            "operation": "bibliography",
            "style": style.name(),
            "format": format.name(),
            "csl_style": style.csl_file(),
            "entries": entries[..k].iter().map(|(pmid, text)| json!({"pmid": pmid, "text": text})).collect::<Vec<_>>(),
            "count": k,
            "missing": missing,
            "warnings": warnings,
        });
        let mut text = entries[..k]
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join(separator);
        for w in &warnings {
            text.push_str(&format!("\n\nNote: {w}"));
        }
        (structured, text)
    });
    let shown_ids: Vec<String> = entries
        .iter()
        .skip(fitted.shown)
        .map(|(k, _)| k.clone())
        .collect();
    let next = (fitted.shown < entries.len()).then(|| {
        let mut a = serde_json::Map::new();
        a.insert("operation".into(), json!("bibliography"));
        a.insert("ids".into(), json!(shown_ids));
        a.insert("style".into(), json!(style.name()));
        a.insert("format".into(), json!(format.name()));
        budget::next_call("entrez_data", a, &call.view)
    });
    let (structured, text) = fitted.take();
    let out = ToolOutput::new(structured, text).with_text_annotations(
        Annotations::for_audience(&[Role::User, Role::Assistant]).with_priority(1.0),
    );
    Ok(budget::left_out(
        out, &fitted, budget, "entries", &shown_ids, next,
    ))
}

/// The PubMed records of `ids`, in their order, fetched in one request and read into the
/// records the styles write.
async fn fetch_records(
    ctx: &ToolContext<'_>,
    ids: &[String],
) -> Result<Vec<files::record::Record>> {
    let client = ctx.entrez()?;
    let request = crate::tools::entrez_data::plan::batch(
        "pubmed",
        crate::tools::entrez_data::plan::Fetch::for_database("pubmed"),
        crate::tools::entrez_data::plan::Slice::Ids(ids),
    );
    let reply = client.send(&request).await?;
    files::record::from_pubmed_xml(&reply.body, ids).map_err(|e| {
        Error::new(
            ErrorKind::Upstream,
            format!("PubMed's reply could not be read: {e}"),
        )
    })
}

/// The structured summary of one page read (`_meta` of `resources/read`).
pub fn page_meta(plan: &Export, page: u64) -> Value {
    let pages = plan.pages();
    let first = (page - 1) * plan.per_page + 1;
    let last = (page * plan.per_page).min(plan.count());
    json!({
        "page": page,
        "pages": pages,
        "items": [first, last],
        "total": plan.count(),
        "bytes": plan.bytes,
        "next": (page < pages).then(|| plan.uri(Some(page + 1))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_holds_what_fits_a_call() {
        let free = Allowance::FREE_PLAN;
        assert_eq!(per_page_within(200, &Allowance::default(), false), 200);
        // 8 ms planned of 10, 1 ms of it the call's own: 7,000 µs at 150 a record, 10 a row.
        assert_eq!(per_page_within(200, &free, false), 46);
        assert_eq!(per_page_within(1_000, &free, true), 700);
        let one_ms = Allowance {
            cpu_budget_ms: 1,
            ..free
        };
        assert_eq!(per_page_within(200, &one_ms, false), 10);
    }
}
