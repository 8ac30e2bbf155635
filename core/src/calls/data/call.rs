//! One `entrez_data` call, read once into a typed value.
//!
//! As for `entrez_query` ([`crate::calls::query::call`]), the intake has
//! made the arguments canonical; [`DataCall::read`] turns them into the call
//! that runs, with every default here (pubmed, 1,000 records, 100 rows per
//! query), and `validate` shows this value, serialized, as
//! `normalized_arguments`.

use super::plan::Source;
use crate::calls::canonical::Canonical;
use crate::staging::guard::{DEFAULT_LIMIT, MAX_LIMIT};
use crate::staging::limits::{DEFAULT_RECORDS, MAX_RECORDS};
use serde::Serialize;
use serde_json::Value;

/// A typed `entrez_data` call; serialized, it is `validate`'s `normalized_arguments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum DataCall {
    /// Fetch records into a new dataset.
    FetchAndStage(Stage),
    /// One read-only SQL statement on a dataset.
    Query(Query),
    /// A dataset's tables, columns and example queries.
    Schema(DatasetRef),
    /// The caller's datasets.
    ListDatasets,
    /// Delete one dataset.
    DropDataset(DatasetRef),
}

/// What to stage.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stage {
    /// The database, lower case.
    pub database: String,
    /// Ids (de-duplicated), a history set, or a search.
    #[serde(flatten)]
    pub source: Source,
    /// Most records staged.
    pub max_records: u64,
    /// Whether sequence residues are stored too.
    pub include_sequence: bool,
    /// Which of database, max_records and include_sequence the caller gave (a continuation
    /// keeps its dataset's own and says so).
    #[serde(skip)]
    pub given: Vec<&'static str>,
}

/// One query.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Query {
    /// The dataset.
    pub data_access_id: String,
    /// One read-only statement.
    pub sql: String,
    /// Most rows returned.
    pub limit: u64,
}

/// A dataset named by its id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatasetRef {
    /// The id `fetch_and_stage` returned.
    pub data_access_id: String,
}

impl DataCall {
    /// Reads canonical arguments (after the intake and the schema); `None` when no known operation is named.
    pub fn read(args: &Value) -> Option<DataCall> {
        let a = Canonical::of(args)?;
        let text = |name: &str| a.text(name).unwrap_or_default();
        let dataset = || DatasetRef {
            data_access_id: text("data_access_id"),
        };
        Some(match a.text("operation")?.as_str() {
            "fetch_and_stage" => DataCall::FetchAndStage(Stage {
                database: a.lower("database").unwrap_or_else(|| "pubmed".into()),
                source: Source::from_args(args),
                max_records: a
                    .int("max_records")
                    .unwrap_or(DEFAULT_RECORDS)
                    .clamp(1, MAX_RECORDS),
                include_sequence: a.flag("include_sequence"),
                given: ["database", "max_records", "include_sequence"]
                    .into_iter()
                    // The intake has already dropped null and blank values.
                    .filter(|k| a.get(k).is_some())
                    .collect(),
            }),
            "query" => DataCall::Query(Query {
                data_access_id: text("data_access_id"),
                sql: a
                    .get("sql")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string(),
                limit: a
                    .int("limit")
                    .unwrap_or(DEFAULT_LIMIT as u64)
                    .clamp(1, MAX_LIMIT as u64),
            }),
            "schema" => DataCall::Schema(dataset()),
            "list_datasets" => DataCall::ListDatasets,
            "drop_dataset" => DataCall::DropDataset(dataset()),
            _ => return None,
        })
    }

    /// The call as JSON: `validate`'s `normalized_arguments`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
