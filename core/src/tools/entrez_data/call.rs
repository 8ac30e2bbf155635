//! One `entrez_data` call, read once into a typed value.
//!
//! As for `entrez_query` ([`crate::tools::entrez_query::call`]), the intake has
//! made the arguments canonical, read into [`DataArgs`]; [`DataCall::of`] turns them into the call
//! that runs, with every default here (pubmed, 1,000 records, 100 rows per
//! query), and `validate` shows this value, serialized, as
//! `normalized_arguments`.

use crate::export::style::Style;
use crate::export::Format;
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
    /// A dataset's records (or a query's rows) as a file, served as a resource.
    Export(Export),
    /// A formatted bibliography of PMIDs (in the result) or of a dataset (as a resource).
    Bibliography(Bibliography),
    /// A dataset drawn as a PNG chart: a named chart or one of a statement's rows.
    Chart(ChartCall),
}

/// A chart of a dataset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartCall {
    /// The dataset.
    pub data_access_id: String,
    /// A named chart, or bar or line (a chart of `sql`).
    pub chart: String,
    /// The statement of a bar or line chart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    /// The bars of a "top" chart.
    pub limit: u64,
}

/// A value the caller named: one this server knows, or the name as given (which the
/// semantic check refuses, listing the known ones).
#[derive(Debug, Clone, PartialEq)]
pub enum Choice<T> {
    /// A known value.
    Known(T),
    /// A name nothing answers to.
    Unknown(String),
}

impl<T: Serialize> Serialize for Choice<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Choice::Known(t) => t.serialize(s),
            Choice::Unknown(name) => s.serialize_str(name),
        }
    }
}

/// The value named `given`, `default` when none is.
fn choose<T>(given: Option<&str>, default: T, read: impl Fn(&str) -> Option<T>) -> Choice<T> {
    match given {
        None => Choice::Known(default),
        Some(name) => read(name).map_or_else(|| Choice::Unknown(name.to_string()), Choice::Known),
    }
}

/// An export of a dataset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Export {
    /// The dataset.
    pub data_access_id: String,
    /// The format.
    pub format: Choice<Format>,
    /// The bibliography style (text and markdown).
    pub style: Choice<Style>,
    /// A statement choosing the records or rows; the whole dataset when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
}

/// A bibliography.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bibliography {
    /// PMIDs, in citation order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<String>,
    /// Or a dataset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_access_id: Option<String>,
    /// A statement choosing the dataset's records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sql: Option<String>,
    /// The style.
    pub style: Choice<Style>,
    /// text or markdown.
    pub format: Choice<Format>,
    /// The result's budget.
    #[serde(skip)]
    pub view: View,
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
    /// A citation network of the source's papers, rather than the papers themselves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network: Option<crate::tools::entrez_data::network::Network>,
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
                source: match (Source::of(a), &a.network) {
                    // With network, a dataset named is the seeds' source, not one to continue.
                    (Source::Continue { data_access_id }, Some(_)) => Source::Dataset {
                        seeds_of: data_access_id,
                    },
                    (source, _) => source,
                },
                network: crate::tools::entrez_data::network::Network::of(a),
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
            "export" => DataCall::Export(Export {
                data_access_id: a.data_access_id.clone().unwrap_or_default(),
                format: choose(a.format.as_deref(), Format::Ris, |n| Format::named(n).ok()),
                style: choose(a.style.as_deref(), Style::Vancouver, Style::named),
                sql: a.sql.clone(),
            }),
            "bibliography" => DataCall::Bibliography(Bibliography {
                ids: {
                    let mut ids: Vec<String> = Vec::new();
                    for id in &a.ids {
                        if !ids.contains(id) {
                            ids.push(id.clone());
                        }
                    }
                    ids
                },
                data_access_id: a.data_access_id.clone(),
                sql: a.sql.clone(),
                style: choose(a.style.as_deref(), Style::Vancouver, Style::named),
                format: choose(a.format.as_deref(), Format::Markdown, |n| {
                    Format::named(n).ok()
                }),
                view: a.view.view(),
            }),
            "chart" => DataCall::Chart(ChartCall {
                data_access_id: a.data_access_id.clone().unwrap_or_default(),
                chart: a.chart.as_ref().map_or_else(
                    || if a.sql.is_some() { "bar" } else { "per_year" }.into(),
                    |c| c.to_ascii_lowercase(),
                ),
                sql: a.sql.clone(),
                limit: a
                    .limit
                    .unwrap_or(crate::chart::DEFAULT_TOP)
                    .clamp(1, crate::chart::MAX_BARS as u64),
            }),
            _ => return None,
        })
    }

    /// The call as JSON: `validate`'s `normalized_arguments`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
