//! One readable line per document summary, whatever the database.
//!
//! A PubMed docsum has Title, AuthorList, Source and PubDate; a structure has
//! PdbDescr; a taxon has ScientificName; a compound has synonyms; JSON spells
//! the same fields in lower case and v2.0 XML nests authors as objects. The
//! [`headline`] picks the first field that answers each question, matching
//! names without regard to case, so a mixed list of results can be shown as
//! title, authors, source and year without knowing each database's schema.

use super::DocSummary;
use serde::Serialize;
use serde_json::{Map, Value};

/// The display essentials of one summary.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Headline {
    /// What the record is called.
    pub title: Option<String>,
    /// Author names, in order.
    pub authors: Vec<String>,
    /// Journal or other publication source.
    pub source: Option<String>,
    /// Year of publication, or of creation for records that are not publications.
    pub year: Option<u16>,
}

/// Field names tried for the title, most specific first.
const TITLES: &[&str] = &[
    "Title",
    "ArticleTitle",
    "PdbDescr",
    "IUPACName",
    "Description",
    "DefinitionText",
    "Name",
    "Caption",
];
const SOURCES: &[&str] = &["Source", "FullJournalName", "Journal", "PublisherName"];
const DATES: &[&str] = &[
    "PubDate",
    "SortPubDate",
    "EPubDate",
    "CreateDate",
    "PdbDepositDate",
];
const AUTHORS: &[&str] = &["AuthorList", "Authors", "Author"];

/// Title, authors, source and year of a summary from any database.
pub fn headline(doc: &DocSummary) -> Headline {
    let f = &doc.fields;
    Headline {
        title: title(f),
        authors: AUTHORS
            .iter()
            .find_map(|k| get(f, k).map(names).filter(|n| !n.is_empty()))
            .unwrap_or_default(),
        source: SOURCES.iter().find_map(|k| text(f, k)),
        year: DATES
            .iter()
            .find_map(|k| text(f, k).as_deref().and_then(year)),
    }
}

fn title(f: &Map<String, Value>) -> Option<String> {
    if let Some(t) = text(f, "Title") {
        return Some(t);
    }
    // A taxon reads best as "Bos taurus (domestic cattle)".
    if let Some(name) = text(f, "ScientificName") {
        return Some(match text(f, "CommonName") {
            Some(common) => format!("{name} ({common})"),
            None => name,
        });
    }
    // A compound's first synonym is its common name; the IUPAC name is the fallback.
    if let Some(first) = get(f, "SynonymList").and_then(|v| names(v).into_iter().next()) {
        return Some(first);
    }
    TITLES.iter().find_map(|k| text(f, k))
}

/// An ESummary field by name, ignoring case, so "Title", "title" and "TITLE" all match.
pub fn get<'a>(f: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    f.get(name).or_else(|| {
        f.iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    })
}

/// A field as non-empty text.
fn text(f: &Map<String, Value>, name: &str) -> Option<String> {
    match get(f, name)? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Names out of a list of strings or of objects with a name member.
fn names(v: &Value) -> Vec<String> {
    let items: Vec<&Value> = match v {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    items
        .into_iter()
        .filter_map(|item| match item {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Object(o) => get(o, "Name")
                .or_else(|| get(o, "Author"))
                .and_then(Value::as_str)
                .map(|s| s.trim().to_string()),
            _ => None,
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// The first plausible four-digit year in a date string like "1965 Aug" or "2003/03/03".
fn year(date: &str) -> Option<u16> {
    let bytes = date.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if run == 4 {
                let y: u16 = date[i..i + 4].parse().ok()?;
                if (1000..=2999).contains(&y) {
                    return Some(y);
                }
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}
