//! Parsers for NCBI responses, each from bytes to typed records.

pub mod body_errors;
pub mod ecitmatch;
pub mod einfo;
pub mod elink;
pub mod elink_json;
pub mod envelope;
pub mod epost;
pub mod esearch;
pub mod espell;
pub mod esummary;
pub mod esummary_json;
pub mod fasta;
pub mod flatfile;
pub mod gbseq;
pub mod generic;
pub mod headline;
pub mod ipg;
pub mod medline;
pub mod pmc;
pub mod pubmed;
pub mod sequence;
pub mod taxonomy;
pub mod tinyseq;
pub mod tokenizer;
pub mod walk;
pub mod xml;
