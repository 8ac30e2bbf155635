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

/// Reads one value; `None` when it counts as absent.
fn read_value(
    tool: &str,
    name: &str,
    prop: &Value,
    value: Value,
    path: &str,
    optional: bool,
    intake: &mut Intake,
) -> Option<Value> {
    let kind = canonical_type(prop);
    // An unreadable value stays as given, so the schema's own finding at that path can be set aside.
    let original = value.clone();
    let blank = matches!(&value, Value::String(s) if s.trim().is_empty());
    if value.is_null() || (blank && optional && kind != Some("array")) {
        let shown = if value.is_null() { "null" } else { "empty" };
        intake.notes.push(note(
            codes::ARGUMENT_OMITTED,
            path,
            format!("{name} was {shown}; it counts as not given."),
        ));
        return None;
    }
    if blank && kind != Some("array") {
        // Required and blank: kept as given, so the message names what was sent.
        return Some(value);
    }
    let read = match kind {
        Some("integer") => read_integer(name, value, path, intake),
        Some("boolean") => read_boolean(name, value, path, intake),
        Some("string") => Ok(read_string(name, prop, value, path, intake)),
        Some("array") => read_list(tool, name, prop, value, path, intake),
        Some("object") => read_json_object(name, value, path, intake),
        _ => Ok(match value {
            Value::String(s) => trimmed(name, s, path, intake),
            other => other,
        }),
    };
    match read {
        Ok(v) => Some(v),
        Err(message) => {
            intake
                .errors
                .push(note(codes::ARGUMENT_UNREADABLE, path, message));
            Some(original)
        }
    }
}

fn read_integer(
    name: &str,
    value: Value,
    path: &str,
    intake: &mut Intake,
) -> Result<Value, String> {
    let number = match &value {
        Value::Number(n) if n.is_i64() || n.is_u64() => return Ok(value),
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) => {
            let t = s.trim();
            let digits = t.strip_prefix('+').unwrap_or(t);
            let parsed = match digits.strip_prefix('-') {
                Some(rest) if is_digits(rest) => {
                    rest.parse::<i64>().ok().map(|n| -n).map(Value::from)
                }
                None if is_digits(digits) => digits.parse::<u64>().ok().map(Value::from),
                _ => None,
            };
            let Some(n) = parsed else {
                return Err(format!(
                    "{name} \"{s}\" is not a whole number; give digits, e.g. {name}: 20."
                ));
            };
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!("{name} \"{s}\" was read as the number {n}."),
            ));
            return Ok(n);
        }
        other => return Err(format!("{name} {other} is not a whole number.")),
    };
    // JSON Schema counts 5.0 as an integer; read it as one, never drop or round it.
    if number.is_finite() && number.fract() == 0.0 && number.abs() < 9.0e15 {
        let n = number as i64;
        intake.notes.push(note(
            codes::ARGUMENT_COERCED,
            path,
            format!("{name} {value} was read as the whole number {n}."),
        ));
        return Ok(json!(n));
    }
    Err(format!(
        "{name} {value} is not a whole number; it is not rounded, give one."
    ))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn read_boolean(
    name: &str,
    value: Value,
    path: &str,
    intake: &mut Intake,
) -> Result<Value, String> {
    let reading = match &value {
        Value::Bool(_) => return Ok(value),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" => Some(true),
            "false" | "no" | "n" | "0" => Some(false),
            _ => None,
        },
        Value::Number(n) if n.as_f64() == Some(1.0) => Some(true),
        Value::Number(n) if n.as_f64() == Some(0.0) => Some(false),
        _ => None,
    };
    let Some(b) = reading else {
        return Err(format!(
            "{name} {value} is neither true nor false; give true or false."
        ));
    };
    intake.notes.push(note(
        codes::ARGUMENT_COERCED,
        path,
        format!("{name} {value} was read as {b}."),
    ));
    Ok(json!(b))
}

fn read_string(name: &str, prop: &Value, value: Value, path: &str, intake: &mut Intake) -> Value {
    let text = match value {
        Value::String(s) => s,
        // A field that takes text or a number (a citation's year) keeps the number.
        Value::Number(n) if takes_numbers(prop) => return Value::Number(n),
        Value::Number(n) => {
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!("{name} {n} was read as the text \"{n}\"."),
            ));
            n.to_string()
        }
        other => return other,
    };
    let Value::String(text) = trimmed(name, text, path, intake) else {
        unreachable!("trimmed returns a string for a string")
    };
    let choices = prop.get("enum").and_then(Value::as_array);
    let matched = choices.and_then(|c| {
        c.iter()
            .filter_map(Value::as_str)
            .find(|choice| *choice != text && choice.eq_ignore_ascii_case(&text))
    });
    let folded = match matched {
        Some(choice) => Some(choice.to_string()),
        None if LOWER_CASE.contains(&name) && text.chars().any(|c| c.is_ascii_uppercase()) => {
            Some(text.to_ascii_lowercase())
        }
        None => None,
    };
    match folded {
        Some(f) if CASE_BLIND_AT_NCBI.contains(&name) => json!(f),
        Some(f) => {
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!("{name} \"{text}\" was read as \"{f}\"."),
            ));
            json!(f)
        }
        None => json!(text),
    }
}

fn trimmed(name: &str, text: String, path: &str, intake: &mut Intake) -> Value {
    let t = text.trim();
    if t.len() == text.len() {
        return json!(text);
    }
    intake.notes.push(note(
        codes::ARGUMENT_COERCED,
        path,
        format!("{name} had white space around it, which was removed."),
    ));
    json!(t)
}

/// Lists whose items are prose (a bibliography entry), not ids: a string is one item, not
/// words to split, and an empty item stays, for the tool to answer it as such.
const PROSE_LISTS: &[&str] = &["references"];

fn read_list(
    tool: &str,
    name: &str,
    prop: &Value,
    value: Value,
    path: &str,
    intake: &mut Intake,
) -> Result<Value, String> {
    let items = prop.get("items").cloned().unwrap_or(Value::Null);
    let of_objects = canonical_type(&items) == Some("object");
    if PROSE_LISTS.contains(&name) {
        return Ok(match value {
            Value::Array(list) => Value::Array(list),
            one => {
                intake.notes.push(note(
                    codes::ARGUMENT_COERCED,
                    path,
                    format!("{name} was one item; it was read as a list of one."),
                ));
                Value::Array(vec![one])
            }
        });
    }
    let list = match value {
        Value::Array(list) => list,
        Value::String(s) if of_objects => match crate::json::from_str::<Value>(&s) {
            Ok(Value::Array(list)) => {
                intake.notes.push(note(
                    codes::ARGUMENT_COERCED,
                    path,
                    format!("{name} was a JSON text; its list was read."),
                ));
                list
            }
            _ => {
                return Err(format!(
                    "{name} must be a list of objects; the text given is not one."
                ))
            }
        },
        Value::String(s) => {
            let parts: Vec<Value> = s
                .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
                .filter(|p| !p.is_empty())
                .map(|p| json!(p))
                .collect();
            if parts.is_empty() {
                return Err(format!("{name} \"{s}\" names nothing; give at least one value, e.g. {name}: [\"...\"]."));
            }
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!(
                    "{name} \"{s}\" was read as the list {}.",
                    Value::Array(parts.clone())
                ),
            ));
            parts
        }
        Value::Object(o) if of_objects => {
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!("{name} was one object; it was read as a list of one."),
            ));
            vec![Value::Object(o)]
        }
        scalar @ (Value::Number(_) | Value::Bool(_)) => {
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!("{name} {scalar} was read as the list [{scalar}]."),
            ));
            vec![scalar]
        }
        other => return Ok(other),
    };
    if list
        .iter()
        .all(|item| matches!(item, Value::String(s) if s.trim().is_empty()))
    {
        // Nothing to keep: the list goes on as given, and the rules name each empty id.
        return Ok(Value::Array(list));
    }
    let mut out = Vec::with_capacity(list.len());
    let mut dropped = 0;
    for (i, item) in list.into_iter().enumerate() {
        let at = format!("{path}[{i}]");
        match item {
            Value::Object(map) if of_objects => {
                out.push(Value::Object(read_object(tool, &items, map, &at, intake)))
            }
            Value::String(s) if s.trim().is_empty() => dropped += 1,
            Value::String(s) => {
                let t = s.trim();
                let t = if LOWER_CASE.contains(&name) {
                    t.to_ascii_lowercase()
                } else {
                    t.to_string()
                };
                if t.len() != s.len() || (t != s && !CASE_BLIND_AT_NCBI.contains(&name)) {
                    intake.notes.push(note(
                        codes::ARGUMENT_COERCED,
                        &at,
                        format!("{name} item \"{s}\" was read as \"{t}\"."),
                    ));
                }
                out.push(json!(t));
            }
            other => out.push(other),
        }
    }
    if dropped > 0 {
        intake.notes.push(note(
            codes::ARGUMENT_OMITTED,
            path,
            format!("{dropped} empty item(s) of {name} were left out."),
        ));
    }
    Ok(Value::Array(out))
}

fn read_json_object(
    name: &str,
    value: Value,
    path: &str,
    intake: &mut Intake,
) -> Result<Value, String> {
    let Value::String(s) = value else {
        return Ok(value);
    };
    match crate::json::from_str::<Value>(&s) {
        Ok(parsed @ Value::Object(_)) => {
            intake.notes.push(note(
                codes::ARGUMENT_COERCED,
                path,
                format!("{name} was a JSON text; the object it holds was read."),
            ));
            Ok(parsed)
        }
        _ => Err(format!(
            "{name} must be an object; the text given does not hold a JSON object."
        )),
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
