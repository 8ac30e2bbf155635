//! Describing a tool from its registry row and its schemas alone.
//!
//! `entrez_capabilities` and `entrez_tool_info` both use this, so there is no
//! second, hand-kept list of operations or parameters to drift out of date.

use crate::framework::registry::RegisteredTool;
use crate::json;
use serde_json::{Map, Value};

/// The operations a tool offers: the `enum` of its `operation` property, if any.
pub fn operations(tool: &RegisteredTool) -> Vec<String> {
    tool.input_schema
        .pointer("/properties/operation/enum")
        .and_then(Value::as_array)
        .map(|ops| {
            ops.iter()
                .filter_map(|o| o.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// One entry per top-level input property: name, type, required, description, enum, default.
pub fn parameters(tool: &RegisteredTool) -> Vec<Value> {
    let required: Vec<&str> = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
    else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(name, prop)| {
            let mut p = Map::new();
            p.insert("name".into(), json!(name));
            p.insert("type".into(), type_of(prop));
            p.insert("required".into(), json!(required.contains(&name.as_str())));
            p.insert(
                "description".into(),
                full_description(&tool.input_schema, name)
                    .or_else(|| prop.get("description"))
                    .cloned()
                    .unwrap_or(json!("")),
            );
            for key in ["enum", "default"] {
                if let Some(v) = prop.get(key) {
                    p.insert(key.into(), v.clone());
                }
            }
            Value::Object(p)
        })
        .collect()
}

/// The inputSchema as `tools/list` shows it to a model: the file's schema without
/// its `examples` (entrez_tool_info and entrez_capabilities' detailed format show
/// them) and without its top-level conditional rules (`allOf`, `oneOf`, `anyOf`,
/// `if`/`then`/`else`, `not`), which the schema's own `description` states in a
/// sentence. Conditionals cost a model many tokens to read, and several clients
/// refuse them in a tool schema; what remains accepts everything the file's
/// schema accepts, and every call is still checked against the whole file
/// (entrez_tool_info serves it exactly).
pub fn listed_input_schema(schema: &Value) -> Value {
    let mut listed = schema.clone();
    if let Some(top) = listed.as_object_mut() {
        for key in [
            "examples", "allOf", "oneOf", "anyOf", "if", "then", "else", "not",
        ] {
            top.remove(key);
        }
    }
    listed
}

/// The example calls kept in the inputSchema's `examples`.
pub fn examples(tool: &RegisteredTool) -> Vec<Value> {
    tool.input_schema
        .get("examples")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The full description used by both self-describing tools.
pub fn describe(tool: &RegisteredTool) -> Value {
    let a = tool.spec.annotations;
    json!({
        "name": tool.spec.name,
        "title": tool.spec.title,
        "description": tool.spec.description,
        "operations": operations(tool),
        "parameters": parameters(tool),
        "examples": examples(tool),
        "typical_output": tool.spec.typical_output,
        "annotations": {
            "readOnlyHint": a.read_only,
            "destructiveHint": a.destructive,
            "idempotentHint": a.idempotent,
            "openWorldHint": a.open_world,
        },
    })
}

/// A parameter's full description, where the listed schema shortens it: the one a top-level
/// `allOf` entry gives the property (the listed schema leaves those entries out).
pub fn full_description<'a>(schema: &'a Value, name: &str) -> Option<&'a Value> {
    schema
        .get("allOf")
        .and_then(Value::as_array)?
        .iter()
        .find_map(|rule| rule.pointer(&format!("/properties/{name}/description")))
}

fn type_of(prop: &Value) -> Value {
    match prop.get("type") {
        Some(Value::String(t)) => json!(t),
        Some(Value::Array(ts)) => json!(ts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" | ")),
        _ if prop.get("enum").is_some() => json!("string"),
        _ => json!("any"),
    }
}

/// One readable line per parameter of a [`describe`] result, each ending in a newline.
pub fn parameter_lines(description: &Value) -> String {
    let mut out = String::new();
    for p in description["parameters"].as_array().into_iter().flatten() {
        let required = if p["required"] == json!(true) {
            ", required"
        } else {
            ""
        };
        out.push_str(&format!(
            "  - {} ({}{required}): {}\n",
            p["name"].as_str().unwrap_or(""),
            p["type"].as_str().unwrap_or("any"),
            p["description"].as_str().unwrap_or("")
        ));
    }
    out
}

/// The first sentence of a description, for one-line summaries.
pub fn first_sentence(text: &str) -> &str {
    match text.find(". ") {
        Some(i) => &text[..=i],
        None => text,
    }
}
