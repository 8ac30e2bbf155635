//! `parse_pmc` against the recorded PMC answer (tests/fixtures/ncbi/eutils/efetch_pmc.xml)
//! and a hand-written JATS article for what that recording lacks (authors,
//! an abstract, nested sections, figures and formulas).

use entrez_mcp_parse::pmc::{parse_pmc, MAX_LEVEL};

const RECORDED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/efetch_pmc.xml"
));

#[test]
fn recorded_correction_front_matter_license_and_body() {
    let v = parse_pmc(RECORDED).unwrap();
    assert_eq!(v.len(), 1);
    let a = &v[0];
    assert_eq!(
        a.pmcid.as_deref(),
        Some("PMC8435807"),
        "pub-id-type=pmc holds bare digits"
    );
    assert_eq!(a.pmid.as_deref(), Some("34527728"));
    assert_eq!(a.doi.as_deref(), Some("10.1183/23120541.50193-2021"));
    assert_eq!(a.article_type.as_deref(), Some("correction"));
    // &#x201C; ... &#x201D; and an <italic> in the source.
    assert_eq!(
        a.title,
        "\u{201c}Lung diffusing capacity for nitric oxide measured by two commercial devices: a randomised crossover comparison in healthy adults\u{201d}. Thomas Radtke, Quintin de Groot, Sarah R. Haile, Marion Maggi, Connie C.W. Hsia and Holger Dressel. ERJ Open Res 2021; 7: 00193-2021."
    );
    assert_eq!(a.journal.as_deref(), Some("ERJ Open Research"));
    assert_eq!(a.iso_abbreviation.as_deref(), Some("ERJ Open Res"));
    assert_eq!(a.issn.as_deref(), Some("2312-0541"));
    assert_eq!(
        (a.volume.as_deref(), a.issue.as_deref()),
        (Some("7"), Some("3"))
    );
    assert_eq!(a.year, Some(2021));
    // The epub date wins over the collection date (2021 Jul).
    assert_eq!(a.pub_date.as_deref(), Some("2021 Sep 13"));
    assert!(a.authors.is_empty());
    assert_eq!(a.abstract_text, None);
    assert_eq!(
        a.license_url.as_deref(),
        Some("https://creativecommons.org/licenses/by-nc/4.0/")
    );
    assert!(a
        .license
        .as_deref()
        .unwrap()
        .starts_with("This version is distributed under the terms of the Creative Commons Attribution Non-Commercial Licence 4.0."));
    assert_eq!(a.sections.len(), 1);
    let s = &a.sections[0];
    assert_eq!((s.position, s.level, s.title.as_deref()), (0, 0, None));
    assert!(s
        .text
        .starts_with("This article was originally published with an error in table 2."));
    // &#x2212; in the source, and the trailing newline before </p> dropped.
    assert!(s
        .text
        .ends_with("has now been corrected to \u{2212}15.1% in the published article."));
}

const WRITTEN: &str = r##"<?xml version="1.0"?>
<pmc-articleset><article xmlns:mml="http://www.w3.org/1998/Math/MathML" xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">
<front>
  <journal-meta><journal-id journal-id-type="nlm-ta">Test J</journal-id><journal-title-group><journal-title>Test Journal</journal-title></journal-title-group></journal-meta>
  <article-meta>
    <article-id pub-id-type="pmcid">PMC1234567</article-id>
    <title-group><article-title>Heat <italic>and</italic> light</article-title><subtitle>a study</subtitle></title-group>
    <contrib-group>
      <contrib contrib-type="author"><contrib-id contrib-id-type="orcid">https://orcid.org/0000-0002-1825-0097</contrib-id>
        <name><surname>Curie</surname><given-names>Marie</given-names></name><xref ref-type="aff" rid="a1"><sup>1</sup></xref><xref ref-type="aff" rid="a2">2</xref></contrib>
      <contrib contrib-type="author"><name><surname>Bohr</surname><given-names>Niels</given-names></name><xref ref-type="aff" rid="a2"/></contrib>
      <contrib contrib-type="author"><collab>The Light Consortium</collab></contrib>
      <contrib contrib-type="editor"><name><surname>Editor</surname></name></contrib>
      <aff id="a1"><label>1</label><institution>Institut du Radium</institution>, Paris</aff>
    </contrib-group>
    <aff id="a2"><label>2</label>Niels Bohr Institute, Copenhagen</aff>
    <pub-date pub-type="ppub"><month>03</month><year>2020</year></pub-date>
    <abstract abstract-type="graphical"><p>Not this one.</p></abstract>
    <abstract><sec><title>Background</title><p>Heat matters.</p></sec><sec><title>Results</title><p>Light too.</p></sec></abstract>
    <kwd-group><kwd>heat</kwd><kwd>light <italic>in vivo</italic></kwd></kwd-group>
  </article-meta>
</front>
<body>
  <sec><title>Introduction</title><p>First <xref ref-type="bibr" rid="b1">[1]</xref> paragraph.</p><p>Second paragraph with <inline-formula><alternatives><mml:math><mml:mi>E</mml:mi><mml:mo>=</mml:mo><mml:mi>m</mml:mi><mml:msup><mml:mi>c</mml:mi><mml:mn>2</mml:mn></mml:msup></mml:math><tex-math>E=mc^2</tex-math></alternatives></inline-formula> inside.</p>
    <sec><title>Background</title><p>Nested text.</p>
      <fig id="f1"><label>Figure 1</label><caption><p>A lamp.</p></caption><graphic xlink:href="f1.jpg"/></fig>
    </sec>
    <p>Back in the introduction.</p>
  </sec>
  <sec><title>Methods</title><table-wrap><label>Table 1</label><caption><title>Doses</title></caption><table><tr><td>secret cell</td></tr></table></table-wrap><p>We measured.</p></sec>
</body>
<back><ack><p>Thanks.</p></ack><ref-list><ref><mixed-citation>Not body text.</mixed-citation></ref></ref-list></back>
</article></pmc-articleset>"##;

#[test]
fn written_article_authors_affiliations_abstract_and_sections() {
    let v = parse_pmc(WRITTEN.as_bytes()).unwrap();
    let a = &v[0];
    assert_eq!(a.pmcid.as_deref(), Some("PMC1234567"));
    assert_eq!(a.title, "Heat and light: a study");
    assert_eq!(a.iso_abbreviation.as_deref(), Some("Test J"));
    assert_eq!(a.pub_date.as_deref(), Some("2020 Mar"));
    assert_eq!(a.authors.len(), 3, "the editor is not an author");
    let curie = &a.authors[0];
    assert_eq!(curie.last_name.as_deref(), Some("Curie"));
    assert_eq!(curie.fore_name.as_deref(), Some("Marie"));
    assert_eq!(curie.orcid.as_deref(), Some("0000-0002-1825-0097"));
    assert_eq!(
        curie.affiliations,
        [
            "Institut du Radium, Paris",
            "Niels Bohr Institute, Copenhagen"
        ]
    );
    assert_eq!(
        a.authors[1].affiliations,
        ["Niels Bohr Institute, Copenhagen"]
    );
    assert_eq!(
        a.authors[2].collective_name.as_deref(),
        Some("The Light Consortium")
    );
    assert_eq!(
        a.abstract_text.as_deref(),
        Some("Background: Heat matters.\nResults: Light too.")
    );
    assert_eq!(a.keywords, ["heat", "light in vivo"]);

    let titles: Vec<(usize, usize, Option<&str>)> = a
        .sections
        .iter()
        .map(|s| (s.position, s.level, s.title.as_deref()))
        .collect();
    assert_eq!(
        titles,
        [
            (0, 1, Some("Introduction")),
            (1, 2, Some("Background")),
            (2, 1, Some("Methods")),
            (3, 1, Some("Acknowledgments")),
        ]
    );
    assert_eq!(
        a.sections[0].text,
        "First [1] paragraph.\n\nSecond paragraph with E=mc2 inside.\n\nBack in the introduction."
    );
    assert_eq!(a.sections[1].text, "Nested text.\n\nFigure 1: A lamp.");
    assert_eq!(a.sections[2].text, "Table 1: Doses\n\nWe measured.");
    assert_eq!(a.sections[3].text, "Thanks.");
    assert!(a
        .sections
        .iter()
        .all(|s| !s.text.contains("secret cell") && !s.text.contains("Not body text")));
}

#[test]
fn sections_nested_past_the_cap_fold_into_their_parent() {
    let depth = MAX_LEVEL + 5;
    let mut doc = String::from("<article><body>");
    for i in 0..depth {
        doc.push_str(&format!("<sec><title>L{i}</title><p>p{i}</p>"));
    }
    doc.push_str(&"</sec>".repeat(depth));
    doc.push_str("</body></article>");
    let a = &parse_pmc(doc.as_bytes()).unwrap()[0];
    assert_eq!(a.sections.len(), MAX_LEVEL);
    let last = a.sections.last().unwrap();
    assert_eq!(last.level, MAX_LEVEL);
    assert!(
        last.text
            .contains(&format!("L{} p{}", MAX_LEVEL, MAX_LEVEL)),
        "{}",
        last.text
    );
    assert!(last.text.contains(&format!("p{}", depth - 1)));
}
