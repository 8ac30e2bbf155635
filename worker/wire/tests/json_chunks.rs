//! The Worker's wire format against SQLite: a batch the Durable Object writes as JSON chunks
//! (`WireBatch`, `insert_json_sql`) leaves exactly the rows, with the same SQL types, that
//! the native store's bound row statements leave. Natively, on rusqlite's bundled SQLite.

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
    let body = entrez_mcp_testkit::fixtures::ncbi("eutils/pubmed4.xml");
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
                    rusqlite::params_from_iter(row.iter().map(entrez_mcp_sqlite::Bound)),
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
