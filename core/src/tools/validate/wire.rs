//! The validation protocol's wire shape, and the readable text beside it.
//!
//! Clients of the validation protocol read `validate` the way its reference
//! client does: `JSON.parse(content[0].text)`, then `valid`, then
//! `errors.join(', ')`. So `errors`, `warnings` and `suggestions` are arrays
//! of self-contained strings (`[code] $.path: message`), and the richer
//! per-problem objects (code, JSONPath, message, severity) sit under
//! `details`, in the same form a refused `tools/call` reports them. The
//! registry writes the serialized result as the first content block
//! ([`crate::framework::TextForm::ValidationJson`]); the text built here follows it.

use crate::framework::output::problem_line;
use crate::json;
use serde_json::Value;

/// Whether a problem stops the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The call would be refused.
    Error,
    /// The call would run; worth knowing.
    Warning,
}

impl Severity {
    fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// What checking one call found, before it is written out.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The tool the call is for, as named.
    pub tool: String,
    /// The level checked.
    pub level: &'static str,
    /// Problem objects (`code`, `path`, `message`, maybe `keyword`) that stop the call.
    pub errors: Vec<Value>,
    /// Problem objects that do not stop it.
    pub warnings: Vec<Value>,
    /// Concrete fixes, most specific first.
    pub suggestions: Vec<String>,
    /// The call as it would be acted on.
    pub normalized: Value,
    /// Whether the answer depends only on the call and this server's version.
    pub cacheable: bool,
}

impl Verdict {
    /// The result object of one call.
    pub fn to_value(&self) -> Value {
        json!({
            "valid": self.errors.is_empty(),
            "errors": lines(&self.errors),
            "warnings": lines(&self.warnings),
            "suggestions": self.suggestions,
            "tool": self.tool,
            "level": self.level,
            "cacheable": self.cacheable,
            "normalized_arguments": self.normalized.clone(),
            "details": {
                "errors": with_severity(&self.errors, Severity::Error),
                "warnings": with_severity(&self.warnings, Severity::Warning),
            },
        })
    }

    /// The readable account of one call.
    pub fn text(&self) -> String {
        let (tool, level) = (&self.tool, self.level);
        let mut text = if self.errors.is_empty() {
            format!(
                "Call to {tool} is valid ({level} level). Normalized arguments: {}",
                self.normalized
            )
        } else {
            format!("Call to {tool} is invalid ({level} level):")
        };
        for line in lines(&self.errors) {
            text.push_str(&format!("\n  - {line}"));
        }
        for line in lines(&self.warnings) {
            text.push_str(&format!("\n  - warning {line}"));
        }
        if !self.errors.is_empty() {
            for s in &self.suggestions {
                text.push_str(&format!("\n  Suggestion: {s}"));
            }
        }
        text
    }
}

/// The result object of a batch: the protocol's fields over every call, then each call's own.
pub fn batch_value(level: &str, verdicts: &[Verdict]) -> Value {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    let mut suggestions = Vec::new();
    for (i, v) in verdicts.iter().enumerate() {
        let prefix = format!("calls[{i}] ({}): ", v.tool);
        errors.extend(lines(&v.errors).into_iter().map(|l| format!("{prefix}{l}")));
        warnings.extend(
            lines(&v.warnings)
                .into_iter()
                .map(|l| format!("{prefix}{l}")),
        );
        if !v.errors.is_empty() {
            suggestions.extend(v.suggestions.iter().map(|s| format!("{prefix}{s}")));
        }
    }
    json!({
        "valid": errors.is_empty(),
        "errors": errors,
        "warnings": warnings,
        "suggestions": suggestions,
        "level": level,
        "count": verdicts.len(),
        "cacheable": verdicts.iter().all(|v| v.cacheable),
        "results": verdicts.iter().map(Verdict::to_value).collect::<Vec<_>>(),
    })
}

/// The readable account of a batch.
pub fn batch_text(level: &str, verdicts: &[Verdict]) -> String {
    let valid = verdicts.iter().filter(|v| v.errors.is_empty()).count();
    let mut text = format!(
        "{valid} of {} call(s) valid ({level} level).\n",
        verdicts.len()
    );
    for (i, v) in verdicts.iter().enumerate() {
        text.push_str(&format!("\n[{i}] {}", v.text()));
    }
    text
}

fn lines(problems: &[Value]) -> Vec<String> {
    problems
        .iter()
        .map(|p| {
            let field = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or_default();
            let path = p.get("path").and_then(Value::as_str).unwrap_or("$");
            problem_line(field("code"), path, field("message"))
        })
        .collect()
}

fn with_severity(problems: &[Value], severity: Severity) -> Vec<Value> {
    problems
        .iter()
        .map(|p| {
            let mut p = p.clone();
            json::set(&mut p, "severity", json!(severity.as_str()));
            p
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(errors: Vec<Value>, warnings: Vec<Value>) -> Verdict {
        Verdict {
            tool: "entrez_query".into(),
            level: "semantic",
            errors,
            warnings,
            suggestions: vec!["Use \"pubmed\".".into()],
            normalized: json!({"operation": "search"}),
            cacheable: true,
        }
    }

    #[test]
    fn problems_are_strings_on_top_and_objects_in_details() {
        let typo = json!({"code": "invalid_database", "path": "$.database",
                          "message": "Invalid database \"pubmd\". Did you mean \"pubmed\"?"});
        let v = verdict(vec![typo], vec![]).to_value();
        assert_eq!(v["valid"], false);
        assert_eq!(
            v["errors"],
            json!(["[invalid_database] $.database: Invalid database \"pubmd\". Did you mean \"pubmed\"?"])
        );
        assert_eq!(v["warnings"], json!([]));
        assert_eq!(v["details"]["errors"][0]["severity"], "error");
        assert_eq!(v["details"]["errors"][0]["path"], "$.database");
        assert_eq!(v["suggestions"], json!(["Use \"pubmed\"."]));
    }

    #[test]
    fn a_batch_prefixes_each_line_with_its_call() {
        let dup = json!({"code": "duplicate_id", "path": "$.ids[1]", "message": "Id 1 again."});
        let bad = json!({"code": "unknown_tool", "path": "$.tool", "message": "Unknown tool."});
        let b = batch_value(
            "semantic",
            &[verdict(vec![], vec![dup]), verdict(vec![bad], vec![])],
        );
        assert_eq!(b["valid"], false);
        assert_eq!(b["count"], 2);
        assert_eq!(
            b["warnings"],
            json!(["calls[0] (entrez_query): [duplicate_id] $.ids[1]: Id 1 again."])
        );
        assert_eq!(
            b["errors"],
            json!(["calls[1] (entrez_query): [unknown_tool] $.tool: Unknown tool."])
        );
        // Suggestions come only from calls that need fixing.
        assert_eq!(b["suggestions"].as_array().unwrap().len(), 1);
        assert_eq!(b["results"][0]["valid"], true);
    }
}
