//! PMC's OA web service replies: records with their links, a listing page, an error, or the
//! service's identification, all in one `<OA>` document, read by one reader.

use crate::error::ParseError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use serde_json::{json, Map, Value};

/// Everything one `<OA>` reply says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OaReply {
    /// The records, each with id, citation, license, retracted and links.
    pub records: Vec<Value>,
    /// An `<error code>` and its sentence.
    pub error: Option<(String, String)>,
    /// `total-count` of a result set.
    pub total: Option<u64>,
    /// The token of the next page, when the set has more than this page.
    pub resumption_token: Option<String>,
    /// The identification answer (formats, counts, earliest, latest).
    pub identification: Option<Value>,
}

fn attributes(e: &BytesStart<'_>) -> Map<String, Value> {
    let mut attrs = Map::new();
    for a in e.attributes().flatten() {
        let value = a
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .map(|v| v.into_owned())
            .unwrap_or_default();
        attrs.insert(a.key.as_ref().to_string(), json!(value));
    }
    attrs
}

/// Reads an OA web service reply.
pub fn parse_oa(body: &[u8]) -> Result<OaReply, ParseError> {
    let text = std::str::from_utf8(body).map_err(|_| unreadable())?;
    let mut reader = Reader::from_str(text);
    let mut out = OaReply::default();
    let mut ident = Map::new();
    let mut formats: Vec<String> = Vec::new();
    let mut counts = Map::new();
    // The element whose text is being collected, and its attributes.
    let mut open: Option<(String, Map<String, Value>)> = None;
    let mut collected = String::new();
    loop {
        let event = reader.read_event().map_err(|_| unreadable())?;
        let starts = matches!(event, Event::Start(_));
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let attrs = attributes(&e);
                let name = e.name().as_ref().to_string();
                match name.as_str() {
                    "record" => out.records.push(json!({
                        "id": attrs.get("id"),
                        "citation": attrs.get("citation"),
                        "license": attrs.get("license"),
                        "retracted": attrs.get("retracted").and_then(Value::as_str).map(|r| r == "yes"),
                        "links": [],
                    })),
                    "link" if out.records.last().is_some() && attrs.contains_key("format") => {
                        if let Some(list) = out.records.last_mut().and_then(|r| r["links"].as_array_mut()) {
                            list.push(json!({"format": attrs.get("format"), "href": attrs.get("href"), "updated": attrs.get("updated")}));
                        }
                    }
                    "link" if attrs.contains_key("token") => {
                        out.resumption_token = attrs.get("token").and_then(Value::as_str).map(String::from);
                    }
                    "records" => {
                        out.total = attrs.get("total-count").and_then(|v| v.as_str()?.parse().ok());
                    }
                    _ => {}
                }
                if starts
                    && matches!(
                        name.as_str(),
                        "error"
                            | "format"
                            | "count"
                            | "earliest"
                            | "latest"
                            | "repositoryName"
                            | "responseDate"
                    )
                {
                    open = Some((name, attrs));
                    collected.clear();
                } else if name == "error" {
                    let code = attrs
                        .get("code")
                        .and_then(Value::as_str)
                        .unwrap_or("error")
                        .to_string();
                    out.error = Some((code, String::new()));
                }
            }
            Event::Text(t) if open.is_some() => collected.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if open.is_some() => {
                let name = r.xml10_content();
                if let Ok(Some(c)) = r.resolve_char_ref() {
                    collected.push(c);
                } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(&name) {
                    collected.push_str(s);
                }
            }
            Event::End(e) => {
                let closing = e.name().as_ref().to_string();
                if let Some((name, attrs)) = open.take_if(|(n, _)| *n == closing) {
                    let value = collected.trim().to_string();
                    match name.as_str() {
                        "error" => {
                            let code = attrs
                                .get("code")
                                .and_then(Value::as_str)
                                .unwrap_or("error")
                                .to_string();
                            out.error = Some((code, value));
                        }
                        "format" => formats.push(value),
                        "count" => {
                            let key = attrs
                                .get("format")
                                .and_then(Value::as_str)
                                .unwrap_or("all")
                                .to_string();
                            counts.insert(key, json!(value.parse::<u64>().ok()));
                        }
                        "responseDate" => {}
                        other => {
                            ident.insert(other.to_string(), json!(value));
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !formats.is_empty() || !counts.is_empty() {
        ident.insert("formats".into(), json!(formats));
        ident.insert("counts".into(), Value::Object(counts));
        out.identification = Some(Value::Object(ident));
    } else if out.records.is_empty() && out.error.is_none() && out.total.is_none() {
        return Err(unreadable());
    }
    Ok(out)
}

fn unreadable() -> ParseError {
    ParseError::unexpected(
        "a PMC OA web service reply",
        "it is neither records, an identification nor an error",
    )
}
