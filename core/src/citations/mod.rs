//! Who cites a paper and what it cites, with its metrics: NIH iCite first, elink behind it.
//!
//! [`request`] builds iCite's `/api/pubs` calls (200 PMIDs each, iCite's documented limit)
//! and elink's `pubmed_pubmed_citedin`/`pubmed_pubmed_refs` fallbacks as data;
//! [`client`] sends them through the server's one send loop (paced in a bucket of iCite's
//! own at NCBI's keyless rate, cached, retried), reads the answers with
//! [`crate::parse::icite`] and [`crate::parse::elink`], and says for each PMID which source
//! answered and what failed. Both `entrez_query` `citations` and the citation network
//! staging build on it.

pub mod client;
pub mod request;

pub use client::{CitationClient, Citations, Paper, Source, SourceFailure};
