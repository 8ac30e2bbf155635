//! Log messages to the client (`notifications/message`).
//!
//! In the handshake revision a client sets a level for its session with
//! `logging/setLevel`; from 2026-07-28 a request carries its own level in
//! `_meta` and gets no log message without one. Either way the messages of a
//! tool call travel on that call's response stream, before its result: what
//! the server understood of the arguments, the warnings of the result, the
//! error of a failed call, and how long the call took.

use crate::json;
use crate::mcp::progress::Notifier;
use serde_json::Value;

/// RFC 5424 severities, lowest first, as MCP names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// General information.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level's name, lowest first.
    pub const NAMES: [&'static str; 8] = [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ];
    const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level named `name`, if MCP defines one.
    pub fn parse(name: &str) -> Option<LogLevel> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }

    /// Its MCP name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// The logger name on every message this server sends.
pub const LOGGER: &str = "entrez-mcp";

/// Sends log messages at or above a threshold over one request's notifier.
pub struct Logger<'a> {
    notifier: &'a dyn Notifier,
    threshold: LogLevel,
}

impl<'a> Logger<'a> {
    /// A logger that sends what is at least `threshold`.
    pub fn new(notifier: &'a dyn Notifier, threshold: LogLevel) -> Self {
        Logger {
            notifier,
            threshold,
        }
    }

    /// Sends `data` at `level` if the client asked for that level.
    pub fn log(&self, level: LogLevel, data: Value) {
        if level < self.threshold {
            return;
        }
        self.notifier.notify(json!({
            "jsonrpc": "2.0",
            "method": "notifications/message",
            "params": { "level": level.name(), "logger": LOGGER, "data": data },
        }));
    }

    /// The messages a finished `tools/call` of `tool` gives rise to.
    pub fn tool_call(&self, tool: &str, result: &Value, elapsed_ms: u64) {
        let structured = &result["structuredContent"];
        for w in structured["call_warnings"].as_array().into_iter().flatten() {
            self.log(LogLevel::Notice, json!({ "tool": tool, "understood": w }));
        }
        for w in structured["warnings"].as_array().into_iter().flatten() {
            self.log(LogLevel::Warning, json!({ "tool": tool, "warning": w }));
        }
        let failed = result["isError"] == json!(true);
        if failed {
            self.log(
                LogLevel::Error,
                json!({ "tool": tool, "error": structured["error"].clone() }),
            );
        }
        self.log(
            LogLevel::Info,
            json!({ "tool": tool, "is_error": failed, "elapsed_ms": elapsed_ms }),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::progress::Collect;

    #[test]
    fn names_round_trip_in_severity_order() {
        for (i, name) in LogLevel::NAMES.iter().enumerate() {
            let level = LogLevel::parse(name).unwrap();
            assert_eq!(level.name(), *name);
            assert_eq!(level as usize, i);
        }
        assert!(LogLevel::Debug < LogLevel::Warning && LogLevel::Error < LogLevel::Emergency);
        assert_eq!(LogLevel::parse("WARNING"), None);
    }

    #[test]
    fn a_tool_call_logs_only_at_or_above_the_threshold() {
        let sink = Collect::default();
        let result = json!({
            "isError": true,
            "structuredContent": {
                "call_warnings": [{ "code": "coerced" }],
                "warnings": [{ "code": "format_chosen" }],
                "error": { "code": "not_found" },
            },
        });
        Logger::new(&sink, LogLevel::Warning).tool_call("entrez_query", &result, 12);
        let sent = sink.0.into_inner().unwrap();
        let levels: Vec<&str> = sent
            .iter()
            .map(|n| n["params"]["level"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["warning", "error"]);
        assert_eq!(sent[1]["method"], "notifications/message");
        assert_eq!(sent[1]["params"]["logger"], LOGGER);
        assert_eq!(sent[1]["params"]["data"]["error"]["code"], "not_found");

        let sink = Collect::default();
        Logger::new(&sink, LogLevel::Debug).tool_call(
            "validate",
            &json!({"isError": false, "structuredContent": {}}),
            3,
        );
        let sent = sink.0.into_inner().unwrap();
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0]["params"]["data"]["elapsed_ms"], 3);
    }
}
