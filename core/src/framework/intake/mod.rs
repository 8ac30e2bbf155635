//! Intake: arguments as callers send them, read into the call they mean.
//!
//! Our callers are language models. They write `"ids": "1,2"`, `"retmax": "5"`,
//! `"sort": null`, `"db": "pubmed"` and `"operation": "Search"`, and each of
//! those has exactly one reading. Refusing them costs the agent a round trip
//! and sometimes the task. So before the schema check, every call passes
//! through [`read`], which knows only the tool's inputSchema and [`ALIASES`].
//! `validate` and `tools/call` share it, so a repair `validate` reports is the
//! repair the call gets, and the canonical arguments are what the schema, the
//! semantic rules and the tool then see.

use crate::json;
use crate::validation::{codes, Finding};
use serde_json::{Map, Value};
use values::read_value;

mod values;

/// Other names callers use for a parameter: (tool, or `*` for every tool that has the parameter; alias; canonical).
pub const ALIASES: &[(&str, &str, &str)] = &[
    ("*", "db", "database"),
    ("*", "id", "ids"),
    ("*", "uid", "ids"),
    ("*", "uids", "ids"),
    ("*", "querykey", "query_key"),
    ("*", "query", "term"),
    ("entrez_tool_info", "tool", "name"),
    ("entrez_capabilities", "name", "tool"),
    ("validate", "name", "tool"),
    ("validate", "args", "arguments"),
    ("validate", "params", "arguments"),
];

/// Parameters whose values NCBI defines in lower case; other spellings are folded.
const LOWER_CASE: &[&str] = &["database", "dbfrom", "databases", "rettype"];
/// Of those, the ones NCBI itself reads without regard to case: folding them changes nothing, so it is not a repair.
const CASE_BLIND_AT_NCBI: &[&str] = &["database", "dbfrom", "databases"];

/// The arguments as understood, with what was repaired and what could not be read.
#[derive(Debug, Clone, Default)]
pub struct Intake {
    /// The canonical arguments: what the schema, the rules and the tool see.
    pub arguments: Value,
    /// One warning per repair (`argument_alias`, `argument_coerced`, `argument_omitted`).
    pub notes: Vec<Finding>,
    /// Values with no single reading (`argument_unreadable`, `argument_conflict`).
    pub errors: Vec<Finding>,
}

/// Reads `arguments` for `tool` against its inputSchema: the canonical arguments, a note for
/// every repair, and an error for every value with two readings.
///
/// What is read, per the property's schema type (the first in a type list is the canonical
/// one):
/// - names: the schema's own; NCBI's (`db`, `id`, `querykey`) and a few obvious ones
///   (`query` for `term`; `tool` for `entrez_tool_info`'s `name`); any spelling that
///   differs only in case, `_` or `-` (`WebEnv`, `maxRecords`);
/// - `null`, and `""` for a scalar, mean absent;
/// - integers from decimal strings and from whole floats (`5.0`, `1e2`); a fraction is
///   refused, never rounded;
/// - booleans from `"true"/"false"/"yes"/"no"/"y"/"n"/"1"/"0"` and `1`/`0`;
/// - strings trimmed; enum values matched without regard to case; numbers given for a
///   string taken as their decimal text;
/// - lists from one string split at commas, semicolons or white space, or from a lone value;
/// - an object given as a string holding JSON (validate's `arguments`).
///
/// Anything with two readings is an error with a clear message: a value no rule reads
/// (`"retmax": "lots"`), a list that names nothing (`"ids": ""`), an alias whose canonical
/// name is also given with another value.
pub fn read(tool: &str, schema: &Value, arguments: Value) -> Intake {
    let mut intake = Intake::default();
    intake.arguments = match arguments {
        Value::Object(map) => Value::Object(read_object(tool, schema, map, "$", &mut intake)),
        other => other,
    };
    intake
}

fn read_object(
    tool: &str,
    schema: &Value,
    given: Map<String, Value>,
    at: &str,
    intake: &mut Intake,
) -> Map<String, Value> {
    let props = schema.get("properties").and_then(Value::as_object);
    let mut out = Map::new();
    // Which given name each canonical name came from, to report collisions.
    let mut origin: Map<String, Value> = Map::new();
    for (key, value) in given {
        let Some(props) = props else {
            out.insert(key, value);
            continue;
        };
        let canonical = canonical_name(tool, props, &key);
        let name = canonical.clone().unwrap_or_else(|| key.clone());
        let path = format!("{at}.{name}");
        let Some(prop) = canonical.as_ref().and_then(|c| props.get(c)) else {
            // Not a parameter of this tool: the schema names it (additionalProperties).
            out.insert(key, value);
            continue;
        };
        // A parameter whose values are listed per operation (the schema's conditional rules)
        // is read against those lists, so their values too are matched in any case.
        let listed;
        let prop = match conditional_enum(schema, &name) {
            Some(values) if prop.get("enum").is_none() => {
                let mut p = prop.clone();
                json::set(&mut p, "enum", Value::Array(values));
                listed = p;
                &listed
            }
            _ => prop,
        };
        // A blank value of a parameter some operation requires is kept, for the rules to name.
        let optional = !required_anywhere(schema, &name);
        let Some(value) = read_value(tool, &name, prop, value, &path, optional, intake) else {
            continue;
        };
        if let Some(previous) = out.get(&name) {
            let first = origin
                .get(&name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if *previous != value {
                intake.errors.push(note(
                    codes::ARGUMENT_CONFLICT,
                    &format!("{at}.{key}"),
                    format!("{key} and {first} both name {name}, with different values ({value} and {previous}); give it once."),
                ));
            } else if name != key {
                intake.notes.push(note(
                    codes::ARGUMENT_ALIAS,
                    &format!("{at}.{key}"),
                    format!("{key} repeats {first} with the same value; it was read once."),
                ));
            }
            continue;
        }
        if name != key {
            intake.notes.push(note(
                codes::ARGUMENT_ALIAS,
                &format!("{at}.{key}"),
                format!("{key} was read as {name}."),
            ));
        }
        origin.insert(name.clone(), json!(key));
        out.insert(name, value);
    }
    out
}

/// The schema's name for `key`: itself, an alias, or the same name spelled differently.
fn canonical_name(tool: &str, props: &Map<String, Value>, key: &str) -> Option<String> {
    if props.contains_key(key) {
        return Some(key.to_string());
    }
    let aliased = ALIASES
        .iter()
        .filter(|(t, alias, _)| (*t == tool || *t == "*") && alias.eq_ignore_ascii_case(key))
        .map(|(_, _, canonical)| *canonical)
        .find(|c| props.contains_key(*c));
    if let Some(c) = aliased {
        return Some(c.to_string());
    }
    let folded = fold(key);
    let mut same = props.keys().filter(|p| fold(p) == folded);
    match (same.next(), same.next()) {
        (Some(only), None) => Some(only.clone()),
        _ => None,
    }
}

/// Whether `name` is required by the schema itself or by any of its conditional parts.
/// Every value the schema's top-level conditional rules list for `name` (`enum` or `const`).
fn conditional_enum(schema: &Value, name: &str) -> Option<Vec<Value>> {
    let mut values: Vec<Value> = Vec::new();
    for rule in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let prop = &rule["then"]["properties"][name];
        let listed = prop["enum"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .chain(prop.get("const").cloned());
        for v in listed {
            if !values.contains(&v) {
                values.push(v);
            }
        }
    }
    (!values.is_empty()).then_some(values)
}

fn required_anywhere(schema: &Value, name: &str) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| match key.as_str() {
            // Nested objects have their own names.
            "properties" | "items" => false,
            "required" => value
                .as_array()
                .is_some_and(|r| r.iter().any(|n| n == name)),
            "dependentRequired" => value.as_object().is_some_and(|d| {
                d.values()
                    .any(|r| r.as_array().is_some_and(|r| r.iter().any(|n| n == name)))
            }),
            _ => required_anywhere(value, name),
        }),
        Value::Array(list) => list.iter().any(|v| required_anywhere(v, name)),
        _ => false,
    }
}

fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The schema type a value is read as: the first one named.
fn canonical_type(prop: &Value) -> Option<&str> {
    match prop.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(types)) => types.first().and_then(Value::as_str),
        _ => None,
    }
}

/// Whether the schema takes a number as it is (a type list naming integer or number).
fn takes_numbers(prop: &Value) -> bool {
    let named = |t: &Value| matches!(t.as_str(), Some("integer" | "number"));
    match prop.get("type") {
        Some(Value::Array(types)) => types.iter().any(named),
        Some(t) => named(t),
        None => false,
    }
}

/// Schema findings that an intake error at the same place does not already explain.
pub fn unexplained(errors: &[Finding], schema_findings: Vec<Value>) -> Vec<Value> {
    schema_findings
        .into_iter()
        .filter(|f| {
            let path = f.get("path").and_then(Value::as_str).unwrap_or("$");
            !errors.iter().any(|e| {
                path == e.path
                    || path
                        .strip_prefix(e.path.as_str())
                        .is_some_and(|rest| rest.starts_with(['.', '[']))
            })
        })
        .collect()
}

fn note(code: &'static str, path: &str, message: String) -> Finding {
    Finding {
        code,
        path: path.to_string(),
        message,
    }
}
