//! A generic reader for XML record sets without a dedicated parser.
//!
//! Entrez has dozens of databases (biosample, nlmcatalog, bioproject, ...) and
//! most return XML no one here has modelled. Rather than pass raw XML to a
//! client, this turns any well-formed body into a list of [`XmlNode`] trees:
//! element name, attributes as a JSON object, collapsed text, children. That
//! is lossless for the data-style XML NCBI serves (fields in elements and
//! attributes); only the interleaving order of mixed text and inline markup
//! is lost, since an element's text pieces are joined.

use crate::error::{ParseError, ParseErrorKind};
use crate::walk::open_root;
use crate::xml::{collapse_whitespace, push_entity, Xml};
use quick_xml::events::{BytesStart, Event};
use serde::{Serialize, Serializer};

const WHAT: &str = "XML records";

/// Deepest element kept as a node; below it, subtrees are flattened into the text of the
/// deepest kept element.
pub const MAX_DEPTH: usize = 24;
/// Longest text kept per element, in characters; longer text is cut with a trailing `…`.
pub const MAX_TEXT: usize = 20_000;
/// Most elements read from one body; a body with more is refused. With [`MAX_DEPTH`] and
/// [`MAX_TEXT`], this bounds the output, so a hostile or enormous body cannot become an
/// unbounded value.
pub const MAX_NODES: usize = 200_000;

/// One element: name, attributes, text and child elements.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct XmlNode {
    /// Element name as written, prefix included.
    pub element: String,
    /// Attributes in document order, serialised as a JSON object.
    #[serde(
        serialize_with = "attributes_as_object",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub attributes: Vec<(String, String)>,
    /// The element's own text, whitespace collapsed; `None` when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Child elements in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<XmlNode>,
}

impl XmlNode {
    /// The value of attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first child element called `name`.
    pub fn child(&self, name: &str) -> Option<&XmlNode> {
        self.children.iter().find(|c| c.element == name)
    }
}

fn attributes_as_object<S: Serializer>(
    pairs: &[(String, String)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// Reads a record set: every `record_element` wherever it occurs, or else the root's children.
pub fn parse_generic(
    bytes: &[u8],
    record_element: Option<&str>,
) -> Result<Vec<XmlNode>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let mut budget = MAX_NODES;
    let root = open_root(&mut x, &[], WHAT)?;
    let Some(wanted) = record_element else {
        // Without a record name, the root's children are the records. A childless
        // root with text is itself the record; an empty one is an empty set.
        let mut root = read_node(&mut x, &root, 0, &mut budget)?;
        return Ok(match (root.children.is_empty(), root.text.is_some()) {
            (false, _) => std::mem::take(&mut root.children),
            (true, true) => vec![root],
            (true, false) => Vec::new(),
        });
    };
    let mut out = Vec::new();
    if root.local_name().as_ref() == wanted {
        out.push(read_node(&mut x, &root, 0, &mut budget)?);
        return Ok(out);
    }
    loop {
        match x.event()? {
            Event::Start(start) if start.local_name().as_ref() == wanted => {
                out.push(read_node(&mut x, &start, 0, &mut budget)?);
            }
            Event::Start(_) => spend(&mut budget)?,
            Event::Eof => return Ok(out),
            _ => {}
        }
    }
}

/// Reads the element whose start tag was just consumed, children included.
fn read_node(
    x: &mut Xml<'_>,
    start: &BytesStart<'_>,
    depth: usize,
    budget: &mut usize,
) -> Result<XmlNode, ParseError> {
    spend(budget)?;
    let mut node = XmlNode {
        element: start.name().as_ref().to_string(),
        attributes: attributes(start),
        ..XmlNode::default()
    };
    if depth >= MAX_DEPTH {
        node.text = capped(x.text()?);
        return Ok(node);
    }
    let mut text = String::new();
    loop {
        match x.event()? {
            Event::Start(child) => node.children.push(read_node(x, &child, depth + 1, budget)?),
            Event::Text(t) => text.push_str(&t.xml10_content()),
            Event::CData(c) => text.push_str(c.as_ref()),
            Event::GeneralRef(r) => push_entity(&mut text, &r),
            Event::End(_) | Event::Eof => break,
            _ => {}
        }
    }
    node.text = capped(collapse_whitespace(&text));
    Ok(node)
}

/// Counts one element against the body's budget.
fn spend(budget: &mut usize) -> Result<(), ParseError> {
    if *budget == 0 {
        return Err(ParseError {
            kind: ParseErrorKind::TooLarge,
            message: format!("the XML reply has more than {MAX_NODES} elements, more than this server reads generically"),
        });
    }
    *budget -= 1;
    Ok(())
}

/// All attributes of a start tag, names as written and values unescaped.
fn attributes(start: &BytesStart<'_>) -> Vec<(String, String)> {
    start
        .attributes()
        .flatten()
        .map(|a| {
            let value = a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.to_string());
            (a.key.as_ref().to_string(), value)
        })
        .collect()
}

/// `None` for empty text; long text cut at [`MAX_TEXT`] characters.
fn capped(text: String) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    match text.char_indices().nth(MAX_TEXT) {
        Some((cut, _)) => {
            let mut short = text[..cut].to_string();
            short.push('…');
            Some(short)
        }
        None => Some(text),
    }
}
