//! `entrez_external`: PubChem (PUG REST) and PMC's article services, beside the E-utilities.
//!
//! One tool, a `service` and an `operation` (the inputSchema ties them together); this folder
//! only routes, over complete service slices ([`pubchem`], [`pmc`]). [`call`] reads a call
//! into its slice's, [`validation`] checks the service and hands the rest on, `run` dispatches.
//!
//! ## Layers, lowest first
//! - `shared`: the client, fitting a list to the view, the result's blocks, the services.
//! - `pubchem`, `pmc`: the service slices (neither imports the other).
//! - `args`, `call`, `validation`: a call read, typed and checked by routing to its slice.

pub mod args;
pub mod call;
pub mod pmc;
pub mod pubchem;
pub mod shared;
pub mod validation;

use crate::error::Result;
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolSpec};

use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::tools::entrez_external::args::ExternalArgs;
use crate::tools::entrez_external::call::ExternalCall;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_external",
    title: "PubChem and PMC services",
    description: concat!(
        "PubChem and PMC services beyond the E-utilities. service pubchem: compound, substance, bioassay, ",
        "structure_search, pug_rest (any PUG REST request). service pmc: id_convert (PMCID, PMID, DOI), oa_service ",
        "(Open Access links), citation_export, bioc (BioC), full_text (sections of an article, any id). Search PubMed or PMC with entrez_query. ",
        "Parameters per operation and examples: entrez_tool_info. ",
        crate::framework::spec::lenient!()
    ),
    input_schema: include_str!("../../../../schemas/entrez_external.input.json"),
    output_schema: include_str!("../../../../schemas/entrez_external.output.json"),
    annotations: ToolAnnotations {
        read_only: true,
        destructive: false,
        // Lookups: asking twice changes nothing (results only change as the databases do).
        idempotent: true,
        open_world: true,
    },
    typical_output: "1-3 KB per compound or article; a PNG of 5-20 KB for pictures; up to 1,000 CIDs per search",
    text_form: TextForm::Readable,
    read: |args| Box::new(ExternalArgs::read(args)),
};

/// The operations, as the schema's enum lists them.
pub const OPERATIONS: &[(&str, ())] = &[
    ("compound", ()),
    ("substance", ()),
    ("bioassay", ()),
    ("structure_search", ()),
    ("pug_rest", ()),
    ("id_convert", ()),
    ("oa_service", ()),
    ("citation_export", ()),
    ("bioc", ()),
    ("full_text", ()),
];

crate::framework::spec::upstream_call!(ExternalArgs, check: crate::tools::entrez_external::validation::check, run: run);

async fn run(ctx: &ToolContext<'_>, args: ExternalArgs) -> Result<ToolOutput> {
    let Some(call) = ExternalCall::of(&args) else {
        let named = args.op();
        return Err(
            pubchem::pug_rest::refused(named, &args.pubchem).unwrap_or_else(|| {
                crate::framework::unknown_operation("entrez_external", named, OPERATIONS)
            }),
        );
    };
    let view = args.view.view();
    match &call {
        ExternalCall::PubChem(c) => pubchem::run(ctx, c, &view).await,
        ExternalCall::Pmc(c) => pmc::run(ctx, c, &view).await,
    }
}
