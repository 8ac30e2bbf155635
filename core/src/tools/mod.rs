//! The tools, one folder (or file) each, and the table that lists them.

pub mod api_key_status;
pub mod capabilities;
pub mod entrez_data;
pub mod entrez_data_page;
pub mod entrez_external;
pub mod entrez_query;
pub mod tool_info;
pub mod tool_names;
pub mod validate;

use crate::framework::registry::Catalog;

/// Every tool this server serves, in the order `tools/list` returns them; `entrez_data`
/// needs a dataset store.
pub const CATALOG: Catalog = Catalog {
    tools: &[
        entrez_query::SPEC,
        entrez_data::SPEC,
        entrez_external::SPEC,
        capabilities::SPEC,
        tool_info::SPEC,
        api_key_status::SPEC,
        validate::SPEC,
        // Only the view calls it; tools/list shows it to clients that render views.
        entrez_data_page::SPEC,
    ],
    needs_store: &[entrez_data::SPEC.name, entrez_data_page::SPEC.name],
    resources: &[&entrez_data::resources::Datasets],
    validation: Some((validate::SPEC.name, validate::capability)),
};
