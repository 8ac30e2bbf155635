//! What the Worker and its Durable Objects say to each other about datasets.
//!
//! On Workers a dataset lives in its own Durable Object and each owner's
//! list of datasets in a catalog object; the Worker reaches both with
//! `fetch`, so every [`SqlStore`](super::SqlStore) call becomes one of the
//! commands here, as JSON, and every answer a `Result` of core types. The
//! messages are plain data in the core so their shape is tested natively;
//! the objects themselves are in `edge::worker_data`.

use super::guard::QueryPolicy;
use super::layouts;
use super::rows::{RowBatch, SqlValue, TableRows};
use super::store::{Caps, Lease, NewDataset, Status};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

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
    /// Take a partial dataset up again (see `SqlStore::resume`).
    Resume {
        /// The write's time and the expiry it renews.
        lease: Lease,
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
}

/// A request to the deployment's ledger object (see [`super::ledger`]); the isolate sends
/// its quotas along, so the object reads no configuration of its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum LedgerCommand {
    /// [`super::ledger::Book::admit`].
    Admit {
        /// Dataset id.
        id: String,
        /// Who is charged.
        account: super::ledger::Account,
        /// When the dataset expires, Unix ms.
        expires_ms: u64,
        /// Now, Unix ms.
        now_ms: u64,
        /// The ceilings.
        quotas: super::ledger::Quotas,
    },
    /// [`super::ledger::Book::record`].
    Record {
        /// Dataset id.
        id: String,
        /// Its size now.
        bytes: u64,
        /// The expiry its last write renewed it to, Unix ms.
        expires_ms: u64,
        /// The ceilings.
        quotas: super::ledger::Quotas,
    },
    /// [`super::ledger::Book::release`].
    Release {
        /// Dataset id.
        id: String,
    },
    /// [`super::ledger::Book::allowance`].
    Allowance {
        /// Whose.
        account: super::ledger::Account,
        /// Now, Unix ms.
        now_ms: u64,
        /// The ceilings.
        quotas: super::ledger::Quotas,
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

/// A [`RowBatch`] as JSON: the layout by name and each table's values, flat and row-major.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WireBatch {
    /// Layout name.
    pub layout: String,
    /// Records parsed for this batch.
    pub records: usize,
    /// Per table, in layout order.
    pub tables: Vec<Vec<SqlValue>>,
}

impl From<&RowBatch> for WireBatch {
    fn from(b: &RowBatch) -> Self {
        WireBatch {
            layout: b.layout.name.to_string(),
            records: b.records,
            tables: b.tables.iter().map(|t| t.values.clone()).collect(),
        }
    }
}

impl WireBatch {
    /// The batch again, checked against its layout: every table present, whole rows only.
    pub fn into_batch(self) -> Result<RowBatch> {
        let layout = layout_named(&self.layout)?;
        if self.tables.len() != layout.tables.len() {
            return Err(Error::internal(format!(
                "a {} batch has {} tables, not {}",
                layout.name,
                self.tables.len(),
                layout.tables.len()
            )));
        }
        let mut tables = Vec::with_capacity(self.tables.len());
        for (table, values) in layout.tables.iter().zip(self.tables) {
            if values.len() % table.columns.len() != 0 {
                return Err(Error::internal(format!(
                    "{} values for table {} are not whole rows of {} columns",
                    values.len(),
                    table.name,
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

/// The layout called `name`.
pub fn layout_named(name: &str) -> Result<&'static super::schema::Layout> {
    layouts::ALL
        .iter()
        .copied()
        .find(|l| l.name == name)
        .ok_or_else(|| Error::internal(format!("unknown layout {name}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn batches_survive_the_trip_and_torn_ones_are_refused() {
        let pubmed = layout_named("pubmed").unwrap();
        let mut batch = RowBatch::new(pubmed);
        let cols = pubmed.tables[0].columns.len();
        let mut row = vec![SqlValue::Null; cols];
        row[0] = SqlValue::Integer(31452104);
        row[1] = SqlValue::Text("article".into());
        row[2] = SqlValue::Real(2.0);
        batch.tables[0].values.extend(row);
        batch.records = 1;
        let text = serde_json::to_string(&WireBatch::from(&batch)).unwrap();
        let back: WireBatch = serde_json::from_str(&text).unwrap();
        let again = back.clone().into_batch().unwrap();
        assert_eq!(again.tables[0].values, batch.tables[0].values);
        assert_eq!(again.tables[0].len(), 1);
        // A float stays a float and an integer an integer across JSON.
        assert!(text.contains("[31452104,\"article\",2.0,"), "{text}");
        let mut torn = back;
        torn.tables[0].pop();
        assert!(torn.into_batch().is_err());
        let unknown = WireBatch {
            layout: "nope".into(),
            records: 0,
            tables: vec![],
        };
        assert!(unknown.into_batch().is_err());
    }

    #[test]
    fn commands_are_tagged_json() {
        let c = DatasetCommand::Finish {
            status: Status::Failed("upstream".into()),
            lease: Lease {
                now_ms: 1,
                expires_ms: 2,
            },
        };
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(
            v,
            json!({"op": "finish", "status": {"Failed": "upstream"}, "lease": {"now_ms": 1, "expires_ms": 2}})
        );
        assert_eq!(serde_json::from_value::<DatasetCommand>(v).unwrap(), c);
        let r = serde_json::to_value(CatalogCommand::List { now_ms: 5 }).unwrap();
        assert_eq!(r, json!({"op": "list", "now_ms": 5}));
        let err: std::result::Result<(), Error> = Err(crate::error::Error::new(
            crate::error::ErrorKind::LimitExceeded,
            "too big",
        )
        .with_code("dataset_quota_exceeded"));
        let back: std::result::Result<(), Error> =
            serde_json::from_value(serde_json::to_value(&err).unwrap()).unwrap();
        let e = back.unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::LimitExceeded);
        assert_eq!(e.code, "dataset_quota_exceeded");
    }
}
