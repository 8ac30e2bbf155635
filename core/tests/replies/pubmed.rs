//! PubMed efetch replies `parse_pubmed` refuses (HTML, truncation, entity expansion, other
//! documents) as the core reports them (`entrez::faults`); the readings of the recorded
//! articles are the parser's (parse/tests/parsing/pubmed.rs).

use crate::common::fixtures;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::parse::pubmed::parse_pubmed;
use std::time::{Duration, Instant};

#[test]
fn html_instead_of_xml_is_named() {
    let e = parse_pubmed(&fixtures::read("ncbi/eutils/pubmed3.html"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "html_instead_of_xml");
    assert!(
        e.message.contains("HTML page titled \"PmFetch response\""),
        "{}",
        e.message
    );
    assert!(e.message.contains("PubMed XML"), "{}", e.message);
}

#[test]
fn truncated_bodies_are_reported_as_truncated() {
    let full = &fixtures::read("ncbi/eutils/pubmed1.xml");
    let e = parse_pubmed(&full[..full.len() * 60 / 100])
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "truncated_response", "{}", e.message);
    // Cut inside a tag rather than inside text.
    let tag = full.windows(11).position(|w| w == b"<AuthorList").unwrap();
    let e = parse_pubmed(&full[..tag + 5])
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "truncated_response", "{}", e.message);
}

#[test]
fn billion_laughs_is_refused_quickly() {
    let mut doc =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE PubmedArticleSet [\n<!ENTITY a \"ha\">\n");
    let mut prev = 'a';
    for name in 'b'..='k' {
        doc.push_str(&format!(
            "<!ENTITY {name} \"{}\">\n",
            format!("&{prev};").repeat(10)
        ));
        prev = name;
    }
    doc.push_str("]>\n<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article><ArticleTitle>&k;</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>");
    let t = Instant::now();
    let e = parse_pubmed(doc.as_bytes())
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "xml_entities_refused");
    assert!(t.elapsed() < Duration::from_millis(500));
}

#[test]
fn other_documents_are_named_not_misread() {
    // A real esearch answer handed to the PubMed parser.
    let e = parse_pubmed(&fixtures::read("ncbi/eutils/esearch1.xml"))
        .map_err(Error::from)
        .unwrap_err();
    assert_eq!(e.code, "unexpected_document");
    assert!(e.message.contains("<eSearchResult>"), "{}", e.message);
    // NCBI's error document for efetch (hand-written in its documented shape).
    let e = parse_pubmed(b"<?xml version=\"1.0\"?>\n<eFetchResult>\n<ERROR>Empty id list - nothing todo</ERROR>\n</eFetchResult>").map_err(Error::from).unwrap_err();
    assert_eq!(e.code, "ncbi_error");
    assert!(e.message.contains("Empty id list - nothing todo"));
    assert!(parse_pubmed(b"<PubmedArticleSet></PubmedArticleSet>")
        .unwrap()
        .is_empty());
    assert_eq!(
        parse_pubmed(b"").map_err(Error::from).unwrap_err().code,
        "empty_response"
    );
}
