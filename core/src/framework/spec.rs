//! The static description of one tool: a row of the registry table.

/// The one line every lenient tool's description ends with: the shapes intake accepts.
macro_rules! lenient {
    () => {
        "Loose forms (\"1,2\" lists, numbers as text) are repaired in call_warnings."
    };
}
pub(crate) use lenient;

use crate::error::Result;
use crate::framework::output::{TextForm, ToolOutput};
use crate::framework::view::{View, ViewArgs};
use crate::framework::ToolContext;
use crate::json;
use crate::net::cache::Mode;
use crate::platform::{BoxFuture, MaybeSendSync};
use crate::validation::{Context, Report};
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

/// One call's arguments, read at the door into the tool's own typed form (each tool's
/// `args.rs`): the registry asks them for their view and cache mode, checks them with the
/// tool's semantic rules, and runs them. Nothing after the reader sees the JSON again.
pub trait ToolCall: MaybeSendSync + std::any::Any {
    /// The view parameters as given (`detail`, `fields`, `max_characters`), for the tools that
    /// take them; a call without them is not held to a budget.
    fn view_args(&self) -> Option<&ViewArgs> {
        None
    }

    /// How the call may use the cache of upstream answers.
    fn cache_mode(&self) -> Mode {
        Mode::Use
    }

    /// The tool's semantic rules (what a schema cannot say): `validate` reports them, and a
    /// call they reject never runs.
    fn check(&self, _ctx: &Context<'_>, _report: &mut Report) {}

    /// Runs the call.
    fn run<'a>(self: Box<Self>, ctx: &'a ToolContext<'a>) -> BoxFuture<'a, Result<ToolOutput>>;

    /// The arguments themselves, for `validate`'s checks that need a tool's own type.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl dyn ToolCall {
    /// How the call's result is shaped and bounded: the caller's view, or the defaults.
    pub fn view(&self) -> View {
        self.view_args().map(ViewArgs::view).unwrap_or_default()
    }

    /// The tool's semantic rules over this call, and the rule every tool with a budget shares.
    pub fn report(&self, ctx: &Context<'_>) -> Report {
        let mut report = Report::default();
        self.check(ctx, &mut report);
        if self.view_args().is_some_and(|v| v.above_ceiling()) {
            report.warn(
                crate::validation::codes::BUDGET_CAPPED,
                crate::validation::path("max_characters"),
                format!(
                    "max_characters is above this server's ceiling of {}: the result is held to {} characters; page for the rest.",
                    crate::framework::view::CEILING,
                    crate::framework::view::CEILING
                ),
            );
        }
        report
    }
}

/// The [`ToolCall`] of a tool that reads records upstream: its arguments hold `view` (how
/// much of the result the caller wants) and `fresh` (ask upstream again, whatever the cache
/// holds); `check` is its semantic rules, `run` its handler.
macro_rules! upstream_call {
    ($args:ty, check: $check:expr, run: $run:path) => {
        impl $crate::framework::spec::ToolCall for $args {
            fn view_args(&self) -> Option<&$crate::framework::view::ViewArgs> {
                Some(&self.view)
            }

            fn cache_mode(&self) -> $crate::net::cache::Mode {
                if self.fresh {
                    $crate::net::cache::Mode::Refresh
                } else {
                    $crate::net::cache::Mode::Use
                }
            }

            fn check(
                &self,
                ctx: &$crate::validation::Context<'_>,
                report: &mut $crate::validation::Report,
            ) {
                let check: fn(&$crate::validation::Context<'_>, &$args, &mut $crate::validation::Report) = $check;
                check(ctx, self, report)
            }

            fn run<'a>(
                self: Box<Self>,
                ctx: &'a $crate::framework::ToolContext<'a>,
            ) -> $crate::platform::BoxFuture<'a, $crate::error::Result<$crate::framework::ToolOutput>> {
                Box::pin($run(ctx, *self))
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
}
pub(crate) use upstream_call;

/// Reads a tool's arguments (canonical, after the intake) into its typed call.
pub type Reader = fn(&Value) -> Box<dyn ToolCall>;

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
    /// Reads its arguments into its typed call, which checks and runs itself.
    pub read: Reader,
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
