//! Whether a final reply may be kept: a whole answer, never an error ([`storable`]).
//!
//! The send loop already turns 429s, 5xx, and NCBI's `<ERROR>` in a 200 into errors, which
//! never reach the cache; this is the cache's own check of what is left, the same for every
//! upstream. Erring on the side of not keeping costs one request; keeping an error would
//! serve it for hours.

use crate::net::HttpReply;
use serde::de::IgnoredAny;
use serde::Deserialize;

/// Whether `reply` may be kept and served again.
///
/// A 200 with a body; not marked `no-store`, `private` or `no-cache` (this cache cannot
/// revalidate); not an HTML page (NCBI's error and "blocked" pages, BioC's "No result"); XML
/// that closes the element it opened first and holds no `<error>` element (PMC's OA service,
/// NCBI's error lists); JSON that parses whole and is no error object (PubChem's `Fault`, the
/// ID Converter's `status: error`).
pub fn storable(reply: &HttpReply) -> bool {
    let kind = reply
        .header("content-type")
        .unwrap_or("")
        .to_ascii_lowercase();
    let body = reply.body.trim_ascii();
    let body = body.strip_prefix("\u{feff}".as_bytes()).unwrap_or(body);
    if reply.status != 200 || body.is_empty() || kind.contains("html") || forbidden(reply) {
        return false;
    }
    if kind.contains("xml") {
        xml_closed(body) && !has_error_element(body)
    } else if kind.contains("json") {
        json_answer(body)
    } else {
        true
    }
}

/// `Cache-Control` directives that forbid keeping, read by name.
fn forbidden(reply: &HttpReply) -> bool {
    reply.header("cache-control").is_some_and(|c| {
        c.split(',').any(|d| {
            let name = d.split('=').next().unwrap_or("").trim();
            ["no-store", "private", "no-cache"]
                .iter()
                .any(|f| name.eq_ignore_ascii_case(f))
        })
    })
}

/// Whether `body` ends by closing its root element (or the root closes itself).
fn xml_closed(body: &[u8]) -> bool {
    let Some(open) = past_prolog(body).and_then(|r| r.strip_prefix(b"<")) else {
        return false;
    };
    let name_len = open
        .iter()
        .position(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
        .unwrap_or(open.len());
    let name = &open[..name_len];
    if name.is_empty() {
        return false;
    }
    // `<eSearchResult/>`: the root closes itself and nothing follows.
    if open.ends_with(b"/>") && open.iter().position(|b| *b == b'>') == Some(open.len() - 1) {
        return true;
    }
    let closing = [b"</".as_slice(), name, b">"].concat();
    body.ends_with(&closing)
}

/// `body` past its XML declaration, processing instructions, comments and DOCTYPE (with or
/// without an internal subset); `None` when one of them never ends.
fn past_prolog(mut rest: &[u8]) -> Option<&[u8]> {
    loop {
        rest = rest.trim_ascii_start();
        let end = if rest.starts_with(b"<?") {
            find(rest, b"?>")? + 2
        } else if rest.starts_with(b"<!--") {
            find(rest, b"-->")? + 3
        } else if rest.starts_with(b"<!") {
            let gt = find(rest, b">")?;
            match find(rest, b"[") {
                // An internal subset: the declaration ends at "]>" (or "] >").
                Some(open) if open < gt => {
                    let close = open + find(&rest[open..], b"]")?;
                    close + find(&rest[close..], b">")? + 1
                }
                _ => gt + 1,
            }
        } else {
            return Some(rest);
        };
        rest = &rest[end..];
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Whether an element named `error` (any case, any suffix: `ERROR`, `ErrorList`) with
/// content opens anywhere in the body. An empty one (espell always sends `<ERROR/>`) says
/// nothing went wrong. Text holds `&lt;`, never a literal `<`, so this sees tags only.
fn has_error_element(body: &[u8]) -> bool {
    body.iter().enumerate().any(|(i, b)| {
        let named = *b == b'<'
            && body
                .get(i + 1..i + 6)
                .is_some_and(|n| n.eq_ignore_ascii_case(b"error"));
        let Some(end) = named.then(|| find(&body[i..], b">")).flatten() else {
            return false;
        };
        let empty = body[i + end - 1] == b'/' || body[i + end + 1..].starts_with(b"</");
        !empty
    })
}

/// The top-level fields that make a JSON answer an error.
#[derive(Deserialize)]
struct ErrorFields {
    #[serde(rename = "Fault")]
    fault: Option<IgnoredAny>,
    #[serde(alias = "ERROR")]
    error: Option<IgnoredAny>,
    status: Option<String>,
}

/// Whether a JSON body parses whole and is not an error object.
fn json_answer(body: &[u8]) -> bool {
    if body.first() != Some(&b'{') {
        return serde_json::from_slice::<IgnoredAny>(body).is_ok();
    }
    serde_json::from_slice::<ErrorFields>(body).is_ok_and(|f| {
        f.fault.is_none()
            && f.error.is_none()
            && !f.status.is_some_and(|s| s.eq_ignore_ascii_case("error"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(status: u16, kind: &str, body: &str) -> HttpReply {
        HttpReply {
            status,
            headers: vec![("content-type".into(), kind.into())],
            body: body.as_bytes().to_vec(),
        }
    }

    fn xml(body: &str) -> bool {
        storable(&reply(200, "text/xml", body))
    }

    fn json(body: &str) -> bool {
        storable(&reply(200, "application/json", body))
    }

    #[test]
    fn whole_xml_is_kept_with_any_prolog() {
        let decl = "<?xml version=\"1.0\" ?>\n";
        let doctype =
            "<!DOCTYPE eSearchResult PUBLIC \"-//NLM//DTD esearch 20060628//EN\" \"x.dtd\">\n";
        assert!(xml("<a>1</a>\n"));
        assert!(xml(&format!(
            "{decl}{doctype}<eSearchResult><Count>1</Count></eSearchResult>\n"
        )));
        assert!(xml(&format!("{decl}<eSearchResult/>")));
        assert!(xml(&format!("\u{feff}{decl}<!-- a > b -->\n<r>x</r>")));
        assert!(xml(&format!(
            "{decl}<!DOCTYPE r [ <!ENTITY e \"v\"> ]>\n<r>&e;</r>"
        )));
    }

    #[test]
    fn cut_off_xml_and_error_elements_are_not_kept() {
        // Cut off after a whole inner element: the root is never closed.
        assert!(!xml(
            "<?xml version=\"1.0\" ?>\n<eInfoResult><DbList><DbName>x</DbName>\n"
        ));
        assert!(!xml("<PubmedArticleSet><PubmedArticle>x"));
        assert!(!xml("<!-- never ends"));
        // PMC's OA service and NCBI's error lists close their roots, and are errors still.
        assert!(!xml(
            "<OA><responseDate>x</responseDate><error code=\"idDoesNotExist\">no</error></OA>"
        ));
        assert!(!xml("<eSearchResult><ErrorList><PhraseNotFound>x</PhraseNotFound></ErrorList></eSearchResult>"));
        // Text that mentions an error is escaped, and kept; so is an empty error element
        // (espell sends one with every answer).
        assert!(xml("<r>an &lt;error&gt; in the text</r>"));
        assert!(xml(
            "<eSpellResult><Query>asthmaa</Query><ERROR/></eSpellResult>"
        ));
        assert!(xml(
            "<eSpellResult><Query>asthmaa</Query><ERROR></ERROR></eSpellResult>"
        ));
        assert!(!xml(
            "<eSummaryResult><ERROR>Neither query_key nor id specified</ERROR></eSummaryResult>"
        ));
    }

    #[test]
    fn json_must_parse_and_not_be_an_error() {
        assert!(json("{\"esearchresult\":{\"count\":\"1\"}}"));
        assert!(json("[{\"id\":1}]"));
        assert!(json("{\"status\":\"ok\",\"records\":[]}"));
        assert!(!json("{\"esearchresult\":{\"count\":\"1\"}"));
        assert!(!json("{\"a\":"));
        assert!(!json("{\"Fault\":{\"Code\":\"PUGREST.NotFound\"}}"));
        assert!(!json("{\"status\":\"error\",\"message\":\"Too many ids\"}"));
        assert!(!json("{\"error\":\"API rate limit exceeded\"}"));
        assert!(!json("{\"ERROR\":\"Invalid db name\"}"));
    }

    #[test]
    fn only_200s_that_allow_it_and_are_no_page_are_kept() {
        assert!(storable(&reply(200, "text/plain", ">seq\nACGT")));
        assert!(storable(&reply(200, "image/png", "\u{89}PNG")));
        assert!(!storable(&reply(429, "application/json", "{}")));
        assert!(!storable(&reply(500, "text/xml", "<a/>")));
        assert!(!storable(&reply(200, "text/xml", "")));
        assert!(!storable(&reply(
            200,
            "text/html",
            "<html><body>Blocked</body></html>"
        )));
        for cc in ["no-store", "private, max-age=60", "max-age=0, No-Cache"] {
            let mut r = reply(200, "text/xml", "<a/>");
            r.headers.push(("cache-control".into(), cc.into()));
            assert!(!storable(&r), "{cc}");
        }
        let mut r = reply(200, "text/xml", "<a/>");
        r.headers
            .push(("cache-control".into(), "public, max-age=3600".into()));
        assert!(storable(&r));
    }
}
