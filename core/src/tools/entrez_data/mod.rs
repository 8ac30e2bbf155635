//! `entrez_data`: stage Entrez records into SQLite tables, then query them with SQL.
//!
//! [`args`], [`call`] and [`plan`] read a call and turn it into E-utilities requests,
//! [`validation`] holds its rules, [`stage`] fetches, parses and appends batch by batch
//! ([`batches`], [`cursor`], [`finish`]; a citation network's look-ups first, [`network`],
//! [`network_lookup`]), [`operations`] answers query, schema, list_datasets
//! and drop_dataset, [`export`] export and bibliography (the formats are [`crate::export`]'s),
//! [`render`] writes the text blocks and [`resources`] serves the datasets' schemas and
//! exports as MCP resources. Tables, rows, limits and the read-only policy are
//! [`crate::staging`]'s; a staging as a task, and its background steps, are
//! [`crate::tasks`]'. The tool is only registered on servers that have a store.

pub mod args;
pub mod batches;
pub mod budget;
pub mod call;
pub mod chart;
pub mod cursor;
pub mod export;
pub mod finish;
pub mod network;
pub mod network_lookup;
pub mod network_work;
pub mod operations;
pub mod plan;
pub mod preflight;
pub mod render;
pub mod resources;
pub mod stage;
pub mod validation;
pub mod wait;

use crate::error::{Error, ErrorKind, Result};
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolSpec};

use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::staging::store::DatasetInfo;
use crate::staging::{is_dataset_id, owner_of, Staging};
use crate::tools::entrez_data::args::DataArgs;
use crate::tools::entrez_data::call::DataCall;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_data",
    title: "Stage Entrez records into SQL tables",
    description: concat!(
        "Stages up to 10,000 Entrez records in a private SQLite dataset to answer questions with SQL. fetch_and_stage ",
        "returns data_access_id; query runs one read-only statement; schema lists the tables with example queries; ",
        "export links a file (RIS, BibTeX, CSL JSON, CSV…) for resources/read; bibliography formats references; chart ",
        "draws a PNG; list_datasets, drop_dataset. Datasets expire (24 h by default). Details: entrez_tool_info. ",
        crate::framework::spec::lenient!()
    ),
    input_schema: include_str!("../../../../schemas/entrez_data.input.json"),
    output_schema: include_str!("../../../../schemas/entrez_data.output.json"),
    annotations: ToolAnnotations {
        read_only: false,
        // drop_dataset deletes a dataset.
        destructive: true,
        idempotent: false,
        open_world: true,
    },
    typical_output: "1-3 KB; an export under 1 KB (the file is a resource); a query up to its row limit (100)",
    text_form: TextForm::Readable,
    read: |args| Box::new(DataArgs::read(args)),
};

crate::framework::spec::upstream_call!(DataArgs, check: |_, args, report| crate::tools::entrez_data::validation::check(args, report), run: run);

async fn run(ctx: &ToolContext<'_>, args: DataArgs) -> Result<ToolOutput> {
    let named = args.operation.as_deref().unwrap_or_default();
    let Some(call) = DataCall::of(&args) else {
        return Err(crate::framework::unknown_operation(
            "entrez_data",
            named,
            OPERATIONS,
        ));
    };
    let wait_ms = wait::wait_ms(args.wait_seconds);
    match &call {
        DataCall::FetchAndStage(c) => stage::fetch_and_stage(ctx, c, wait_ms).await,
        DataCall::Query(c) => operations::query(ctx, c, wait_ms).await,
        DataCall::Schema(d) => operations::schema(ctx, d, wait_ms).await,
        DataCall::ListDatasets => operations::list_datasets(ctx).await,
        DataCall::DropDataset(d) => operations::drop_dataset(ctx, d).await,
        DataCall::Export(e) => export::export(ctx, e, wait_ms).await,
        DataCall::Bibliography(b) => export::bibliography(ctx, b, wait_ms).await,
        DataCall::Chart(c) => chart::chart(ctx, c, wait_ms).await,
    }
}

/// The operations, as the schema's enum lists them.
pub const OPERATIONS: &[(&str, ())] = &[
    ("fetch_and_stage", ()),
    ("query", ()),
    ("schema", ()),
    ("list_datasets", ()),
    ("drop_dataset", ()),
    ("export", ()),
    ("bibliography", ()),
    ("chart", ()),
];

/// The server's staging, or an error naming why there is none.
pub fn staging<'a>(ctx: &ToolContext<'a>) -> Result<&'a Staging> {
    ctx.staging.ok_or_else(|| {
        Error::new(
            ErrorKind::Unavailable,
            "This server instance has no dataset store, so entrez_data cannot stage records.",
        )
        .with_code("store_unavailable")
        .suggest("Use entrez_query to fetch records directly.")
    })
}

/// The resource URI of a dataset's schema.
pub fn schema_uri(id: &str) -> String {
    format!("entrez-dataset://{id}/schema")
}

/// The caller's dataset named by `data_access_id`; expired ones are dropped on the way.
pub async fn owned_dataset(ctx: &ToolContext<'_>, id: &str) -> Result<DatasetInfo> {
    let staging = staging(ctx)?;
    let missing = || {
        Error::new(
            ErrorKind::NotFound,
            format!("No dataset {id:?} exists for this caller."),
        )
        .with_code("dataset_not_found")
        .suggest("Call entrez_data with operation list_datasets to see your datasets.")
        .suggest("Datasets belong to the session or X-NCBI-API-Key that staged them (a stateless request without a key: to whoever holds the id) and expire; stage again with fetch_and_stage.")
        .with_details(json!({ "data_access_id": id }))
    };
    if !is_dataset_id(id) {
        return Err(missing());
    }
    let owner = owner_of(ctx.request);
    let info = match staging.store.get(id).await? {
        Some(info) if owner.may_use(&info.owner) => info,
        // Someone else's dataset reads exactly like no dataset.
        _ => return Err(missing()),
    };
    let now = ctx.platform.now_unix_ms();
    if info.expired(now) {
        staging.store.remove(id).await?;
        let mut e = missing();
        e.message = format!(
            "Dataset {id} expired at {} and was dropped.",
            crate::staging::iso8601(info.expires_ms)
        );
        return Err(e.with_code("dataset_expired"));
    }
    Ok(info)
}

/// Warnings every result about a dataset carries while it is not complete.
pub fn status_warnings(info: &DatasetInfo) -> Vec<String> {
    match &info.status {
        crate::staging::store::Status::Complete => Vec::new(),
        crate::staging::store::Status::Loading => vec![format!(
            "Dataset {} is still loading: {} records so far; results may change.",
            info.id, info.records
        )],
        crate::staging::store::Status::Failed(reason) => vec![format!(
            "Dataset {} is incomplete: staging failed ({reason}); {} records were staged.",
            info.id, info.records
        )],
        status @ crate::staging::store::Status::Partial(_) => match cursor::in_background(status) {
            Some(resume) => vec![match &resume.fault {
                Some(paused) => format!(
                    "Dataset {} is still loading: {} records so far, {} to go; it was {}, so results may change.",
                    info.id, info.records, resume.work.remaining(), paused.describe()
                ),
                None => format!(
                    "Dataset {} is still loading: {} records so far, {} to go; the server stages the rest by itself, so results may change.",
                    info.id, info.records, resume.work.remaining()
                ),
            }],
            None => vec![format!(
            "Dataset {} is partial: {} records so far; fetch_and_stage with this data_access_id stages the rest.",
            info.id, info.records
            )],
        },
    }
}
