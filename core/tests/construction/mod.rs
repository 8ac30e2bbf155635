//! Calls to requests, with no network.

mod citations;
mod entrez_external_plan;
mod entrez_query_plan;
mod ncbi_docs;
mod reference_reading;
mod references;
mod schemas;
