//! The arguments of the two tools that describe this server's tools (`entrez_capabilities`,
//! `entrez_tool_info`): a tool named, and how to answer. An unknown name is checked here as
//! well as answered by the tools, so that `validate` predicts the answer, with the same
//! did-you-mean through either door.

use crate::error::Result;
use crate::framework::canonical::Canonical;
use crate::framework::spec::ToolCall;
use crate::framework::{ToolContext, ToolOutput};
use crate::platform::BoxFuture;
use crate::suggest::closest;
use crate::validation::{codes, path, Context, Report};
use serde_json::Value;

/// `entrez_capabilities` and `entrez_tool_info`: a tool named (or none), and a form.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DescribeArgs {
    /// The parameter that names the tool: `tool` (capabilities) or `name` (tool info).
    pub field: &'static str,
    /// The tool named, as given.
    pub tool: Option<String>,
    /// summary, detailed or json (capabilities).
    pub format: Option<String>,
}

impl DescribeArgs {
    /// Reads the arguments of a tool whose tool-naming parameter is `field`.
    pub fn read(field: &'static str, args: &Value) -> DescribeArgs {
        let Some(a) = Canonical::of(args) else {
            return DescribeArgs {
                field,
                ..DescribeArgs::default()
            };
        };
        DescribeArgs {
            field,
            tool: a.get(field).and_then(Value::as_str).map(String::from),
            format: a.text("format"),
        }
    }
}

/// A describing tool's call: its arguments and the tool that answers them.
pub struct Describing {
    /// The arguments.
    pub args: DescribeArgs,
    /// The tool's answer.
    pub run: fn(&ToolContext<'_>, DescribeArgs) -> Result<ToolOutput>,
}

impl ToolCall for Describing {
    fn check(&self, ctx: &Context<'_>, report: &mut Report) {
        check(ctx, &self.args, report)
    }

    fn run<'a>(self: Box<Self>, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<ToolOutput>> {
        Box::pin(async move { (self.run)(ctx, self.args) })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

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
