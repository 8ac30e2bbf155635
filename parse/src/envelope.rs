//! Small pieces every E-utility envelope parser needs.
//!
//! The envelopes (eSearchResult, eLinkResult, ...) are shallow records of
//! named children. Walking "the children of this element" with the streaming
//! reader is the same loop in every parser, and so is turning NCBI's numbers,
//! which arrive as text in XML and as either strings or numbers in JSON, into
//! integers. Keeping both here keeps each parser about its own shape.

use crate::error::ParseError;
use crate::xml::{unexpected, Xml};
use quick_xml::events::Event;
use serde_json::Value;

pub use crate::xml::each_child;

/// Reads up to the first element and returns its local name, so callers can check they got the envelope they asked for.
pub fn root<'a>(x: &mut Xml<'a>, what: &str) -> Result<String, ParseError> {
    loop {
        match x.event()? {
            Event::Start(start) => return Ok(start.local_name().as_ref().to_string()),
            Event::Eof => return Err(unexpected(what, "the document has no root element")),
            _ => {}
        }
    }
}

/// An unsigned count from NCBI's text; an empty element counts as zero.
pub fn count(text: &str, what: &str, field: &str) -> Result<u64, ParseError> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(0);
    }
    t.parse()
        .map_err(|_| unexpected(what, format!("<{field}> holds {t:?}, which is not a count")))
}

/// A JSON scalar as text: NCBI sends the same field as "12" in one reply and 12 in another.
pub fn json_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// A JSON scalar as an unsigned count, accepting numbers and numeric strings.
pub fn json_count(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A JSON array of scalars as strings; anything else yields an empty list.
pub fn json_strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(items)) => items.iter().filter_map(|i| json_text(Some(i))).collect(),
        Some(Value::String(s)) if !s.is_empty() => vec![s.clone()],
        _ => Vec::new(),
    }
}

/// NCBI's Y/N flags as booleans; anything but Y is false.
pub fn yes(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("y")
}
