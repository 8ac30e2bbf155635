//! # entrez-mcp-parse
//!
//! NCBI's replies, read: bytes in, typed records out, with no I/O and nothing of the server
//! around it. Every XML parser runs over one byte-level tokenizer ([`tokenizer`], wrapped by
//! [`xml::Xml`], which refuses DTD entity declarations and notices a body cut off in transit);
//! a failure is a [`ParseError`] naming what came back instead of what was expected. The
//! crate depends on quick-xml, memchr and serde only, so the Worker can build it at its own
//! optimization level (parsing is its hottest code).
//!
//! ## Layers, lowest first
//!
//! A module imports only from its own layer and those above it (`scripts/layers.py`):
//!
//! - `error`: the one error type.
//! - `tokenizer`, `xml`: bytes to XML events, and the reader every parser shares.
//! - `body_errors`, `envelope`, `walk`: errors inside a 200, the E-utilities' envelopes,
//!   the children-collecting walk.
//! - `sequence`: the sequence record every sequence format fills.
//! - `medline`, `pubmed`: PubMed's two formats, which share the article record.
//! - `einfo`, `einfo_json`, `elink`, `epost`, `esearch`, `espell`, `esummary`, `ecitmatch`,
//!   `fasta`, `flatfile`, `gbseq`, `generic`, `icite`, `ipg`, `pmc`, `pmc_oa`, `s3_list`, `taxonomy`, `tinyseq`:
//!   one parser per reply.
//! - `records`: efetch's records, whatever the format.

pub mod error;

pub use error::{ParseError, ParseErrorKind, Said};

pub mod body_errors;
pub mod ecitmatch;
pub mod einfo;
pub mod einfo_json;
pub mod elink;
pub mod envelope;
pub mod epost;
pub mod esearch;
pub mod espell;
pub mod esummary;
pub mod fasta;
pub mod flatfile;
pub mod gbseq;
pub mod generic;
pub mod icite;
pub mod ipg;
pub mod medline;
pub mod pmc;
pub mod pmc_oa;
pub mod pubmed;
pub mod records;
pub mod s3_list;
pub mod sequence;
pub mod taxonomy;
pub mod tinyseq;
pub mod tokenizer;
pub mod walk;
pub mod xml;
