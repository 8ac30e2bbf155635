//! The arguments of the tools that answer from this server alone: `entrez_capabilities`,
//! `entrez_tool_info` and `validate`.

use crate::framework::canonical::Canonical;
use serde_json::Value;

/// `entrez_capabilities` and `entrez_tool_info`: a tool named (or none), and a form.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DescribeArgs {
    /// The parameter that names the tool: `tool` (capabilities) or `name` (tool info).
    pub field: &'static str,
    /// The tool named, as given.
    pub tool: Option<String>,
    /// summary, detailed or json (capabilities).
    pub format: Option<String>,
}

impl DescribeArgs {
    /// Reads the arguments of a tool whose tool-naming parameter is `field`.
    pub fn read(field: &'static str, args: &Value) -> DescribeArgs {
        let Some(a) = Canonical::of(args) else {
            return DescribeArgs {
                field,
                ..DescribeArgs::default()
            };
        };
        DescribeArgs {
            field,
            tool: a.get(field).and_then(Value::as_str).map(String::from),
            format: a.text("format"),
        }
    }
}

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
