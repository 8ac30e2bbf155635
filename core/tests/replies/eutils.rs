//! EInfo and EPost replies the parsers refuse (a truncated einfo, EPost's ERROR bodies) as
//! the core reports them: kind, code and advice (`entrez::faults`). Their readings are the
//! parser's own tests (parse/tests/parsing/eutils.rs).

use crate::common::fixtures;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::error::ErrorKind;
use entrez_mcp_core::parse::einfo::parse_einfo;
use entrez_mcp_core::parse::epost::parse_epost;

#[test]
fn einfo4_truncated_body_is_reported_as_truncated() {
    let e = parse_einfo(&fixtures::read("ncbi/eutils/einfo4.xml"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "truncated_response", "{}", e.message);
    assert_eq!(e.kind, ErrorKind::Upstream);
}

#[test]
fn epost2_invalid_db_is_an_ncbi_error_with_a_fix() {
    let e = parse_epost(&fixtures::read("ncbi/eutils/epost2.xml"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Upstream);
    assert_eq!(e.code, "ncbi_error");
    assert!(
        e.message.contains("\"Invalid db name specified: nothing\""),
        "{}",
        e.message
    );
    assert!(
        e.suggestions
            .iter()
            .any(|s| s.contains("entrez_query") && s.contains("info")),
        "{:?}",
        e.suggestions
    );
}

#[test]
fn epost3_quotes_both_errors() {
    let e = parse_epost(&fixtures::read("ncbi/eutils/epost3.xml"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("Empty ID list; Nothing to store"));
    assert!(e.message.contains("Maximum ID value 18446744073709551615"));
    let details = e.details.unwrap();
    assert_eq!(details["ncbi_messages"].as_array().unwrap().len(), 2);
    assert!(e.suggestions.iter().any(|s| s.contains("at least one id")));
    assert!(e.suggestions.iter().any(|s| s.contains("numeric UIDs")));
}
