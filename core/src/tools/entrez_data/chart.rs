//! The chart operation: a staged dataset drawn as a PNG picture, by a named chart's
//! statement or the caller's, with the numbers in text and in structuredContent.

use crate::chart::{self, Chart, Kind};
use crate::error::{Error, ErrorKind, Result};
use crate::framework::content::Content;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::staging::guard::QueryPolicy;
use crate::tools::entrez_data::call::ChartCall;
use crate::tools::entrez_data::{render, staging, status_warnings, wait};
use crate::validation::codes;
use serde_json::Value;

/// The chart the call names, drawn once the dataset's staging has ended or `wait_ms` passed.
pub async fn chart(ctx: &ToolContext<'_>, call: &ChartCall, wait_ms: u64) -> Result<ToolOutput> {
    let named = chart::named(&call.chart);
    let kind = Kind::named(&call.chart);
    if named.is_none() && kind.is_none() {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "No chart {:?}. Supported: {}.",
                call.chart,
                chart::names().join(", ")
            ),
        )
        .with_code(codes::UNKNOWN_CHART)
        .suggest("chart per_year draws a dataset's articles per year; bar or line draws sql."));
    }
    let (info, waited) = wait::dataset(ctx, &call.data_access_id, wait_ms).await?;
    let staging = staging(ctx)?;
    let (sql, title, x_label, y_label) = match (named, &call.sql) {
        (Some(n), _) => {
            // A citation network holds PubMed's tables too.
            if info.layout != "pubmed" && info.layout != crate::staging::layouts::NETWORK.name {
                return Err(Error::new(
                    ErrorKind::InvalidArguments,
                    format!("The named charts read PubMed datasets; this one is {} ({} layout).", info.database, info.layout),
                )
                .with_code(codes::CHART_UNSUITABLE)
                .suggest("Draw your own statement: chart bar (or line) with sql, a label column then a number."));
            }
            (
                n.sql.replace("{n}", &call.limit.to_string()),
                n.title.to_string(),
                n.x_label.to_string(),
                n.y_label.to_string(),
            )
        }
        (None, Some(sql)) => (sql.clone(), String::new(), String::new(), String::new()),
        (None, None) => {
            return Err(Error::new(
                ErrorKind::InvalidArguments,
                format!(
                    "A {} chart draws a statement's rows: give sql (a label column, then a number).",
                    call.chart
                ),
            )
            .with_code(codes::CHART_UNSUITABLE)
            .suggest("Or name a chart: per_year, top_journals, top_mesh, top_mesh_major, top_authors, publication_types."))
        }
    };
    let kind = kind.unwrap_or(Kind::Bar);
    let policy = QueryPolicy::with_limit(
        Some(chart::MAX_ROWS as u64),
        staging.limits.query_time_limit_ms,
    );
    let r = staging
        .store
        .query(&info.id, &sql, policy)
        .await
        .map_err(|e| {
            crate::tools::entrez_data::preflight::explain(
                e,
                crate::tools::entrez_data::operations::layout_named(&info),
            )
        })?;
    if r.total > r.rows.len() as u64 {
        return Err(chart::too_many_rows(r.total));
    }
    let ((mut points, notes), (series, parts)) = if kind == Kind::Stacked {
        chart::stacks_of(&r.columns, &r.rows)?
    } else {
        (
            chart::points_of(&r.columns, &r.rows, kind)?,
            Default::default(),
        )
    };
    if call.chart == "per_year" {
        points = chart::fill_years(points);
    }
    let (x_label, y_label) = if named.is_some() {
        (x_label, y_label)
    } else {
        let first = r.columns.first().cloned().unwrap_or_default();
        match r.columns.len() {
            1 if points.iter().any(|p| p.0.parse::<f64>().is_err()) => (first, "Rows".into()),
            1 => ("Row".into(), first),
            3 => (first, r.columns.get(2).cloned().unwrap_or_default()),
            _ => (first, r.columns.get(1).cloned().unwrap_or_default()),
        }
    };
    let title = if title.is_empty() && kind == Kind::Stacked {
        let by = r.columns.get(1).cloned().unwrap_or_default();
        format!("{y_label} by {x_label} and {by}")
    } else if title.is_empty() {
        format!("{y_label} by {x_label}")
    } else {
        title
    };
    let c = Chart {
        series,
        parts,
        ..Chart::of(title, x_label, y_label, kind, points)
    };
    let png = chart::draw::png(&c);
    let mut warnings: Vec<String> = waited.into_iter().collect();
    warnings.extend(status_warnings(&info));
    warnings.extend(notes);
    if r.rows.is_empty() {
        warnings.push("The statement returned no rows: the chart is empty.".into());
    }
    let mut text = chart::summary(&c);
    text.push_str(&format!("\nSQL: {sql}"));
    for w in &warnings {
        text.push_str(&format!("\nNote: {w}"));
    }
    let mut structured = json!({
        "operation": "chart",
        "data_access_id": info.id,
        "status": render::status(&info),
        "chart": call.chart,
        "kind": kind,
        "title": c.title,
        "x_label": c.x_label,
        "y_label": c.y_label,
        "sql": sql,
        "points": c.points.iter().enumerate().map(|(i, p)| match c.parts.get(i) {
            Some(parts) => json!({"label": p.0, "value": p.1, "parts": parts}),
            None => json!({"label": p.0, "value": p.1}),
        }).collect::<Vec<Value>>(),
        "image": {"mime_type": "image/png", "width": chart::draw::WIDTH, "height": chart::draw::HEIGHT, "bytes": png.len()},
        "warnings": warnings,
    });
    if !c.series.is_empty() {
        structured["series"] = json!(c.series);
    }
    Ok(ToolOutput::new(structured, text).with_content(Content::image(&png, "image/png")))
}
