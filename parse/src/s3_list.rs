//! An S3 `ListObjectsV2` reply (`?list-type=2`), as PMC's Cloud Service bucket answers it.
//!
//! AWS documents the body as a `ListBucketResult` holding `Contents` (each with a `Key`),
//! `CommonPrefixes` (each with a `Prefix`, the "folders" a `delimiter` rolls keys up into),
//! `KeyCount`, `IsTruncated` and a `NextContinuationToken`. Only those are read.

use crate::error::ParseError;
use quick_xml::events::Event;
use quick_xml::Reader;

/// What one listing page says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    /// Object keys (`Contents/Key`), in the order listed.
    pub keys: Vec<String>,
    /// Rolled-up prefixes (`CommonPrefixes/Prefix`), in the order listed.
    pub prefixes: Vec<String>,
    /// `IsTruncated`: more keys follow on another page.
    pub truncated: bool,
    /// `NextContinuationToken`, when truncated.
    pub next_token: Option<String>,
}

fn unreadable(detail: &str) -> ParseError {
    ParseError::unexpected("an S3 bucket listing", detail.to_string())
}

/// Reads a `ListBucketResult`; an S3 `<Error>` body or anything else is refused.
pub fn parse_listing(body: &[u8]) -> Result<Listing, ParseError> {
    let text = std::str::from_utf8(body).map_err(|_| unreadable("it is not UTF-8"))?;
    let mut reader = Reader::from_str(text);
    let mut out = Listing::default();
    let mut path: Vec<String> = Vec::new();
    let mut value = String::new();
    let mut seen_root = false;
    loop {
        match reader
            .read_event()
            .map_err(|_| unreadable("it is not XML"))?
        {
            Event::Start(e) => {
                let name = e.local_name().as_ref().to_string();
                if path.is_empty() {
                    if name != "ListBucketResult" {
                        return Err(unreadable(&format!("its root is <{name}>")));
                    }
                    seen_root = true;
                }
                path.push(name);
                value.clear();
            }
            Event::Text(t) => value.push_str(&t.xml10_content()),
            Event::GeneralRef(r) => crate::xml::push_entity(&mut value, &r),
            Event::End(_) => {
                let joined = path.join("/");
                let v = value.trim().to_string();
                match joined.as_str() {
                    "ListBucketResult/Contents/Key" => out.keys.push(v),
                    "ListBucketResult/CommonPrefixes/Prefix" => out.prefixes.push(v),
                    "ListBucketResult/IsTruncated" => out.truncated = v == "true",
                    "ListBucketResult/NextContinuationToken" if !v.is_empty() => {
                        out.next_token = Some(v)
                    }
                    _ => {}
                }
                value.clear();
                path.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !seen_root {
        return Err(unreadable("it has no ListBucketResult"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_keys_and_the_truncation_flag() {
        // The shape of AWS's ListObjectsV2 example (S3 API reference), with PMC's folders.
        let body = br#"<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>pmc-oa-opendata</Name><Prefix>PMC1.</Prefix><KeyCount>3</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter><IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken><Contents><Key>PMC1.txt</Key><Size>3</Size></Contents><CommonPrefixes><Prefix>PMC1.1/</Prefix></CommonPrefixes><CommonPrefixes><Prefix>PMC1.2/</Prefix></CommonPrefixes></ListBucketResult>"#;
        let l = parse_listing(body).unwrap();
        assert_eq!(l.prefixes, vec!["PMC1.1/", "PMC1.2/"]);
        assert_eq!(l.keys, vec!["PMC1.txt"]);
        assert!(l.truncated);
        assert_eq!(
            l.next_token.as_deref(),
            Some("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
        );
        let err = br#"<?xml version="1.0"?><Error><Code>NoSuchBucket</Code></Error>"#;
        assert!(parse_listing(err).is_err());
        assert!(parse_listing(b"not xml at all").is_err());
    }
}
