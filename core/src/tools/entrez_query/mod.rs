//! `entrez_query`: every E-utility, paced under NCBI's limit, parsed into typed records.
//!
//! [`plan`] turns arguments into requests (pure, tested by exact URL),
//! [`operations`] sends them through the caller's [`EntrezClient`] and parses
//! the replies with [`crate::parse`], and [`render`] writes the text block.
//! Large results are capped here, with the total and a way forward.

pub mod args;
pub mod call;
pub mod citations;
pub mod integrity;
pub mod listing;
pub mod operations;
pub mod plan;
pub mod references;
pub mod render;
pub mod validation;

use crate::error::{Error, ErrorKind, Result};
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolSpec};

use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::entrez_query::call::QueryCall;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_query",
    title: "NCBI Entrez E-utilities",
    description: concat!(
        "Searches and reads any Entrez database (NCBI's E-utilities). info, search, summary, fetch (PubMed/PMC ",
        "articles, sequences, taxonomy parsed into data), link, post, global_query, count_by_year (a PNG chart), spell, ",
        "citation_match, check_references (verifies up to 100 references), citations (cited-by, references, RCR). PubMed records say if retracted or corrected. ",
        "Results fit max_characters and name the call for the rest; stage big sets with entrez_data. ",
        "Parameters per operation and examples: entrez_tool_info. ",
        crate::framework::spec::lenient!()
    ),
    input_schema: include_str!("../../../../schemas/entrez_query.input.json"),
    output_schema: include_str!("../../../../schemas/entrez_query.output.json"),
    annotations: ToolAnnotations {
        read_only: true,
        destructive: false,
        // NCBI's data changes over time, and post creates history entries, so not idempotent.
        idempotent: false,
        open_world: true,
    },
    typical_output: "1-5 KB per search or summary page; 2-10 KB per fetched PubMed article",
    text_form: TextForm::Readable,
    read: |args| Box::new(QueryArgs::read(args)),
};

crate::framework::spec::upstream_call!(QueryArgs, check: crate::tools::entrez_query::validation::check, run: run);

async fn run(ctx: &ToolContext<'_>, args: QueryArgs) -> Result<ToolOutput> {
    // The schema has named the operation already; a call without one never gets here.
    let call = QueryCall::of(&args).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArguments,
            "entrez_query needs an operation.",
        )
        .suggest("Set operation, e.g. \"search\".")
    })?;
    match &call {
        QueryCall::Info(c) => operations::info(ctx, c).await,
        QueryCall::Search(c) => operations::search(ctx, c).await,
        QueryCall::Summary(c) => listing::summary(ctx, c).await,
        QueryCall::Fetch(c) => listing::fetch(ctx, c).await,
        QueryCall::Link(c) => operations::link(ctx, c).await,
        QueryCall::Post(c) => operations::post(ctx, c).await,
        QueryCall::GlobalQuery(c) => operations::global_query(ctx, c).await,
        QueryCall::CountByYear(c) => operations::count_by_year(ctx, c).await,
        QueryCall::Spell(c) => operations::spell(ctx, c).await,
        QueryCall::CitationMatch(c) => operations::citation_match(ctx, c).await,
        QueryCall::CheckReferences(c) => references::check_references(ctx, c).await,
        QueryCall::Citations(c) => citations::citations(ctx, &c.ids, &c.view).await,
    }
}
