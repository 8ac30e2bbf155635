//! Retractions, errata and expressions of concern read from PubMed XML and MEDLINE text, on
//! the records tests/fixtures/ncbi/documented holds (built to the PubMed DTD and the PubMed
//! Help's tag table: no recording of such records exists here), and on the recorded ones,
//! which carry none and must not be flagged.

use entrez_mcp_parse::medline::parse_medline;
use entrez_mcp_parse::pubmed::integrity::{Basis, Flag};
use entrez_mcp_parse::pubmed::{parse_pubmed, PubmedArticle};

macro_rules! fixture {
    ($dir:literal, $name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/",
            $dir,
            "/",
            $name
        ))
    };
}

fn documented() -> Vec<PubmedArticle> {
    parse_pubmed(fixture!("documented", "pubmed_integrity.xml")).unwrap()
}

fn by_pmid(list: &[PubmedArticle], pmid: &str) -> PubmedArticle {
    list.iter().find(|a| a.pmid == pmid).unwrap().clone()
}

#[test]
fn a_retracted_article_is_flagged_with_its_notices_in_order() {
    let a = by_pmid(&documented(), "9500320");
    assert_eq!(
        a.integrity.flags,
        vec![Flag::Retracted, Flag::ExpressionOfConcern]
    );
    assert_eq!(a.integrity.basis, Basis::Record);
    let notices: Vec<(&str, Option<&str>)> = a
        .integrity
        .notices
        .iter()
        .map(|n| (n.relation.as_str(), n.pmid.as_deref()))
        .collect();
    assert_eq!(
        notices,
        vec![
            ("RetractionIn", Some("20137807")),
            ("RetractionIn", Some("15016483")),
            ("ExpressionOfConcernIn", Some("21971344")),
        ]
    );
    assert!(a.integrity.headline().unwrap().starts_with(
        "RETRACTED: retraction notice PMID 20137807 (Lancet. 2010 Feb 6;375(9713):445)"
    ));
    // Every link but the reference list (Cites) is kept, with its citation whole.
    let kinds: Vec<&str> = a.corrections.iter().map(|c| c.ref_type.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "CommentIn",
            "RetractionIn",
            "RetractionIn",
            "ExpressionOfConcernIn"
        ]
    );
    assert_eq!(
        a.corrections[2].ref_source,
        "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4."
    );
    // The article's own PMID, not a linked one.
    assert_eq!(a.pmid, "9500320");
}

#[test]
fn notices_errata_and_concerns_are_told_apart_and_a_clean_record_is_not_flagged() {
    let all = documented();
    let flags = |pmid: &str| by_pmid(&all, pmid).integrity.flags;
    assert_eq!(flags("20137807"), vec![Flag::RetractionNotice]);
    assert_eq!(flags("99000001"), vec![Flag::Corrected]);
    assert_eq!(flags("99000002"), vec![Flag::ErratumNotice]);
    assert_eq!(flags("99000003"), vec![Flag::ExpressionOfConcern]);
    assert_eq!(flags("99000004"), vec![Flag::ConcernNotice]);
    assert_eq!(flags("99000005"), Vec::<Flag>::new());
    let corrected = by_pmid(&all, "99000001");
    assert_eq!(corrected.corrections[1].pmid, None);
    assert_eq!(
        corrected.corrections[1].note.as_deref(),
        Some("Sample B [corrected to Sample BC]")
    );
    assert_eq!(
        corrected.integrity.headline().unwrap(),
        "CORRECTED: erratum PMID 99000002 (J Doc Ex. 2019 Dec;12(6):400); erratum J Doc Ex. 2020 Jan;13(1):5"
    );
    let notice = by_pmid(&all, "20137807");
    assert_eq!(
        notice.integrity.headline().unwrap(),
        "RETRACTION NOTICE: retracts PMID 9500320 (Lancet. 1998 Feb 28;351(9103):637-41)"
    );
}

#[test]
fn medline_tags_flag_the_same_way_as_the_xml() {
    let v = parse_medline(
        std::str::from_utf8(fixture!("documented", "medline_integrity.txt")).unwrap(),
    )
    .unwrap();
    assert_eq!(v.len(), 2);
    let xml = by_pmid(&documented(), "9500320");
    // The same flags and notices, whichever format the record came in.
    assert_eq!(v[0].integrity, xml.integrity);
    assert_eq!(
        v[0].corrections[1].pmid.as_deref(),
        Some("15016483"),
        "a PMID wrapped onto the next line"
    );
    assert_eq!(
        v[1].integrity.flags,
        vec![Flag::ExpressionOfConcern, Flag::Corrected]
    );
}

#[test]
fn no_recorded_article_is_flagged() {
    for bytes in [
        &fixture!("eutils", "pubmed1.xml")[..],
        fixture!("eutils", "pubmed2.xml"),
        fixture!("eutils", "pubmed4.xml"),
        fixture!("eutils", "pubmed5.xml"),
        fixture!("eutils", "pubmed6.xml"),
        fixture!("eutils", "pubmed7.xml"),
    ] {
        for a in parse_pubmed(bytes).unwrap() {
            assert!(a.integrity.flags.is_empty(), "{} {:?}", a.pmid, a.integrity);
            assert!(a.corrections.iter().all(|c| c.ref_type != "Cites"));
        }
    }
    // pubmed4.xml's one comment is kept as a link, and raises nothing.
    let commented: Vec<PubmedArticle> = parse_pubmed(fixture!("eutils", "pubmed4.xml")).unwrap();
    assert!(commented
        .iter()
        .any(|a| a.corrections.iter().any(|c| c.ref_type == "CommentIn")));
}
