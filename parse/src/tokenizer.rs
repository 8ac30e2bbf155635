//! The byte-level XML tokenizer under [`super::xml::Xml`].
//!
//! quick-xml 0.42's borrowing reader validates UTF-8 again for every event
//! and walks tags byte by byte; on a 12.6 MB PubMed body that was two thirds
//! of the whole parse. NCBI's bodies are plain XML 1.0, so this tokenizer
//! validates the body once, then finds markup with `memchr` and slices the
//! already-valid `&str` at ASCII delimiters, handing the parsers the same
//! quick-xml event types they already match on.

use memchr::{memchr, memchr2, memchr3, memmem};
use quick_xml::events::{BytesCData, BytesEnd, BytesPI, BytesRef, BytesStart, BytesText, Event};

/// Where the body stopped being XML, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// Byte offset of the problem.
    pub at: usize,
    /// What was wrong.
    pub message: String,
}

/// Events over one borrowed body.
///
/// What it guarantees, as quick-xml did with the settings this project used: every start
/// tag is matched by its end tag (`check_end_names`), an empty element `<a/>` is reported as
/// a start and an end (`expand_empty_elements`), quotes are honoured inside tags, and entity
/// references come as separate [`Event::GeneralRef`] events and are never expanded. A
/// DOCTYPE is returned whole (internal subset included) so the reader can refuse entity
/// declarations.
pub struct Tokenizer<'a> {
    src: &'a str,
    pos: usize,
    open: Vec<&'a str>,
    /// The end event owed for an empty element just reported as a start.
    owed_end: Option<&'a str>,
    /// Invalid UTF-8 inside the body (not at its cut-off end), reported on first use.
    invalid: Option<Malformed>,
    /// Searchers for the names skipped so far: a body skips the same few elements
    /// (comments, references, grants) in every record, and building one costs more
    /// than searching a short element with it.
    finders: Vec<(&'a str, memmem::Finder<'a>)>,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `bytes`, which are checked for UTF-8 once, here. A body cut off inside
    /// a multi-byte character ends where its valid text ends, which the reader then reports
    /// as truncation.
    pub fn new(bytes: &'a [u8]) -> Tokenizer<'a> {
        let (src, invalid) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, None),
            Err(e) => {
                let valid = &bytes[..e.valid_up_to()];
                // Safe to re-check: the prefix up to valid_up_to is valid UTF-8 by definition.
                let prefix = std::str::from_utf8(valid).unwrap_or_default();
                let invalid = e.error_len().map(|_| Malformed {
                    at: e.valid_up_to(),
                    message: "invalid UTF-8".to_string(),
                });
                (prefix, invalid)
            }
        };
        let src = src.strip_prefix('\u{feff}').unwrap_or(src);
        Tokenizer {
            src,
            pos: 0,
            open: Vec::new(),
            owed_end: None,
            invalid,
            finders: Vec::new(),
        }
    }

    /// Byte offset of the next event (within the body after any byte-order mark).
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Right after the start of an element, jumps past its end without producing the
    /// events in between; false (nothing consumed) when it cannot be done safely.
    ///
    /// Parsers skip the parts they do not read (a PubMed article's comments,
    /// references and grants are a third of its bytes), and finding the end tag
    /// directly is many times faster than tokenizing what lies before it. Raw `<`
    /// cannot occur in XML text or attribute values, so `<name` and `</name` only
    /// occur as tags, except inside comments and CDATA: a region holding `<!` is
    /// left to the ordinary event loop, as is one with no end tag (a truncated body).
    pub fn skip_element(&mut self) -> bool {
        if self.owed_end.take().is_some() {
            return true;
        }
        let Some(&name) = self.open.last() else {
            return false;
        };
        let bytes = self.bytes();
        let n = name.len();
        let mut depth = 1usize;
        let mut at = self.pos;
        let slot = match self.finders.iter().position(|(n, _)| *n == name) {
            Some(i) => i,
            None => {
                self.finders
                    .push((name, memmem::Finder::new(name.as_bytes())));
                self.finders.len() - 1
            }
        };
        while let Some(k) = self.finders[slot].1.find(&bytes[at..]) {
            let hit = at + k;
            at = hit + n;
            let after = bytes.get(hit + n).copied();
            let bounded = matches!(after, Some(b'>' | b'/' | b' ' | b'\t' | b'\r' | b'\n'));
            if !bounded || hit == 0 {
                continue;
            }
            if bytes[hit - 1] == b'<' {
                // A nested element of the same name, unless it closes itself.
                if let Ok(close) = self.tag_close(hit) {
                    if bytes[close - 1] != b'/' {
                        depth += 1;
                    }
                    at = close + 1;
                }
            } else if hit >= 2 && bytes[hit - 2] == b'<' && bytes[hit - 1] == b'/' {
                depth -= 1;
                if depth == 0 {
                    let Some(close) = memchr(b'>', &bytes[at..]).map(|i| at + i) else {
                        return false;
                    };
                    if memmem::find(&bytes[self.pos..hit], b"<!").is_some() {
                        return false;
                    }
                    self.open.pop();
                    self.pos = close + 1;
                    return true;
                }
            }
        }
        false
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    fn malformed(&self, at: usize, message: impl Into<String>) -> Malformed {
        Malformed {
            at,
            message: message.into(),
        }
    }

    /// The next event; [`Event::Eof`] at the end, again on every later call.
    pub fn next_event(&mut self) -> Result<Event<'a>, Box<Malformed>> {
        if let Some(bad) = self.invalid.take() {
            return Err(Box::new(bad));
        }
        if let Some(name) = self.owed_end.take() {
            return Ok(Event::End(BytesEnd::new(name)));
        }
        let bytes = self.bytes();
        let start = self.pos;
        match bytes.get(start) {
            None => Ok(Event::Eof),
            Some(b'<') => self.markup(start).map_err(Box::new),
            Some(b'&') => Ok(self.reference(start)),
            Some(_) => {
                let end = text_end(bytes, start);
                self.pos = end;
                Ok(Event::Text(BytesText::from_escaped(&self.src[start..end])))
            }
        }
    }

    /// `&name;` as a reference event; a lone `&` is kept as text.
    fn reference(&mut self, start: usize) -> Event<'a> {
        let bytes = self.bytes();
        match memchr3(b';', b'&', b'<', &bytes[start + 1..]) {
            Some(i) if bytes[start + 1 + i] == b';' => {
                let end = start + 1 + i;
                self.pos = end + 1;
                Event::GeneralRef(BytesRef::new(&self.src[start + 1..end]))
            }
            found => {
                let end = found.map_or(bytes.len(), |i| start + 1 + i);
                self.pos = end;
                Event::Text(BytesText::from_escaped(&self.src[start..end]))
            }
        }
    }

    fn markup(&mut self, start: usize) -> Result<Event<'a>, Malformed> {
        let rest = &self.bytes()[start..];
        if rest.starts_with(b"</") {
            self.end_tag(start)
        } else if rest.starts_with(b"<!--") {
            let end = self.find(start + 4, b"-->", "comment")?;
            self.pos = end + 3;
            Ok(Event::Comment(BytesText::from_escaped(
                &self.src[start + 4..end],
            )))
        } else if rest.starts_with(b"<![CDATA[") {
            let end = self.find(start + 9, b"]]>", "CDATA section")?;
            self.pos = end + 3;
            Ok(Event::CData(BytesCData::new(&self.src[start + 9..end])))
        } else if rest.len() >= 9 && rest[2..9].eq_ignore_ascii_case(b"DOCTYPE") && rest[1] == b'!'
        {
            self.doctype(start)
        } else if rest.starts_with(b"<?") {
            let end = self.find(start + 2, b"?>", "processing instruction")?;
            self.pos = end + 2;
            Ok(Event::PI(BytesPI::new(&self.src[start + 2..end])))
        } else if rest.starts_with(b"<!") {
            Err(self.malformed(start, "unknown `<!` markup"))
        } else {
            self.start_tag(start)
        }
    }

    fn find(&self, from: usize, needle: &[u8], what: &str) -> Result<usize, Malformed> {
        memmem::find(&self.bytes()[from..], needle)
            .map(|i| from + i)
            .ok_or_else(|| self.malformed(from, format!("unclosed {what}")))
    }

    /// Index of the `>` closing the tag that starts at `from`, skipping quoted values.
    ///
    /// Tags are short, so a plain loop beats setting up a vectorised search.
    fn tag_close(&self, from: usize) -> Result<usize, Malformed> {
        let bytes = self.bytes();
        let mut i = from;
        while i < bytes.len() {
            match bytes[i] {
                b'>' => return Ok(i),
                quote @ (b'"' | b'\'') => match memchr(quote, &bytes[i + 1..]) {
                    Some(q) => i += q + 2,
                    None => return Err(self.malformed(i, "unclosed attribute value")),
                },
                _ => i += 1,
            }
        }
        Err(self.malformed(from, "unclosed tag"))
    }

    fn start_tag(&mut self, start: usize) -> Result<Event<'a>, Malformed> {
        let close = self.tag_close(start + 1)?;
        let bytes = self.bytes();
        let empty = close > start + 1 && bytes[close - 1] == b'/';
        let content = self.src[start + 1..if empty { close - 1 } else { close }].trim_end();
        let name_len = content
            .bytes()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(content.len());
        if name_len == 0 {
            return Err(self.malformed(start, "a tag without a name"));
        }
        let name = &content[..name_len];
        self.pos = close + 1;
        if empty {
            self.owed_end = Some(name);
        } else {
            self.open.push(name);
        }
        Ok(Event::Start(BytesStart::from_content(content, name_len)))
    }

    fn end_tag(&mut self, start: usize) -> Result<Event<'a>, Malformed> {
        let close = self.bytes()[start..]
            .iter()
            .position(|&b| b == b'>')
            .map(|i| start + i)
            .ok_or_else(|| self.malformed(start, "unclosed end tag"))?;
        let name = self.src[start + 2..close].trim_end();
        match self.open.pop() {
            Some(open) if open == name => {
                self.pos = close + 1;
                Ok(Event::End(BytesEnd::new(name)))
            }
            Some(open) => Err(self.malformed(
                start,
                format!("expected `</{open}>`, but `</{name}>` was found"),
            )),
            None => Err(self.malformed(start, format!("`</{name}>` closes nothing"))),
        }
    }

    /// `<!DOCTYPE ...>` including any `[...]` internal subset, returned whole.
    fn doctype(&mut self, start: usize) -> Result<Event<'a>, Malformed> {
        let bytes = self.bytes();
        let mut depth = 0usize;
        let mut quote: Option<u8> = None;
        for (k, &b) in bytes[start + 9..].iter().enumerate() {
            match (quote, b) {
                (Some(q), _) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') => quote = Some(b),
                (None, b'[') => depth += 1,
                (None, b']') => depth = depth.saturating_sub(1),
                (None, b'>') if depth == 0 => {
                    let end = start + 9 + k;
                    self.pos = end + 1;
                    return Ok(Event::DocType(BytesText::from_escaped(
                        self.src[start + 9..end].trim(),
                    )));
                }
                _ => {}
            }
        }
        Err(self.malformed(start, "unclosed DOCTYPE"))
    }
}

/// End of the text run at `start`: the next `<` or `&`. Most runs between tags are a
/// few bytes of indentation, which a plain loop finds sooner than a vectorised search.
fn text_end(bytes: &[u8], start: usize) -> usize {
    let near = bytes.len().min(start + 16);
    if let Some(i) = bytes[start..near]
        .iter()
        .position(|&b| b == b'<' || b == b'&')
    {
        return start + i;
    }
    memchr2(b'<', b'&', &bytes[near..]).map_or(bytes.len(), |i| near + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(xml: &str) -> Vec<String> {
        let mut t = Tokenizer::new(xml.as_bytes());
        let mut out = Vec::new();
        loop {
            match t.next_event() {
                Ok(Event::Eof) => return out,
                Ok(Event::Start(s)) => out.push(format!(
                    "<{}{}>",
                    s.name().as_ref(),
                    s.attributes()
                        .map(|a| {
                            let a = a.unwrap();
                            format!(" {}={}", a.key.as_ref(), a.value)
                        })
                        .collect::<String>()
                )),
                Ok(Event::End(e)) => out.push(format!("</{}>", e.name().as_ref())),
                Ok(Event::Text(x)) => out.push(format!("t:{}", x.xml10_content())),
                Ok(Event::GeneralRef(r)) => out.push(format!("&{};", &*r)),
                Ok(Event::CData(c)) => out.push(format!("cdata:{}", &*c)),
                Ok(Event::DocType(d)) => out.push(format!("doctype:{}", &*d)),
                Ok(Event::PI(_)) => out.push("pi".into()),
                Ok(Event::Comment(_)) => out.push("comment".into()),
                Ok(other) => out.push(format!("{other:?}")),
                Err(e) => {
                    out.push(format!("error at {}: {}", e.at, e.message));
                    return out;
                }
            }
        }
    }

    #[test]
    fn tags_text_references_and_empty_elements() {
        assert_eq!(
            events(
                r#"<?xml version="1.0"?><a x="1 > 2" y='q"'>A &amp; B<b/><![CDATA[<i>]]><!-- c --></a>"#
            ),
            vec![
                "pi",
                "<a x=1 > 2 y=q\">",
                "t:A ",
                "&amp;",
                "t: B",
                "<b>",
                "</b>",
                "cdata:<i>",
                "comment",
                "</a>"
            ]
        );
    }

    #[test]
    fn mismatched_unclosed_and_truncated_bodies() {
        assert_eq!(
            events("<a><b></a>").last().unwrap(),
            "error at 6: expected `</b>`, but `</a>` was found"
        );
        assert_eq!(events("<a><b").last().unwrap(), "error at 4: unclosed tag");
        // A lone ampersand is text, and the reader sees the body end with an element open.
        assert_eq!(events("<a>x & y"), vec!["<a>", "t:x ", "t:& y"]);
        // Cut inside a multi-byte character: the valid prefix is the body.
        let cut = "<a>caf\u{e9}".as_bytes();
        let mut t = Tokenizer::new(&cut[..cut.len() - 1]);
        assert!(matches!(t.next_event(), Ok(Event::Start(_))));
        assert!(matches!(t.next_event(), Ok(Event::Text(ref x)) if &**x == "caf"));
        assert!(matches!(t.next_event(), Ok(Event::Eof)));
        // Invalid bytes inside the body are an error, not silently dropped.
        let mut bad = Tokenizer::new(b"<a>\xff</a>");
        assert_eq!(bad.next_event().unwrap_err().message, "invalid UTF-8");
    }

    #[test]
    fn skipping_jumps_to_the_matching_end_and_falls_back_when_unsure() {
        let xml = "<r><a x='<a'><a>1</a><a/><ab>2</ab></a><b>3</b></r>";
        let mut t = Tokenizer::new(xml.as_bytes());
        assert!(matches!(t.next_event(), Ok(Event::Start(_))));
        assert!(matches!(t.next_event(), Ok(Event::Start(ref s)) if s.name().as_ref() == "a"));
        assert!(t.skip_element());
        assert!(matches!(t.next_event(), Ok(Event::Start(ref s)) if s.name().as_ref() == "b"));
        assert!(matches!(t.next_event(), Ok(Event::Text(_))));
        assert!(matches!(t.next_event(), Ok(Event::End(_))));
        assert!(matches!(t.next_event(), Ok(Event::End(ref e)) if e.name().as_ref() == "r"));
        // A comment inside, or no end at all: nothing is consumed, the caller reads events.
        for body in ["<r><a><!-- </a> --></a></r>", "<r><a><b>"] {
            let mut t = Tokenizer::new(body.as_bytes());
            t.next_event().unwrap();
            t.next_event().unwrap();
            let at = t.position();
            assert!(!t.skip_element(), "{body}");
            assert_eq!(t.position(), at);
        }
    }

    #[test]
    fn doctype_is_returned_whole_with_its_internal_subset() {
        let e = events(
            r#"<!DOCTYPE lolz [<!ENTITY lol "lol"><!ELEMENT lolz (#PCDATA)>]><lolz>&lol;</lolz>"#,
        );
        assert_eq!(
            e[0],
            r#"doctype:lolz [<!ENTITY lol "lol"><!ELEMENT lolz (#PCDATA)>]"#
        );
        assert_eq!(&e[1..], ["<lolz>", "&lol;", "</lolz>"]);
    }
}
