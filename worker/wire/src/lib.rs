//! What the Worker and its Durable Objects say to each other about datasets.
//!
//! On Workers a dataset lives in its own Durable Object and each owner's
//! list of datasets in a catalog object; the Worker reaches both with
//! `fetch`, so every [`DatasetStore`](entrez_mcp_core::staging::DatasetStore) call becomes one of the
//! commands here, as JSON, and every answer a `Result` of core types. The
//! messages are a crate of their own so that their shape is tested natively (the
//! Worker crate builds for wasm32 only); the objects themselves are in `worker/src/objects`.
//!
//! On the wire a command is one object, `{"op": "<command>", ...its fields}`
//! ([`to_wire`], [`from_wire`], in `tagging.rs`).

use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::guard::QueryPolicy;
use entrez_mcp_core::staging::rows::{RowBatch, SqlValue, TableRows};
use entrez_mcp_core::staging::store::{Caps, Lease, NewDataset, Status};
use serde::{Deserialize, Serialize};

mod tagging;
pub use tagging::{from_wire, to_wire};

/// A request to one dataset's Durable Object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum DatasetCommand {
    /// Create the tables and the catalog row; arm the expiry alarm.
    Create {
        /// The dataset, with its layout by name.
        dataset: WireDataset,
    },
    /// Append one batch under `caps`, atomically, renewing the lease.
    Append {
        /// Rows per table.
        batch: WireBatch,
        /// Ceilings after the append.
        caps: Caps,
        /// The write's time and the expiry it renews.
        lease: Lease,
    },
    /// Record the final status and build the secondary indexes; answers with the dataset.
    Finish {
        /// Final status.
        status: Status,
        /// The write's time and the expiry it renews.
        lease: Lease,
    },
    /// Take a partial dataset up again (see `DatasetStore::resume`).
    Resume {
        /// The write's time and the expiry it renews.
        lease: Lease,
    },
    /// Run the next step of a staging the server continues by itself (an alarm). (Each
    /// command keeps the name it had on the wire, so that two versions understand each other
    /// during a deploy.)
    #[serde(rename = "carry_on")]
    RunStep {
        /// How long from now: 0 for soon, longer after a passing fault.
        after_ms: u64,
    },
    /// Stop the staging (see `DatasetStore::cancel`).
    Cancel {
        /// The time of the request.
        now_ms: u64,
    },
    /// Keep a task's result in this object (named by the task id) until it expires.
    #[serde(rename = "keep")]
    SaveTask {
        /// The result and its owner.
        kept: entrez_mcp_core::staging::task_store::StoredTask,
    },
    /// Forget the task result kept here (its owner keeps too many); an object that holds no
    /// dataset besides goes whole.
    Forget,
    /// The result kept here, unless it expired.
    #[serde(rename = "kept")]
    LoadTask {
        /// The time of the request.
        now_ms: u64,
    },
    /// The dataset's catalog entry, or none.
    Info,
    /// Run one query.
    Query {
        /// The caller's SQL.
        sql: String,
        /// Its limits.
        policy: QueryPolicy,
    },
    /// Compile one query without running it.
    Check {
        /// The caller's SQL.
        sql: String,
    },
    /// Tables, columns, keys, indexes and row counts.
    Describe,
    /// Delete everything; answers with the owner it had, if any.
    Drop,
    /// Keep an export's plan with the dataset (see `DatasetStore::save_export`).
    SaveExport {
        /// The export's id.
        export: String,
        /// Its plan, JSON.
        plan: String,
        /// Now, Unix ms.
        now_ms: u64,
    },
    /// An export's plan, or none.
    LoadExport {
        /// The export's id.
        export: String,
    },
}

/// A request to one owner's catalog object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum CatalogCommand {
    /// Add `id` unless the owner already holds `max_datasets` unexpired datasets.
    Reserve {
        /// Dataset id.
        id: String,
        /// When it expires, Unix ms.
        expires_ms: u64,
        /// Most datasets the owner may hold.
        max_datasets: u64,
        /// Now, Unix ms: entries expired by then do not count.
        now_ms: u64,
    },
    /// Move `id`'s expiry to `expires_ms` if that is later (its dataset was written); add it
    /// back if the catalog forgot it meanwhile.
    Renew {
        /// Dataset id.
        id: String,
        /// Its expiry after the write, Unix ms.
        expires_ms: u64,
    },
    /// Forget `id`.
    Release {
        /// Dataset id.
        id: String,
    },
    /// The owner's unexpired dataset ids.
    List {
        /// Now, Unix ms.
        now_ms: u64,
    },
    /// Note a task result kept for the owner; answers with the ids of the owner's oldest
    /// results past [`entrez_mcp_core::staging::task_store::TASKS_PER_OWNER`], which the store then forgets.
    #[serde(rename = "keep")]
    SaveTask {
        /// The task id.
        id: String,
        /// When it was kept, Unix ms.
        created_ms: u64,
        /// When it expires, Unix ms.
        expires_ms: u64,
    },
}

/// A request to the deployment's ledger object (see [`entrez_mcp_core::staging::ledger`]); the object reads the
/// deployment's quotas from its own environment, the same variables every isolate reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum LedgerCommand {
    /// [`entrez_mcp_core::staging::ledger::LedgerState::admit`].
    Admit {
        /// Dataset id.
        id: String,
        /// Who is charged.
        account: entrez_mcp_core::staging::ledger::Account,
        /// When the dataset expires, Unix ms.
        expires_ms: u64,
        /// Now, Unix ms.
        now_ms: u64,
    },
    /// [`entrez_mcp_core::staging::ledger::LedgerState::record`].
    Record {
        /// Dataset id.
        id: String,
        /// Its size now.
        bytes: u64,
        /// The expiry its last write renewed it to, Unix ms.
        expires_ms: u64,
        /// Until when its staging counts as running, Unix ms (0: it does not).
        #[serde(default)]
        running_until_ms: u64,
    },
    /// [`entrez_mcp_core::staging::ledger::LedgerState::charge_task`].
    #[serde(rename = "keep")]
    ChargeTask {
        /// The kept result's task id.
        id: String,
        /// Who is charged.
        account: entrez_mcp_core::staging::ledger::Account,
        /// Its size.
        bytes: u64,
        /// When it is forgotten, Unix ms.
        expires_ms: u64,
        /// Until when it counts among the calls running, Unix ms (0: it does not).
        #[serde(default)]
        running_until_ms: u64,
        /// Now, Unix ms.
        now_ms: u64,
    },
    /// [`entrez_mcp_core::staging::ledger::LedgerState::release`].
    Release {
        /// Dataset id.
        id: String,
    },
    /// [`entrez_mcp_core::staging::ledger::LedgerState::allowance`].
    Allowance {
        /// Whose.
        account: entrez_mcp_core::staging::ledger::Account,
        /// Now, Unix ms.
        now_ms: u64,
    },
}

/// [`NewDataset`] with its layout named rather than referenced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireDataset {
    /// Dataset id.
    pub id: String,
    /// Owner key.
    pub owner: String,
    /// Entrez database.
    pub database: String,
    /// Layout name.
    pub layout: String,
    /// What was asked for.
    pub source: String,
    /// Creation time, Unix ms.
    pub created_ms: u64,
    /// Expiry time, Unix ms.
    pub expires_ms: u64,
}

impl From<&NewDataset> for WireDataset {
    fn from(d: &NewDataset) -> Self {
        WireDataset {
            id: d.id.clone(),
            owner: d.owner.clone(),
            database: d.database.clone(),
            layout: d.layout.name.to_string(),
            source: d.source.clone(),
            created_ms: d.created_ms,
            expires_ms: d.expires_ms,
        }
    }
}

/// Most bytes of one table's rows bound as one JSON text: a Durable Object stores at most
/// 2 MB in one value, and a statement of about half that keeps well clear of it.
pub const CHUNK_BYTES: usize = 1024 * 1024;

/// A [`RowBatch`] as the dataset object writes it: each table's rows as JSON texts, each a
/// JSON array of rows (`[[v1, v2, ...], ...]`) of at most [`CHUNK_BYTES`], so that one
/// statement inserts a whole chunk (`INSERT ... SELECT ... FROM json_each(?)`) whatever
/// its row count, where Durable Object SQL's 100 bound parameters would take dozens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireBatch {
    /// Layout name.
    pub layout: String,
    /// Records parsed for this batch.
    pub records: usize,
    /// Per table, in layout order.
    pub tables: Vec<WireTable>,
}

/// One table's rows of a [`WireBatch`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireTable {
    /// Rows in all.
    pub rows: usize,
    /// The rows as JSON arrays of arrays, in order.
    pub chunks: Vec<String>,
}

impl WireTable {
    /// `values`, row-major rows of `width` values, as JSON chunks of at most [`CHUNK_BYTES`]
    /// (a single row larger than that is a chunk of its own).
    pub fn of(values: &[SqlValue], width: usize) -> Result<WireTable> {
        let width = width.max(1);
        let mut chunks = Vec::new();
        let mut chunk = String::new();
        let mut row = String::new();
        for values in values.chunks(width) {
            row.clear();
            row.push('[');
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    row.push(',');
                }
                write_json(&mut row, v)?;
            }
            row.push(']');
            if !chunk.is_empty() && chunk.len() + row.len() + 2 > CHUNK_BYTES {
                chunk.push(']');
                chunks.push(std::mem::take(&mut chunk));
            }
            chunk.push(if chunk.is_empty() { '[' } else { ',' });
            chunk.push_str(&row);
        }
        if !chunk.is_empty() {
            chunk.push(']');
            chunks.push(chunk);
        }
        Ok(WireTable {
            rows: values.len() / width,
            chunks,
        })
    }

    /// The values again, row-major (what a test or the in-memory stand-in reads back).
    pub fn values(&self) -> Result<Vec<SqlValue>> {
        let mut out = Vec::new();
        for chunk in &self.chunks {
            let rows: Vec<Vec<SqlValue>> = entrez_mcp_core::json::from_str(chunk)
                .map_err(|e| Error::internal(format!("a batch chunk is not rows: {e}")))?;
            out.extend(rows.into_iter().flatten());
        }
        Ok(out)
    }
}

/// Appends one value as JSON, as SQLite's `->>` reads it back: a whole float keeps its
/// `.0` (REAL, not INTEGER), text is escaped, and bytes never occur in staged rows.
fn write_json(out: &mut String, v: &SqlValue) -> Result<()> {
    match v {
        SqlValue::Null => out.push_str("null"),
        SqlValue::Integer(n) => out.push_str(&n.to_string()),
        SqlValue::Real(f) if f.is_finite() => {
            let text = f.to_string();
            out.push_str(&text);
            if !text.contains(['.', 'e', 'E']) {
                out.push_str(".0");
            }
        }
        SqlValue::Real(_) => out.push_str("null"),
        SqlValue::Text(s) => {
            let quoted = serde_json::to_string(s).map_err(|e| Error::internal(e.to_string()))?;
            out.push_str(&quoted);
        }
        SqlValue::Blob(_) => {
            return Err(Error::internal(
                "a staged row holds bytes, which the dataset object does not store",
            ))
        }
    }
    Ok(())
}

impl WireBatch {
    /// The batch as the dataset object writes it.
    pub fn of(b: &RowBatch) -> Result<WireBatch> {
        Ok(WireBatch {
            layout: b.layout.name.to_string(),
            records: b.records,
            tables: b
                .tables
                .iter()
                .map(|t| WireTable::of(&t.values, t.table.columns.len()))
                .collect::<Result<_>>()?,
        })
    }

    /// Its layout, checked to have one entry per table.
    pub fn layout(&self) -> Result<&'static entrez_mcp_core::staging::schema::Layout> {
        let layout = entrez_mcp_core::staging::layouts::named(&self.layout)?;
        if self.tables.len() != layout.tables.len() {
            return Err(Error::internal(format!(
                "a {} batch has {} tables, not {}",
                layout.name,
                self.tables.len(),
                layout.tables.len()
            )));
        }
        Ok(layout)
    }

    /// The batch again, checked against its layout: every table present, whole rows only.
    pub fn into_batch(self) -> Result<RowBatch> {
        let layout = self.layout()?;
        let mut tables = Vec::with_capacity(self.tables.len());
        for (table, wire) in layout.tables.iter().zip(&self.tables) {
            let values = wire.values()?;
            if values.len() != wire.rows * table.columns.len() {
                return Err(Error::internal(format!(
                    "{} values for table {} are not {} whole rows of {} columns",
                    values.len(),
                    table.name,
                    wire.rows,
                    table.columns.len()
                )));
            }
            tables.push(TableRows {
                table,
                values,
                refused: 0,
            });
        }
        Ok(RowBatch {
            layout,
            records: self.records,
            skipped: Vec::new(),
            tables,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_survive_the_trip_and_torn_ones_are_refused() {
        let pubmed = entrez_mcp_core::staging::layouts::named("pubmed").unwrap();
        let mut batch = RowBatch::new(pubmed);
        let cols = pubmed.tables[0].columns.len();
        let mut row = vec![SqlValue::Null; cols];
        row[0] = SqlValue::Integer(31452104);
        row[1] = SqlValue::Text("article".into());
        row[2] = SqlValue::Real(2.0);
        batch.tables[0].values.extend(row);
        batch.records = 1;
        let text = serde_json::to_string(&WireBatch::of(&batch).unwrap()).unwrap();
        let back: WireBatch = serde_json::from_str(&text).unwrap();
        let again = back.clone().into_batch().unwrap();
        assert_eq!(again.tables[0].values, batch.tables[0].values);
        assert_eq!(again.tables[0].len(), 1);
        // A float stays a float and an integer an integer across JSON.
        assert_eq!(back.tables[0].rows, 1);
        assert!(
            back.tables[0].chunks[0].starts_with("[[31452104,\"article\",2.0,"),
            "{text}"
        );
        let mut torn = back.clone();
        torn.tables[0].rows = 2;
        assert!(torn.into_batch().is_err());
        let mut short = back;
        short.tables.pop();
        assert!(short.into_batch().is_err());
        let unknown = WireBatch {
            layout: "nope".into(),
            records: 0,
            tables: vec![],
        };
        assert!(unknown.into_batch().is_err());
    }

    #[test]
    fn rows_are_cut_into_chunks_of_at_most_a_megabyte_and_read_back_whole() {
        let text = SqlValue::Text("x".repeat(100_000));
        let values: Vec<SqlValue> = (0..25)
            .flat_map(|i| [SqlValue::Integer(i), text.clone()])
            .collect();
        let t = WireTable::of(&values, 2).unwrap();
        assert_eq!(t.rows, 25);
        assert_eq!(
            t.chunks.len(),
            3,
            "{:?}",
            t.chunks.iter().map(String::len).collect::<Vec<_>>()
        );
        assert!(t.chunks.iter().all(|c| c.len() <= CHUNK_BYTES));
        assert_eq!(t.values().unwrap(), values);
        // A row larger than a chunk travels alone; bytes are never staged.
        let huge = [SqlValue::Text("y".repeat(CHUNK_BYTES + 1))];
        assert_eq!(WireTable::of(&huge, 1).unwrap().chunks.len(), 1);
        assert!(WireTable::of(&[SqlValue::Blob(vec![1])], 1).is_err());
        let floats = WireTable::of(&[SqlValue::Real(2.0), SqlValue::Real(f64::NAN)], 1).unwrap();
        assert_eq!(floats.chunks, vec!["[[2.0],[null]]".to_string()]);
    }
}
