//! An `entrez_data` call's arguments as the caller gave them, typed.
//!
//! The low-level reading, as [`crate::tools::entrez_query::args`] is for `entrez_query`;
//! [`crate::tools::entrez_data::call::DataCall`] is made from it.

use crate::framework::canonical::Canonical;
use crate::framework::view::ViewArgs;
use serde_json::Value;

/// `entrez_data`'s arguments as given: strings trimmed (the SQL aside), blanks read as absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DataArgs {
    /// The names of the parameters given, in order.
    pub given: Vec<String>,
    /// fetch_and_stage, query, schema, list_datasets, drop_dataset, export, bibliography or chart.
    pub operation: Option<String>,
    /// The database staged from, as written.
    pub database: Option<String>,
    /// Ids to stage, trimmed, blanks left out, in the order given.
    pub ids: Vec<String>,
    /// A history environment to stage from.
    pub webenv: Option<String>,
    /// Its set's key.
    pub query_key: Option<u64>,
    /// An Entrez query to stage the results of.
    pub term: Option<String>,
    /// A dataset: queried, described, dropped, or continued.
    pub data_access_id: Option<String>,
    /// Most records staged.
    pub max_records: Option<u64>,
    /// Whether sequence residues are stored too.
    pub include_sequence: bool,
    /// fetch_and_stage: stage the citation network of the seeds, which way (as written).
    pub network: Option<String>,
    /// network: citation steps from the seeds.
    pub steps: Option<u64>,
    /// One SQL statement, exactly as written.
    pub sql: Option<String>,
    /// Most rows returned.
    pub limit: Option<u64>,
    /// How long query, schema, export and fetch_and_stage may wait for a staging to end, seconds.
    pub wait_seconds: Option<u64>,
    /// export and bibliography: the format, as written.
    pub format: Option<String>,
    /// export and bibliography: the bibliography style, as written.
    pub style: Option<String>,
    /// chart: a named chart, or bar or line for a chart of `sql`.
    pub chart: Option<String>,
    /// max_characters (detail and fields are not read by entrez_data).
    pub view: ViewArgs,
    /// `fresh`: ask upstream even when the cache holds the answer.
    pub fresh: bool,
}

impl DataArgs {
    /// Reads canonical arguments; values of another type than the schema's are left out
    /// (the schema check names them).
    pub fn read(args: &Value) -> DataArgs {
        let Some(a) = Canonical::of(args) else {
            return DataArgs::default();
        };
        DataArgs {
            given: a.names(),
            operation: a.text("operation"),
            database: a.text("database"),
            ids: a.list("ids"),
            webenv: a.text("webenv"),
            query_key: a.int("query_key"),
            term: a.text("term"),
            data_access_id: a.text("data_access_id"),
            max_records: a.int("max_records"),
            include_sequence: a.flag("include_sequence"),
            network: a.text("network"),
            steps: a.int("steps"),
            sql: a.get("sql").and_then(Value::as_str).map(String::from),
            limit: a.int("limit"),
            wait_seconds: a.int("wait_seconds"),
            format: a.text("format"),
            style: a.text("style"),
            chart: a.text("chart"),
            view: ViewArgs::read(&a),
            fresh: a.flag("fresh"),
        }
    }

    /// Whether the caller gave parameter `name`.
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|g| g == name)
    }
}
