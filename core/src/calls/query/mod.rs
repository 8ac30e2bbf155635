//! `entrez_query`: the typed call and its requests.

pub mod args;
pub mod call;
pub mod plan;
