//! Reading one value as its schema type says (see [`super::read`] for the rules): integers,
//! booleans, strings and enum values, lists split from one string, and JSON objects given
//! as text. Each repair is noted on the [`Intake`], each value with two readings refused.

use super::{
    canonical_type, note, read_object, takes_numbers, Intake, CASE_BLIND_AT_NCBI, LOWER_CASE,
};
use crate::json;
use crate::validation::codes;
use serde_json::Value;

/// Reads one value; `None` when it counts as absent.
pub(super) fn read_value(
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
