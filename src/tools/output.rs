//! What a tool hands back, and how it becomes an MCP `CallToolResult`.
//!
//! Tools return `Result<ToolOutput, Error>`. This module is the one place that
//! turns either side into the wire shape, so every success carries
//! `structuredContent` plus a text block and every failure carries
//! `isError: true`, a stable code and suggestions, in text and structured form.

use super::content::{Annotations, Content, Role};
use crate::error::Error;
use serde_json::{json, Value};

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
}

impl ToolOutput {
    /// A result with structured data and its readable summary.
    pub fn new(structured: Value, text: impl Into<String>) -> Self {
        ToolOutput {
            structured,
            text: text.into(),
            text_annotations: None,
            extra: Vec::new(),
        }
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
        let content: Vec<Value> = std::iter::once(text)
            .chain(self.extra)
            .map(|c| c.to_value())
            .collect();
        json!({ "content": content, "structuredContent": self.structured, "isError": false })
    }
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
