//! One dataset's SQLite database: opening it, appending a batch, describing it.

use super::db_error;
use crate::error::{Error, ErrorKind, Result};
use crate::staging::rows::{RowBatch, SqlValue};
use crate::staging::store::{Caps, ColumnInfo, DatasetInfo, ForeignKeyInfo, IndexInfo, TableInfo};
use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};
use rusqlite::Connection;
use std::path::{Path, PathBuf};

impl ToSql for SqlValue {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            SqlValue::Null => ValueRef::Null,
            SqlValue::Integer(n) => ValueRef::Integer(*n),
            SqlValue::Real(f) => ValueRef::Real(*f),
            SqlValue::Text(s) => ValueRef::Text(s.as_bytes()),
            SqlValue::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// The file of dataset `id` under the store directory.
pub fn path(dir: &Path, id: &str) -> PathBuf {
    dir.join("datasets").join(format!("{id}.sqlite"))
}

/// Removes the database and its WAL companions.
pub fn delete_files(dir: &Path, id: &str) {
    let main = path(dir, id);
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = main.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}

/// Opens (creating if needed) the database of dataset `id`; in memory when `dir` is None.
pub fn open(dir: Option<&Path>, id: &str) -> Result<Connection> {
    let conn = match dir {
        Some(d) => Connection::open(path(d, id)),
        None => Connection::open_in_memory(),
    }
    .map_err(db_error)?;
    // A rollback journal, not WAL: staging only appends, and pages past the old end of
    // the file are never journaled, where WAL writes every page twice (measured 2.9x
    // faster). A process killed mid-batch leaves a hot journal that rolls the batch back.
    conn.execute_batch(
        "PRAGMA journal_mode=TRUNCATE; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384; PRAGMA foreign_keys=OFF;",
    )
    .map_err(db_error)?;
    // A dataset never needs another database attached, by staging or by a query.
    conn.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_ATTACHED, 0)
        .map_err(db_error)?;
    Ok(conn)
}

/// What one append changed.
pub struct Added {
    /// Rows inserted per table, in layout order (conflicts excluded).
    pub per_table: Vec<u64>,
    /// Database size after the append.
    pub bytes: u64,
}

/// Inserts a batch in one transaction, rolled back whole if it would break `caps`.
pub fn append(
    conn: &mut Connection,
    batch: &RowBatch,
    before: &DatasetInfo,
    caps: Caps,
) -> Result<Added> {
    let tx = conn.transaction().map_err(db_error)?;
    let mut per_table = Vec::with_capacity(batch.tables.len());
    for t in &batch.tables {
        let mut inserted = 0u64;
        if !t.is_empty() {
            let mut stmt = tx.prepare(&t.table.insert_sql()).map_err(db_error)?;
            for i in 0..t.len() {
                let row = t.row(i);
                inserted += stmt
                    .execute(rusqlite::params_from_iter(row.iter()))
                    .map_err(db_error)? as u64;
            }
        }
        per_table.push(inserted);
    }
    let rows = before.rows + per_table.iter().sum::<u64>();
    if rows > caps.max_rows {
        // Dropping the transaction rolls it back.
        return Err(limit(format!(
            "This batch would bring the dataset to {rows} rows, over the limit of {} rows per dataset.",
            caps.max_rows
        )));
    }
    let bytes = size(&tx)?;
    if bytes > caps.max_bytes {
        return Err(limit(format!(
            "This batch would bring the dataset to {bytes} bytes, over the {} bytes this dataset may take.",
            caps.max_bytes
        )));
    }
    tx.commit().map_err(db_error)?;
    Ok(Added { per_table, bytes })
}

fn limit(message: String) -> Error {
    Error::new(ErrorKind::LimitExceeded, message)
        .suggest("Stage fewer records (max_records) or a narrower search; the limits are listed by operation list_datasets.")
}

fn size(conn: &Connection) -> Result<u64> {
    let pages: i64 = conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .map_err(db_error)?;
    let page: i64 = conn
        .query_row("PRAGMA page_size", [], |r| r.get(0))
        .map_err(db_error)?;
    Ok((pages * page) as u64)
}

/// Tables, columns, keys, indexes and row counts, as SQLite itself reports them.
pub fn describe(conn: &Connection) -> Result<Vec<TableInfo>> {
    let names: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .map_err(db_error)?;
    names.into_iter().map(|name| table(conn, name)).collect()
}

fn table(conn: &Connection, name: String) -> Result<TableInfo> {
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
        .map_err(db_error)?;
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
        .map_err(db_error)?;
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
        .map_err(db_error)?;
    let mut indexes = Vec::new();
    for (index, unique, origin) in index_rows {
        // The primary key's own index is reported as the primary key.
        if origin == "pk" {
            continue;
        }
        let cols: Vec<String> = conn
            .prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")
            .and_then(|mut s| s.query_map([&index], |r| r.get(0))?.collect())
            .map_err(db_error)?;
        indexes.push(IndexInfo {
            name: index,
            columns: cols,
            unique,
        });
    }
    let rows: i64 = conn
        .query_row(
            &format!("SELECT COUNT(*) FROM \"{}\"", name.replace('"', "\"\"")),
            [],
            |r| r.get(0),
        )
        .map_err(db_error)?;
    Ok(TableInfo {
        name,
        rows: rows as u64,
        columns,
        primary_key: key.into_iter().map(|(_, c)| c).collect(),
        foreign_keys,
        indexes,
    })
}
