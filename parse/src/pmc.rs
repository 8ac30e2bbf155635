//! PMC full text (`efetch db=pmc`, JATS inside a `pmc-articleset`) to records.
//!
//! JATS is large and permissive: the same fact can sit in several places and a body can nest
//! sections to any depth. An assistant wants the front matter (ids, title, journal, date,
//! authors with their affiliations, abstract, keywords, licence) and the body as a flat list
//! of titled sections in reading order, each with its paragraphs as plain text. Reference
//! lists, floats and processing metadata are skipped unread; figures and tables give their
//! label and caption, not their cells.

mod front;

use self::front::{article_meta, journal_meta, Front};
use crate::error::ParseError;
use crate::pubmed::flatten::opt_text;
use crate::pubmed::read::{attr_raw, children, local, root, truncation};
use crate::pubmed::Author;
use crate::xml::Xml;
use quick_xml::events::Event;
use serde::Serialize;

const WHAT: &str = "PMC XML";

/// Deepest section level kept as its own section.
///
/// Sections nest by recursion, so nesting is capped here: deeper sections are folded into
/// their parent's text, and a hostile document cannot exhaust the stack.
pub const MAX_LEVEL: usize = 12;

/// One PMC article.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PmcArticle {
    /// PMC id with its PMC prefix.
    pub pmcid: Option<String>,
    /// PubMed id, when the article is also in PubMed.
    pub pmid: Option<String>,
    /// DOI.
    pub doi: Option<String>,
    /// JATS article-type, e.g. "research-article" or "correction".
    pub article_type: Option<String>,
    /// Article title as plain text.
    pub title: String,
    /// Journal title.
    pub journal: Option<String>,
    /// ISO (or NLM) journal abbreviation.
    pub iso_abbreviation: Option<String>,
    /// The first ISSN listed.
    pub issn: Option<String>,
    /// Volume.
    pub volume: Option<String>,
    /// Issue.
    pub issue: Option<String>,
    /// Publication year, from the electronic, print or collection date in that order.
    pub year: Option<i32>,
    /// That date as text, e.g. "2021 Sep 13".
    pub pub_date: Option<String>,
    /// Authors with resolved affiliations.
    pub authors: Vec<Author>,
    /// The main abstract, one line per paragraph ("Title: text" for titled parts).
    pub abstract_text: Option<String>,
    /// Keywords from every keyword group.
    pub keywords: Vec<String>,
    /// The licence statement.
    pub license: Option<String>,
    /// The licence URL (e.g. a Creative Commons deed).
    pub license_url: Option<String>,
    /// Body sections flattened in document order.
    pub sections: Vec<Section>,
    /// Funding statements (or award sources and ids), from the front matter; read by full
    /// text, not part of the record.
    #[serde(skip)]
    pub funding: Vec<String>,
    /// Figures and tables with their captions and (tables) rows, in document order; read by
    /// full text, not part of the record.
    #[serde(skip)]
    pub floats: Vec<Float>,
}

/// A figure or table: label, caption, and a table's rows as text (cells joined by ` | `).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Float {
    /// `figure` or `table`.
    pub kind: &'static str,
    /// E.g. "Table 1".
    pub label: Option<String>,
    /// The caption's text (title and paragraphs).
    pub caption: Option<String>,
    /// A table's rows, header rows first; empty for figures.
    pub rows: Vec<String>,
    /// The position of the section it sits in.
    pub section: usize,
}

/// One section of the body, its paragraphs as text.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Section {
    /// Index in document order, from 0.
    pub position: usize,
    /// Nesting level: 1 for a top-level `sec`, 0 for text directly in the body.
    pub level: usize,
    /// The section title, if it has one.
    pub title: Option<String>,
    /// Paragraphs separated by blank lines.
    pub text: String,
    /// Whether it is back matter (acknowledgements, appendices, notes); not part of the record.
    #[serde(skip)]
    pub back: bool,
}

impl PmcArticle {
    /// Each section's heading path: the titles from its top-level section down, joined by
    /// " > " ("" for text directly in the body; "(untitled)" for a section without a title).
    pub fn heading_paths(&self) -> Vec<String> {
        let mut stack: Vec<String> = Vec::new();
        self.sections
            .iter()
            .map(|s| {
                stack.truncate(s.level.saturating_sub(1));
                if s.level > 0 {
                    stack.push(
                        s.title
                            .clone()
                            .filter(|t| !t.is_empty())
                            .unwrap_or_else(|| "(untitled)".into()),
                    );
                }
                stack.join(" > ")
            })
            .collect()
    }
}

/// Parses an `efetch db=pmc` body into articles.
pub fn parse_pmc(bytes: &[u8]) -> Result<Vec<PmcArticle>, ParseError> {
    parse(bytes).map_err(|e| truncation(e, bytes, WHAT))
}

fn parse(bytes: &[u8]) -> Result<Vec<PmcArticle>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let top = root(&mut x, &["pmc-articleset", "article"], WHAT)?;
    let mut out = Vec::new();
    let mut errors = Vec::new();
    if local(&top) == "article" {
        out.push(article(
            &mut x,
            attr_raw(&top, "article-type").map(|t| t.into_owned()),
        )?);
    } else {
        children(&mut x, |x, s, name| {
            match name {
                "article" => out.push(article(
                    x,
                    attr_raw(s, "article-type").map(|t| t.into_owned()),
                )?),
                "error" | "ERROR" => errors.extend(opt_text(x)?),
                _ => {}
            }
            Ok(())
        })?;
    }
    loop {
        match x.event()? {
            Event::Eof => break,
            Event::Start(_) => x.skip()?,
            _ => {}
        }
    }
    if out.is_empty() && !errors.is_empty() {
        return Err(crate::body_errors::ncbi_error(&errors));
    }
    Ok(out)
}

fn article(x: &mut Xml<'_>, article_type: Option<String>) -> Result<PmcArticle, ParseError> {
    let mut rec = PmcArticle {
        article_type,
        ..PmcArticle::default()
    };
    let mut front = Front::default();
    children(x, |x, _, name| {
        match name {
            "front" => children(x, |x, _, name| {
                match name {
                    "journal-meta" => journal_meta(x, &mut rec)?,
                    "article-meta" => article_meta(x, &mut rec, &mut front)?,
                    _ => {}
                }
                Ok(())
            })?,
            "body" => body(x, &mut rec.sections, &mut rec.floats)?,
            "back" => {
                let from = rec.sections.len();
                children(x, |x, _, name| {
                    match name {
                        "ack" | "sec" | "app" | "notes" => section(
                            x,
                            &mut rec.sections,
                            &mut rec.floats,
                            1,
                            default_title(name),
                        )?,
                        "app-group" => children(x, |x, _, name| {
                            if name == "app" {
                                section(x, &mut rec.sections, &mut rec.floats, 1, None)?;
                            }
                            Ok(())
                        })?,
                        _ => {}
                    }
                    Ok(())
                })?;
                for s in &mut rec.sections[from..] {
                    s.back = true;
                }
            }
            _ => {}
        }
        Ok(())
    })?;
    front.resolve(&mut rec);
    Ok(rec)
}

fn default_title(name: &str) -> Option<&'static str> {
    (name == "ack").then_some("Acknowledgments")
}

fn body(
    x: &mut Xml<'_>,
    out: &mut Vec<Section>,
    floats: &mut Vec<Float>,
) -> Result<(), ParseError> {
    // Paragraphs directly in <body> (a short correction, an editorial) gather
    // into an untitled level-0 section opened where the first one appears.
    let mut loose: Option<usize> = None;
    children(x, |x, _, name| {
        if name == "sec" {
            loose = None;
            return section(x, out, floats, 1, None);
        }
        let idx = *loose.get_or_insert_with(|| {
            out.push(Section {
                position: out.len(),
                ..Section::default()
            });
            out.len() - 1
        });
        block(x, name, &mut out[idx].text, floats, idx)
    })?;
    // Dropping an empty loose section moves the positions after it; floats follow them.
    let kept: Vec<usize> = out
        .iter()
        .enumerate()
        .filter(|(_, s)| s.level > 0 || !s.text.is_empty())
        .map(|(i, _)| i)
        .collect();
    for f in floats.iter_mut() {
        f.section = kept
            .iter()
            .position(|&i| i >= f.section)
            .unwrap_or(f.section);
    }
    out.retain(|s| s.level > 0 || !s.text.is_empty());
    for (i, s) in out.iter_mut().enumerate() {
        s.position = i;
    }
    Ok(())
}

fn section(
    x: &mut Xml<'_>,
    out: &mut Vec<Section>,
    floats: &mut Vec<Float>,
    level: usize,
    title: Option<&str>,
) -> Result<(), ParseError> {
    let idx = out.len();
    out.push(Section {
        position: idx,
        level,
        title: title.map(str::to_string),
        ..Section::default()
    });
    children(x, |x, _, name| match name {
        "title" => {
            out[idx].title = opt_text(x)?;
            Ok(())
        }
        "label" => Ok(()),
        "sec" if level < MAX_LEVEL => section(x, out, floats, level + 1, None),
        _ => block(x, name, &mut out[idx].text, floats, idx),
    })
}

/// One block-level child of a section, appended to `text` as a paragraph; a figure or table
/// adds its "label: caption" there and itself to `floats`.
fn block(
    x: &mut Xml<'_>,
    name: &str,
    text: &mut String,
    floats: &mut Vec<Float>,
    section: usize,
) -> Result<(), ParseError> {
    let paragraph = match name {
        "fig" | "table-wrap" => {
            let mut f = float(x, name)?;
            f.section = section;
            let line = match (&f.label, &f.caption) {
                (Some(l), Some(c)) => Some(format!("{l}: {c}")),
                (l, c) => c.clone().or(l.clone()),
            };
            floats.push(f);
            line
        }
        "title" | "label" | "ref-list" | "fn-group" | "supplementary-material" => return Ok(()),
        _ => opt_text(x)?,
    };
    if let Some(p) = paragraph {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        text.push_str(&p);
    }
    Ok(())
}

/// A figure or table: its label, caption and (tables) rows.
fn float(x: &mut Xml<'_>, name: &str) -> Result<Float, ParseError> {
    let mut f = Float {
        kind: if name == "fig" { "figure" } else { "table" },
        ..Float::default()
    };
    children(x, |x, _, name| {
        match name {
            "label" => f.label = opt_text(x)?,
            "caption" => f.caption = opt_text(x)?,
            "table" if f.kind == "table" => rows(x, &mut f.rows, 0)?,
            "alternatives" if f.kind == "table" => children(x, |x, _, name| {
                if name == "table" && f.rows.is_empty() {
                    rows(x, &mut f.rows, 0)?;
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(f)
}

/// A table's rows (in `thead`, `tbody`, `tfoot` or directly in the table), each as its cells'
/// text joined by ` | `.
fn rows(x: &mut Xml<'_>, out: &mut Vec<String>, depth: usize) -> Result<(), ParseError> {
    children(x, |x, _, name| match name {
        "tr" => {
            let mut cells = Vec::new();
            children(x, |x, _, name| {
                if matches!(name, "td" | "th") {
                    cells.push(opt_text(x)?.unwrap_or_default());
                }
                Ok(())
            })?;
            out.push(cells.join(" | "));
            Ok(())
        }
        "thead" | "tbody" | "tfoot" if depth < 2 => rows(x, out, depth + 1),
        _ => Ok(()),
    })
}
