//! The static description of one tool: a row of the registry table.

/// The one line every lenient tool's description ends with: the shapes intake accepts.
macro_rules! lenient {
    () => {
        "Lenient (\"1,2\" lists, numbers as text, db/id/WebEnv names); repairs in call_warnings."
    };
}
pub(crate) use lenient;

use crate::error::Result;
use crate::framework::output::{TextForm, ToolOutput};
use crate::json;
use crate::platform::BoxFuture;
use crate::tools::Arguments;
use serde_json::Value;

/// Behaviour hints the specification defines; each must be true of the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolAnnotations {
    /// The tool changes nothing anywhere.
    pub read_only: bool,
    /// The tool may delete or overwrite data.
    pub destructive: bool,
    /// Calling twice with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool talks to services outside this server.
    pub open_world: bool,
}

impl ToolAnnotations {
    /// A tool that only reads this server's own state: safe to call any time, any number of times.
    pub const LOCAL_READ_ONLY: ToolAnnotations = ToolAnnotations {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    };

    /// The wire form, including the title the specification places there too.
    pub fn to_value(self, title: &str) -> Value {
        json!({
            "title": title,
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        })
    }
}

/// Reads a tool's canonical arguments into its typed form, once per call.
pub type Reader = fn(&Value) -> Arguments;

/// A tool handler: its arguments read by its [`Reader`], valid by the schema and the semantic
/// rules.
pub type Handler = for<'a> fn(
    &'a crate::framework::ToolContext<'a>,
    Arguments,
) -> BoxFuture<'a, Result<ToolOutput>>;

/// The future of a handler given another tool's arguments: a server bug, said as one.
pub fn mismatched<'a>(tool: &'static str) -> BoxFuture<'a, Result<ToolOutput>> {
    Box::pin(async move {
        Err(crate::error::Error::internal(format!(
            "{tool} was handed another tool's arguments; this is a server bug."
        )))
    })
}

/// One row of the registry table.
#[derive(Clone, Copy)]
pub struct ToolSpec {
    /// The MCP tool name (1–128 characters of `A-Za-z0-9_.-`).
    pub name: &'static str,
    /// Human-readable title.
    pub title: &'static str,
    /// What the tool does and when to use it.
    pub description: &'static str,
    /// The inputSchema JSON file, embedded at build time.
    pub input_schema: &'static str,
    /// The outputSchema JSON file, embedded at build time.
    pub output_schema: &'static str,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
    /// Rough size of a typical result, for planning context use.
    pub typical_output: &'static str,
    /// How results are written into content blocks (readable text, or JSON first).
    pub text_form: TextForm,
    /// How its arguments are read.
    pub read: Reader,
    /// The code that runs the tool.
    pub handler: Handler,
}

/// Whether `name` obeys the specification's tool-name rule.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_name_rule_matches_the_specification() {
        assert!(is_valid_tool_name("entrez_query"));
        assert!(is_valid_tool_name("admin.tools-list_v2"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("has space"));
        assert!(!is_valid_tool_name("slash/name"));
        assert!(!is_valid_tool_name(&"a".repeat(129)));
        assert!(is_valid_tool_name(&"a".repeat(128)));
    }
}
