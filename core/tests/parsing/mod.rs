//! The parsers on recorded NCBI responses (their errors as the core reports them).

mod cache_keep;
mod eutils;
mod eutils_errors;
mod integrity;
mod medline;
mod pmc;
mod pubmed;
mod sequence_errors;
mod taxonomy;
