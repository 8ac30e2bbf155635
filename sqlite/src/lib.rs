//! SQLite code both edges share: the read-only policy wired into rusqlite,
//! and schema description.
//!
//! Natively these run on the dataset's own connection. On Workers the data
//! lives in Durable Object SQLite, whose API offers no authorizer and no
//! `sqlite3_stmt_readonly`, so the Durable Object prepares each query first on a
//! [`replica`]: an in-memory SQLite (compiled to wasm) with the dataset's exact
//! schema and no rows, checked by the whole policy of `staging::guard`. What
//! compiles there compiles to the same plan shape against the real data, and a
//! statement naming anything else (`_cf_*` tables, the bookkeeping) fails there.

pub mod authorizer;
pub mod describe;
pub mod replica;

pub use authorizer::{check, guarded, prepare, value, Bound, Denials};

use entrez_mcp_core::error::Error;

/// An unexpected SQLite failure of a dataset store itself (not of a caller's query).
pub fn store_error(e: rusqlite::Error) -> Error {
    Error::internal(format!("dataset store: {e}"))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use entrez_mcp_core::staging::layouts;
    use entrez_mcp_core::staging::rows;
    use entrez_mcp_core::staging::rows::RowBatch;
    use entrez_mcp_wire::WireBatch;
    use rusqlite::Connection;

    /// Every row of every table, each value with the type SQLite stored it as.
    fn contents(conn: &Connection, batch: &RowBatch) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for t in &batch.tables {
            let cols: Vec<String> = t
                .table
                .columns
                .iter()
                .map(|c| format!("typeof({0}) || ':' || quote({0})", c.name))
                .collect();
            let sql = format!(
                "SELECT {} FROM {} ORDER BY rowid",
                cols.join(", "),
                t.table.name
            );
            let mut stmt = conn.prepare(&sql).unwrap();
            let n = t.table.columns.len();
            let rows = stmt
                .query_map([], |r| (0..n).map(|i| r.get::<_, String>(i)).collect())
                .unwrap();
            out.extend(rows.map(Result::unwrap));
        }
        out
    }

    #[test]
    fn a_json_chunk_inserts_exactly_what_row_statements_insert() {
        // The Durable Object writes a batch as JSON chunks (`json_each`); the native store
        // binds each value. Both must leave the same rows with the same SQL types.
        let body = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/eutils/pubmed4.xml"
        ))
        .unwrap();
        let batch = rows::pubmed(entrez_mcp_core::parse::pubmed::parse_pubmed(&body).unwrap());
        let layout = &layouts::PUBMED;
        let by_rows = Connection::open_in_memory().unwrap();
        let by_json = Connection::open_in_memory().unwrap();
        for conn in [&by_rows, &by_json] {
            conn.execute_batch(&layout.table_ddl().join(";\n")).unwrap();
        }
        for t in &batch.tables {
            let width = t.table.columns.len();
            for row in t.values.chunks(width) {
                by_rows
                    .execute(
                        &t.table.insert_rows_sql(1),
                        rusqlite::params_from_iter(row.iter().map(super::Bound)),
                    )
                    .unwrap();
            }
        }
        let wire = WireBatch::of(&batch).unwrap();
        for (table, rows) in layout.tables.iter().zip(&wire.tables) {
            for chunk in &rows.chunks {
                by_json.execute(&table.insert_json_sql(), [chunk]).unwrap();
            }
        }
        let (a, b) = (contents(&by_rows, &batch), contents(&by_json, &batch));
        assert!(a.len() > 50, "{}", a.len());
        assert_eq!(a, b);
        // Inserting the same chunks again adds nothing (INSERT OR IGNORE on the keys).
        let before = by_json.total_changes();
        for (table, rows) in layout.tables.iter().zip(&wire.tables) {
            for chunk in &rows.chunks {
                by_json.execute(&table.insert_json_sql(), [chunk]).unwrap();
            }
        }
        assert_eq!(by_json.total_changes(), before);
    }
}
