//! MEDLINE requests answered with HTML or XML, as the core reports them (`entrez::faults`);
//! the readings of recorded MEDLINE text are the parser's (parse/tests/parsing/medline.rs).

use crate::common::fixtures;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::parse::medline::parse_medline;

#[test]
fn html_and_xml_bodies_are_refused_and_named() {
    let e = parse_medline(&fixtures::text("ncbi/eutils/pubmed3.html"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "unparseable_response");
    assert!(
        e.message.contains("HTML page titled \"PmFetch response\""),
        "{}",
        e.message
    );
    assert!(e.message.contains("MEDLINE"), "{}", e.message);
    let e = parse_medline(&fixtures::text("ncbi/eutils/pubmed1.xml"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "unparseable_response");
    assert!(e.message.contains("XML"), "{}", e.message);
    let e = parse_medline("Error occurred: id not found\n")
        .map_err(Error::from)
        .unwrap_err();
    assert!(e.message.contains("Error occurred"), "{}", e.message);
    assert_eq!(
        parse_medline("\n  \n")
            .map_err(Error::from)
            .unwrap_err()
            .code,
        "empty_response"
    );
}
