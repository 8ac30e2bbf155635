//! Every parser on recorded answers (and, where no recording exists, replies built to NCBI's
//! documentation, said so where they stand): E-utilities, PubMed XML and MEDLINE with their
//! integrity notices, PMC's JATS, taxonomy, IPG, generic XML and sequences.

mod eutils;
mod eutils_link;
mod eutils_summary;
mod icite;
mod integrity;
mod medline;
mod pmc;
mod pubmed;
mod sequences;
mod taxonomy;
