//! `entrez_external`: PubChem (PUG REST) and PMC's article services, beside the E-utilities.
//!
//! The E-utilities cover Entrez; chemists and literature work also need
//! PubChem's structure services and three PMC services that live outside
//! them. One tool takes a `service` and an `operation` (the inputSchema ties
//! them together) so an assistant sees a single, uniform entry point:
//!
//! - [`plan`] builds every request as data (exact URLs and bodies, tested);
//! - [`client`] paces each service in its own bucket of the server's shared
//!   pacer, retries transient refusals, and through [`throttle`] turns
//!   PubChem's `X-Throttling-Control` warnings into slower pacing for everyone;
//! - [`pubchem`] and [`pmc`] run the operations and read the replies with
//!   [`pug`] and [`cite`]; [`render`] writes the text blocks.
//!
//! Like every tool here it is pure core: it names no runtime and compiles for
//! wasm32, reaching the network only through [`crate::net::Transport`].

pub mod call;
pub mod cite;
pub mod client;
pub mod plan;
pub mod pmc;
pub mod pubchem;
pub mod pug;
pub mod render;
pub mod throttle;

use super::spec::{ToolAnnotations, ToolSpec};
use super::{ToolContext, ToolOutput};
use crate::error::Result;
use crate::tools::output::TextForm;
use call::ExternalCall;
use serde_json::Value;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_external",
    title: "PubChem and PMC services",
    description: "NCBI services outside the E-utilities. Set service and operation together. \
service pubchem (PUG REST, paced at 5 requests/s): \
compound — look a compound up by cid (up to 100), name, smiles, inchi, inchikey, formula or listkey and get data properties (formula, weight, SMILES, InChI/InChIKey, IUPAC name, XLogP, TPSA, H-bond counts; the default), record, synonyms, description, cids, or picture (properties plus the 2D structure as a PNG image); \
substance — deposited records by sid, sourceid (with source) or name: record, synonyms, cids, description; \
bioassay — an assay by aid: summary (default) or description; \
structure_search — compounds by identity, substructure, superstructure or similarity (threshold) to a SMILES, InChI, SMARTS or CID; mode fast answers at once, mode async lets PubChem work longer and is collected for up to 60 s. \
service pmc: id_convert — PMCID/PMID/DOI/manuscript id conversion for up to 200 ids of one type; \
oa_service — whether PMC articles are in the Open Access subset, with license and tgz/PDF download links; \
citation_export — citations for PMIDs (database pubmed) or PMCIDs (database pmc) as citation (AMA/APA/MLA/NLM text), csl, ris, medline/nbib or bibtex. \
Use entrez_query instead for searching PubMed, PMC or other Entrez databases.",
    input_schema: include_str!("../../../schemas/entrez_external.input.json"),
    output_schema: include_str!("../../../schemas/entrez_external.output.json"),
    annotations: ToolAnnotations {
        read_only: true,
        destructive: false,
        // Lookups: asking twice changes nothing (results only change as the databases do).
        idempotent: true,
        open_world: true,
    },
    typical_output: "1-3 KB per compound or article; a PNG of 5-20 KB for pictures; up to 1,000 CIDs per search",
    text_form: TextForm::Readable,
    handler: |ctx, args| Box::pin(run(ctx, args)),
};

/// The operations, as the schema's enum lists them.
pub const OPERATIONS: &[(&str, ())] = &[
    ("compound", ()),
    ("substance", ()),
    ("bioassay", ()),
    ("structure_search", ()),
    ("id_convert", ()),
    ("oa_service", ()),
    ("citation_export", ()),
];

async fn run(ctx: &ToolContext<'_>, args: Value) -> Result<ToolOutput> {
    let named = args["operation"].as_str().unwrap_or_default();
    let Some(call) = ExternalCall::read(&args) else {
        return Err(super::unknown_operation(
            "entrez_external",
            named,
            OPERATIONS,
        ));
    };
    match &call {
        ExternalCall::Compound(l) | ExternalCall::Substance(l) | ExternalCall::Bioassay(l) => {
            pubchem::lookup(ctx, l).await
        }
        ExternalCall::StructureSearch(s) => pubchem::structure_search(ctx, s).await,
        ExternalCall::IdConvert(c) => pmc::id_convert(ctx, c).await,
        ExternalCall::OaService(c) => pmc::oa_service(ctx, c).await,
        ExternalCall::CitationExport(c) => pmc::citation_export(ctx, c).await,
    }
}
