//! Errors inside HTTP 200 (and 429) bodies: recorded ERROR replies and NCBI's documented JSON shapes.

use crate::common::fixtures;
use entrez_mcp_core::error::{Error, ErrorKind};

/// An error NCBI reported in a body, as the core reports it (with advice).
fn body_error(bytes: &[u8], content_type: Option<&str>) -> Option<Error> {
    entrez_mcp_core::parse::body_errors::body_error(bytes, content_type).map(Error::from)
}

const XML: Option<&str> = Some("text/xml; charset=UTF-8");
const JSON: Option<&str> = Some("application/json; charset=UTF-8");

#[test]
fn esummary8_missing_ids_error() {
    let e = body_error(&fixtures::read("ncbi/eutils/esummary8.xml"), XML).unwrap();
    assert_eq!(e.kind, ErrorKind::Upstream);
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("\"Neither query_key nor id specified\""));
    assert!(
        e.suggestions[0].contains("at least one id"),
        "{:?}",
        e.suggestions
    );
}

#[test]
fn epost2_invalid_db() {
    let e = body_error(&fixtures::read("ncbi/eutils/epost2.xml"), XML).unwrap();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("Invalid db name specified: nothing"));
    assert!(e.suggestions[0].contains("entrez_query, operation \"info\""));
}

#[test]
fn epost3_two_errors_in_one() {
    let e = body_error(&fixtures::read("ncbi/eutils/epost3.xml"), None).unwrap();
    assert!(
        e.message.starts_with("NCBI reported errors:"),
        "{}",
        e.message
    );
    assert_eq!(
        e.details.unwrap()["ncbi_messages"][1],
        "Some IDs have invalid value and were omitted. Maximum ID value 18446744073709551615"
    );
}

#[test]
fn normal_replies_are_not_errors() {
    for body in [
        &fixtures::read("ncbi/eutils/esearch1.xml")[..],
        &fixtures::read("ncbi/eutils/esearch8.xml")[..],
        &fixtures::read("ncbi/eutils/epost1.xml")[..],
        &fixtures::read("ncbi/eutils/esummary1.xml")[..],
        &fixtures::read("ncbi/eutils/elink1.xml")[..],
        &fixtures::read("ncbi/eutils/einfo2.xml")[..],
        // espell ends with an empty <ERROR/>, which is no error.
        &fixtures::read("ncbi/eutils/espell.xml")[..],
        &fixtures::read("ncbi/eutils/pubmed1.xml")[..],
    ] {
        assert!(body_error(body, XML).is_none());
    }
    let json = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/ncbi/json/esearch_gene_history.json"
    ));
    assert!(body_error(json, JSON).is_none());
    assert!(body_error(b"LOCUS       NC_005816", Some("text/plain")).is_none());
}

#[test]
fn partial_errors_beside_results_are_left_to_the_parser() {
    let body = b"<ePostResult><ERROR>Some IDs have invalid value and were omitted.</ERROR><QueryKey>1</QueryKey><WebEnv>MCID_x</WebEnv></ePostResult>";
    assert!(body_error(body, XML).is_none());
}

#[test]
fn rate_limit_body_never_echoes_the_key_field() {
    let body =
        br#"{"error":"API rate limit exceeded","api-key":"203.0.113.7","count":"4","limit":"3"}"#;
    let e = body_error(body, JSON).unwrap();
    assert_eq!(e.kind, ErrorKind::RateLimited);
    assert_eq!(e.code, "rate_limited");
    assert!(e.message.contains("API rate limit exceeded"));
    assert!(e
        .message
        .contains("4 requests counted against a limit of 3"));
    let everything = format!("{e:?}");
    assert!(!everything.contains("203.0.113.7"), "{everything}");
    assert!(!everything.contains("api-key"), "{everything}");
    assert!(e.suggestions.iter().any(|s| s.contains("API key")));
}

#[test]
fn too_many_uids_suggests_batches() {
    let body = br#"{"header":{"type":"esummary","version":"0.3"},"error":"Too many UIDs in request. Maximum number of UIDs is 500 for JSON format output."}"#;
    let e = body_error(body, JSON).unwrap();
    assert_eq!(e.code, "too_many_uids");
    assert!(e.message.contains("Maximum number of UIDs is 500"));
    assert!(e.suggestions[0].contains("at most 500 ids per JSON esummary"));
    assert!(e.suggestions[0].contains("retmode xml"));
}

#[test]
fn esearch_json_empty_term() {
    let body = br#"{"esearchresult":{"ERROR":"Empty term and query_key - nothing todo"}}"#;
    let e = body_error(body, None).unwrap();
    assert_eq!(e.code, "ncbi_error");
    assert!(e
        .message
        .contains("Empty term and query_key - nothing todo"));
    assert!(e.suggestions[0].contains("term"));
    assert!(e.suggestions[0].contains("webenv and query_key"));
}

#[test]
fn key_assignments_in_messages_are_scrubbed() {
    let body = br#"{"error":"Invalid request api_key=0123456789abcdef0123"}"#;
    let e = body_error(body, JSON).unwrap();
    assert!(!e.message.contains("0123456789abcdef"), "{}", e.message);
    assert!(e.message.contains("api_key=[redacted]"));
}
