//! Parsed records become rows: one [`RowBatch`] per fetched batch.
//!
//! A batch holds, for each table of the layout, its values flat and
//! row-major, so a thousand authors are one vector, not a thousand. The
//! converters take the parsed records by value and move their strings into
//! the batch, which keeps staging close to the speed of parsing itself.

mod literature;
mod molecular;
pub mod network;

pub use literature::{pmc, pubmed};
pub use molecular::{docsums, sequences, taxa};

use crate::staging::schema::{Layout, Table};

/// One SQLite value as the core hands it to a backend.
///
/// Serialized untagged: JSON null, integer, float, string, or an array of bytes.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum SqlValue {
    /// NULL.
    Null,
    /// A 64-bit integer.
    Integer(i64),
    /// A float.
    Real(f64),
    /// UTF-8 text.
    Text(String),
    /// Bytes (only ever produced by queries, e.g. `randomblob`).
    Blob(Vec<u8>),
}

impl SqlValue {
    /// Text, or NULL when absent.
    pub fn opt_text(v: Option<String>) -> SqlValue {
        v.map_or(SqlValue::Null, SqlValue::Text)
    }

    /// An integer, or NULL when absent or out of range.
    pub fn opt_int<T: TryInto<i64>>(v: Option<T>) -> SqlValue {
        v.and_then(|n| n.try_into().ok())
            .map_or(SqlValue::Null, SqlValue::Integer)
    }

    /// A 0/1 flag.
    pub fn flag(b: bool) -> SqlValue {
        SqlValue::Integer(i64::from(b))
    }

    /// An id that is numeric in NCBI's data; kept as text if it ever is not, so nothing is lost.
    pub fn id(s: &str) -> SqlValue {
        match s.trim().parse::<i64>() {
            Ok(n) => SqlValue::Integer(n),
            Err(_) => SqlValue::Text(s.trim().to_string()),
        }
    }

    /// Approximate bytes this value takes, for size estimates.
    pub fn weight(&self) -> usize {
        match self {
            SqlValue::Null => 1,
            SqlValue::Integer(_) | SqlValue::Real(_) => 8,
            SqlValue::Text(s) => s.len(),
            SqlValue::Blob(b) => b.len(),
        }
    }
}

/// The rows of one table within a batch.
#[derive(Debug, Clone)]
pub struct TableRows {
    /// The table they go into.
    pub table: &'static Table,
    /// Values, row-major, `table.columns.len()` per row.
    pub values: Vec<SqlValue>,
    /// Rows refused because a required (NOT NULL) column had no value.
    pub refused: usize,
}

impl TableRows {
    /// Number of complete rows.
    pub fn len(&self) -> usize {
        self.values.len() / self.table.columns.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Row `i`.
    pub fn row(&self, i: usize) -> &[SqlValue] {
        let n = self.table.columns.len();
        &self.values[i * n..(i + 1) * n]
    }

    /// Appends one row; the values must match the table's columns in order. A row
    /// with no value for a required column is counted in `refused` instead.
    pub fn push<const N: usize>(&mut self, row: [SqlValue; N]) {
        debug_assert_eq!(N, self.table.columns.len(), "{}", self.table.name);
        let columns = self.table.columns.iter();
        if row
            .iter()
            .zip(columns)
            .any(|(v, c)| c.not_null && matches!(v, SqlValue::Null))
        {
            self.refused += 1;
            return;
        }
        self.values.extend(row);
    }
}

/// Everything one fetched batch adds to a dataset.
#[derive(Debug, Clone)]
pub struct RowBatch {
    /// The layout the rows belong to.
    pub layout: &'static Layout,
    /// Records parsed from the reply (rows of the primary table before de-duplication).
    pub records: usize,
    /// Records that could not be staged, with the reason (e.g. no id).
    pub skipped: Vec<String>,
    /// Per table, in the layout's order.
    pub tables: Vec<TableRows>,
}

impl RowBatch {
    /// An empty batch with one slot per table of `layout`.
    pub fn new(layout: &'static Layout) -> RowBatch {
        RowBatch {
            layout,
            records: 0,
            skipped: Vec::new(),
            tables: layout
                .tables
                .iter()
                .map(|table| TableRows {
                    table,
                    values: Vec::new(),
                    refused: 0,
                })
                .collect(),
        }
    }

    /// The rows for the `i`-th table of the layout.
    pub fn table(&mut self, i: usize) -> &mut TableRows {
        &mut self.tables[i]
    }

    /// Makes room for `rows[i]` more rows in table `i`, so a batch of hundreds of
    /// thousands of values is laid out once instead of regrown (and re-faulted) by doubling.
    pub fn reserve(&mut self, rows: &[usize]) {
        for (t, n) in self.tables.iter_mut().zip(rows) {
            t.values.reserve(n * t.table.columns.len());
        }
    }

    /// Rows across all tables.
    pub fn row_count(&self) -> usize {
        self.tables.iter().map(TableRows::len).sum()
    }

    /// Approximate payload bytes, for limits checked before a write.
    pub fn weight(&self) -> usize {
        self.tables
            .iter()
            .flat_map(|t| t.values.iter())
            .map(SqlValue::weight)
            .sum()
    }
}

/// Non-empty strings joined with `sep`, or None.
pub(crate) fn joined(items: &[String], sep: &str) -> Option<String> {
    let kept: Vec<&str> = items
        .iter()
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .collect();
    (!kept.is_empty()).then(|| kept.join(sep))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::staging::layouts::PUBMED;

    #[test]
    fn a_row_missing_a_required_value_is_refused_and_counted() {
        let mut b = RowBatch::new(&PUBMED);
        let keyword = PUBMED
            .tables
            .iter()
            .position(|t| t.name == "keyword")
            .unwrap();
        let t = b.table(keyword);
        t.push([
            SqlValue::Integer(1),
            SqlValue::Integer(1),
            SqlValue::Text("p53".into()),
            SqlValue::Integer(0),
        ]);
        // The position is part of the primary key, so it is required.
        t.push([
            SqlValue::Integer(1),
            SqlValue::Null,
            SqlValue::Text("apoptosis".into()),
            SqlValue::Integer(0),
        ]);
        assert_eq!((t.len(), t.refused), (1, 1));
        assert_eq!(t.row(0)[2], SqlValue::Text("p53".into()));
    }
}
