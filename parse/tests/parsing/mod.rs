//! Links, summaries and sequences read from recorded answers.

mod eutils_link;
mod eutils_summary;
mod icite;
mod sequences;
