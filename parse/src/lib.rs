//! # entrez-mcp-parse
//!
//! NCBI's replies, read: bytes in, typed records out. Every parser here runs
//! over one byte-level XML tokenizer ([`tokenizer`], quick-xml's event types,
//! UTF-8 checked once per body, markup found with `memchr`) wrapped by
//! [`xml::Xml`], which refuses DTD entity declarations (nothing is ever
//! expanded), names what came back when it is not XML, and notices a body cut
//! off in transit. The E-utilities' replies ([`esearch`], [`esummary`],
//! [`efetch`'s records](records), [`elink`], [`einfo`], [`epost`], [`espell`],
//! [`ecitmatch`]), PubMed and MEDLINE, PMC JATS, GenBank flat files, GBSeq and
//! TinySeq, FASTA, taxonomy and IPG each have their parser; [`body_errors`]
//! finds the errors NCBI reports inside a successful reply.
//!
//! A parser does no I/O and knows nothing of the server around it: a failure
//! is a [`ParseError`] naming what came back instead of what was expected,
//! with a stable code; what a caller should do about it is the core's to say.
//! The crate depends on quick-xml, memchr and serde only, so the Worker can
//! build it at its own optimization level (parsing is its hottest code).

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
pub mod ipg;
pub mod medline;
pub mod pmc;
pub mod pmc_oa;
pub mod pubmed;
pub mod records;
pub mod sequence;
pub mod taxonomy;
pub mod tinyseq;
pub mod tokenizer;
pub mod walk;
pub mod xml;
