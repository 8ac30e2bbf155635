//! Checking tool arguments against the tool's inputSchema.
//!
//! The `jsonschema` crate does the validation; this module turns its errors
//! into one [`Error`] that lists every violation with a JSONPath and adds the
//! fixes an assistant needs: allowed values, missing names, a close match for
//! a misspelt property, and an example call taken from the schema itself.

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::suggest::closest;
use jsonschema::error::ValidationErrorKind;
use jsonschema::Validator;
use serde_json::Value;

/// What schema validation found: one item per violation, and fixes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Findings {
    /// Each violation: `code`, `path` (JSONPath), `keyword` and `message`.
    pub errors: Vec<Value>,
    /// Concrete fixes, de-duplicated, most specific first.
    pub suggestions: Vec<String>,
}

impl Findings {
    /// The one finding when the inputSchema itself could not be compiled (a server bug).
    pub fn internal(e: crate::error::Error) -> Findings {
        Findings {
            errors: vec![json!({
                "code": "schema_unavailable",
                "path": "$",
                "keyword": "",
                "message": e.message,
            })],
            suggestions: vec![
                "This server's schema for the tool is broken; report it to the operator.".into(),
            ],
        }
    }
}

/// Validates `arguments` for `tool` against its compiled inputSchema.
pub fn findings(tool: &str, validator: &Validator, schema: &Value, arguments: &Value) -> Findings {
    let mut found = Findings::default();
    for err in validator.iter_errors(arguments) {
        let path = json_path(err.instance_path().as_str());
        let schema_at = schema_node(schema, err.schema_path().as_str());
        let keyword = err.kind().keyword();
        found.errors.push(json!({
            "code": format!("schema_{}", snake_case(keyword)),
            "path": path,
            "keyword": keyword,
            "message": err.to_string(),
        }));
        if let Some(h) = hint_for(err.kind(), &path, schema_at) {
            if !found.suggestions.contains(&h) {
                found.suggestions.push(h);
            }
        }
    }
    if found.errors.is_empty() {
        return found;
    }
    let examples = schema.get("examples").and_then(Value::as_array);
    // An empty example teaches nothing when a parameter was wrong; prefer one with content.
    let example = examples.and_then(|e| {
        e.iter()
            .find(|x| x.as_object().is_some_and(|o| !o.is_empty()))
            .or(e.first())
    });
    if let Some(example) = example {
        found
            .suggestions
            .push(format!("Example of a valid call to {tool}: {example}"));
    }
    found.suggestions.push(format!(
        "Call entrez_tool_info with {{\"name\": \"{tool}\"}} to see every parameter."
    ));
    found
}

/// The `invalid_arguments` error for a call whose arguments cannot be used.
///
/// `errors` are the problems (code, path, message), `warnings` what was
/// repaired on the way, `suggestions` the fixes, most specific first.
pub fn refusal(
    tool: &str,
    errors: Vec<Value>,
    warnings: Vec<Value>,
    suggestions: Vec<String>,
) -> Error {
    let count = errors.len();
    let mut error = Error::new(
        ErrorKind::InvalidArguments,
        format!(
            "Invalid arguments for {tool}: {count} problem{} found; the tool was not run.",
            if count == 1 { "" } else { "s" }
        ),
    )
    .with_details(json!({ "errors": errors, "warnings": warnings }));
    error.suggestions = suggestions;
    error
}

fn snake_case(keyword: &str) -> String {
    let mut out = String::new();
    for c in keyword.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Converts a JSON Pointer such as `/ids/3` into JSONPath such as `$.ids[3]`.
pub fn json_path(pointer: &str) -> String {
    let mut out = String::from("$");
    for raw in pointer.split('/').skip(1) {
        let seg = raw.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            out.push('.');
            out.push_str(&seg);
        } else {
            out.push_str(&format!("[{}]", Value::String(seg)));
        }
    }
    out
}

/// The schema object that holds the failing keyword (the schema path minus its last segment).
fn schema_node<'s>(schema: &'s Value, schema_path: &str) -> Option<&'s Value> {
    let parent = schema_path.rsplit_once('/').map(|(p, _)| p).unwrap_or("");
    schema.pointer(parent)
}

fn hint_for(kind: &ValidationErrorKind, path: &str, schema_at: Option<&Value>) -> Option<String> {
    match kind {
        ValidationErrorKind::Enum { options } => {
            Some(format!("Set {path} to one of: {}.", list(options)))
        }
        ValidationErrorKind::Constant { expected_value } => {
            Some(format!("Set {path} to {expected_value}."))
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            let desc = schema_at
                .and_then(|s| s.pointer(&format!("/properties/{name}/description")))
                .and_then(Value::as_str)
                .map(|d| format!(" ({d})"))
                .unwrap_or_default();
            Some(format!(
                "Add the required property \"{name}\" at {path}{desc}."
            ))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed: Vec<&str> = schema_at
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let fixes: Vec<String> = unexpected
                .iter()
                .map(|u| match closest(u, allowed.iter().copied()) {
                    Some(c) => format!("\"{u}\" is not a parameter; did you mean \"{c}\"?"),
                    None => format!("Remove \"{u}\"."),
                })
                .collect();
            Some(format!(
                "{} Allowed properties at {path}: {}.",
                fixes.join(" "),
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                }
            ))
        }
        ValidationErrorKind::Type { .. } => {
            let expected = schema_at.and_then(|s| s.get("type")).map(Value::to_string);
            Some(format!(
                "Give {path} as type {}.",
                expected.unwrap_or_else(|| "the schema expects".into())
            ))
        }
        ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit } => {
            Some(format!("Use a value of at least {limit} at {path}."))
        }
        ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit } => {
            Some(format!("Use a value of at most {limit} at {path}."))
        }
        ValidationErrorKind::MaxItems { limit } => Some(format!(
            "Send at most {limit} items at {path}; split larger lists into several calls."
        )),
        ValidationErrorKind::MinItems { limit } => {
            Some(format!("Send at least {limit} item(s) at {path}."))
        }
        ValidationErrorKind::MinLength { limit } => {
            Some(format!("Give at least {limit} character(s) at {path}."))
        }
        ValidationErrorKind::MaxLength { limit } => {
            Some(format!("Shorten {path} to at most {limit} characters."))
        }
        ValidationErrorKind::Pattern { pattern } => {
            let example = schema_at
                .and_then(|s| s.get("examples"))
                .and_then(|e| e.get(0))
                .map(|e| format!(", for example {e}"))
                .unwrap_or_default();
            Some(format!("{path} must match the pattern {pattern}{example}."))
        }
        ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::OneOfMultipleValid { .. }
        | ValidationErrorKind::AnyOf { .. } => schema_at
            .and_then(|s| s.get("description"))
            .and_then(Value::as_str)
            .map(|d| format!("At {path}: {d}")),
        _ => None,
    }
}

fn list(options: &Value) -> String {
    match options.as_array() {
        Some(values) => values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        None => options.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "format": {"type": "string", "enum": ["summary", "json"], "description": "Output style"},
                "name": {"type": "string", "minLength": 1},
                "retmax": {"type": "integer", "maximum": 10000}
            },
            "required": ["name"],
            "additionalProperties": false,
            "examples": [{"name": "entrez_query"}]
        })
    }

    fn run(args: Value) -> Error {
        let s = schema();
        let v = jsonschema::draft202012::new(&s).unwrap();
        let found = findings("demo", &v, &s, &args);
        assert!(!found.errors.is_empty(), "{args} passed");
        refusal("demo", found.errors, Vec::new(), found.suggestions)
    }

    #[test]
    fn valid_arguments_pass() {
        let s = schema();
        let v = jsonschema::draft202012::new(&s).unwrap();
        let found = findings("demo", &v, &s, &json!({"name": "x", "format": "json"}));
        assert!(found.errors.is_empty() && found.suggestions.is_empty());
    }

    #[test]
    fn every_violation_is_listed_with_its_path() {
        let e = run(json!({"format": "xml", "retmax": 20000, "nmae": "x"}));
        assert_eq!(e.kind, ErrorKind::InvalidArguments);
        let errors = e.details.as_ref().unwrap()["errors"]
            .as_array()
            .unwrap()
            .clone();
        let paths: Vec<&str> = errors.iter().map(|i| i["path"].as_str().unwrap()).collect();
        assert!(paths.contains(&"$.format"), "{paths:?}");
        assert!(paths.contains(&"$.retmax"), "{paths:?}");
        assert!(paths.contains(&"$"), "{paths:?}");
        let s = e.suggestions.join("\n");
        assert!(
            s.contains("Set $.format to one of: \"summary\", \"json\"."),
            "{s}"
        );
        assert!(s.contains("did you mean \"name\"?"), "{s}");
        assert!(
            s.contains("Add the required property \"name\" at $."),
            "{s}"
        );
        assert!(s.contains("at most 10000"), "{s}");
        assert!(
            s.contains(r#"Example of a valid call to demo: {"name":"entrez_query"}"#),
            "{s}"
        );
    }

    #[test]
    fn pointers_become_readable_paths() {
        assert_eq!(json_path(""), "$");
        assert_eq!(json_path("/ids/3"), "$.ids[3]");
        assert_eq!(json_path("/a~1b/c d"), "$[\"a/b\"][\"c d\"]");
    }
}
