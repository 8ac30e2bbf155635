//! Reading a staged dataset's records through [`DatasetStore::query`], the same read-only
//! queries every caller's SQL goes through, so an export reads the Worker's Durable Object
//! and a native file alike. A set of records is read one table at a time, its key list in
//! an `IN (…)`; a set whose rows do not fit one result (2 MiB) is read in halves.

use crate::error::{Error, Result};
use crate::export::record::{Assembler, Record, TableRows};
use crate::staging::guard::{QueryPolicy, MAX_RESULT_BYTES};
use crate::staging::rows::SqlValue;
use crate::staging::schema::Table;
use crate::staging::store::{DatasetStore, QueryResult};

/// Rows one internal query may return: far more than any key list here produces.
const ROW_LIMIT: usize = 1_000_000;

/// The policy an export's own queries run under: the store's byte ceiling, no row limit.
pub fn policy(time_limit_ms: u64) -> QueryPolicy {
    QueryPolicy {
        limit: ROW_LIMIT,
        max_result_bytes: MAX_RESULT_BYTES,
        time_limit_ms,
        count_cap: ROW_LIMIT as u64,
    }
}

/// A key as an SQL literal: digits as they are, anything else quoted.
pub fn literal(key: &str) -> String {
    if !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) && key.len() < 19 {
        key.to_string()
    } else {
        format!("'{}'", key.replace('\'', "''"))
    }
}

/// `SELECT <the table's columns> FROM t WHERE key IN (…) ORDER BY <its primary key>`;
/// a column in `missing` (one a dataset staged by an older build lacks) reads as NULL.
fn select(table: &Table, key_column: &str, keys: &[String], missing: &[&str]) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|c| match missing.contains(&c.name) {
            true => format!("NULL AS {}", c.name),
            false => c.name.to_string(),
        })
        .collect();
    let list: Vec<String> = keys.iter().map(|k| literal(k)).collect();
    format!(
        "SELECT {} FROM {} WHERE {key_column} IN ({}) ORDER BY {}",
        columns.join(", "),
        table.name,
        list.join(","),
        table.primary_key.join(", ")
    )
}

/// Whether a result holds every row its statement produced.
fn whole(r: &QueryResult) -> bool {
    !r.bytes_capped && r.total_exact && r.rows.len() as u64 == r.total
}

/// Runs `sql_for(keys)` over `keys`, halving any set whose rows do not fit one result.
async fn rows_for(
    store: &dyn DatasetStore,
    dataset: &str,
    keys: &[String],
    sql_for: &(dyn Fn(&[String]) -> String + Sync),
    time_limit_ms: u64,
) -> Result<Vec<Vec<SqlValue>>> {
    let mut out = Vec::new();
    let mut pending: Vec<&[String]> = vec![keys];
    while let Some(set) = pending.pop() {
        if set.is_empty() {
            continue;
        }
        let r = store
            .query(dataset, &sql_for(set), policy(time_limit_ms))
            .await?;
        if whole(&r) {
            out.push((set, r.rows));
        } else if set.len() > 1 {
            let (a, b) = set.split_at(set.len() / 2);
            // Popped in order: the first half first.
            pending.push(b);
            pending.push(a);
        } else {
            return Err(Error::new(
                crate::error::ErrorKind::LimitExceeded,
                format!(
                    "Record {} alone has more rows than one read returns ({MAX_RESULT_BYTES} bytes); it cannot be exported.",
                    set[0]
                ),
            )
            .with_code("export_too_large"));
        }
    }
    // Sets were read in key order, so their rows concatenate in it.
    Ok(out.into_iter().flat_map(|(_, rows)| rows).collect())
}

/// The records with `keys`, in that order, with the named tables' rows (the layout's
/// tables not named are left out of each record).
pub async fn records(
    store: &dyn DatasetStore,
    dataset: &str,
    assembler: &Assembler,
    keys: &[String],
    tables: &[&str],
    time_limit_ms: u64,
) -> Result<Vec<Record>> {
    let key_column = assembler.key_column();
    let mut read: Vec<(&'static Table, Vec<Vec<SqlValue>>)> = Vec::new();
    for table in assembler.layout().tables {
        if !tables.contains(&table.name) {
            continue;
        }
        // A dataset staged before a column was added to its layout still exports: the
        // column SQLite says is missing reads as NULL (each at most once).
        let mut missing: Vec<&str> = Vec::new();
        let rows = loop {
            let sql_for = |set: &[String]| select(table, key_column, set, &missing);
            match rows_for(store, dataset, keys, &sql_for, time_limit_ms).await {
                Ok(rows) => break rows,
                Err(e) => match missing_column(table, &e.to_string()) {
                    Some(c) if !missing.contains(&c) => missing.push(c),
                    _ => return Err(e),
                },
            }
        };
        read.push((table, rows));
    }
    let views: Vec<TableRows<'_>> = read
        .iter()
        .map(|(table, rows)| TableRows {
            table,
            rows: rows.iter().map(Vec::as_slice).collect(),
        })
        .collect();
    Ok(assembler.assemble(keys, &views))
}

/// The column of `table` an SQLite "no such column: X" message names, if any.
fn missing_column(table: &Table, message: &str) -> Option<&'static str> {
    let rest = &message[message.find("no such column: ")? + "no such column: ".len()..];
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    table.columns.iter().map(|c| c.name).find(|c| *c == name)
}

/// Every key of the dataset's primary table, in key order, or those of `sql`'s key
/// column in its row order (each once).
pub async fn keys(
    store: &dyn DatasetStore,
    dataset: &str,
    assembler: &Assembler,
    sql: Option<&str>,
    time_limit_ms: u64,
) -> Result<Vec<String>> {
    let key = assembler.key_column();
    let statement = match sql {
        None => format!(
            "SELECT {key} FROM {} ORDER BY {key}",
            assembler.layout().tables[0].name
        ),
        Some(s) => format!("SELECT {key} FROM (\n{s}\n)"),
    };
    let r = store
        .query(dataset, &statement, policy(time_limit_ms))
        .await?;
    if !whole(&r) {
        return Err(Error::new(
            crate::error::ErrorKind::LimitExceeded,
            format!(
                "The statement returns more than one read holds ({} rows, {MAX_RESULT_BYTES} bytes).",
                r.total
            ),
        )
        .with_code("export_too_large")
        .suggest("Select fewer rows: an export holds at most the dataset's records."));
    }
    let mut seen = std::collections::HashSet::new();
    Ok(r.rows
        .into_iter()
        .filter_map(|row| match row.into_iter().next() {
            Some(SqlValue::Integer(n)) => Some(n.to_string()),
            Some(SqlValue::Text(s)) => Some(s),
            _ => None,
        })
        .filter(|k| seen.insert(k.clone()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::staging::layouts::PUBMED;

    #[test]
    fn a_table_is_read_for_its_keys_in_key_order() {
        let author = &PUBMED.tables[2];
        assert_eq!(
            select(author, "pmid", &["2".into(), "10".into()], &[]),
            "SELECT pmid, position, last_name, fore_name, initials, suffix, collective_name, orcid FROM author WHERE pmid IN (2,10) ORDER BY pmid, position"
        );
        assert_eq!(
            select(author, "pmid", &["2".into()], &["orcid"]),
            "SELECT pmid, position, last_name, fore_name, initials, suffix, collective_name, NULL AS orcid FROM author WHERE pmid IN (2) ORDER BY pmid, position"
        );
        assert_eq!(literal("PMC1'2"), "'PMC1''2'");
        assert_eq!(literal("12345678901234567890"), "'12345678901234567890'");
    }

    #[test]
    fn a_column_an_older_dataset_lacks_is_named_by_sqlites_message() {
        let article = &PUBMED.tables[0];
        assert_eq!(
            missing_column(
                article,
                "sql_error: no such column: title_markup: SQLITE_ERROR"
            ),
            Some("title_markup")
        );
        assert_eq!(missing_column(article, "no such column: nonsense"), None);
        assert_eq!(missing_column(article, "syntax error"), None);
    }
}
