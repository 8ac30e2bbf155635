//! ESpell replies: the corrected query and which words were replaced.
//!
//! NCBI's `<SpelledQuery>` is the corrected query cut into segments:
//! `<Original>` holds text kept as typed and `<Replaced>` holds a correction.
//! The misspelled word itself is not in the reply; it is whatever part of
//! `<Query>` lies where the `<Replaced>` segment sits. So the segments are
//! aligned against the query: the text between two kept segments is what the
//! correction between them replaced. For "biopythooon" NCBI sends an empty
//! `<Original>` and `<Replaced>biopython</Replaced>`, which aligns to one
//! replacement, "biopythooon" → "biopython".

use crate::body_errors::ncbi_error;
use crate::envelope::{each_child, root};
use crate::error::ParseError;
use crate::xml::{unexpected, Xml};
use serde::Serialize;

const WHAT: &str = "an ESpell reply";

/// What espell suggested.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EspellResult {
    /// The database the spelling was checked against.
    pub database: String,
    /// The query as sent.
    pub query: String,
    /// The suggested query; empty when NCBI had nothing to correct.
    pub corrected_query: String,
    /// Each corrected piece of the query.
    pub replacements: Vec<Replacement>,
}

/// One correction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replacement {
    /// The text of the query that was replaced (empty if it could not be located).
    pub original: String,
    /// What NCBI suggests instead.
    pub replaced: String,
}

enum Segment {
    Kept(String),
    Replaced(String),
}

/// Parses an espell XML reply; a non-empty `<ERROR>` with no correction is an error.
pub fn parse_espell(bytes: &[u8]) -> Result<EspellResult, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let top = root(&mut x, WHAT)?;
    if top == "ERROR" {
        return Err(ncbi_error(&[x.text()?]));
    }
    if top != "eSpellResult" {
        return Err(unexpected(WHAT, format!("the root element is <{top}>")));
    }
    let mut r = EspellResult {
        database: String::new(),
        query: String::new(),
        corrected_query: String::new(),
        replacements: Vec::new(),
    };
    let mut segments = Vec::new();
    let mut errors = Vec::new();
    each_child(&mut x, |x, name, _| {
        match name {
            "Database" => r.database = x.text()?,
            "Query" => r.query = x.text()?,
            "CorrectedQuery" => r.corrected_query = x.text()?,
            "SpelledQuery" => each_child(x, |x, name, _| {
                // Spaces matter here: " OR " between two corrections must stay " OR ".
                let mut raw = String::new();
                match name {
                    "Original" => {
                        x.text_into(&mut raw)?;
                        segments.push(Segment::Kept(raw));
                    }
                    "Replaced" => {
                        x.text_into(&mut raw)?;
                        segments.push(Segment::Replaced(raw));
                    }
                    _ => {}
                }
                Ok(())
            })?,
            "ERROR" => {
                let t = x.text()?;
                if !t.is_empty() {
                    errors.push(t);
                }
            }
            _ => {}
        }
        Ok(())
    })?;
    if !errors.is_empty() && r.corrected_query.is_empty() {
        return Err(ncbi_error(&errors));
    }
    r.replacements = align(&r.query, &segments);
    Ok(r)
}

/// Pairs each replaced segment with the part of `query` it stands for.
fn align(query: &str, segments: &[Segment]) -> Vec<Replacement> {
    // ASCII lowercasing keeps byte offsets, so positions found in `lower` index `query`.
    let lower = query.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut cursor = 0;
    let mut pending: Vec<&str> = Vec::new();
    for segment in segments {
        match segment {
            Segment::Replaced(text) => pending.push(text),
            Segment::Kept(text) => {
                let needle = text.to_ascii_lowercase();
                let Some(found) = lower[cursor..].find(&needle) else {
                    continue;
                };
                let start = cursor + found;
                settle(&query[cursor..start], &mut pending, &mut out);
                cursor = start + needle.len();
            }
        }
    }
    settle(&query[cursor..], &mut pending, &mut out);
    out
}

/// Records the pending corrections as replacing `span` of the query.
fn settle(span: &str, pending: &mut Vec<&str>, out: &mut Vec<Replacement>) {
    if pending.is_empty() {
        return;
    }
    let words: Vec<&str> = span.split_whitespace().collect();
    if pending.len() > 1 && words.len() == pending.len() {
        for (original, replaced) in words.iter().zip(pending.iter()) {
            out.push(Replacement {
                original: original.to_string(),
                replaced: replaced.trim().to_string(),
            });
        }
    } else {
        let replaced: Vec<&str> = pending.iter().map(|p| p.trim()).collect();
        out.push(Replacement {
            original: span.trim().to_string(),
            replaced: replaced.join(" "),
        });
    }
    pending.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_between_kept_text_align_to_the_query() {
        let segments = [
            Segment::Kept(String::new()),
            Segment::Replaced("asthma".into()),
            Segment::Kept(" OR ".into()),
            Segment::Replaced("allergies".into()),
        ];
        let r = align("asthmaa OR alergies", &segments);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].original.as_str(), r[0].replaced.as_str()),
            ("asthmaa", "asthma")
        );
        assert_eq!(
            (r[1].original.as_str(), r[1].replaced.as_str()),
            ("alergies", "allergies")
        );
    }
}
