//! `entrez_capabilities`: what every registered tool does, derived from the registry.

use crate::error::{ErrorKind, Result};
use crate::framework::describe::{describe, first_sentence, operations, parameter_lines};
use crate::framework::output::TextForm;
use crate::framework::registry::RegisteredTool;
use crate::framework::spec::{ToolAnnotations, ToolSpec};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::mcp::version::SUPPORTED_VERSIONS;
use crate::tools::tool_names::{DescribeArgs, Describing};
use serde_json::Value;

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "entrez_capabilities",
    title: "Server capabilities",
    description: "Lists this server's tools with their operations and typical output size. format detailed adds parameters and examples; start here to plan a workflow.",
    input_schema: include_str!("../../../schemas/entrez_capabilities.input.json"),
    output_schema: include_str!("../../../schemas/entrez_capabilities.output.json"),
    annotations: ToolAnnotations::LOCAL_READ_ONLY,
    typical_output: "1-3 KB (summary), 5-15 KB (detailed)",
    text_form: TextForm::Readable,
    read: |args| {
        Box::new(Describing {
            args: DescribeArgs::read("tool", args),
            run,
        })
    },
};

fn run(ctx: &ToolContext<'_>, args: DescribeArgs) -> Result<ToolOutput> {
    let format = args.format.as_deref().unwrap_or("summary");
    let selected: Vec<_> = match args.tool.as_deref() {
        Some(name) => vec![ctx
            .registry
            .get(name)
            .ok_or_else(|| ctx.registry.unknown_tool(name, ErrorKind::NotFound))?],
        // What a model may call: the view's own tool is not among them.
        None => ctx
            .registry
            .tools()
            .iter()
            .filter(|t| !crate::apps::app_only(t.spec.name))
            .collect(),
    };
    // The summary stays small enough to read first (its declared 1-3 KB); the
    // other formats carry every parameter and example.
    let tools: Vec<Value> = match format {
        "summary" => selected.iter().map(|t| outline(t)).collect(),
        _ => selected.iter().map(|t| describe(t)).collect(),
    };
    let structured = json!({
        "server": {
            "name": crate::SERVER_NAME,
            "version": crate::SERVER_VERSION,
            "protocol_versions": SUPPORTED_VERSIONS,
        },
        "format": format,
        "tool_count": tools.len(),
        "tools": tools,
    });
    let text = match format {
        "json" => serde_json::to_string_pretty(&structured).unwrap_or_default(),
        "detailed" => detailed_text(&tools),
        _ => summary_text(&tools),
    };
    Ok(ToolOutput::new(structured, text))
}

/// One tool in a line's worth of data: name, first sentence, operations, output size.
fn outline(tool: &RegisteredTool) -> Value {
    json!({
        "name": tool.spec.name,
        "summary": first_sentence(tool.spec.description),
        "operations": operations(tool),
        "typical_output": tool.spec.typical_output,
    })
}

fn summary_text(tools: &[Value]) -> String {
    let mut out = format!("{} tool(s):\n", tools.len());
    for t in tools {
        let ops = t["operations"].as_array().map(|o| {
            o.iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(", ")
        });
        out.push_str(&format!(
            "- {} — {}{}\n",
            t["name"].as_str().unwrap_or(""),
            t["summary"].as_str().unwrap_or(""),
            ops.filter(|o| !o.is_empty())
                .map(|o| format!(" Operations: {o}."))
                .unwrap_or_default()
        ));
    }
    out.push_str("Call entrez_capabilities with format \"detailed\", or entrez_tool_info with a tool name, for parameters and examples.");
    out
}

fn detailed_text(tools: &[Value]) -> String {
    let mut out = String::new();
    for t in tools {
        out.push_str(&format!(
            "## {} ({})\n{}\nTypical output: {}\n",
            t["title"].as_str().unwrap_or(""),
            t["name"].as_str().unwrap_or(""),
            t["description"].as_str().unwrap_or(""),
            t["typical_output"].as_str().unwrap_or("")
        ));
        out.push_str(&parameter_lines(t));
        for e in t["examples"].as_array().into_iter().flatten() {
            out.push_str(&format!("  Example: {e}\n"));
        }
        out.push('\n');
    }
    out
}
