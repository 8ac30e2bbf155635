//! Reading canonical arguments, for the typed calls.
//!
//! After the intake (`tools::intake`) and the schema check, a tool's
//! arguments have one shape; each tool's `args.rs` reads them into its typed
//! arguments through these few accessors, so "a trimmed, non-empty string" or "a
//! list of ids as text" means the same thing in every tool.

use serde_json::{Map, Value};

/// Canonical arguments, read by name.
#[derive(Debug, Clone, Copy)]
pub struct Canonical<'a>(pub &'a Map<String, Value>);

impl<'a> Canonical<'a> {
    /// The arguments of a call, when they are an object.
    pub fn of(args: &'a Value) -> Option<Canonical<'a>> {
        args.as_object().map(Canonical)
    }

    /// A string, trimmed; `None` when absent or empty.
    pub fn text(&self, name: &str) -> Option<String> {
        self.0
            .get(name)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
    }

    /// A string in lower case (database names, which NCBI reads without regard to case).
    pub fn lower(&self, name: &str) -> Option<String> {
        self.text(name).map(|s| s.to_ascii_lowercase())
    }

    /// A whole number.
    pub fn int(&self, name: &str) -> Option<u64> {
        self.0.get(name).and_then(Value::as_u64)
    }

    /// Whether a boolean is given as true.
    pub fn flag(&self, name: &str) -> bool {
        self.0.get(name) == Some(&Value::Bool(true))
    }

    /// A list (or one value) as trimmed, non-empty strings (numbers as digits).
    pub fn list(&self, name: &str) -> Vec<String> {
        let one = |v: &Value| match v {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        match self.0.get(name) {
            Some(Value::Array(items)) => items.iter().filter_map(one).collect(),
            Some(v) => one(v).into_iter().collect(),
            None => Vec::new(),
        }
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect()
    }

    /// A list's items as text (numbers as digits), each with its index, untrimmed and blanks
    /// kept, so a rule can name `$.ids[2]`; items of other types are left out.
    pub fn indexed(&self, name: &str) -> Vec<(usize, String)> {
        let Some(Value::Array(items)) = self.0.get(name) else {
            return Vec::new();
        };
        items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| match v {
                Value::String(s) => Some((i, s.clone())),
                Value::Number(n) => Some((i, n.to_string())),
                _ => None,
            })
            .collect()
    }

    /// The names of the arguments given, in order.
    pub fn names(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }

    /// The raw value, for nested objects.
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.0.get(name)
    }
}
