//! Structured values and text blocks for `entrez_data` results.
//!
//! The structured form carries everything; the text is what a person (and an
//! assistant skimming) needs: what was staged, how big, how to query it, and
//! for queries the first rows as an aligned table with long cells shortened.

use crate::json;
use crate::staging::rows::SqlValue;
use crate::staging::store::{DatasetInfo, QueryResult};
use crate::staging::{iso8601, schema::Example};
use serde_json::Value;

/// Columns up to this wide are padded to line up; wider ones are not.
const PADDED_WIDTH: usize = 40;
/// Characters kept of one cell in the text block (structuredContent has it whole).
pub const TEXT_CELL_CHARS: usize = 200;

/// A dataset as the results describe it.
pub fn dataset(info: &DatasetInfo) -> Value {
    json!({
        "data_access_id": info.id,
        "database": info.database,
        "layout": info.layout,
        "source": info.source,
        "status": status(info),
        "reason": info.status.reason(),
        "created": iso8601(info.created_ms),
        "expires": iso8601(info.expires_ms),
        "records": info.records,
        "rows": info.rows,
        "bytes": info.bytes,
        "tables": info.tables.iter().map(|t| json!({"name": t.name, "rows": t.rows})).collect::<Vec<_>>(),
    })
}

/// A dataset's status as callers see it: one the server continues by itself between two
/// of its steps is `loading` (stored `partial` with its cursor), since no call is needed.
pub fn status(info: &DatasetInfo) -> &'static str {
    if crate::tools::entrez_data::cursor::in_background(&info.status).is_some() {
        "loading"
    } else {
        info.status.as_str()
    }
}

/// Example queries as JSON.
pub fn examples(list: &[Example]) -> Value {
    Value::Array(
        list.iter()
            .map(|e| json!({"title": e.title, "sql": e.sql}))
            .collect(),
    )
}

/// "article 1,000, author 6,210, ..." for text blocks.
pub fn table_counts(info: &DatasetInfo) -> String {
    info.tables
        .iter()
        .map(|t| format!("{} {}", t.name, thousands(t.rows)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One cell as JSON; blobs as base64 in an object so they cannot pass for text.
pub fn cell(v: &SqlValue) -> Value {
    match v {
        SqlValue::Null => Value::Null,
        SqlValue::Integer(n) => json!(n),
        SqlValue::Real(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        SqlValue::Text(s) => json!(s),
        SqlValue::Blob(b) => {
            use base64::Engine as _;
            json!({ "base64": base64::engine::general_purpose::STANDARD.encode(b) })
        }
    }
}

fn cell_text(v: &SqlValue) -> String {
    let s = match v {
        SqlValue::Null => "NULL".to_string(),
        SqlValue::Integer(n) => n.to_string(),
        SqlValue::Real(f) => f.to_string(),
        SqlValue::Text(s) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        SqlValue::Blob(b) => format!("<blob {} bytes>", b.len()),
    };
    if s.chars().count() > TEXT_CELL_CHARS {
        s.chars().take(TEXT_CELL_CHARS - 1).collect::<String>() + "…"
    } else {
        s
    }
}

/// The query's first `rows` rows as a pipe table, with a line on what was left out.
pub fn query_text(r: &QueryResult, rows: usize) -> String {
    let shown: Vec<Vec<String>> = r
        .rows
        .iter()
        .take(rows)
        .map(|row| row.iter().map(cell_text).collect())
        .collect();
    let mut widths: Vec<usize> = r.columns.iter().map(|c| c.chars().count()).collect();
    for row in &shown {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    // Long text columns are not padded: spaces would cost as much as the text.
    for w in &mut widths {
        if *w > PADDED_WIDTH {
            *w = 0;
        }
    }
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        format!("| {} |", parts.join(" | "))
    };
    let mut out = vec![
        line(&r.columns),
        format!(
            "|{}|",
            widths
                .iter()
                .map(|w| "-".repeat(w + 2))
                .collect::<Vec<_>>()
                .join("|")
        ),
    ];
    out.extend(shown.iter().map(|row| line(row)));
    let total = if r.total_exact {
        thousands(r.total)
    } else {
        format!("at least {}", thousands(r.total))
    };
    out.push(String::new());
    let cut = shown.iter().flatten().any(|c| c.ends_with('…'));
    out.push(format!(
        "{} row(s) returned of {total}.{} {} ms.",
        shown.len(),
        if cut {
            format!(" Cells longer than {TEXT_CELL_CHARS} characters end in … here; structuredContent has them whole.")
        } else {
            String::new()
        },
        r.elapsed_ms
    ));
    out.join("\n")
}

/// 1234567 as "1,234,567".
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_and_shorten_long_cells() {
        let r = QueryResult {
            columns: vec!["pmid".into(), "title".into()],
            rows: vec![
                vec![SqlValue::Integer(1), SqlValue::Text("x ".repeat(150))],
                vec![SqlValue::Integer(22), SqlValue::Null],
            ],
            total: 1500,
            total_exact: true,
            bytes_capped: false,
            elapsed_ms: 3,
        };
        let t = query_text(&r, 2);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("| pmid | title"));
        assert!(lines[2].contains('…'));
        assert!(lines[3].starts_with("| 22   | NULL"));
        assert!(t.contains("2 row(s) returned of 1,500."));
        assert!(t.contains("end in … here"));
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(
            cell(&SqlValue::Blob(b"ab".to_vec())),
            json!({"base64": "YWI="})
        );
    }
}
