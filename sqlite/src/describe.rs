//! A dataset's tables as SQLite reports them: columns, keys, indexes.

use entrez_mcp_core::error::Result;
use entrez_mcp_core::staging::store::{ColumnInfo, ForeignKeyInfo, IndexInfo, TableInfo};
use rusqlite::Connection;

use crate::store_error;

/// Tables a query may name: not SQLite's own, nor the shadow tables behind an FTS5 index
/// (`<index>_data`, `_idx`, `_docsize`, `_config`, `_content`).
const SHOWN_TABLES: &str = "SELECT name FROM sqlite_schema s WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
AND NOT EXISTS (SELECT 1 FROM sqlite_schema v WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%' \
AND s.name IN (v.name || '_data', v.name || '_idx', v.name || '_docsize', v.name || '_config', v.name || '_content')) \
ORDER BY s.rowid";

/// Tables, columns, keys and indexes as SQLite itself reports them, with
/// row counts from `count` (the replica holds no rows; the real store does).
pub fn tables(
    conn: &Connection,
    mut count: impl FnMut(&str) -> Result<u64>,
) -> Result<Vec<TableInfo>> {
    let names: Vec<String> = conn
        .prepare(SHOWN_TABLES)
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(store_error)?;
    names
        .into_iter()
        .map(|name| {
            let rows = count(&name)?;
            table(conn, name, rows)
        })
        .collect()
}

fn table(conn: &Connection, name: String, rows: u64) -> Result<TableInfo> {
    let mut columns: Vec<ColumnInfo> = conn
        .prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid")
        .and_then(|mut s| {
            s.query_map([&name], |r| {
                Ok(ColumnInfo {
                    name: r.get(0)?,
                    ty: r.get(1)?,
                    not_null: r.get::<_, i64>(2)? != 0,
                    primary_key: r.get::<_, i64>(3)? as usize,
                })
            })?
            .collect()
        })
        .map_err(store_error)?;
    let mut key: Vec<(usize, String)> = columns
        .iter()
        .filter(|c| c.primary_key > 0)
        .map(|c| (c.primary_key, c.name.clone()))
        .collect();
    key.sort();
    // A key column is never NULL, whatever the declaration says (rowid aliases, WITHOUT ROWID).
    for c in columns.iter_mut().filter(|c| c.primary_key > 0) {
        c.not_null = true;
    }
    let mut foreign_keys: Vec<ForeignKeyInfo> = Vec::new();
    let fk_rows: Vec<(i64, String, String, String)> = conn
        .prepare("SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list(?1) ORDER BY id, seq")
        .and_then(|mut s| s.query_map([&name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?.collect())
        .map_err(store_error)?;
    let mut last = None;
    for (id, parent, from, to) in fk_rows {
        if last != Some(id) {
            foreign_keys.push(ForeignKeyInfo {
                columns: Vec::new(),
                table: parent,
                references: Vec::new(),
            });
            last = Some(id);
        }
        if let Some(fk) = foreign_keys.last_mut() {
            fk.columns.push(from);
            fk.references.push(to);
        }
    }
    let index_rows: Vec<(String, bool, String)> = conn
        .prepare("SELECT name, \"unique\", origin FROM pragma_index_list(?1) ORDER BY name")
        .and_then(|mut s| {
            s.query_map([&name], |r| {
                Ok((r.get(0)?, r.get::<_, i64>(1)? != 0, r.get(2)?))
            })?
            .collect()
        })
        .map_err(store_error)?;
    let mut indexes = Vec::new();
    for (index, unique, origin) in index_rows {
        // The primary key's own index is reported as the primary key.
        if origin == "pk" {
            continue;
        }
        let cols: Vec<String> = conn
            .prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")
            .and_then(|mut s| s.query_map([&index], |r| r.get(0))?.collect())
            .map_err(store_error)?;
        indexes.push(IndexInfo {
            name: index,
            columns: cols,
            unique,
        });
    }
    Ok(TableInfo {
        name,
        rows,
        columns,
        primary_key: key.into_iter().map(|(_, c)| c).collect(),
        foreign_keys,
        indexes,
    })
}
