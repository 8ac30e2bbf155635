//! The result every slice answers with: its readable text, and an assistant-only hint.
//!
//! Structured content carries every field; the text gives the facts a person would read
//! first, and a separate assistant-only block says what call to make next.

use crate::framework::content::{Annotations, Content, Role};
use crate::framework::ToolOutput;
use serde_json::Value;

/// A string field's text, or "".
pub fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// The result: a text block for people and assistants, plus an assistant-only hint.
pub fn output(structured: Value, text: String, hint: Option<String>) -> ToolOutput {
    let mut out = ToolOutput::new(structured, text).with_text_annotations(
        Annotations::for_audience(&[Role::User, Role::Assistant]).with_priority(1.0),
    );
    if let Some(h) = hint {
        out = out.with_content(
            Content::text(h)
                .annotated(Annotations::for_audience(&[Role::Assistant]).with_priority(0.4)),
        );
    }
    out
}

/// The result's `warnings`, one line each.
pub fn warnings(out: &mut String, r: &Value) {
    for w in r["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("\nWarning: {}", s(w)));
    }
}
