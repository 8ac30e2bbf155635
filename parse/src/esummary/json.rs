//! ESummary JSON replies (retmode=json) into the same record as the XML.
//!
//! The JSON shape is `{"result": {"uids": [...], "<uid>": {...}, ...}}`: the
//! order lives in `uids` and each summary under its own key. A uid NCBI could
//! not answer still gets a key, holding `{"uid": .., "error": ".."}`, and a
//! uid listed without a key at all is reported the same way so the caller
//! sees every uid accounted for. Request-level failures replace `result`
//! with `"error"` (over 500 uids) or an `esummaryresult` list of messages.

use super::{DocSummary, EsummaryResult, SummaryError};
use crate::envelope::json_text;
use crate::error::ParseError;
use crate::xml::unexpected;
use serde_json::{Map, Value};

const WHAT: &str = "an ESummary JSON reply";

/// Parses an esummary JSON reply; per-uid and request-level errors land in `errors`.
pub fn parse_esummary_json(bytes: &[u8]) -> Result<EsummaryResult, ParseError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| unexpected(WHAT, format!("invalid JSON: {e}")))?;
    let Some(top) = v.as_object() else {
        return Err(unexpected(WHAT, "the body is not a JSON object"));
    };
    let mut r = EsummaryResult::default();
    for key in ["error", "ERROR"] {
        if let Some(message) = json_text(top.get(key)).filter(|m| !m.trim().is_empty()) {
            r.errors.push(SummaryError { uid: None, message });
        }
    }
    if let Some(Value::Array(messages)) = top.get("esummaryresult") {
        for m in messages.iter().filter_map(Value::as_str) {
            if !m.trim().is_empty() {
                r.errors.push(SummaryError {
                    uid: super::uid_in(m),
                    message: m.to_string(),
                });
            }
        }
    }
    let Some(result) = top.get("result").and_then(Value::as_object) else {
        if r.errors.is_empty() {
            return Err(unexpected(WHAT, "it has neither \"result\" nor \"error\""));
        }
        return Ok(r);
    };
    let uids: Vec<String> = match result.get("uids") {
        Some(Value::Array(list)) => list.iter().filter_map(|u| json_text(Some(u))).collect(),
        // Without the order list, fall back to the keys that look like uids.
        _ => result.keys().filter(|k| *k != "uids").cloned().collect(),
    };
    for uid in uids {
        match result.get(&uid) {
            Some(Value::Object(doc)) => summary(&uid, doc, &mut r),
            _ => r.errors.push(SummaryError {
                uid: Some(uid),
                message: "NCBI listed this uid but sent no summary for it".to_string(),
            }),
        }
    }
    Ok(r)
}

fn summary(uid: &str, doc: &Map<String, Value>, r: &mut EsummaryResult) {
    if let Some(message) = json_text(doc.get("error")) {
        r.errors.push(SummaryError {
            uid: Some(uid.to_string()),
            message,
        });
        return;
    }
    let mut fields = doc.clone();
    // The uid is the record's key already; keeping it in fields would say it twice.
    fields.remove("uid");
    r.docs.push(DocSummary {
        uid: uid.to_string(),
        fields,
    });
}
