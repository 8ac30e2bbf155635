//! One `entrez_data` call, read once into a typed value.
//!
//! As for `entrez_query` ([`crate::tools::entrez_query::call`]), the intake has
//! made the arguments canonical, read into [`DataArgs`]; [`DataCall::of`] turns them into the call
//! that runs, with every default here (pubmed, 1,000 records, 100 rows per
//! query), and `validate` shows this value, serialized, as
//! `normalized_arguments`.

use crate::framework::view::View;
use crate::staging::guard::{DEFAULT_LIMIT, MAX_LIMIT};
use crate::staging::limits::{DEFAULT_RECORDS, MAX_RECORDS};
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_data::plan::Source;
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
    /// The result's budget (entrez_data reads max_characters only).
    #[serde(skip)]
    pub view: View,
}

/// A dataset named by its id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatasetRef {
    /// The id `fetch_and_stage` returned.
    pub data_access_id: String,
}

impl DataCall {
    /// The call the arguments make, every default in place; `None` when no known operation is
    /// named.
    pub fn of(a: &DataArgs) -> Option<DataCall> {
        let dataset = || DatasetRef {
            data_access_id: a.data_access_id.clone().unwrap_or_default(),
        };
        Some(match a.operation.as_deref()? {
            "fetch_and_stage" => DataCall::FetchAndStage(Stage {
                database: a
                    .database
                    .as_ref()
                    .map_or_else(|| "pubmed".into(), |d| d.to_ascii_lowercase()),
                source: Source::of(a),
                max_records: a
                    .max_records
                    .unwrap_or(DEFAULT_RECORDS)
                    .clamp(1, MAX_RECORDS),
                include_sequence: a.include_sequence,
                given: ["database", "max_records", "include_sequence"]
                    .into_iter()
                    // The intake has already dropped null and blank values.
                    .filter(|k| a.has(k))
                    .collect(),
            }),
            "query" => DataCall::Query(Query {
                data_access_id: a.data_access_id.clone().unwrap_or_default(),
                sql: a.sql.clone().unwrap_or_default(),
                limit: a
                    .limit
                    .unwrap_or(DEFAULT_LIMIT as u64)
                    .clamp(1, MAX_LIMIT as u64),
                view: a.view.view(),
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
