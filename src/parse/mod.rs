//! Parsers for NCBI responses, each from bytes to typed records.

pub mod fasta;
pub mod flatfile;
pub mod gbseq;
pub mod generic;
pub mod ipg;
pub mod sequence;
pub mod taxonomy;
pub mod tinyseq;
pub mod walk;
pub mod xml;
