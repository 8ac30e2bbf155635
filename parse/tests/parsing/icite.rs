//! The iCite reader on answers built from iCite's documentation
//! (tests/fixtures/external/icite/, see PROVENANCE.md there): no recording exists.

use entrez_mcp_parse::icite::parse_icite;

macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/external/icite/",
            $path
        ))
    };
}

#[test]
fn a_list_answer_reads_every_documented_field() {
    let records = parse_icite(fixture!("pubs.json")).unwrap();
    // PMID 1 was asked for and is absent: iCite leaves out what it does not hold.
    assert_eq!(
        records.iter().map(|r| r.pmid).collect::<Vec<_>>(),
        [23456789, 27599104]
    );
    let r = &records[0];
    assert_eq!(r.year, Some(2013));
    assert_eq!(r.journal.as_deref(), Some("Cancer"));
    assert_eq!(
        r.authors.as_deref(),
        Some("Arun Sharma, Stephen M Schwartz, Eduardo Méndez")
    );
    assert_eq!(r.doi.as_deref(), Some("10.1002/cncr.27976"));
    assert_eq!(r.is_research_article, Some(true));
    assert_eq!(r.relative_citation_ratio, Some(1.73));
    assert_eq!(r.nih_percentile, Some(70.3));
    assert_eq!(r.apt, Some(0.75));
    assert_eq!(r.is_clinical, Some(false));
    assert_eq!(r.provisional, Some(false));
    assert_eq!(r.citation_count, Some(26));
    assert_eq!(r.citations_per_year, Some(4.33333333333333));
    assert_eq!(r.expected_citations_per_year, Some(2.50953735885351));
    assert_eq!(r.field_citation_rate, Some(4.87055203724375));
    assert_eq!(
        (r.human, r.animal, r.molecular_cellular),
        (Some(1.0), Some(0.0), Some(0.0))
    );
    assert_eq!((r.x_coord, r.y_coord), (Some(0.0), Some(1.0)));
    assert!(r.cited_by_clin.is_empty());
    assert_eq!(r.cited_by, [90000001, 90000002, 90000003]);
    assert_eq!(r.references, [90000004, 90000005]);
    // A null list is an empty one.
    assert!(records[1].cited_by_clin.is_empty());
    assert_eq!(records[1].relative_citation_ratio, Some(5.52));
    assert_eq!(records[1].cited_by.len(), 3);
}

#[test]
fn database_names_read_as_the_same_record() {
    let records = parse_icite(fixture!("pub_database_names.json")).unwrap();
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r.pmid, 23456789);
    assert_eq!(r.is_research_article, Some(true));
    assert_eq!(r.is_clinical, Some(false));
    assert_eq!(r.relative_citation_ratio, Some(1.60818336106796));
    assert_eq!(
        r.authors.as_deref(),
        Some("Arun Sharma, Stephen M Schwartz, Eduardo Méndez")
    );
    // Fields the answer leaves out are None, not zero; and with neither cited_by nor
    // references the record says nothing of its citations (not "uncited").
    assert_eq!(r.citation_count, None);
    assert!(!r.has_cited_by && !r.has_references);
    assert!(parse_icite(fixture!("pubs.json"))
        .unwrap()
        .iter()
        .all(|r| r.has_cited_by && r.has_references));
}

#[test]
fn one_bad_record_is_left_out_and_a_zero_is_no_pmid() {
    // pubs.json's layout, cut to the fields read here: a record without a numeric PMID
    // between two good ones, and a 0 among the citers.
    let body = br#"{"meta": {}, "links": {}, "data": [
        {"pmid": 11, "cited_by": [0, 12, "13"], "references": []},
        {"pmid": "not a pmid", "cited_by": [], "references": []},
        {"pmid": 14, "cited_by": "15 0 16", "references": null}
    ]}"#;
    let records = parse_icite(body).unwrap();
    assert_eq!(records.iter().map(|r| r.pmid).collect::<Vec<_>>(), [11, 14]);
    assert_eq!(records[0].cited_by, [12, 13]);
    assert_eq!(records[1].cited_by, [15, 16]);
    // A null list is there, and empty.
    assert!(records[1].has_references && records[1].references.is_empty());
}

#[test]
fn refusals_and_other_bodies_are_errors() {
    let e = parse_icite(fixture!("too_many.json")).unwrap_err();
    assert_eq!(e.code(), "ncbi_error");
    assert!(e.message.contains("up to 200"), "{}", e.message);
    for body in [&b"<html>503</html>"[..], b"[]", b"{\"data\": 3}"] {
        assert_eq!(
            parse_icite(body).unwrap_err().code(),
            "unparseable_response"
        );
    }
    // A list whose one record has no PMID is a list of none (the PMID asked goes unanswered).
    assert!(parse_icite(b"{\"data\": [{\"title\": \"x\"}]}")
        .unwrap()
        .is_empty());
}
