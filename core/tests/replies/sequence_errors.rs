//! Sequence parsers given the wrong body: each must say what came back.
//!
//! NCBI answers a mistaken rettype, a bad id or an overloaded server with a
//! 200 and something else: XML where text was asked for, an HTML page, an
//! `<eFetchResult><ERROR>` envelope, a plain "Error:" line, or a body cut
//! off in transit. None of these may parse as an empty or partial result.

use crate::common::fixtures;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::error::ErrorKind;
use entrez_mcp_core::parse::fasta::parse_fasta;
use entrez_mcp_core::parse::flatfile::parse_flatfile;
use entrez_mcp_core::parse::gbseq::parse_gbseq;
use entrez_mcp_core::parse::tinyseq::parse_tinyseq;
use std::sync::LazyLock;

static NUCLEOTIDE_GBSEQ: LazyLock<Vec<u8>> =
    LazyLock::new(|| fixtures::read("ncbi/eutils/nucleotide1.xml"));
static TAXONOMY_XML: LazyLock<Vec<u8>> =
    LazyLock::new(|| fixtures::read("ncbi/eutils/taxonomy.xml"));
static HTML: LazyLock<Vec<u8>> = LazyLock::new(|| fixtures::read("ncbi/eutils/pubmed3.html"));
static GENBANK: LazyLock<String> = LazyLock::new(|| fixtures::text("ncbi/text/NC_005816.gb"));
static FASTA_NUCLEOTIDE: LazyLock<String> =
    LazyLock::new(|| fixtures::text("ncbi/text/NC_005816.fna"));
static FASTA_PROTEIN: LazyLock<String> =
    LazyLock::new(|| fixtures::text("ncbi/text/NC_005816.faa"));

#[test]
fn flat_file_cut_off_before_its_terminator_is_refused() {
    let cut = &GENBANK[..GENBANK.rfind("//").unwrap()];
    let e = parse_flatfile(cut).map_err(Error::from).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Upstream);
    assert_eq!(e.code, "truncated_response");
    assert!(e.message.contains("NC_005816"), "{}", e.message);
}

#[test]
fn fasta_parser_names_xml_html_and_flat_files() {
    let xml = std::str::from_utf8(&NUCLEOTIDE_GBSEQ).unwrap();
    let e = parse_fasta(xml).map_err(Error::from).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Upstream);
    assert_eq!(e.code, "unparseable_response");
    assert!(
        e.message.contains("XML with root element <GBSet>"),
        "{}",
        e.message
    );

    let html = String::from_utf8_lossy(&HTML);
    let e = parse_fasta(&html).map_err(Error::from).unwrap_err();
    assert_eq!(e.code, "html_instead_of_text");
    assert!(
        e.message.contains("HTML page titled \"PmFetch response\""),
        "{}",
        e.message
    );

    let e = parse_fasta(&GENBANK).map_err(Error::from).unwrap_err();
    assert!(
        e.message.contains("GenBank/GenPept flat file"),
        "{}",
        e.message
    );

    assert_eq!(
        parse_fasta(" \n\n").map_err(Error::from).unwrap_err().code,
        "empty_response"
    );
}

#[test]
fn flat_file_parser_names_fasta_and_ncbi_errors() {
    let e = parse_flatfile(&FASTA_PROTEIN)
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "unparseable_response");
    assert!(e.message.contains("FASTA text"), "{}", e.message);

    let envelope = "<?xml version=\"1.0\" ?>\n<eFetchResult>\n\t<ERROR>Cannot process ID list</ERROR>\n</eFetchResult>\n";
    let e = parse_flatfile(envelope).map_err(Error::from).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Upstream);
    assert_eq!(e.code, "ncbi_error");
    assert!(
        e.message.contains("Cannot process ID list"),
        "{}",
        e.message
    );

    let e = parse_flatfile("Error: F a i l e d  to understand id:  XYZ\n")
        .map_err(Error::from)
        .unwrap_err();
    assert!(e.message.contains("Error: F a i l e d"), "{}", e.message);
}

#[test]
fn xml_sequence_parsers_refuse_other_bodies() {
    let e = parse_gbseq(FASTA_NUCLEOTIDE.as_bytes())
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "not_xml");
    let e = parse_gbseq(&TAXONOMY_XML).map_err(Error::from).unwrap_err();
    assert_eq!(e.code, "unparseable_response");
    assert!(e.message.contains("<TaxaSet>"), "{}", e.message);
    let e = parse_tinyseq(&NUCLEOTIDE_GBSEQ)
        .map_err(Error::from)
        .unwrap_err();
    assert!(
        e.message.contains("<GBSet>, not <TSeqSet>"),
        "{}",
        e.message
    );
    assert_eq!(
        parse_tinyseq(&HTML).map_err(Error::from).unwrap_err().code,
        "html_instead_of_xml"
    );
    let e = parse_gbseq(b"<eFetchResult><ERROR>Cannot process ID list</ERROR></eFetchResult>")
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("Cannot process ID list"));
    let truncated = &NUCLEOTIDE_GBSEQ[..NUCLEOTIDE_GBSEQ.len() / 2];
    assert_eq!(
        parse_gbseq(truncated)
            .map_err(Error::from)
            .unwrap_err()
            .code,
        "truncated_response"
    );
}
