//! `entrez_data`'s semantic level: the call as it will run.
//!
//! Its real checks need the caller's datasets (do they exist, does the SQL
//! compile against them), so they run in `tools::entrez_data::preflight`,
//! where the store is. Here, with no store, the call is only read into its
//! typed form, so `normalized_arguments` shows the defaults it will run with.

use crate::export::style::{Style, STYLES};
use crate::export::{Format, FORMATS};
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_data::call::{Choice, DataCall};
use crate::validation::{codes, path, Report};

/// Most PMIDs one bibliography call formats (one efetch).
pub const MAX_BIBLIOGRAPHY_IDS: usize = 200;

/// Sets `normalized` to the typed call; names `fresh` and `wait_seconds` where they do nothing;
/// refuses formats and styles this server does not write, listing the ones it does.
pub fn check(args: &DataArgs, report: &mut Report) {
    let call = DataCall::of(args);
    report.normalized = call.as_ref().map(|call| call.to_value());
    match &call {
        Some(DataCall::Export(e)) => {
            format_known(&e.format, FORMATS.iter().map(|f| f.1).collect(), report);
            style_known(&e.style, report);
            if args.has("style") && !matches!(e.format, Choice::Known(f) if f.bibliography()) {
                report.warn(
                    codes::IGNORED_PARAMETER,
                    path("style"),
                    "style shapes bibliographies (format text or markdown); this export ignores it.",
                );
            }
        }
        Some(DataCall::Bibliography(b)) => {
            format_known(&b.format, vec!["text", "markdown"], report);
            if let Choice::Known(f) = b.format {
                if !f.bibliography() {
                    report.error(
                        codes::UNKNOWN_FORMAT,
                        path("format"),
                        format!("A bibliography is written as text or markdown, not {} (export writes {} files). Supported: text, markdown.", f.name(), f.name()),
                    );
                }
            }
            style_known(&b.style, report);
            if b.ids.len() > MAX_BIBLIOGRAPHY_IDS {
                report.error(
                    codes::TOO_MANY_IDS,
                    path("ids"),
                    format!(
                        "{} PMIDs; one bibliography call formats at most {MAX_BIBLIOGRAPHY_IDS}.",
                        b.ids.len()
                    ),
                );
                report.suggest("Stage them with fetch_and_stage, then call bibliography with the data_access_id.");
            }
            for (i, id) in b.ids.iter().enumerate() {
                if id.is_empty() || !id.bytes().all(|c| c.is_ascii_digit()) {
                    report.error(
                        codes::INVALID_ID,
                        format!("$.ids[{i}]"),
                        format!("{id:?} is not a PMID: a bibliography of ids takes PubMed ids (digits)."),
                    );
                }
            }
        }
        Some(DataCall::FetchAndStage(s)) if s.network.is_some() => {
            crate::tools::entrez_data::network::check(args, s, report);
        }
        Some(DataCall::Chart(c)) => {
            let names = crate::chart::names();
            if !names.contains(&c.chart.as_str()) {
                report.error(
                    codes::UNKNOWN_CHART,
                    path("chart"),
                    format!("No chart {:?}. Supported: {}.", c.chart, names.join(", ")),
                );
            } else if crate::chart::Kind::named(&c.chart).is_some() && c.sql.is_none() {
                report.error(
                    codes::CHART_UNSUITABLE,
                    path("sql"),
                    format!("A {} chart draws a statement's rows: give sql (a label column, then a number).", c.chart),
                );
            } else if crate::chart::named(&c.chart).is_some() && c.sql.is_some() {
                report.warn(
                    codes::IGNORED_PARAMETER,
                    path("sql"),
                    format!(
                        "{} runs its own statement; sql is ignored (chart bar or line draws sql).",
                        c.chart
                    ),
                );
            }
        }
        _ => {}
    }
    let op = args.operation.as_deref().unwrap_or("");
    if args.has("steps") && (op != "fetch_and_stage" || args.network.is_none()) {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("steps"),
            "steps counts a citation network's steps (fetch_and_stage with network); it is ignored here.",
        );
    }
    if args.has("network") && op != "fetch_and_stage" {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("network"),
            format!("{op} stages nothing; network is ignored (fetch_and_stage stages a network)."),
        );
    }
    if args.given.iter().any(|k| k == "fresh") && !matches!(op, "fetch_and_stage" | "bibliography")
    {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("fresh"),
            format!("{op} asks nothing upstream (only fetch_and_stage and bibliography do); fresh is ignored."),
        );
    }
    if args.given.iter().any(|k| k == "wait_seconds")
        && !matches!(
            op,
            "fetch_and_stage" | "query" | "schema" | "export" | "bibliography" | "chart"
        )
    {
        report.warn(
            codes::IGNORED_PARAMETER,
            path("wait_seconds"),
            format!("{op} waits for nothing (query, schema, export and fetch_and_stage do); wait_seconds is ignored."),
        );
    }
}

fn format_known(format: &Choice<Format>, supported: Vec<&str>, report: &mut Report) {
    if let Choice::Unknown(name) = format {
        let why = if name.trim().eq_ignore_ascii_case("parquet") {
            " (Parquet is not offered: its writer would take about 190 KB of the Worker's bundle; pandas writes it from csv or jsonl)"
        } else {
            ""
        };
        report.error(
            codes::UNKNOWN_FORMAT,
            path("format"),
            format!(
                "Unknown format {name:?}{why}. Supported: {}.",
                supported.join(", ")
            ),
        );
        if let Some(near) =
            crate::suggest::closest(&name.to_ascii_lowercase(), supported.iter().copied())
        {
            report.suggest(format!("Use format \"{near}\"."));
        }
    }
}

fn style_known(style: &Choice<Style>, report: &mut Report) {
    if let Choice::Unknown(name) = style {
        let names: Vec<&str> = STYLES.iter().map(|s| s.1).collect();
        report.error(
            codes::UNKNOWN_STYLE,
            path("style"),
            crate::export::unknown_style_message(name),
        );
        if let Some(near) =
            crate::suggest::closest(&name.to_ascii_lowercase(), names.iter().copied())
        {
            report.suggest(format!("Use style \"{near}\"."));
        }
        report.suggest(crate::export::OTHER_STYLES);
    }
}
