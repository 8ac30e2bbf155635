//! Walking an NCBI record set: opening its root ([`open_root`]) and visiting children
//! ([`each_child`], the one loop every parser would otherwise repeat).
//!
//! efetch answers many bad requests with HTTP 200 and a different document:
//! `<eFetchResult><ERROR>Cannot process ID list</ERROR></eFetchResult>`, or a bare `<ERROR>`.
//! Every record parser opens its body through [`open_root`], so such a reply becomes an error
//! quoting NCBI's own words instead of an empty list that reads as "no records", and a
//! document of the wrong kind (taxonomy XML handed to the GBSeq parser) is named rather than
//! half-read.

use crate::error::ParseError;
use crate::xml::{unexpected, Xml};
use quick_xml::events::{BytesStart, Event};

/// Root elements NCBI uses for an error reply in place of the requested records.
const ERROR_ROOTS: &[&str] = &["eFetchResult", "ERROR", "Error", "error"];

/// Reads up to the root element; refuses NCBI error envelopes and roots not in `expected` (empty accepts any).
pub fn open_root<'a>(
    x: &mut Xml<'a>,
    expected: &[&str],
    what: &str,
) -> Result<BytesStart<'a>, ParseError> {
    loop {
        match x.event()? {
            Event::Start(start) => {
                let name = start.local_name().as_ref().to_string();
                if expected.contains(&name.as_str()) {
                    return Ok(start);
                }
                if ERROR_ROOTS.contains(&name.as_str()) {
                    let said = x.text()?;
                    return Err(crate::body_errors::ncbi_error(&[said]));
                }
                if expected.is_empty() {
                    return Ok(start);
                }
                return Err(unexpected(
                    what,
                    format!(
                        "the document's root element is <{name}>, not <{}>; this is a different kind of record",
                        expected[0]
                    ),
                ));
            }
            Event::Eof => {
                return Err(unexpected(what, "the document has no root element"));
            }
            _ => {}
        }
    }
}

pub use crate::xml::{each_child, each_named};

/// The element's collapsed text, or `None` when it is empty.
pub fn text_opt(x: &mut Xml<'_>) -> Result<Option<String>, ParseError> {
    let text = x.text()?;
    Ok(if text.is_empty() { None } else { Some(text) })
}

/// The element's text as a number, or `None` when it is empty or not a number.
pub fn number<T: std::str::FromStr>(x: &mut Xml<'_>) -> Result<Option<T>, ParseError> {
    Ok(x.text()?.parse().ok())
}
