//! Reading helpers shared by the PubMed and PMC parsers.
//!
//! Both parsers are recursive descent over the streaming [`Xml`] reader: one
//! small function per element they care about, each called right after that
//! element's `Start` and returning after its `End`. [`children`] is the loop
//! every such function runs; an element its handler does not consume is
//! skipped whole, which is what makes unknown or unexpected structure
//! harmless. The nesting of the functions mirrors the documents' few
//! meaningful levels (a dozen at most), so recursion depth is bounded by the
//! code, not by the input.

use crate::error::{ParseError, ParseErrorKind};
use crate::xml::{unexpected, Xml};
use quick_xml::events::{BytesStart, Event};
use std::borrow::Cow;

/// The local name of a start tag, borrowed.
pub(crate) fn local<'b>(s: &'b BytesStart<'_>) -> &'b str {
    s.local_name().into_inner()
}

/// A raw attribute value by local name; borrowed, since the values tested hold no escapes.
pub(crate) fn attr_raw<'b>(s: &'b BytesStart<'_>, name: &str) -> Option<Cow<'b, str>> {
    s.attributes()
        .with_checks(false)
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .map(|a| a.value)
}

/// True when attribute `name` is present and equals `value`.
pub(crate) fn attr_is(s: &BytesStart<'_>, name: &str, value: &str) -> bool {
    attr_raw(s, name).is_some_and(|v| v == value)
}

/// After a `Start`, calls `on` for each child element until the parent's `End`.
///
/// A child the handler leaves unread (the reader is still at its depth) is skipped.
pub(crate) fn children<'a>(
    x: &mut Xml<'a>,
    mut on: impl FnMut(&mut Xml<'a>, &BytesStart<'a>, &str) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    loop {
        match x.event()? {
            Event::Start(s) => {
                let depth = x.depth();
                on(x, &s, local(&s))?;
                if x.depth() == depth {
                    x.skip()?;
                }
            }
            Event::End(_) | Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// Reads up to the root element and returns it if its name is one of `expected`.
///
/// An NCBI error document (`<eFetchResult><ERROR>`, a bare `<ERROR>`) becomes an
/// upstream error carrying NCBI's own words; any other root is named in the error.
pub(crate) fn root<'a>(
    x: &mut Xml<'a>,
    expected: &[&str],
    what: &'static str,
) -> Result<BytesStart<'a>, ParseError> {
    loop {
        match x.event()? {
            Event::Start(s) => {
                let name = local(&s);
                if expected.contains(&name) {
                    return Ok(s);
                }
                if matches!(name, "eFetchResult" | "ERROR" | "Error") {
                    return Err(ncbi_error(x, name == "eFetchResult")?);
                }
                return Err(unexpected(
                    what,
                    format!(
                        "the document's root element is <{name}>, not <{}>",
                        expected[0]
                    ),
                )
                .of_kind(ParseErrorKind::UnexpectedDocument));
            }
            Event::Eof => {
                return Err(unexpected(what, "the document has no root element")
                    .of_kind(ParseErrorKind::Empty))
            }
            _ => {}
        }
    }
}

/// Builds the error for an NCBI error document, reading its message text.
fn ncbi_error(x: &mut Xml<'_>, wrapped: bool) -> Result<ParseError, ParseError> {
    let mut messages = Vec::new();
    if wrapped {
        children(x, |x, _, name| {
            if matches!(name, "ERROR" | "Error") {
                messages.push(super::flatten::text(x)?);
            }
            Ok(())
        })?;
    } else {
        messages.push(super::flatten::text(x)?);
    }
    Ok(crate::body_errors::ncbi_error(&messages))
}

/// Reclassifies a parse failure as truncation when the body stops mid-tag.
///
/// The reader reports a body cut inside text as truncated itself; a body cut
/// inside a tag looks like malformed XML to it, though the cause is the same.
pub(crate) fn truncation(e: ParseError, bytes: &[u8], what: &'static str) -> ParseError {
    if e.kind != ParseErrorKind::Unreadable || bytes.trim_ascii_end().last() == Some(&b'>') {
        return e;
    }
    unexpected(
        what,
        "the document stops in the middle of a tag: it was truncated in transit",
    )
    .of_kind(ParseErrorKind::Truncated)
}

/// The first run of four digits in `s` as a year ("1998 Dec-1999 Jan" gives 1998).
pub(crate) fn first_year(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut run = 0;
    for (i, c) in b.iter().enumerate() {
        if c.is_ascii_digit() {
            run += 1;
            let next_is_digit = b.get(i + 1).is_some_and(u8::is_ascii_digit);
            if run == 4 && !next_is_digit {
                return s[i + 1 - 4..=i].parse().ok();
            }
        } else {
            run = 0;
        }
    }
    None
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// A month as PubMed writes it ("Jun"), also when the source gave a number ("06").
pub(crate) fn month_name(m: String) -> String {
    match m.parse::<usize>() {
        Ok(n @ 1..=12) => MONTHS[n - 1].to_string(),
        _ => m,
    }
}

/// An ORCID in its bare `0000-0000-0000-000X` form, from a URL or any spacing.
pub(crate) fn normalize_orcid(raw: &str) -> Option<String> {
    let tail = raw.trim().trim_end_matches('/').rsplit('/').next()?;
    let mut chars: Vec<char> = Vec::with_capacity(16);
    for c in tail.chars() {
        match c {
            '0'..='9' => chars.push(c),
            'x' | 'X' => chars.push('X'),
            '-' | ' ' => {}
            // "ORCID: 0000-..." and similar prefixes carry letters before the digits.
            _ if chars.is_empty() => {}
            _ => return None,
        }
    }
    if chars.len() != 16 || chars[..15].contains(&'X') {
        return None;
    }
    let mut out = String::with_capacity(19);
    for (i, c) in chars.iter().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push('-');
        }
        out.push(*c);
    }
    Some(out)
}

/// A PMC id with its `PMC` prefix, whichever way it was written.
pub(crate) fn pmcid(raw: &str) -> Option<String> {
    let t = raw.trim();
    if t.is_empty() {
        return None;
    }
    // Compared as bytes: the first three need not be characters (fuzzing found "\u{FFFD}…").
    if t.len() > 3 && t.as_bytes()[..3].eq_ignore_ascii_case(b"PMC") {
        return Some(format!("PMC{}", &t[3..]));
    }
    Some(format!("PMC{t}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_come_from_the_first_four_digit_run() {
        assert_eq!(first_year("1998 Dec-1999 Jan"), Some(1998));
        assert_eq!(first_year("Spring 2001"), Some(2001));
        assert_eq!(first_year("12345"), None);
        assert_eq!(first_year("n.d."), None);
    }

    #[test]
    fn orcids_are_reduced_to_the_bare_form() {
        let bare = Some("0000-0002-4590-7461".to_string());
        assert_eq!(
            normalize_orcid("https://orcid.org/0000-0002-4590-7461"),
            bare
        );
        assert_eq!(normalize_orcid("http://orcid.org/0000000245907461"), bare);
        assert_eq!(normalize_orcid("ORCID: 0000-0002-4590-7461"), bare);
        assert_eq!(
            normalize_orcid("0000-0001-5109-321x"),
            Some("0000-0001-5109-321X".into())
        );
        assert_eq!(normalize_orcid("0000-0002-4590"), None);
        assert_eq!(normalize_orcid("0000-0002-45z0-7461"), None);
    }

    #[test]
    fn a_pmcid_starting_with_a_multibyte_character_is_no_panic() {
        assert_eq!(pmcid("\u{FFFD}8I"), Some("PMC\u{FFFD}8I".into()));
        assert_eq!(pmcid("pmc123"), Some("PMC123".into()));
    }

    #[test]
    fn pmcids_get_one_prefix() {
        assert_eq!(pmcid("8435807").as_deref(), Some("PMC8435807"));
        assert_eq!(pmcid("PMC5442267").as_deref(), Some("PMC5442267"));
        assert_eq!(pmcid(" "), None);
    }
}
