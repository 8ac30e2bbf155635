//! `entrez_data_page`: a staged dataset's rows a page at a time, for the MCP Apps view
//! ([`crate::apps`]). Only the view calls it (`visibility: ["app"]`), so a person can walk
//! ten thousand rows while the model holds the first page; it is listed only to clients
//! that render views. It answers exactly what `entrez_data query` would for the same
//! caller: the same ownership, the same read-only policy, the same time limit.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolCall, ToolSpec};
use crate::framework::{ToolContext, ToolOutput};
use crate::json;
use crate::platform::BoxFuture;
use crate::staging::guard::QueryPolicy;
use crate::tools::entrez_data::operations::layout_named;
use crate::tools::entrez_data::{preflight, render, staging, wait};
use serde::Deserialize;
use serde_json::Value;

/// Rows on a page when the view does not say.
pub const DEFAULT_LIMIT: u64 = 25;
/// Most rows on one page.
pub const MAX_LIMIT: u64 = 100;

/// The tool.
pub const SPEC: ToolSpec = ToolSpec {
    name: crate::apps::PAGE_TOOL,
    title: "Rows of a staged dataset, a page at a time",
    description: "For the entrez-mcp view: one page of a staged dataset's rows (a read-only SELECT, or its main table), sorted by a column. Assistants use entrez_data query.",
    input_schema: include_str!("../../../../schemas/entrez_data_page.input.json"),
    output_schema: include_str!("../../../../schemas/entrez_data_page.output.json"),
    annotations: ToolAnnotations::LOCAL_READ_ONLY,
    typical_output: "2-10 KB",
    text_form: TextForm::Readable,
    read: |args| Box::new(PageArgs::read(args)),
};

/// The arguments, as the input schema admits them.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PageArgs {
    /// The dataset.
    #[serde(default)]
    pub data_access_id: String,
    /// The statement paged; `None`: the dataset's main table.
    #[serde(default)]
    pub sql: Option<String>,
    /// Rows skipped.
    #[serde(default)]
    pub offset: u64,
    /// Rows on the page.
    #[serde(default)]
    pub limit: Option<u64>,
    /// The column sorted by.
    #[serde(default)]
    pub order_by: Option<String>,
    /// Largest first.
    #[serde(default)]
    pub descending: bool,
}

impl PageArgs {
    /// Reads the arguments (already checked against the input schema).
    pub fn read(args: &Value) -> PageArgs {
        serde_json::from_value(args.clone()).unwrap_or_default()
    }

    /// Rows on the page: `limit`, or [`DEFAULT_LIMIT`], at most [`MAX_LIMIT`].
    pub fn page_limit(&self) -> u64 {
        self.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT)
    }
}

impl ToolCall for PageArgs {
    fn run<'a>(self: Box<Self>, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<ToolOutput>> {
        Box::pin(async move { page(ctx, &self).await })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A column name as `order_by` takes it: a plain identifier (quoted when used).
fn plain_identifier(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name.len() <= 64
}

/// The statements a page runs: its rows, and how many rows `sql` yields in all.
pub fn statements(sql: &str, args: &PageArgs) -> Result<(String, String)> {
    let inner = sql.trim().trim_end_matches(';').trim_end();
    let order = match args.order_by.as_deref() {
        None => String::new(),
        Some(c) if plain_identifier(c) => {
            format!(
                " ORDER BY \"{c}\"{}",
                if args.descending { " DESC" } else { "" }
            )
        }
        Some(c) => {
            return Err(Error::new(
                ErrorKind::InvalidArguments,
                format!("order_by {c:?} is not a column name."),
            )
            .suggest("Name one of the columns the statement returns."))
        }
    };
    let limit = args.page_limit();
    Ok((
        format!(
            "SELECT * FROM ({inner}){order} LIMIT {limit} OFFSET {}",
            args.offset
        ),
        format!("SELECT COUNT(*) FROM ({inner})"),
    ))
}

async fn page(ctx: &ToolContext<'_>, args: &PageArgs) -> Result<ToolOutput> {
    let (info, _) = wait::dataset(ctx, &args.data_access_id, 0).await?;
    let staging = staging(ctx)?;
    let layout = layout_named(&info);
    let sql = match &args.sql {
        Some(s) => s.clone(),
        None => format!("SELECT * FROM {}", layout.primary),
    };
    let (rows_sql, count_sql) = statements(&sql, args)?;
    let limit = args.page_limit();
    let time = staging.limits.query_time_limit_ms;
    let explain = |e| preflight::explain(e, layout);
    let r = staging
        .store
        .query(
            &info.id,
            &rows_sql,
            QueryPolicy::with_limit(Some(limit), time),
        )
        .await
        .map_err(explain)?;
    // SQLite reads a quoted name that is no column as a string, which sorts nothing: say so.
    if let Some(c) = args
        .order_by
        .as_deref()
        .filter(|c| !r.columns.iter().any(|k| k == c))
    {
        return Err(Error::new(
            ErrorKind::InvalidArguments,
            format!(
                "order_by {c:?} is not a column of the statement's rows ({}).",
                r.columns.join(", ")
            ),
        )
        .suggest("Sort by one of the columns the statement returns."));
    }
    let counted = staging
        .store
        .query(&info.id, &count_sql, QueryPolicy::with_limit(Some(1), time))
        .await
        .map_err(explain)?;
    let total = counted
        .rows
        .first()
        .and_then(|row| row.first())
        .and_then(|cell| render::cell(cell).as_u64())
        .unwrap_or(0);
    let rows: Vec<Value> = r
        .rows
        .iter()
        .map(|row| Value::Array(row.iter().map(render::cell).collect()))
        .collect();
    let shown = rows.len() as u64;
    let text = if shown == 0 {
        format!(
            "No rows past row {} of {}: {sql}",
            args.offset,
            render::thousands(total)
        )
    } else {
        format!(
            "Rows {}–{} of {} of {sql}",
            render::thousands(args.offset + 1),
            render::thousands(args.offset + shown),
            render::thousands(total)
        )
    };
    let structured = json!({
        "operation": "page",
        "data_access_id": info.id,
        "status": render::status(&info),
        "sql": sql,
        "columns": r.columns,
        "rows": rows,
        "offset": args.offset,
        "limit": limit,
        "total": total,
        "order_by": args.order_by,
        "descending": args.descending,
    });
    Ok(ToolOutput::new(structured, text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_wraps_the_statement_and_quotes_its_column() {
        let args = PageArgs {
            offset: 50,
            limit: Some(25),
            order_by: Some("year".into()),
            descending: true,
            ..PageArgs::default()
        };
        let (rows, count) = statements("SELECT pmid, year FROM article;  ", &args).unwrap();
        assert_eq!(
            rows,
            "SELECT * FROM (SELECT pmid, year FROM article) ORDER BY \"year\" DESC LIMIT 25 OFFSET 50"
        );
        assert_eq!(
            count,
            "SELECT COUNT(*) FROM (SELECT pmid, year FROM article)"
        );
        let bad = PageArgs {
            order_by: Some("year\"; DROP TABLE article; --".into()),
            ..PageArgs::default()
        };
        assert!(statements("SELECT 1", &bad).is_err());
        assert!(!plain_identifier("1year") && plain_identifier("_year2"));
    }
}
