//! `validate`: a dry run of any tool call, with no side effects.
//!
//! It runs the same schema check that guards `tools/call`, so a call it passes
//! is not rejected at the schema step, and a call it rejects would never have
//! run. Only the `syntax` level exists so far; the capability announced in
//! `initialize` is built from [`capability`] and says exactly that.

use super::registry::Registry;
use super::spec::{ToolAnnotations, ToolSpec};
use super::{ToolContext, ToolOutput};
use crate::error::Result;
use crate::suggest::closest;
use serde_json::{json, Map, Value};

/// Most calls one batch may carry.
pub const MAX_BATCH: usize = 20;
/// Version of the validation protocol implemented.
pub const PROTOCOL_VERSION: &str = "1.0";

/// Registry row.
pub const SPEC: ToolSpec = ToolSpec {
    name: "validate",
    title: "Validate a tool call (dry run)",
    description: "Checks a call to any tool of this server without running it: the tool name (with did-you-mean) and the arguments against the tool's inputSchema, the same check tools/call applies. Returns valid, errors (stable code, JSONPath, message), warnings, suggestions and the arguments with schema defaults filled in. Accepts one call {tool, arguments} or a batch {calls: [...]} of up to 20. Never contacts NCBI and never writes anything.",
    input_schema: include_str!("../../schemas/validate.input.json"),
    output_schema: include_str!("../../schemas/validate.output.json"),
    annotations: ToolAnnotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    },
    typical_output: "0.5-2 KB per call checked",
    handler: |ctx, args| Box::pin(async move { run(ctx, args) }),
};

/// The `experimental.toolValidation` capability, describing what this tool does.
pub fn capability() -> Value {
    json!({
        "supported": true,
        "method": SPEC.name,
        "version": PROTOCOL_VERSION,
        "levels": { "syntax": true, "semantic": false, "runtime": false },
        "defaultLevel": "syntax",
        "batchValidation": { "supported": true, "maxBatchSize": MAX_BATCH },
        "sideEffects": false,
        "cacheable": true,
    })
}

fn run(ctx: &ToolContext<'_>, args: Value) -> Result<ToolOutput> {
    if let Some(calls) = args.get("calls").and_then(Value::as_array) {
        let results: Vec<Value> = calls
            .iter()
            .map(|c| check_one(ctx.registry, &c["tool"], &c["arguments"]))
            .collect();
        let valid_count = results.iter().filter(|r| r["valid"] == true).count();
        let mut text = format!("{valid_count} of {} call(s) valid.\n", results.len());
        for (i, r) in results.iter().enumerate() {
            text.push_str(&format!("\n[{i}] {}", summary(r)));
        }
        let structured = json!({
            "valid": valid_count == results.len(),
            "level": "syntax",
            "count": results.len(),
            "results": results,
        });
        return Ok(ToolOutput::new(structured, text));
    }
    let result = check_one(ctx.registry, &args["tool"], &args["arguments"]);
    Ok(ToolOutput::new(result.clone(), summary(&result)))
}

fn check_one(registry: &Registry, tool: &Value, arguments: &Value) -> Value {
    let name = tool.as_str().unwrap_or_default();
    let arguments = if arguments.is_null() {
        json!({})
    } else {
        arguments.clone()
    };
    let Some(target) = registry.get(name) else {
        let mut suggestions = Vec::new();
        let mut message = format!("Unknown tool \"{name}\".");
        if let Some(best) = closest(name, registry.tools().iter().map(|t| t.spec.name)) {
            message = format!("Unknown tool \"{name}\". Did you mean \"{best}\"?");
            suggestions.push(format!("Use \"{best}\"."));
        }
        suggestions.push(format!(
            "Available tools: {}.",
            registry
                .tools()
                .iter()
                .map(|t| t.spec.name)
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return json!({
            "valid": false,
            "tool": name,
            "level": "syntax",
            "errors": [{ "code": "unknown_tool", "path": "$.tool", "message": message }],
            "warnings": [],
            "suggestions": suggestions,
            "normalized_arguments": arguments,
        });
    };
    let found = registry.findings(target, &arguments);
    json!({
        "valid": found.errors.is_empty(),
        "tool": name,
        "level": "syntax",
        "errors": found.errors,
        "warnings": [],
        "suggestions": found.suggestions,
        "normalized_arguments": with_defaults(&target.input_schema, arguments),
    })
}

/// Fills in top-level `default`s the schema declares, as the tool would assume them.
fn with_defaults(schema: &Value, arguments: Value) -> Value {
    let Value::Object(mut args) = arguments else {
        return arguments;
    };
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    for (name, prop) in props {
        if let Some(default) = prop.get("default") {
            args.entry(name).or_insert_with(|| default.clone());
        }
    }
    Value::Object(args)
}

fn summary(r: &Value) -> String {
    let tool = r["tool"].as_str().unwrap_or("");
    if r["valid"] == true {
        return format!(
            "Call to {tool} is valid (syntax level). Normalized arguments: {}",
            r["normalized_arguments"]
        );
    }
    let mut text = format!("Call to {tool} is invalid:");
    for e in r["errors"].as_array().into_iter().flatten() {
        text.push_str(&format!(
            "\n  - [{}] at {}: {}",
            e["code"].as_str().unwrap_or(""),
            e["path"].as_str().unwrap_or("$"),
            e["message"].as_str().unwrap_or("")
        ));
    }
    for s in r["suggestions"].as_array().into_iter().flatten() {
        text.push_str(&format!("\n  Suggestion: {}", s.as_str().unwrap_or("")));
    }
    text
}
