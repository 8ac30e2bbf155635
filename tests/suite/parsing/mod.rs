//! The parsers on recorded NCBI responses (their errors as the core reports them).

mod cache_keep;
mod eutils;
mod eutils_errors;
mod eutils_link;
mod eutils_summary;
mod medline;
mod pmc;
mod pubmed;
mod sequence_errors;
mod sequences;
mod taxonomy;
