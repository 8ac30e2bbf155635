//! What `validate` checks for `entrez_data` beyond the schema: the dataset
//! exists for this caller (and, to be continued, is partial), and the SQL
//! compiles against that dataset's real schema under the read-only policy.
//!
//! This uses the very same `DatasetStore::check` the `query` operation's
//! preparation goes through (SQLite compiles the statement; on Workers, on
//! the dataset's schema replica), so validate and the query cannot disagree.
//! It only reads: an expired dataset is reported, not dropped.

use crate::error::Error;
use crate::framework::ToolContext;
use crate::staging::layouts::named;
use crate::staging::schema::Layout;
use crate::staging::store::{DatasetInfo, Status};
use crate::staging::{is_dataset_id, owner_of};
use crate::suggest::closest;
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_data::call::DataCall;
use crate::tools::entrez_data::plan::Source;
use crate::tools::entrez_data::staging;
use crate::validation::{codes, path, Report};

/// Adds dataset and SQL findings for one `entrez_data` call to `report`.
pub async fn check(ctx: &ToolContext<'_>, args: &DataArgs, report: &mut Report) {
    let (id, sql, continued) = match DataCall::of(args) {
        Some(DataCall::Query(q)) => (q.data_access_id, Some(q.sql), false),
        Some(DataCall::Schema(d) | DataCall::DropDataset(d)) => (d.data_access_id, None, false),
        Some(DataCall::FetchAndStage(stage)) => match stage.source {
            Source::Continue { data_access_id } => (data_access_id, None, true),
            Source::Dataset { seeds_of } => (seeds_of, None, false),
            _ => return,
        },
        Some(DataCall::Export(e)) => (e.data_access_id, e.sql, false),
        Some(DataCall::Bibliography(b)) => match b.data_access_id {
            Some(id) => (id, b.sql, false),
            None => return,
        },
        Some(DataCall::Chart(c)) => {
            let sql = c.sql.filter(|_| crate::chart::named(&c.chart).is_none());
            (c.data_access_id, sql, false)
        }
        Some(DataCall::ListDatasets) | None => return,
    };
    if ctx.staging.is_none() {
        return;
    }
    let Some(info) = dataset(ctx, &id, report).await else {
        return;
    };
    if continued && !matches!(info.status, Status::Partial(_)) {
        // The codes and reasons the call itself would refuse with.
        let (code, why) = crate::tools::entrez_data::stage::cannot_continue(&info.status);
        report.error(
            code,
            path("data_access_id"),
            format!("Dataset {id} {why}; only a partial dataset can be continued."),
        );
        report.suggest("Query it with operation query, or stage a new dataset with ids, webenv with query_key, or term.");
    }
    let Some(sql) = sql else {
        return;
    };
    let Ok(staging) = staging(ctx) else { return };
    if let Err(e) = staging.store.check(&info.id, &sql).await {
        let e = explain(e, layout_of(&info));
        let code = match e.code.as_str() {
            "sql_not_read_only" => codes::SQL_NOT_READ_ONLY,
            "sql_multiple_statements" => codes::SQL_MULTIPLE_STATEMENTS,
            "sql_not_a_query" => codes::SQL_NOT_A_QUERY,
            _ => codes::SQL_ERROR,
        };
        report.error(code, path("sql"), e.message);
        for s in e.suggestions {
            report.suggest(s);
        }
    }
}

/// The caller's dataset, or a finding that says why there is none.
async fn dataset(ctx: &ToolContext<'_>, id: &str, report: &mut Report) -> Option<DatasetInfo> {
    let found = match staging(ctx) {
        Ok(s) if is_dataset_id(id) => s.store.get(id).await.ok().flatten(),
        _ => None,
    };
    let owner = owner_of(ctx.request);
    match found {
        Some(info) if owner.may_use(&info.owner) => {
            if info.expired(ctx.platform.now_unix_ms()) {
                report.error(
                    codes::DATASET_EXPIRED,
                    path("data_access_id"),
                    format!(
                        "Dataset {id} expired at {}.",
                        crate::staging::iso8601(info.expires_ms)
                    ),
                );
                report.suggest("Stage the records again with operation fetch_and_stage.");
                return None;
            }
            Some(info)
        }
        // Someone else's dataset reads exactly like no dataset.
        _ => {
            report.error(
                codes::DATASET_NOT_FOUND,
                path("data_access_id"),
                format!("No dataset {id:?} exists for this caller."),
            );
            report.suggest("Call entrez_data with operation list_datasets to see your datasets.");
            None
        }
    }
}

fn layout_of(info: &DatasetInfo) -> &'static Layout {
    named(&info.layout).unwrap_or_else(|_| crate::staging::layouts::layout_for(&info.database))
}

/// Names what exists when SQLite reports a missing table or column.
pub fn explain(mut e: Error, layout: &Layout) -> Error {
    if e.code != "sql_error" {
        return e;
    }
    let missing = |marker: &str| {
        let rest = e.message.split(marker).nth(1)?;
        let name = rest.split_whitespace().next()?;
        Some(name.trim_end_matches(['.', ':', ',']).to_string())
    };
    let tables: Vec<&str> = layout.tables.iter().map(|t| t.name).collect();
    if let Some(table) = missing("no such table: ") {
        if let Some(best) = closest(&table, tables.iter().copied()) {
            e.message = format!("{} Did you mean {best:?}?", e.message);
        }
        e.suggestions
            .insert(0, format!("Tables of this dataset: {}.", tables.join(", ")));
    } else if let Some(column) = missing("no such column: ") {
        // A qualified name (a.title) is looked up by its last part.
        let bare = column.rsplit('.').next().unwrap_or(&column).to_string();
        let all = layout
            .tables
            .iter()
            .flat_map(|t| t.columns.iter().map(|c| c.name));
        if let Some(best) = closest(&bare, all) {
            let owners: Vec<&str> = layout
                .tables
                .iter()
                .filter(|t| t.column(best).is_some())
                .map(|t| t.name)
                .collect();
            e.message = format!(
                "{} Did you mean {best:?} (in {})?",
                e.message,
                owners.join(", ")
            );
        }
        let listing: Vec<String> = layout
            .tables
            .iter()
            .map(|t| {
                let cols: Vec<&str> = t.columns.iter().map(|c| c.name).collect();
                format!("{} ({})", t.name, cols.join(", "))
            })
            .collect();
        e.suggestions.insert(
            0,
            format!("Columns of this dataset: {}.", listing.join("; ")),
        );
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::staging::guard::sql_error;

    #[test]
    fn missing_names_are_named_with_what_exists() {
        let pubmed = named("pubmed").unwrap();
        let e = explain(sql_error("no such column: titel"), pubmed);
        assert!(
            e.message.contains("Did you mean \"title\" (in article"),
            "{}",
            e.message
        );
        assert!(e.suggestions[0].starts_with("Columns of this dataset: article (pmid,"));
        let e = explain(sql_error("no such table: authors"), pubmed);
        assert!(
            e.message.contains("Did you mean \"author\"?"),
            "{}",
            e.message
        );
        assert!(
            e.suggestions[0].contains("article, abstract_section, author,"),
            "{:?}",
            e.suggestions
        );
        let e = explain(sql_error("no such column: a.yeer"), pubmed);
        assert!(e.message.contains("\"year\""), "{}", e.message);
        let other = explain(sql_error("near \"SELEC\": syntax error"), pubmed);
        assert_eq!(other.suggestions.len(), 1);
    }
}
