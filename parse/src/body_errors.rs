//! Errors NCBI reports inside a successful HTTP reply.
//!
//! The E-utilities answer many mistakes with status 200 and an error in the
//! body: `<ERROR>Invalid db name specified: nothing</ERROR>` inside an
//! envelope, `{"esearchresult":{"ERROR":"Empty term and query_key - nothing
//! todo"}}`, or `{"header":...,"error":"Too many UIDs ..."}`. The 429 reply
//! carries a JSON body of the same kind. A transport that only looks at the
//! status would hand these to a parser as if they were results, so
//! [`body_error`] looks at the head of every body first.

use crate::error::{ParseError, Said};
use crate::xml::Xml;
use quick_xml::events::Event;
use serde_json::{Map, Value};

/// How much of a JSON body is searched for the word "error" before parsing it whole.
const JSON_HEAD: usize = 16 * 1024;
/// How many XML events are read before concluding the body is a normal result.
const XML_EVENTS: usize = 256;

/// The error NCBI reported inside a 200 (or 429) body, if the whole body is one.
///
/// Only whole-body failures count. An `<ERROR>` beside real payload (an epost that stored
/// some ids and dropped others, an esummary with one bad uid) is a partial result, left for
/// the per-utility parser to report. Each failure becomes a [`ParseError`] of kind
/// [`Reported`](crate::error::ParseErrorKind::Reported) that quotes NCBI's own text; what
/// to change in the request is the core's to say.
pub fn body_error(bytes: &[u8], content_type: Option<&str>) -> Option<ParseError> {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let body = bytes[start..]
        .strip_prefix("\u{feff}".as_bytes())
        .unwrap_or(&bytes[start..]);
    let json_type = content_type.is_some_and(|c| c.to_ascii_lowercase().contains("json"));
    match body.first() {
        Some(b'{') => json_error(body),
        Some(b'<') if !json_type => xml_error(body),
        _ => None,
    }
}

/// Longest NCBI error text quoted back, in characters.
const MAX_QUOTED: usize = 500;

/// The error for NCBI's own messages where a result should be: each message with keys
/// scrubbed and cut at [`MAX_QUOTED`] characters. Every reader that meets an error envelope
/// (E-utilities, PubMed, PMC) reports it through this one function.
pub fn ncbi_error(messages: &[String]) -> ParseError {
    let quoted: Vec<String> = messages
        .iter()
        .map(|m| {
            let clean = scrub(m.trim(), &[]);
            match clean.char_indices().nth(MAX_QUOTED) {
                Some((cut, _)) => format!("{}…", &clean[..cut]),
                None if clean.is_empty() => "(no message)".to_string(),
                None => clean,
            }
        })
        .collect();
    let text = quoted
        .iter()
        .map(|m| format!("\"{m}\""))
        .collect::<Vec<_>>()
        .join("; ");
    let noun = if quoted.len() > 1 {
        "errors"
    } else {
        "an error"
    };
    ParseError::reported(
        format!("NCBI reported {noun}: {text}"),
        Said {
            messages: quoted,
            ..Said::default()
        },
    )
}

fn xml_error(body: &[u8]) -> Option<ParseError> {
    let mut x = Xml::new(body, "an E-utilities reply").ok()?;
    let mut messages = Vec::new();
    let mut payload = false;
    for _ in 0..XML_EVENTS {
        // A malformed or truncated head is the parser's business, not an NCBI error message.
        let Ok(event) = x.event() else { break };
        match event {
            Event::Start(s) => {
                let name = s.local_name();
                // Depth counts the element just opened: 1 is the root, 2 its child,
                // 3 a LinkSet's child, where elink reports a failed link.
                if name.as_ref() == "ERROR" && x.depth() <= 3 {
                    match x.text() {
                        Ok(t) if !t.is_empty() => messages.push(t),
                        Ok(_) => {}
                        Err(_) => break,
                    }
                } else if is_payload(name.as_ref()) {
                    payload = true;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if messages.is_empty() || payload {
        return None;
    }
    Some(ncbi_error(&messages))
}

/// Elements whose presence means NCBI returned results, so an ERROR beside them is partial.
fn is_payload(name: &str) -> bool {
    matches!(
        name,
        "Id" | "DocSum"
            | "DocumentSummary"
            | "LinkSetDb"
            | "IdUrlSet"
            | "IdLinkSet"
            | "WebEnv"
            | "DbInfo"
            | "DbList"
    )
}

fn json_error(body: &[u8]) -> Option<ParseError> {
    let head = &body[..body.len().min(JSON_HEAD)];
    if !head.windows(5).any(|w| w.eq_ignore_ascii_case(b"error"))
        && !head
            .windows(14)
            .any(|w| w.eq_ignore_ascii_case(b"esummaryresult"))
    {
        return None;
    }
    let value: Value = serde_json::from_slice(body).ok()?;
    let obj = value.as_object()?;
    let secrets: Vec<&str> = ["api-key", "api_key", "apikey"]
        .iter()
        .filter_map(|k| obj.get(*k).and_then(Value::as_str))
        .collect();
    if let Some(msg) = error_text(obj) {
        let msg = scrub(&msg, &secrets);
        if msg.to_ascii_lowercase().contains("rate limit") {
            return Some(rate_limited(&msg, obj));
        }
        return Some(ncbi_error(&[msg]));
    }
    // esummary's JSON reports request-level failures as a list of strings.
    if let Some(Value::Array(items)) = obj.get("esummaryresult") {
        let messages: Vec<String> = items
            .iter()
            .filter_map(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(|s| scrub(s, &secrets))
            .collect();
        if !messages.is_empty() && !obj.contains_key("result") {
            return Some(ncbi_error(&messages));
        }
    }
    for (key, inner) in obj {
        let Some(inner) = inner.as_object() else {
            continue;
        };
        if key == "header" || has_results(inner) {
            continue;
        }
        if let Some(msg) = error_text(inner) {
            return Some(ncbi_error(&[scrub(&msg, &secrets)]));
        }
    }
    None
}

/// The text of an `error` or `ERROR` member, if it is a non-empty string.
fn error_text(obj: &Map<String, Value>) -> Option<String> {
    ["error", "ERROR", "Error"]
        .iter()
        .filter_map(|k| obj.get(*k))
        .find_map(|v| match v {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            _ => None,
        })
}

/// Whether a JSON result object carries results despite an error member.
fn has_results(inner: &Map<String, Value>) -> bool {
    let nonzero_count = inner
        .get("count")
        .and_then(|c| match c {
            Value::String(s) => s.parse::<u64>().ok(),
            Value::Number(n) => n.as_u64(),
            _ => None,
        })
        .is_some_and(|n| n > 0);
    let has_ids = inner
        .get("idlist")
        .and_then(Value::as_array)
        .is_some_and(|a| !a.is_empty());
    nonzero_count || has_ids || inner.contains_key("webenv")
}

/// NCBI's 429 refusal: its message, and the count and limit it names. NCBI's 429 body echoes
/// the caller's API key or IP under `api-key`; that field is never read into a message.
fn rate_limited(msg: &str, obj: &Map<String, Value>) -> ParseError {
    let number = |k: &str| -> Option<u64> {
        match obj.get(k)? {
            Value::String(s) => s.trim().parse().ok(),
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    };
    let (count, limit) = (number("count"), number("limit"));
    let tally = match (count, limit) {
        (Some(c), Some(l)) => format!(" ({c} requests counted against a limit of {l} per second)"),
        _ => String::new(),
    };
    ParseError::reported(
        format!("NCBI refused the request: \"{msg}\"{tally}."),
        Said {
            messages: vec![msg.to_string()],
            count,
            limit,
        },
    )
}

/// Removes secret values and `api_key=...` pairs from text that will be quoted to the caller.
fn scrub(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_string();
    for s in secrets {
        if s.len() >= 4 {
            out = out.replace(s, "[redacted]");
        }
    }
    let mut cleaned = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(i) = find_key(rest) {
        let (before, after) = rest.split_at(i);
        let eq = after.find('=').map(|e| e + 1).unwrap_or(after.len());
        cleaned.push_str(before);
        cleaned.push_str(&after[..eq]);
        cleaned.push_str("[redacted]");
        let tail = &after[eq..];
        let end = tail
            .find(|c: char| c == '&' || c == '"' || c == '\'' || c.is_whitespace())
            .unwrap_or(tail.len());
        rest = &tail[end..];
    }
    cleaned.push_str(rest);
    cleaned
}

/// The position of an `api_key=` or `api-key=` assignment, matched without regard to case.
fn find_key(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    ["api_key=", "api-key="]
        .iter()
        .filter_map(|k| lower.find(k))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scrub_removes_key_assignments_and_echoed_values() {
        let s = scrub(
            "bad request api_key=0123456789abcdef&db=pubmed from 10.1.2.3",
            &["10.1.2.3"],
        );
        assert_eq!(
            s,
            "bad request api_key=[redacted]&db=pubmed from [redacted]"
        );
    }
}
