//! `entrez_query`: every E-utility.

pub mod plan;
