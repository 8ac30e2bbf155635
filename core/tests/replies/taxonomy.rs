//! Taxonomy, IPG and generic-XML replies the parsers refuse, and the generic reader's caps,
//! as the core reports them (`entrez::faults`); the readings are the parser's
//! (parse/tests/parsing/taxonomy.rs).

use crate::common::fixtures;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::error::ErrorKind;
use entrez_mcp_core::parse::generic::{parse_generic, MAX_NODES, MAX_TEXT};
use entrez_mcp_core::parse::ipg::parse_ipg;
use entrez_mcp_core::parse::taxonomy::parse_taxonomy;
use std::sync::LazyLock;

static TAXONOMY: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/eutils/taxonomy.xml"));

static GBSEQ: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/eutils/nucleotide1.xml"));

static HTML: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/eutils/pubmed3.html"));

static TRUNCATED: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/eutils/einfo4.xml"));

static FASTA: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/text/NC_005816.faa"));

#[test]
fn taxonomy_refuses_other_bodies() {
    let e = parse_taxonomy(&GBSEQ).map_err(Error::from).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Upstream);
    assert_eq!(e.code, "unparseable_response");
    assert!(
        e.message.contains("<GBSet>, not <TaxaSet>"),
        "{}",
        e.message
    );
    assert_eq!(
        parse_taxonomy(&HTML).map_err(Error::from).unwrap_err().code,
        "html_instead_of_xml"
    );
    assert_eq!(
        parse_taxonomy(&FASTA)
            .map_err(Error::from)
            .unwrap_err()
            .code,
        "not_xml"
    );
    let e = parse_taxonomy(
        b"<?xml version=\"1.0\" ?><ERROR>ID list is empty! Possibly it has no correct IDs.</ERROR>",
    )
    .map_err(Error::from)
    .unwrap_err();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("ID list is empty!"), "{}", e.message);
    let e = parse_taxonomy(b"<TaxaSet><Taxon><ScientificName>x</ScientificName></Taxon></TaxaSet>")
        .map_err(Error::from)
        .unwrap_err();
    assert!(e.message.contains("no numeric <TaxId>"), "{}", e.message);
}

#[test]
fn ipg_refuses_other_bodies() {
    let e = parse_ipg(&TAXONOMY).map_err(Error::from).unwrap_err();
    assert!(
        e.message.contains("<TaxaSet>, not <IPGReportSet>"),
        "{}",
        e.message
    );
    assert_eq!(
        parse_ipg(&TRUNCATED).map_err(Error::from).unwrap_err().code,
        "unparseable_response"
    );
    assert_eq!(
        parse_ipg(b"").map_err(Error::from).unwrap_err().code,
        "empty_response"
    );
}

#[test]
fn generic_caps_text_and_element_count() {
    let long = format!("<r><v>{}</v></r>", "x".repeat(MAX_TEXT + 10));
    let records = parse_generic(long.as_bytes(), None).unwrap();
    let text = records[0].text.as_deref().unwrap();
    assert_eq!(text.chars().count(), MAX_TEXT + 1);
    assert!(text.ends_with('…'));

    let many = format!("<r>{}</r>", "<a/>".repeat(MAX_NODES));
    let e = parse_generic(many.as_bytes(), None)
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(e.code, "response_too_large");
    let fits = format!("<r>{}</r>", "<a/>".repeat(MAX_NODES - 1));
    assert_eq!(
        parse_generic(fits.as_bytes(), None).unwrap().len(),
        MAX_NODES - 1
    );
}

#[test]
fn generic_refuses_text_html_and_ncbi_errors() {
    assert_eq!(
        parse_generic(&FASTA, None)
            .map_err(Error::from)
            .unwrap_err()
            .code,
        "not_xml"
    );
    assert_eq!(
        parse_generic(&HTML, None)
            .map_err(Error::from)
            .unwrap_err()
            .code,
        "html_instead_of_xml"
    );
    assert_eq!(
        parse_generic(&TRUNCATED, None)
            .map_err(Error::from)
            .unwrap_err()
            .code,
        "truncated_response"
    );
    let e = parse_generic(
        b"<eFetchResult><ERROR>Cannot process ID list</ERROR></eFetchResult>",
        Some("BioSample"),
    )
    .map_err(Error::from)
    .unwrap_err();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("Cannot process ID list"));
}
