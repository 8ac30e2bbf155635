//! Tables for spreadsheets and notebooks: CSV (RFC 4180: CRLF rows, fields quoted where
//! they hold a comma, quote or line break, written by the `csv` crate) and JSON Lines (one
//! JSON object per line). A dataset's records become one row each, their lists joined
//! with "; " (CSV) or kept as arrays and objects (JSON Lines); a query's rows are written as
//! SQLite returned them, one column per result column.

use crate::export::record::Record;
use crate::staging::rows::SqlValue;
use serde_json::{Map, Value};

/// The columns of a record row, in order.
pub const RECORD_COLUMNS: &[&str] = &[
    "pmid",
    "pmcid",
    "doi",
    "title",
    "authors",
    "first_author",
    "journal",
    "journal_abbrev",
    "year",
    "publication_date",
    "volume",
    "issue",
    "pages",
    "issn",
    "language",
    "publication_types",
    "retracted",
    "integrity",
    "mesh_terms",
    "keywords",
    "abstract",
    "pubmed_url",
];

/// A record's cells, in [`RECORD_COLUMNS`]' order.
pub(crate) fn record_cells(r: &Record) -> Vec<String> {
    let opt = |v: &Option<String>| v.clone().unwrap_or_default();
    let authors: Vec<String> = r.authors.iter().map(|a| a.full()).collect();
    vec![
        r.pmid.map(|p| p.to_string()).unwrap_or_default(),
        opt(&r.pmcid),
        opt(&r.doi),
        r.title.clone(),
        authors.join("; "),
        authors.first().cloned().unwrap_or_default(),
        opt(&r.journal),
        opt(&r.journal_abbrev),
        r.year.map(|y| y.to_string()).unwrap_or_default(),
        opt(&r.pub_date),
        opt(&r.volume),
        opt(&r.issue),
        opt(&r.pages),
        opt(&r.issn),
        r.language.join("; "),
        r.publication_types.join("; "),
        if r.retracted() { "true" } else { "false" }.to_string(),
        r.integrity.join("; "),
        r.mesh
            .iter()
            .map(|m| m.medline())
            .collect::<Vec<_>>()
            .join("; "),
        r.keywords.join("; "),
        opt(&r.abstract_text),
        r.pubmed_url().unwrap_or_default(),
    ]
}

/// CSV rows, with the header first when `header` is set.
pub fn csv_rows(header: Option<&[String]>, rows: &[Vec<String>]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    // Writing into memory cannot fail; a row is dropped only if it could not be written.
    if let Some(h) = header {
        let _ = w.write_record(h);
    }
    for row in rows {
        let _ = w.write_record(row);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// Records as CSV rows.
pub fn records_csv(records: &[Record], header: bool) -> String {
    let head: Vec<String> = RECORD_COLUMNS.iter().map(|c| c.to_string()).collect();
    let rows: Vec<Vec<String>> = records.iter().map(record_cells).collect();
    csv_rows(header.then_some(head.as_slice()), &rows)
}

/// Records as JSON Lines: each record whole (authors with affiliations and ORCIDs, MeSH
/// headings with their qualifiers).
pub fn records_jsonl(records: &[Record]) -> String {
    let mut out = String::new();
    for r in records {
        let mut v = serde_json::to_value(r).unwrap_or(Value::Null);
        if let (Value::Object(m), Some(u)) = (&mut v, r.pubmed_url()) {
            m.insert("pubmed_url".into(), Value::String(u));
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    out
}

/// A cell of a query's row as CSV text: NULL empty, blobs base64.
fn cell_text(v: &SqlValue) -> String {
    match v {
        SqlValue::Null => String::new(),
        SqlValue::Integer(n) => n.to_string(),
        SqlValue::Real(f) => f.to_string(),
        SqlValue::Text(s) => s.clone(),
        SqlValue::Blob(b) => base64(b),
    }
}

fn base64(b: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// A query's rows as CSV.
pub fn rows_csv(columns: &[String], rows: &[Vec<SqlValue>], header: bool) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(cell_text).collect())
        .collect();
    csv_rows(header.then_some(columns), &cells)
}

/// A query's rows as JSON Lines, one object per row with the columns in the query's order
/// (a blob as `{"base64": …}`).
pub fn rows_jsonl(columns: &[String], rows: &[Vec<SqlValue>]) -> String {
    let mut out = String::new();
    for row in rows {
        out.push('{');
        for (i, (c, v)) in columns.iter().zip(row).enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&Value::String(c.clone()).to_string());
            out.push(':');
            let value = match v {
                SqlValue::Null => Value::Null,
                SqlValue::Integer(n) => Value::from(*n),
                SqlValue::Real(f) => {
                    serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
                }
                SqlValue::Text(s) => Value::String(s.clone()),
                SqlValue::Blob(b) => {
                    let mut o = Map::new();
                    o.insert("base64".into(), Value::String(base64(b)));
                    Value::Object(o)
                }
            };
            out.push_str(&value.to_string());
        }
        out.push_str("}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_what_needs_it_and_ends_rows_with_crlf() {
        let out = rows_csv(
            &["a".into(), "b".into()],
            &[vec![SqlValue::Text("x, \"y\"\nz".into()), SqlValue::Null]],
            true,
        );
        assert_eq!(out, "a,b\r\n\"x, \"\"y\"\"\nz\",\r\n");
        let jl = rows_jsonl(
            &["n".into(), "b".into()],
            &[vec![SqlValue::Integer(1), SqlValue::Blob(b"ab".to_vec())]],
        );
        assert_eq!(jl, "{\"n\":1,\"b\":{\"base64\":\"YWI=\"}}\n");
        let r = Record {
            key: "1".into(),
            pmid: Some(1),
            title: "T".into(),
            ..Record::default()
        };
        let csv = records_csv(&[r], true);
        assert!(csv.starts_with("pmid,pmcid,doi,title,authors,"));
        assert!(csv.ends_with(",https://pubmed.ncbi.nlm.nih.gov/1/\r\n"));
    }
}
