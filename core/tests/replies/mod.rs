//! What the core makes of NCBI's replies: bodies the parsers refuse, and NCBI's own error
//! messages, as errors with a kind, a stable code and advice (`entrez::faults`), and which
//! recorded replies the cache may keep (`net::cache::keep`). The parsers' readings of the
//! same recordings are the parser's own tests, in parse/tests.

mod cache_keep;
mod eutils;
mod eutils_errors;
mod medline;
mod pmc;
mod pubmed;
mod sequence_errors;
mod taxonomy;
