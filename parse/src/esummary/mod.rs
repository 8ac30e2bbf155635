//! ESummary replies, in all three shapes, as one list of document summaries.
//!
//! NCBI serves docsums three ways: version 1 XML, a flat `<DocSum>` of typed
//! `<Item Name=".." Type="..">` elements; version 2.0 XML, a `<DocumentSummary
//! uid="..">` whose children are named after each database's own fields; and
//! JSON, an object per uid. Their field names differ by database and format
//! (`Title`, `title`, `PdbDescr`), so fields are kept as a JSON map ([`DocSummary`]).
//! Missing records are not failures of the whole call ([`EsummaryResult::errors`]).
//! [`headline()`] reads title, authors, source and year out of any of these, so
//! a list of summaries from any database can be shown the same way.

use crate::envelope::{each_child, root};
use crate::error::ParseError;
use crate::xml::{attr, collapse_whitespace, push_entity, unexpected, Xml};
use quick_xml::events::{BytesStart, Event};
use serde::Serialize;
use serde_json::{Map, Value};

pub mod headline;
pub mod json;

pub use headline::{headline, Headline};
pub use json::parse_esummary_json;

const WHAT: &str = "an ESummary reply";
/// Nesting beyond this is flattened to text; NCBI's docsums are a few levels deep.
const MAX_NESTING: usize = 32;

/// The summaries and the per-uid failures of one esummary call.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct EsummaryResult {
    /// One summary per uid NCBI could answer, in reply order.
    pub docs: Vec<DocSummary>,
    /// Uids NCBI could not summarise, and request-level errors (uid None).
    ///
    /// NCBI answers the good uids and marks the bad ones, per uid in v2.0 and JSON, or with
    /// an `<ERROR>` in v1. A request NCBI rejected outright (no ids, over 500 uids in JSON)
    /// gives a result with no docs and one uid-less error.
    pub errors: Vec<SummaryError>,
}

/// One record's summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocSummary {
    /// The record's UID.
    pub uid: String,
    /// The database's summary fields under NCBI's names, typed where the source says how:
    /// v1 Integer items become numbers and List items arrays or objects.
    pub fields: Map<String, Value>,
}

/// A uid NCBI could not summarise, or a request-level error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryError {
    /// The uid concerned, when the error is about one.
    pub uid: Option<String>,
    /// NCBI's message.
    pub message: String,
}

/// Parses an esummary XML reply, version 1 (`DocSum`) or 2.0 (`DocumentSummarySet`).
pub fn parse_esummary_xml(bytes: &[u8]) -> Result<EsummaryResult, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let mut r = EsummaryResult::default();
    let top = root(&mut x, WHAT)?;
    match top.as_str() {
        "eSummaryResult" => each_child(&mut x, |x, name, start| {
            match name {
                "DocSum" => r.docs.push(doc_sum(x)?),
                "DocumentSummarySet" => summary_set(x, &mut r)?,
                "DocumentSummary" => document_summary(x, start, &mut r)?,
                "ERROR" => top_error(x.text()?, &mut r),
                _ => {}
            }
            Ok(())
        })?,
        // efetch rettype=docsum and some v2.0 replies start at the set itself.
        "DocumentSummarySet" => summary_set(&mut x, &mut r)?,
        "ERROR" => top_error(x.text()?, &mut r),
        other => return Err(unexpected(WHAT, format!("the root element is <{other}>"))),
    }
    Ok(r)
}

fn top_error(message: String, r: &mut EsummaryResult) {
    if !message.is_empty() {
        r.errors.push(SummaryError {
            uid: uid_in(&message),
            message,
        });
    }
}

/// The uid named in messages like "UID=123: cannot get document summary" or "Invalid uid 123 at position=0".
pub fn uid_in(message: &str) -> Option<String> {
    let lower = message.to_ascii_lowercase();
    let at = lower.find("uid")? + 3;
    let rest = lower[at..].trim_start_matches(['=', ' ', ':']);
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!digits.is_empty()).then_some(digits)
}

fn doc_sum(x: &mut Xml<'_>) -> Result<DocSummary, ParseError> {
    let mut uid = String::new();
    let mut fields = Map::new();
    each_child(x, |x, name, start| {
        match name {
            "Id" => uid = x.text()?,
            "Item" => {
                let (key, value) = item(x, start, 0)?;
                insert(&mut fields, key, value);
            }
            _ => {}
        }
        Ok(())
    })?;
    Ok(DocSummary { uid, fields })
}

/// One v1 `<Item>` as (Name, typed value).
fn item(
    x: &mut Xml<'_>,
    start: &BytesStart<'_>,
    depth: usize,
) -> Result<(String, Value), ParseError> {
    let name = attr(start, "Name").unwrap_or_default();
    let kind = attr(start, "Type").unwrap_or_default();
    let value = match kind.as_str() {
        "List" | "Structure" if depth < MAX_NESTING => {
            let mut children = Vec::new();
            each_child(x, |x, child, start| {
                if child == "Item" {
                    children.push(item(x, start, depth + 1)?);
                }
                Ok(())
            })?;
            if kind == "List" {
                list(&name, children)
            } else {
                object(children)
            }
        }
        "Integer" => {
            let t = x.text()?;
            // An empty Integer item is "no value", not zero; a non-number stays as sent.
            if t.is_empty() {
                Value::Null
            } else {
                t.parse::<i64>()
                    .map(Value::from)
                    .unwrap_or(Value::String(t))
            }
        }
        _ => Value::String(x.text()?),
    };
    Ok((name, value))
}

/// A v1 List: an array when its items are one repeated kind, else an object by name.
fn list(name: &str, children: Vec<(String, Value)>) -> Value {
    let Some(first) = children.first().map(|(k, _)| k.clone()) else {
        return Value::Array(Vec::new());
    };
    let same = children.iter().all(|(k, _)| *k == first);
    // AuthorList/Author, LangList/Lang and lists of "string" are arrays even with one
    // member; ArticleIds with a single "pubmed" entry is a keyed object.
    let generic = matches!(first.as_str(), "string" | "int" | "Item" | "Id");
    if same && (children.len() > 1 || generic || name.starts_with(first.as_str())) {
        Value::Array(children.into_iter().map(|(_, v)| v).collect())
    } else {
        object(children)
    }
}

/// Children as an object; a repeated name collects its values into an array.
fn object(children: Vec<(String, Value)>) -> Value {
    let mut map = Map::new();
    for (k, v) in children {
        insert(&mut map, k, v);
    }
    Value::Object(map)
}

fn insert(map: &mut Map<String, Value>, key: String, value: Value) {
    match map.get_mut(&key) {
        None => {
            map.insert(key, value);
        }
        Some(Value::Array(existing)) if !value.is_array() => existing.push(value),
        Some(existing) => {
            let first = existing.take();
            *existing = Value::Array(vec![first, value]);
        }
    }
}

fn summary_set(x: &mut Xml<'_>, r: &mut EsummaryResult) -> Result<(), ParseError> {
    each_child(x, |x, name, start| {
        match name {
            "DocumentSummary" => document_summary(x, start, r)?,
            "ERROR" => top_error(x.text()?, r),
            _ => {}
        }
        Ok(())
    })
}

/// A v2.0 `<DocumentSummary>`: a summary, or an `<error>` for its uid.
fn document_summary(
    x: &mut Xml<'_>,
    start: &BytesStart<'_>,
    r: &mut EsummaryResult,
) -> Result<(), ParseError> {
    let mut uid = attr(start, "uid");
    let mut fields = Map::new();
    let mut error = None;
    each_child(x, |x, name, _| {
        let value = generic(x, name, 0)?;
        if name.eq_ignore_ascii_case("error") {
            error = value.as_str().map(str::to_string);
        } else {
            if uid.is_none() && name == "Id" {
                uid = value.as_str().map(str::to_string);
            }
            insert(&mut fields, name.to_string(), value);
        }
        Ok(())
    })?;
    match error {
        Some(message) => r.errors.push(SummaryError {
            uid: uid.or_else(|| uid_in(&message)),
            message,
        }),
        None => r.docs.push(DocSummary {
            uid: uid.unwrap_or_default(),
            fields,
        }),
    }
    Ok(())
}

/// A v2.0 element as JSON: text for a leaf, an array for a list of like children, else an object.
fn generic(x: &mut Xml<'_>, name: &str, depth: usize) -> Result<Value, ParseError> {
    if depth >= MAX_NESTING {
        return Ok(Value::String(x.text()?));
    }
    let level = x.depth();
    let mut text = String::new();
    let mut children: Vec<(String, Value)> = Vec::new();
    loop {
        match x.event()? {
            Event::Start(s) => {
                let child = s.local_name().as_ref().to_string();
                let value = generic(x, &child, depth + 1)?;
                children.push((child, value));
            }
            Event::Text(t) => text.push_str(&t.xml10_content()),
            Event::CData(c) => text.push_str(c.as_ref()),
            Event::GeneralRef(r) => push_entity(&mut text, &r),
            Event::End(_) if x.depth() < level => break,
            Event::Eof => break,
            _ => {}
        }
    }
    if children.is_empty() {
        return Ok(Value::String(collapse_whitespace(&text)));
    }
    let first = children[0].0.clone();
    let same = children.iter().all(|(k, _)| *k == first);
    // <Authors><Author>..</Author></Authors> is a list even with one author.
    let plural = name.ends_with('s') || name.ends_with("List") || name.ends_with("Set");
    if same && (children.len() > 1 || plural || name.starts_with(first.as_str())) {
        Ok(Value::Array(children.into_iter().map(|(_, v)| v).collect()))
    } else {
        Ok(object(children))
    }
}
