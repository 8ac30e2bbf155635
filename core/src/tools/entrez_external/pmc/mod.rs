//! `entrez_external`'s PMC slice: the ID Converter, the OA web service, the citation
//! exporter, the BioC API and full text (PMC's Cloud Service, then efetch, then BioC).
//!
//! Each operation has its arguments ([`args`]), typed call ([`call`]), requests ([`plan`]),
//! rules ([`ids`]) and text ([`render`]) here; [`run`] routes a call to its operation. All
//! share the `pmc` pacing bucket (3 per window, the limit NCBI documents for the citation
//! exporter) and NCBI's `tool`/`email` identification. Per-id failures are reported beside
//! the ids that worked; only when every id failed does the call become an error.

pub mod args;
pub mod bioc;
pub mod call;
pub mod cite;
pub mod cloud;
pub mod convert;
pub mod fulltext;
pub mod ids;
pub mod oa;
pub mod plan;
pub mod render;
pub mod reply;
pub mod sections;

use crate::error::Result;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::tools::entrez_external::pmc::call::PmcCall;

/// Runs one PMC call.
pub async fn run(ctx: &ToolContext<'_>, call: &PmcCall, view: &View) -> Result<ToolOutput> {
    match call {
        PmcCall::IdConvert(c) => convert::id_convert(ctx, c, view).await,
        PmcCall::OaService(c) => oa::oa_service(ctx, c, view).await,
        PmcCall::CitationExport(c) => cite::citation_export(ctx, c, view).await,
        PmcCall::Bioc(c) => bioc::bioc(ctx, c, view).await,
        PmcCall::FullText(c) => fulltext::full_text(ctx, c, view).await,
    }
}
