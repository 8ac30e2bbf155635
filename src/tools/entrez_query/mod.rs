//! `entrez_query`: every E-utility, paced under NCBI's limit, parsed into typed records.
//!
//! [`plan`] turns arguments into requests (pure, tested by exact URL),
//! [`operations`] sends them through the caller's [`EntrezClient`] and parses
//! the replies with [`crate::parse`], and [`render`] writes the text block.
//! Large results are capped here, with the total and a way forward.

pub mod operations;
pub mod plan;
pub mod render;

use super::spec::{ToolAnnotations, ToolSpec};
use super::{ToolContext, ToolOutput};
use crate::error::Result;
use serde_json::Value;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_query",
    title: "NCBI Entrez E-utilities",
    description: "Query NCBI Entrez with every E-utility: info (einfo: databases, fields, links), search (esearch: ids, counts, query translation, history server), summary (esummary: document summaries), fetch (efetch: full records parsed into typed data — PubMed articles with abstracts, authors, MeSH; PMC full text; GenBank/GenPept/FASTA sequences; taxonomy), link (elink: related records, scores, full-text links), post (epost to the history server), global_query (hit counts across databases), spell (espell) and citation_match (ecitmatch). Requests are paced under NCBI's rate limit and retried on 429/5xx. Results are capped (max_records, default 50); use search with usehistory and then fetch with webenv/query_key and retstart to page.",
    input_schema: include_str!("../../../schemas/entrez_query.input.json"),
    output_schema: include_str!("../../../schemas/entrez_query.output.json"),
    annotations: ToolAnnotations {
        read_only: true,
        destructive: false,
        // NCBI's data changes over time, and post creates history entries, so not idempotent.
        idempotent: false,
        open_world: true,
    },
    typical_output: "1-5 KB per search or summary page; 2-10 KB per fetched PubMed article",
    handler: |ctx, args| Box::pin(run(ctx, args)),
};

async fn run(ctx: &ToolContext<'_>, args: Value) -> Result<ToolOutput> {
    let operation = args["operation"].as_str().unwrap_or_default().to_string();
    match operation.as_str() {
        "info" => operations::info(ctx, &args).await,
        "search" => operations::search(ctx, &args).await,
        "summary" => operations::summary(ctx, &args).await,
        "fetch" => operations::fetch(ctx, &args).await,
        "link" => operations::link(ctx, &args).await,
        "post" => operations::post(ctx, &args).await,
        "global_query" => operations::global_query(ctx, &args).await,
        "spell" => operations::spell(ctx, &args).await,
        _ => operations::citation_match(ctx, &args).await,
    }
}
