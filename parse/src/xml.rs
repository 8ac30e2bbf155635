//! Streaming XML reading shared by every NCBI parser.
//!
//! [`Xml`] wraps the byte-level [`Tokenizer`] (which yields quick-xml's event types) and adds
//! what NCBI bodies need: a sniff that names what came back when it is not XML (an HTML error
//! page, an empty body), refusal of DTD internal subsets that declare entities, truncation
//! detection, and text flattening for titles that carry inline HTML or MathML. Entities are
//! never expanded (see [`Xml`]).

use super::tokenizer::Tokenizer;
use crate::error::{ParseError, ParseErrorKind};
use quick_xml::events::{BytesRef, BytesStart, Event};

/// A streaming reader over a borrowed body.
///
/// Entities are never expanded. quick-xml reports `&name;` as a separate event; only the five
/// predefined entities and character references are resolved, and any other name is kept
/// literally. A billion-laughs body is refused at its DOCTYPE, before a single entity could be
/// used.
pub struct Xml<'a> {
    tokens: Tokenizer<'a>,
    depth: usize,
    what: &'static str,
}

/// An error saying what came back instead of the expected document.
pub fn unexpected(what: &str, detail: impl Into<String>) -> ParseError {
    ParseError::unexpected(what, detail)
}

impl<'a> Xml<'a> {
    /// Starts reading `bytes`, which should hold `what` (e.g. "PubMed XML").
    pub fn new(bytes: &'a [u8], what: &'static str) -> Result<Xml<'a>, ParseError> {
        sniff(bytes, what)?;
        Ok(Xml {
            tokens: Tokenizer::new(bytes),
            depth: 0,
            what,
        })
    }

    /// Current element depth (0 outside the root).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The next event; errors on malformed XML, entity declarations and truncation.
    pub fn event(&mut self) -> Result<Event<'a>, ParseError> {
        let event = self.tokens.next_event().map_err(|e| {
            unexpected(
                self.what,
                format!("malformed XML at byte {}: {}", e.at, e.message),
            )
        })?;
        match &event {
            Event::Start(_) => self.depth += 1,
            Event::End(_) => self.depth = self.depth.saturating_sub(1),
            Event::DocType(d) => {
                let text: &str = d.as_ref();
                if text.contains("<!ENTITY") {
                    return Err(unexpected(
                        self.what,
                        "the document declares its own DTD entities, which this server refuses to expand",
                    )
                    .of_kind(ParseErrorKind::EntitiesRefused));
                }
            }
            Event::Eof if self.depth > 0 => {
                return Err(unexpected(
                    self.what,
                    format!(
                        "the document ends inside {} open element(s): it was truncated in transit",
                        self.depth
                    ),
                )
                .of_kind(ParseErrorKind::Truncated));
            }
            _ => {}
        }
        Ok(event)
    }

    /// After a `Start`, the element's text with inline markup flattened and spaces collapsed.
    pub fn text(&mut self) -> Result<String, ParseError> {
        let mut out = String::new();
        self.text_into(&mut out)?;
        Ok(collapse_whitespace(&out))
    }

    /// After a `Start`, appends the element's raw text (markup dropped, spaces kept) to `out`.
    pub fn text_into(&mut self, out: &mut String) -> Result<(), ParseError> {
        let target = self.depth;
        loop {
            match self.event()? {
                Event::Text(t) => out.push_str(&t.xml10_content()),
                Event::CData(c) => out.push_str(c.as_ref()),
                Event::GeneralRef(r) => push_entity(out, &r),
                // Block-level children read as separate words: "<p>a</p><p>b</p>" is "a b".
                Event::Start(s) if is_block(s.local_name().as_ref()) => out.push(' '),
                Event::End(_) if self.depth < target => return Ok(()),
                Event::Eof => return Ok(()),
                _ => {}
            }
        }
    }

    /// After a `Start`, skips to the matching `End`.
    pub fn skip(&mut self) -> Result<(), ParseError> {
        if self.tokens.skip_element() {
            self.depth = self.depth.saturating_sub(1);
            return Ok(());
        }
        let target = self.depth;
        loop {
            match self.event()? {
                Event::End(_) if self.depth < target => return Ok(()),
                Event::Eof => return Ok(()),
                _ => {}
            }
        }
    }
}

/// Calls `f` for each child element of the element just started; children `f` leaves unread are skipped.
pub fn each_child<'a, F>(x: &mut Xml<'a>, mut f: F) -> Result<(), ParseError>
where
    F: FnMut(&mut Xml<'a>, &str, &BytesStart<'a>) -> Result<(), ParseError>,
{
    let depth = x.depth();
    loop {
        match x.event()? {
            Event::Start(start) => {
                let name = start.local_name();
                f(x, name.as_ref(), &start)?;
                // A handler that ignores a child must not leave us inside it,
                // or its grandchildren would be read as our children.
                if x.depth() > depth {
                    x.skip()?;
                }
            }
            Event::End(_) if x.depth() < depth => return Ok(()),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// Calls `f` for each child element named `tag` of the element just started (with its start
/// tag); other children are skipped. The loop most record lists are: `<GBSeq_keywords>` of
/// `<GBKeyword>`s, `<LineageEx>` of `<Taxon>`s.
pub fn each_named<'a, F>(x: &mut Xml<'a>, tag: &str, mut f: F) -> Result<(), ParseError>
where
    F: FnMut(&mut Xml<'a>, &BytesStart<'a>) -> Result<(), ParseError>,
{
    each_child(
        x,
        |x, name, start| {
            if name == tag {
                f(x, start)
            } else {
                Ok(())
            }
        },
    )
}

/// An attribute value, unescaped, if present.
pub fn attr(start: &BytesStart<'_>, name: &str) -> Option<String> {
    start
        .attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .map(|a| {
            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .unwrap_or_else(|_| a.value.to_string())
        })
}

/// Appends the text an entity reference stands for; unknown names stay literal.
pub fn push_entity(out: &mut String, r: &BytesRef<'_>) {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        out.push(c);
        return;
    }
    let name: &str = r.as_ref();
    match name {
        "amp" => out.push('&'),
        "lt" => out.push('<'),
        "gt" => out.push('>'),
        "quot" => out.push('"'),
        "apos" => out.push('\''),
        other => {
            out.push('&');
            out.push_str(other);
            out.push(';');
        }
    }
}

/// Collapses runs of whitespace to one space and trims the ends.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "br" | "div" | "li" | "title" | "sec" | "AbstractText"
    )
}

/// Refuses bodies that are plainly not XML, naming what they are instead.
pub fn sniff(bytes: &[u8], what: &str) -> Result<(), ParseError> {
    let head: String = String::from_utf8_lossy(&bytes[..bytes.len().min(2048)]).into_owned();
    let trimmed = head.trim_start_matches('\u{feff}').trim_start();
    if trimmed.is_empty() {
        return Err(unexpected(what, "the body was empty").of_kind(ParseErrorKind::Empty));
    }
    let lower = trimmed.to_ascii_lowercase();
    if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        let title = lower
            .find("<title>")
            .and_then(|i| {
                let rest = &trimmed[i + 7..];
                rest.find('<').map(|j| rest[..j].trim().to_string())
            })
            .unwrap_or_default();
        return Err(unexpected(
            what,
            format!(
                "NCBI sent an HTML page{} where XML was expected",
                if title.is_empty() {
                    String::new()
                } else {
                    format!(" titled \"{title}\"")
                }
            ),
        )
        .of_kind(ParseErrorKind::Html));
    }
    if !trimmed.starts_with('<') {
        let preview: String = trimmed.chars().take(80).collect();
        return Err(unexpected(
            what,
            format!("the body is not XML; it starts with {preview:?}"),
        )
        .of_kind(ParseErrorKind::NotXml));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/../tests/fixtures/ncbi/eutils/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    }

    fn drain(bytes: &[u8]) -> Result<usize, ParseError> {
        let mut x = Xml::new(bytes, "test XML")?;
        let mut n = 0;
        loop {
            if let Event::Eof = x.event()? {
                return Ok(n);
            }
            n += 1;
        }
    }

    #[test]
    fn html_where_xml_was_expected_is_named() {
        let e = drain(&fixture("pubmed3.html")).unwrap_err();
        assert_eq!(e.code(), "html_instead_of_xml");
        assert!(
            e.message.contains("HTML page titled \"PmFetch response\""),
            "{}",
            e.message
        );
    }

    #[test]
    fn truncated_einfo_is_reported_as_truncated() {
        let e = drain(&fixture("einfo4.xml")).unwrap_err();
        assert_eq!(e.code(), "truncated_response", "{}", e.message);
    }

    #[test]
    fn billion_laughs_is_refused_at_the_doctype() {
        let mut body =
            String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
        for i in 1..10 {
            body.push_str(&format!(
                "<!ENTITY lol{i} \"{}\">\n",
                format!(
                    "&lol{};",
                    if i == 1 {
                        String::new()
                    } else {
                        (i - 1).to_string()
                    }
                )
                .repeat(10)
            ));
        }
        body.push_str("]>\n<lolz>&lol9;</lolz>");
        let e = drain(body.as_bytes()).unwrap_err();
        assert_eq!(e.code(), "xml_entities_refused");
    }

    #[test]
    fn unknown_entities_stay_literal_and_known_ones_resolve() {
        let mut x = Xml::new(b"<a>x &amp; y &#945; &undefined; <i>z</i></a>", "t").unwrap();
        assert!(matches!(x.event().unwrap(), Event::Start(_)));
        assert_eq!(x.text().unwrap(), "x & y \u{3b1} &undefined; z");
    }

    #[test]
    fn empty_and_non_xml_bodies_are_named() {
        assert_eq!(drain(b"  \n").unwrap_err().code(), "empty_response");
        assert_eq!(drain(b"{\"error\":\"x\"}").unwrap_err().code(), "not_xml");
    }
}
