//! `parse_medline` against recorded MEDLINE text (tests/fixtures/ncbi/text).
//!
//! Expected values were read from the fixtures; the fixtures are never edited.

use entrez_mcp_parse::medline::parse_medline;

macro_rules! fixture {
    ($dir:literal, $name:literal) => {
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/",
            $dir,
            "/",
            $name
        ))
    };
}

#[test]
fn result1_one_record_with_a_record_level_affiliation() {
    let v = parse_medline(fixture!("text", "pubmed_result1.txt")).unwrap();
    assert_eq!(v.len(), 1);
    let r = &v[0];
    assert_eq!(r.pmid, "12230038");
    assert_eq!(r.title, "The Bio* toolkits--a brief overview.");
    let ab = r.abstract_text.as_deref().unwrap();
    // Seven wrapped lines joined with single spaces.
    assert!(ab.starts_with("Bioinformatics research is often difficult to do with commercial software. The Open Source BioPerl"));
    assert!(ab.ends_with("the beginning biologist programmer."));
    assert!(!ab.contains("  ") && !ab.contains('\n'));
    assert_eq!(r.authors.len(), 1);
    let a = &r.authors[0];
    assert_eq!(a.last_name.as_deref(), Some("Mangalam"));
    assert_eq!(a.fore_name.as_deref(), Some("Harry"));
    assert_eq!(a.initials.as_deref(), Some("H"));
    assert_eq!(
        a.affiliations,
        ["tacg Informatics, Irvine, CA 92612, USA. hjm@tacgi.com"]
    );
    assert_eq!(r.journal.as_deref(), Some("Briefings in bioinformatics"));
    assert_eq!(r.iso_abbreviation.as_deref(), Some("Brief Bioinform"));
    assert_eq!(r.issn.as_deref(), Some("1467-5463"));
    assert_eq!(
        (r.volume.as_deref(), r.issue.as_deref()),
        (Some("3"), Some("3"))
    );
    assert_eq!(r.pages.as_deref(), Some("296-302"));
    assert_eq!(r.year, Some(2002));
    assert_eq!(r.pub_date.as_deref(), Some("2002 Sep"));
    assert_eq!(r.doi, None);
    assert_eq!(r.pmcid, None);
    let mesh: Vec<(&str, bool)> = r
        .mesh
        .iter()
        .map(|m| (m.descriptor.as_str(), m.major))
        .collect();
    assert_eq!(
        mesh,
        [
            ("Computational Biology", true),
            ("Computer Systems", false),
            ("Humans", false),
            ("Internet", false),
            ("Programming Languages", true),
            ("Software", true),
            ("User-Computer Interface", false),
        ]
    );
    assert_eq!(r.publication_types, ["Journal Article"]);
    assert_eq!(r.language, ["eng"]);
}

#[test]
fn result2_four_records_with_dois_pmc_and_major_qualifiers() {
    let v = parse_medline(fixture!("text", "pubmed_result2.txt")).unwrap();
    let pmids: Vec<&str> = v.iter().map(|r| r.pmid.as_str()).collect();
    assert_eq!(pmids, ["16403221", "16377612", "14871861", "14630660"]);

    let scop = &v[0];
    assert_eq!(
        scop.title,
        "A high level interface to SCOP and ASTRAL implemented in python."
    );
    assert_eq!(
        scop.doi.as_deref(),
        Some("10.1186/1471-2105-7-10"),
        "from AID ... [doi], not the [pii]"
    );
    assert_eq!(scop.pmcid.as_deref(), Some("PMC1373603"));
    assert_eq!(scop.year, Some(2006));
    assert_eq!(scop.issue, None);
    assert_eq!(scop.authors.len(), 3);
    let saqi = &scop.authors[2];
    assert_eq!(saqi.last_name.as_deref(), Some("Saqi"));
    assert_eq!(saqi.fore_name.as_deref(), Some("Mansoor A S"));
    assert_eq!(saqi.initials.as_deref(), Some("MA"));
    // A three-line AD joined.
    assert_eq!(
        scop.authors[0].affiliations,
        ["Bioinformatics, Institute of Cell and Molecular Science, School of Medicine and Dentistry, Queen Mary, University of London, London EC1 6BQ, UK. j.a.casbon@qmul.ac.uk"]
    );
    assert!(scop
        .abstract_text
        .as_deref()
        .unwrap()
        .starts_with("BACKGROUND: Benchmarking algorithms"));
    assert_eq!(
        scop.publication_types,
        ["Evaluation Studies", "Journal Article"]
    );

    let diagram = &v[1];
    // A title wrapped over two lines.
    assert_eq!(
        diagram.title,
        "GenomeDiagram: a python package for the visualization of large-scale genomic data."
    );
    assert_eq!(diagram.pub_date.as_deref(), Some("2006 Mar 1"));
    assert_eq!(
        diagram.doi.as_deref(),
        Some("10.1093/bioinformatics/btk021")
    );
    assert_eq!(diagram.authors[2].fore_name.as_deref(), Some("Paul R J"));

    let cluster = &v[2];
    assert_eq!(cluster.authors[0].last_name.as_deref(), Some("de Hoon"));
    assert_eq!(cluster.authors[0].initials.as_deref(), Some("MJ"));
    assert_eq!(
        cluster.doi.as_deref(),
        Some("10.1093/bioinformatics/bth078")
    );

    let pdb = &v[3];
    let isr = pdb
        .mesh
        .iter()
        .find(|m| m.descriptor == "Information Storage and Retrieval")
        .unwrap();
    assert!(!isr.major);
    let q: Vec<(&str, bool)> = isr
        .qualifiers
        .iter()
        .map(|q| (q.name.as_str(), q.major))
        .collect();
    assert_eq!(q, [("methods", true), ("standards", true)]);
    assert!(pdb
        .mesh
        .iter()
        .any(|m| m.descriptor == "Models, Molecular" && m.major));
    assert_eq!(pdb.publication_types.len(), 5);
    assert_eq!(pdb.doi, None);
}

// Hand-written in the current MEDLINE layout (per-author AD, AUID, OT, LID).
#[test]
fn modern_layout_per_author_affiliations_orcid_keywords_and_lid_doi() {
    let text = "PMID- 1\r\nTI  - A title\r\nLID - e42 [pii]\r\nLID - 10.1000/abc [doi]\r\n\
FAU - Doe, Jane\r\nAU  - Doe J\r\nAUID- ORCID: 0000-0002-1825-0097\r\nAD  - Lab A.\r\nAD  - Lab B.\r\n\
CN  - The Consortium\r\nFAU - Roe, R\r\nAU  - Roe R\r\nAD  - Lab C.\r\nOT  - *first\r\nOT  - second\r\nDP  - 1998 Dec-1999 Jan\r\n";
    let v = parse_medline(text).unwrap();
    assert_eq!(v.len(), 1);
    let r = &v[0];
    assert_eq!(r.doi.as_deref(), Some("10.1000/abc"));
    assert_eq!(r.year, Some(1998));
    assert_eq!(r.authors.len(), 3);
    assert_eq!(r.authors[0].affiliations, ["Lab A.", "Lab B."]);
    assert_eq!(r.authors[0].orcid.as_deref(), Some("0000-0002-1825-0097"));
    assert_eq!(
        r.authors[1].collective_name.as_deref(),
        Some("The Consortium")
    );
    assert_eq!(r.authors[2].affiliations, ["Lab C."]);
    assert!(r.keywords[0].major && r.keywords[0].keyword == "first");
    assert!(!r.keywords[1].major);
}

#[test]
fn a_pmc_line_that_starts_inside_a_multibyte_character_parses() {
    // The eutils fuzz target's first crash (2026-11-23): "PMC -" followed by bytes that
    // decode to U+FFFD, which slicing the first three bytes split.
    let crash: &[u8] = &[
        32, 10, 80, 77, 67, 32, 45, 91, 182, 8, 73, 60, 33, 48, 68, 116, 50, 79, 67, 47, 100, 37,
        10, 1, 92, 78, 32, 32, 45, 91, 8, 8, 219, 211, 219, 219, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 158, 20, 123, 0, 0, 48, 57,
    ];
    // Reading it must not panic; what it yields is beside the point.
    let _ = entrez_mcp_parse::medline::parse_medline(&String::from_utf8_lossy(crash));
    let typed = entrez_mcp_parse::medline::parse_medline("PMID- 1\nPMC - \u{FFFD}8I\n").unwrap();
    assert_eq!(typed.len(), 1);
}
