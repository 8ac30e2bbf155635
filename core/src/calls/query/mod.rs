//! `entrez_query`: the typed call and its requests.

pub mod call;
pub mod plan;
