//! `validate`'s arguments: one call to check, or a batch.

use crate::framework::canonical::Canonical;
use serde_json::Value;

/// `validate`: one call to check, or a batch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidateArgs {
    /// syntax, semantic or runtime, as given.
    pub level: Option<String>,
    /// Whether the calls came as a batch (`calls`) rather than one `tool`.
    pub batch: bool,
    /// Each call: the tool named, and its arguments as sent (JSON the target tool reads in
    /// turn, with its own reader).
    pub calls: Vec<(String, Value)>,
}

impl ValidateArgs {
    /// Reads `validate`'s arguments.
    pub fn read(args: &Value) -> ValidateArgs {
        let one = |call: &Value| {
            let tool = call.get("tool").and_then(Value::as_str).unwrap_or_default();
            let arguments = call.get("arguments").cloned().unwrap_or(Value::Null);
            (tool.to_string(), arguments)
        };
        let Some(a) = Canonical::of(args) else {
            return ValidateArgs::default();
        };
        match a.get("calls").and_then(Value::as_array) {
            Some(calls) => ValidateArgs {
                level: a.text("level"),
                batch: true,
                calls: calls.iter().map(one).collect(),
            },
            None => ValidateArgs {
                level: a.text("level"),
                batch: false,
                calls: vec![one(args)],
            },
        }
    }
}
