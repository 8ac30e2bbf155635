//! Arguments that name a tool of this server (`entrez_tool_info`, `entrez_capabilities`).
//!
//! The tools themselves answer an unknown name with `unknown_tool`; checking
//! it here as well lets `validate` predict that answer instead of calling the
//! call valid, and gives the same did-you-mean through either door.

use super::{codes, path, Context, Report};
use crate::suggest::closest;
use serde_json::Value;

fn check_name(ctx: &Context<'_>, args: &Value, field: &str, report: &mut Report) {
    let Some(name) = args.get(field).and_then(Value::as_str) else {
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
    report.error(codes::UNKNOWN_TOOL, path(field), message);
    report.suggest(format!("Available tools: {}.", ctx.tool_names.join(", ")));
}

/// `entrez_capabilities`: the optional `tool` filter must name a tool.
pub fn capabilities(ctx: &Context<'_>, args: &Value, report: &mut Report) {
    check_name(ctx, args, "tool", report);
}

/// `entrez_tool_info`: `name` must name a tool.
pub fn tool_info(ctx: &Context<'_>, args: &Value, report: &mut Report) {
    check_name(ctx, args, "name", report);
}
