//! `entrez_data`: the typed call and its requests.

pub mod call;
pub mod plan;
