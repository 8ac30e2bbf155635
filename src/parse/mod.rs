//! Parsers for NCBI responses, each from bytes to typed records.

pub mod xml;
