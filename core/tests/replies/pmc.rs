//! PMC replies `parse_pmc` refuses (HTML, a cut-off article, PMC's error documents) as the
//! core reports them (`entrez::faults`); the readings of JATS are the parser's
//! (parse/tests/parsing/pmc.rs).

use crate::common::fixtures;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::parse::pmc::parse_pmc;
use std::sync::LazyLock;

static RECORDED: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/eutils/efetch_pmc.xml"));

#[test]
fn errors_html_truncation_and_pmc_error_documents() {
    let html = fixtures::read("ncbi/eutils/pubmed3.html");
    assert_eq!(
        parse_pmc(&html).map_err(Error::from).unwrap_err().code,
        "html_instead_of_xml"
    );
    let e = parse_pmc(&RECORDED[..RECORDED.len() * 60 / 100])
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "truncated_response", "{}", e.message);
    // Hand-written in the shape PMC uses for an id it cannot serve.
    let e = parse_pmc(b"<pmc-articleset><error>The following PMCID is not available: 99999999</error></pmc-articleset>")
        .map_err(Error::from).unwrap_err();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("PMCID is not available: 99999999"));
    let e = parse_pmc(&fixtures::read("ncbi/eutils/pubmed1.xml"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "unexpected_document");
    assert!(e.message.contains("<PubmedArticleSet>"));
}
