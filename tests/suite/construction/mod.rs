//! Calls to requests and results, with no network.

mod entrez_external_plan;
mod entrez_query_plan;
mod loose_calls;
mod ncbi_docs;
mod schemas;
mod tools;
