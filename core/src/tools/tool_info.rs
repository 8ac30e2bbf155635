//! `entrez_tool_info`: the full metadata of one tool.

use crate::error::{ErrorKind, Result};
use crate::framework::describe::{describe, parameter_lines};
use crate::framework::output::TextForm;
use crate::framework::spec::{ToolAnnotations, ToolSpec};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::tools::tool_names::{DescribeArgs, Describing};
use serde_json::Value;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_tool_info",
    title: "Tool details",
    description: "Full metadata of one tool. Every parameter with type and allowed values, example calls, annotations and the exact JSON Schemas.",
    input_schema: include_str!("../../../schemas/entrez_tool_info.input.json"),
    output_schema: include_str!("../../../schemas/entrez_tool_info.output.json"),
    annotations: ToolAnnotations::LOCAL_READ_ONLY,
    typical_output: "2-6 KB",
    text_form: TextForm::Readable,
    read: |args| {
        Box::new(Describing {
            args: DescribeArgs::read("name", args),
            run,
        })
    },
};

fn run(ctx: &ToolContext<'_>, args: DescribeArgs) -> Result<ToolOutput> {
    let name = args.tool.as_deref().unwrap_or_default();
    let tool = ctx
        .registry
        .get(name)
        .ok_or_else(|| ctx.registry.unknown_tool(name, ErrorKind::NotFound))?;
    let mut info = describe(tool);
    info["inputSchema"] = (*tool.input_schema).clone();
    info["outputSchema"] = (*tool.output_schema).clone();
    let mut text = format!(
        "{} ({})\n{}\n",
        tool.spec.title, tool.spec.name, tool.spec.description
    );
    if let Some(ops) = info["operations"].as_array().filter(|o| !o.is_empty()) {
        let ops: Vec<&str> = ops.iter().filter_map(Value::as_str).collect();
        text.push_str(&format!("\nOperations: {}\n", ops.join(", ")));
    }
    text.push_str("\nParameters:\n");
    text.push_str(&parameter_lines(&info));
    for e in info["examples"].as_array().into_iter().flatten() {
        text.push_str(&format!("\nExample: {e}"));
    }
    Ok(ToolOutput::new(info, text))
}
