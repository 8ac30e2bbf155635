//! The parsers on recorded NCBI responses, with nothing of the core.

mod parsing;
