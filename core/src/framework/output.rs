//! What a tool hands back, and how it becomes an MCP `CallToolResult`.
//!
//! Tools return `Result<ToolOutput, Error>`. This module is the one place that
//! turns either side into the wire shape, so every success carries
//! `structuredContent` plus a text block and every failure carries
//! `isError: true`, a stable code and suggestions, in text and structured form.

use crate::error::Error;
use crate::framework::content::{Annotations, Content, Role};
use crate::json;
use serde_json::Value;

/// A successful tool outcome.
#[derive(Debug, Clone)]
pub struct ToolOutput {
    /// The typed result, matching the tool's outputSchema.
    pub structured: Value,
    /// The readable summary placed in the first text block.
    pub text: String,
    /// Annotations for the text block.
    pub text_annotations: Option<Annotations>,
    /// Further content blocks (images, resource links, ...).
    pub extra: Vec<Content>,
    /// How the content blocks present the result.
    pub form: TextForm,
    /// Warnings with a stable code that only running the call could find (`results_capped`),
    /// added to the result's `call_warnings` beside those of its reading.
    pub coded_warnings: Vec<Value>,
}

/// How a tool's result is written into its content blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextForm {
    /// The readable text first (what a model reads best), then any further blocks.
    Readable,
    /// The serialized `structuredContent` first, then the readable text: the
    /// validation protocol's clients `JSON.parse(content[0].text)`, and the MCP
    /// specification asks structured tools for that serialization anyway.
    /// Errors take the protocol's shape too (`valid`, `errors` as strings).
    ValidationJson,
}

impl ToolOutput {
    /// A result with structured data and its readable summary.
    pub fn new(structured: Value, text: impl Into<String>) -> Self {
        ToolOutput {
            structured,
            text: text.into(),
            text_annotations: None,
            extra: Vec::new(),
            form: TextForm::Readable,
            coded_warnings: Vec::new(),
        }
    }

    /// Adds a coded warning found while running: `code` from the validation codes, `path` the
    /// argument it concerns.
    pub fn with_warning(mut self, code: &str, path: &str, message: impl Into<String>) -> Self {
        self.coded_warnings
            .push(json!({"code": code, "path": path, "message": message.into()}));
        self
    }

    /// Writes the result in `form`.
    pub fn in_form(mut self, form: TextForm) -> Self {
        self.form = form;
        self
    }

    /// Sets annotations on the text block.
    pub fn with_text_annotations(mut self, annotations: Annotations) -> Self {
        self.text_annotations = Some(annotations);
        self
    }

    /// Appends a content block after the text.
    pub fn with_content(mut self, content: Content) -> Self {
        self.extra.push(content);
        self
    }

    /// The `CallToolResult` JSON.
    pub fn into_result(self) -> Value {
        let mut text = Content::text(self.text);
        if let Some(a) = self.text_annotations {
            text = text.annotated(a);
        }
        let lead = match self.form {
            TextForm::Readable => None,
            TextForm::ValidationJson => Some(Content::text(self.structured.to_string())),
        };
        let content: Vec<Value> = lead
            .into_iter()
            .chain(std::iter::once(text))
            .chain(self.extra)
            .map(|c| c.to_value())
            .collect();
        json!({ "content": content, "structuredContent": self.structured, "isError": false })
    }
}

/// The `CallToolResult` JSON for a tool-level error, written in `form`, with
/// what the call's reading repaired or noticed (`call_warnings`) when there is any.
pub fn error_result_in(error: &Error, form: TextForm, call_warnings: &[Value]) -> Value {
    let mut result = error_result(error);
    if !call_warnings.is_empty() {
        result["structuredContent"]["call_warnings"] = json!(call_warnings);
        if let Some(text) = result["content"][0]["text"].as_str() {
            let text = format!("{text}\n\n{}", call_warnings_text(call_warnings));
            result["content"][0]["text"] = json!(text);
        }
    }
    if form == TextForm::ValidationJson {
        let structured = &mut result["structuredContent"];
        json::set(structured, "valid", json!(false));
        json::set(structured, "errors", json!(problem_lines(error)));
        json::set(
            structured,
            "warnings",
            json!(detail_lines(error, "warnings")),
        );
        json::set(structured, "suggestions", json!(error.suggestions));
        let lead = Content::text(structured.to_string()).to_value();
        if let Some(content) = result["content"].as_array_mut() {
            content.insert(0, lead);
        }
    }
    result
}

/// The readable list of `call_warnings` (objects with code, path and message).
pub fn call_warnings_text(call_warnings: &[Value]) -> String {
    let mut text = String::from("About your call:");
    for w in call_warnings {
        let field = |k: &str| w.get(k).and_then(Value::as_str).unwrap_or_default();
        text.push_str(&format!(
            "\n  - {}",
            problem_line(field("code"), field("path"), field("message"))
        ));
    }
    text
}

/// One problem as one self-contained line: `[code] $.path: message`.
pub fn problem_line(code: &str, path: &str, message: &str) -> String {
    format!("[{code}] {path}: {message}")
}

/// An error's problems as lines: each detailed finding, or the error itself.
fn problem_lines(error: &Error) -> Vec<String> {
    let lines = detail_lines(error, "errors");
    if lines.is_empty() {
        vec![problem_line(&error.code, "$", &error.message)]
    } else {
        lines
    }
}

fn detail_lines(error: &Error, key: &str) -> Vec<String> {
    let items = error
        .details
        .as_ref()
        .and_then(|d| d.get(key))
        .and_then(Value::as_array);
    items
        .into_iter()
        .flatten()
        .map(|item| {
            let text = |k: &str| item.get(k).and_then(Value::as_str).unwrap_or_default();
            problem_line(
                text("code"),
                item.get("path").and_then(Value::as_str).unwrap_or("$"),
                text("message"),
            )
        })
        .collect()
}

/// The `CallToolResult` JSON for a tool-level error.
pub fn error_result(error: &Error) -> Value {
    let mut text = format!("Error [{}]: {}", error.code, error.message);
    if let Some(list) = error
        .details
        .as_ref()
        .and_then(|d| d.get("errors"))
        .and_then(Value::as_array)
    {
        for item in list {
            let path = item.get("path").and_then(Value::as_str).unwrap_or("$");
            let message = item.get("message").and_then(Value::as_str).unwrap_or("");
            text.push_str(&format!("\n  - at {path}: {message}"));
        }
    }
    if !error.suggestions.is_empty() {
        text.push_str("\n\nSuggestions:");
        for s in &error.suggestions {
            text.push_str("\n  - ");
            text.push_str(s);
        }
    }
    // The message is for both: the user sees why, the assistant sees how to fix it.
    let block = Content::text(text)
        .annotated(Annotations::for_audience(&[Role::User, Role::Assistant]).with_priority(1.0));
    json!({
        "content": [block.to_value()],
        "structuredContent": error.to_structured(),
        "isError": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn success_has_text_first_and_structured_content() {
        let r = ToolOutput::new(json!({"a": 1}), "one")
            .with_content(Content::resource_link("x://y", "y"))
            .into_result();
        assert_eq!(r["isError"], json!(false));
        assert_eq!(r["structuredContent"], json!({"a": 1}));
        assert_eq!(r["content"][0], json!({"type": "text", "text": "one"}));
        assert_eq!(r["content"][1]["type"], json!("resource_link"));
    }

    #[test]
    fn error_has_code_message_and_suggestions_in_both_forms() {
        let e = Error::new(ErrorKind::NotFound, "No tool named \"entrez_qurey\".")
            .with_code("unknown_tool")
            .suggest("Did you mean \"entrez_query\"?");
        let r = error_result(&e);
        assert_eq!(r["isError"], json!(true));
        assert_eq!(
            r["structuredContent"]["error"]["code"],
            json!("unknown_tool")
        );
        assert_eq!(
            r["structuredContent"]["error"]["suggestions"][0],
            json!("Did you mean \"entrez_query\"?")
        );
        let text = r["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("Error [unknown_tool]: No tool named"));
        assert!(text.contains("Did you mean \"entrez_query\"?"));
    }
}
