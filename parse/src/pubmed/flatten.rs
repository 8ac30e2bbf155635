//! Inline markup flattened to readable text, shared by the literature parsers.
//!
//! PubMed titles and abstracts carry HTML (`<i>`, `<sup>`, `<sub>`, `<u>`) and
//! MathML; JATS bodies carry much more (links, cross-references, formulas with
//! several renderings). An assistant reading a record wants one line of plain
//! text, so markup is dropped, runs of whitespace become one space ([`Flat`]),
//! and a few constructs get special care ([`flatten_skipping`]).

use super::read::local;
use crate::error::ParseError;
use crate::xml::Xml;
use memchr::{memchr3, memchr3_iter, memchr_iter, memmem};
use quick_xml::events::{BytesRef, Event};
use std::sync::LazyLock;

/// A string being built with whitespace collapsed on the fly: whitespace is collapsed while
/// copying, so each field costs one allocation.
#[derive(Default)]
pub(crate) struct Flat {
    out: String,
    pending_space: bool,
}

impl Flat {
    /// Appends text, turning each run of whitespace (ASCII or Unicode, e.g. NBSP) into one space.
    pub(crate) fn push_text(&mut self, s: &str) {
        if self.out.capacity() == 0 {
            // Most fields are one text event: one allocation of about the right size.
            self.out.reserve(s.len());
        }
        if already_collapsed(s) {
            // The usual case (words and single spaces): one copy instead of one per word.
            if !s.is_empty() {
                self.flush_space();
                self.out.push_str(s);
            }
            return;
        }
        let bytes = s.as_bytes();
        let mut i = 0;
        let mut word_start = 0;
        while i < bytes.len() {
            let width = space_width(s, i);
            if width == 0 {
                i += 1;
                continue;
            }
            if i > word_start {
                self.flush_space();
                self.out.push_str(&s[word_start..i]);
            }
            self.pending_space = true;
            i += width;
            word_start = i;
        }
        if i > word_start {
            self.flush_space();
            self.out.push_str(&s[word_start..i]);
        }
    }

    /// Appends a math token: surrounding indentation is dropped, not turned into a space.
    fn push_token(&mut self, s: &str) {
        let token = s.trim();
        if token.is_empty() {
            return;
        }
        self.push_text(token);
        // The next token joins this one directly: MathML indentation is not a space.
        self.pending_space = false;
    }

    /// Appends a markup tag: a pending space goes before an opening tag and after a
    /// closing one, so "of <i>E. coli</i> to" keeps its spaces outside the tags.
    fn push_tag(&mut self, tag: &str) {
        if tag.starts_with("</") {
            let pending = self.pending_space;
            self.pending_space = false;
            self.out.push_str(tag);
            self.pending_space = pending;
        } else {
            self.flush_space();
            self.out.push_str(tag);
        }
    }

    /// Marks a word boundary (block elements, paragraph breaks).
    pub(crate) fn space(&mut self) {
        self.pending_space = true;
    }

    /// Appends another flattened string as one token.
    fn push_flat(&mut self, other: Flat) {
        if !other.out.is_empty() {
            self.flush_space();
            self.out.push_str(&other.out);
        }
    }

    fn flush_space(&mut self) {
        if self.pending_space && !self.out.is_empty() {
            self.out.push(' ');
        }
        self.pending_space = false;
    }

    /// The collapsed text.
    pub(crate) fn finish(self) -> String {
        self.out
    }
}

/// Whether collapsing whitespace would leave `s` unchanged: no edge spaces, no runs,
/// no tabs or line breaks, and no Unicode whitespace. Each test is a vectorized
/// search, many times faster than looking at the text a byte at a time.
fn already_collapsed(s: &str) -> bool {
    let bytes = s.as_bytes();
    if bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ') {
        return false;
    }
    // Built once: memmem::find would build a searcher on every call, which costs more
    // than searching a typical field.
    static DOUBLE_SPACE: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(b"  "));
    if memchr3(b'\t', b'\n', b'\r', bytes).is_some() || DOUBLE_SPACE.find(bytes).is_some() {
        return false;
    }
    // The only non-ASCII whitespace (U+0085, U+00A0, U+1680, U+2000..U+205F, U+3000)
    // starts with one of these lead bytes; so do common dashes and quotes, so each
    // hit is decoded.
    let is_space = |i: usize| space_width(s, i) > 0;
    !memchr3_iter(0xC2, 0xE2, 0xE3, bytes).any(is_space) && !memchr_iter(0xE1, bytes).any(is_space)
}

/// The byte length of the whitespace character starting at `i`, or 0.
///
/// ASCII is decided on the byte; only the rare non-ASCII lead byte pays for
/// decoding a char. `i` only ever advances by whole chars, so slicing is safe.
#[inline]
fn space_width(s: &str, i: usize) -> usize {
    let b = s.as_bytes()[i];
    if b < 0x80 {
        return usize::from(matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    }
    if b < 0xC0 {
        // A continuation byte: inside a char that was not whitespace.
        return 0;
    }
    match s[i..].chars().next() {
        Some(c) if c.is_whitespace() => c.len_utf8(),
        _ => 0,
    }
}

/// Elements whose content is not running text.
fn is_skipped(name: &str) -> bool {
    matches!(
        name,
        "annotation"
            | "annotation-xml"
            | "fig"
            | "table-wrap"
            | "table"
            | "graphic"
            | "inline-graphic"
            | "media"
            | "supplementary-material"
            | "object-id"
    )
}

/// Elements that separate words even when the source puts no space around them.
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "p" | "br"
            | "break"
            | "div"
            | "li"
            | "list-item"
            | "title"
            | "label"
            | "caption"
            | "sec"
            | "AbstractText"
            | "disp-formula"
            | "disp-quote"
            | "term"
            | "def"
            | "td"
            | "th"
            | "tr"
    )
}

/// One `<mmultiscripts>` being read: its base, postscripts and prescripts apart.
struct Scripts {
    depth: usize,
    seen_base: bool,
    in_pre: bool,
    slot: Slot,
    base: Flat,
    post: Flat,
    pre: Flat,
}

#[derive(Clone, Copy)]
enum Slot {
    Base,
    Post,
    Pre,
}

impl Scripts {
    fn current(&mut self) -> &mut Flat {
        match self.slot {
            Slot::Base => &mut self.base,
            Slot::Post => &mut self.post,
            Slot::Pre => &mut self.pre,
        }
    }
}

fn target<'s>(scripts: &'s mut [Scripts], root: &'s mut Flat) -> &'s mut Flat {
    match scripts.last_mut() {
        Some(frame) => frame.current(),
        None => root,
    }
}

/// Pushes what an entity reference stands for; unknown names stay literal.
fn push_ref(f: &mut Flat, r: &BytesRef<'_>) {
    let mut buf = [0u8; 4];
    if let Ok(Some(c)) = r.resolve_char_ref() {
        f.push_text(c.encode_utf8(&mut buf));
        return;
    }
    let name: &str = r.as_ref();
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        other => {
            f.push_text("&");
            f.push_text(other);
            f.push_text(";");
            return;
        }
    };
    f.push_text(c.encode_utf8(&mut buf));
}

/// After a `Start`, appends the element's content as readable text to `f`.
pub(crate) fn flatten_into(x: &mut Xml<'_>, f: &mut Flat) -> Result<(), ParseError> {
    flatten_skipping(x, f, &[])
}

/// Like [`flatten_into`], also leaving out elements named in `skip` (e.g. an affiliation's label).
///
/// A few constructs get special care:
/// - inside MathML the indentation between tokens is not text: `<mi>V</mi>
///   <mo>.</mo> <mi>O</mi>` reads "V.O", while `<mtext> </mtext>` keeps its space;
/// - `<mmultiscripts>` puts its prescripts first, so the isotope reads "3He" and not "He3";
/// - of a JATS `<alternatives>` only the first textual rendering is kept, so a formula
///   given as MathML and as TeX is not said twice;
/// - figures, tables and MathML annotations are left out of running text ([`is_skipped`]).
///
/// The walk is a loop over events with an explicit stack, never recursion, so a hostile
/// document nested a million levels deep cannot overflow the stack.
pub(crate) fn flatten_skipping(
    x: &mut Xml<'_>,
    f: &mut Flat,
    skip: &[&str],
) -> Result<(), ParseError> {
    let root = x.depth();
    // Depths (as reported right after each Start) of the enclosing math,
    // mtext and alternatives elements; 0 means "not inside one".
    let mut math = 0usize;
    let mut mtext = 0usize;
    let mut alternatives = 0usize;
    let mut alternative_taken = false;
    let mut scripts: Vec<Scripts> = Vec::new();
    loop {
        match x.event()? {
            Event::Start(s) => {
                let depth = x.depth();
                let name = local(&s);
                if is_skipped(name) || skip.contains(&name) {
                    x.skip()?;
                    continue;
                }
                if alternatives != 0 && depth == alternatives + 1 {
                    if alternative_taken || !matches!(name, "math" | "tex-math") {
                        x.skip()?;
                        continue;
                    }
                    alternative_taken = true;
                }
                if let Some(frame) = scripts.last_mut() {
                    if depth == frame.depth + 1 {
                        match name {
                            "mprescripts" => {
                                frame.in_pre = true;
                                x.skip()?;
                                continue;
                            }
                            "none" => {
                                x.skip()?;
                                continue;
                            }
                            _ if !frame.seen_base => {
                                frame.seen_base = true;
                                frame.slot = Slot::Base;
                            }
                            _ => frame.slot = if frame.in_pre { Slot::Pre } else { Slot::Post },
                        }
                    }
                }
                match name {
                    "math" if math == 0 => math = depth,
                    "mtext" | "ms" if math != 0 && mtext == 0 => mtext = depth,
                    "alternatives" if alternatives == 0 => {
                        alternatives = depth;
                        alternative_taken = false;
                    }
                    "mmultiscripts" if math != 0 => scripts.push(Scripts {
                        depth,
                        seen_base: false,
                        in_pre: false,
                        slot: Slot::Base,
                        base: Flat::default(),
                        post: Flat::default(),
                        pre: Flat::default(),
                    }),
                    other if is_block(other) => target(&mut scripts, f).space(),
                    _ => {}
                }
            }
            Event::End(e) => {
                let closed = x.depth() + 1;
                if closed <= root {
                    return Ok(());
                }
                if closed == mtext {
                    mtext = 0;
                }
                if closed == math {
                    math = 0;
                }
                if closed == alternatives {
                    alternatives = 0;
                }
                if scripts.last().is_some_and(|frame| frame.depth == closed) {
                    if let Some(frame) = scripts.pop() {
                        let out = target(&mut scripts, f);
                        out.push_flat(frame.pre);
                        out.push_flat(frame.base);
                        out.push_flat(frame.post);
                    }
                }
                let name: &str = e.local_name().into_inner();
                if is_block(name) {
                    target(&mut scripts, f).space();
                }
            }
            Event::Text(t) => {
                let out = target(&mut scripts, f);
                if math != 0 && mtext == 0 {
                    out.push_token(&t);
                } else {
                    out.push_text(&t);
                }
            }
            Event::CData(c) => target(&mut scripts, f).push_text(&c),
            Event::GeneralRef(r) => push_ref(target(&mut scripts, f), &r),
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// Inline markup a citation carries on (CSL's rich text): italics, bold, superscript and
/// subscript.
fn is_citation_markup(name: &str) -> bool {
    matches!(name, "i" | "b" | "sup" | "sub")
}

/// After a `Start`, the element's content as [`text`] reads it, and again with `<i>`, `<b>`,
/// `<sup>` and `<sub>` kept as tags (CSL JSON's rich text) where it has any of them. Other
/// elements (MathML, underline) are flattened as [`text`] flattens them.
pub(crate) fn text_and_markup(x: &mut Xml<'_>) -> Result<(String, Option<String>), ParseError> {
    let root = x.depth();
    let (mut plain, mut marked) = (Flat::default(), Flat::default());
    let mut any = false;
    loop {
        match x.event()? {
            Event::Start(s) => {
                let name = local(&s);
                if is_citation_markup(name) {
                    marked.push_tag(&format!("<{name}>"));
                    any = true;
                } else if name != "u" {
                    let mut inner = Flat::default();
                    flatten_into(x, &mut inner)?;
                    let inner = inner.finish();
                    plain.push_text(&inner);
                    marked.push_text(&inner);
                }
            }
            Event::End(e) => {
                if x.depth() < root {
                    break;
                }
                let name: &str = e.local_name().into_inner();
                if is_citation_markup(name) {
                    marked.push_tag(&format!("</{name}>"));
                }
            }
            Event::Text(t) => {
                plain.push_text(&t);
                marked.push_text(&t);
            }
            Event::CData(c) => {
                plain.push_text(&c);
                marked.push_text(&c);
            }
            Event::GeneralRef(r) => {
                push_ref(&mut plain, &r);
                push_ref(&mut marked, &r);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let marked = marked.finish();
    Ok((plain.finish(), (any && nested(&marked)).then_some(marked)))
}

/// Whether every tag of marked text holds whole pairs of double quotes: a tag that opens
/// or closes inside a quotation (`"<i>Blood relationship"</i>`) cannot nest in CSL's rich
/// text, and citeproc-js would print such tags as they are.
fn nested(marked: &str) -> bool {
    let mut quotes = 0usize;
    let mut open: Vec<usize> = Vec::new();
    let mut rest = marked;
    while let Some(c) = rest.chars().next() {
        if let Some(tag) = ["<i>", "<b>", "<sup>", "<sub>"]
            .iter()
            .find(|t| rest.starts_with(**t))
        {
            open.push(quotes);
            rest = &rest[tag.len()..];
            continue;
        }
        if let Some(tag) = ["</i>", "</b>", "</sup>", "</sub>"]
            .iter()
            .find(|t| rest.starts_with(**t))
        {
            if open.pop().is_some_and(|at| (quotes - at) % 2 == 1) {
                return false;
            }
            rest = &rest[tag.len()..];
            continue;
        }
        if matches!(c, '"' | '\u{201c}' | '\u{201d}') {
            quotes += 1;
        }
        rest = &rest[c.len_utf8()..];
    }
    true
}

/// After a `Start`, the element's content as one line of readable text.
pub(crate) fn text(x: &mut Xml<'_>) -> Result<String, ParseError> {
    let mut f = Flat::default();
    flatten_into(x, &mut f)?;
    Ok(f.finish())
}

/// Like [`text`], but `None` when the element holds no text.
pub(crate) fn opt_text(x: &mut Xml<'_>) -> Result<Option<String>, ParseError> {
    let s = text(x)?;
    Ok(if s.is_empty() { None } else { Some(s) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collapsed(parts: &[&str]) -> String {
        let mut f = Flat::default();
        for p in parts {
            f.push_text(p);
        }
        f.finish()
    }

    #[test]
    fn plain_and_irregular_text_collapse_alike() {
        for s in [
            "Tumour suppressor p53 binds DNA",
            "  leading and trailing  ",
            "tabs\tand\nnew\r\nlines",
            "double  space",
            "no\u{a0}break and\u{2009}thin\u{3000}ideographic",
            "dash \u{2013} and \u{2019}quotes\u{201d} stay",
            "x",
            "",
            "long plain text of an abstract ".repeat(10).trim_end(),
            &format!("{}\u{a0}{}", "a".repeat(200), "b"),
            &format!("{}  {}", "a".repeat(200), "b"),
            &format!("{}\n{}", "a".repeat(200), "b"),
            &format!("{}\u{2013}{}", "a".repeat(200), "b"),
        ] {
            let expected = s.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(collapsed(&[s]), expected, "{s:?}");
        }
        assert!(already_collapsed("dash \u{2013} and \u{2019}quotes"));
        assert!(!already_collapsed("no\u{a0}break"));
        assert!(!already_collapsed("double  space"));
    }

    #[test]
    fn spaces_between_pushes_are_kept_once() {
        assert_eq!(collapsed(&["alpha", "beta"]), "alphabeta");
        assert_eq!(collapsed(&["alpha ", "beta"]), "alpha beta");
        assert_eq!(collapsed(&["alpha", " beta"]), "alpha beta");
        assert_eq!(collapsed(&["alpha ", " ", " beta "]), "alpha beta");
        assert_eq!(collapsed(&["", "alpha"]), "alpha");
    }
}
