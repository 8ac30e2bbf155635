//! Arguments that name a tool of this server (`entrez_tool_info`, `entrez_capabilities`).
//!
//! The tools themselves answer an unknown name with `unknown_tool`; checking
//! it here as well lets `validate` predict that answer instead of calling the
//! call valid, and gives the same did-you-mean through either door.

use crate::suggest::closest;
use crate::tools::local_args::DescribeArgs;
use crate::validation::{codes, path, Context, Report};

/// The tool an `entrez_capabilities` (`tool`) or `entrez_tool_info` (`name`) call names must
/// be one of this server's.
pub fn check(ctx: &Context<'_>, args: &DescribeArgs, report: &mut Report) {
    let Some(name) = args.tool.as_deref() else {
        return;
    };
    if name.is_empty() || ctx.tool_names.contains(&name) {
        return;
    }
    let mut message = format!("Unknown tool \"{name}\".");
    if let Some(best) = closest(name, ctx.tool_names.iter().copied()) {
        message = format!("Unknown tool \"{name}\". Did you mean \"{best}\"?");
        report.suggest(format!("Use \"{best}\"."));
    }
    report.error(codes::UNKNOWN_TOOL, path(args.field), message);
    report.suggest(format!("Available tools: {}.", ctx.tool_names.join(", ")));
}
