//! `entrez_external`'s PubChem slice: PUG REST as data, its lookups, searches and requests.
//!
//! Like [`crate::entrez`] for the E-utilities, the upstream concept without a runtime:
//! [`grammar`] is PubChem's documentation as tables, [`request`] the typed request and the one
//! function that turns any PubChem request into an HTTP call, [`options`] the option table,
//! [`read`] (with [`path`]) the reading of a `pug_rest` call into that request. Each
//! operation has its arguments ([`args`]), typed call ([`call`]), requests ([`plan`]), rules
//! ([`validation`]) and text ([`render`]) here; [`run`] routes a call to its operation.

pub mod args;
pub mod atoms;
pub mod call;
pub mod chem;
pub mod grammar;
pub mod ids;
pub mod listkey;
pub mod lookups;
pub mod options;
pub mod parts;
pub mod path;
pub mod path_check;
pub mod plan;
pub mod pug;
pub mod pug_rest;
pub mod read;
pub mod refusal;
pub mod render;
pub mod request;
pub mod smiles;
pub mod validation;

use crate::error::Result;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::tools::entrez_external::pubchem::call::PubChemCall;

/// Runs one PubChem call.
pub async fn run(ctx: &ToolContext<'_>, call: &PubChemCall, view: &View) -> Result<ToolOutput> {
    match call {
        PubChemCall::Compound(l) | PubChemCall::Substance(l) | PubChemCall::Bioassay(l) => {
            lookups::lookup(ctx, l, view).await
        }
        PubChemCall::StructureSearch(s) => lookups::structure_search(ctx, s).await,
        PubChemCall::PugRest(p) => pug_rest::run(ctx, p, view).await,
    }
}
