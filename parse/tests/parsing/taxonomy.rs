//! Taxonomy, IPG and generic-XML parsers against recorded NCBI replies.

use entrez_mcp_parse::generic::{parse_generic, XmlNode};
use entrez_mcp_parse::ipg::parse_ipg;
use entrez_mcp_parse::taxonomy::parse_taxonomy;

const TAXONOMY: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/taxonomy.xml"
));

const IPG: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/efetch_schemas.xml"
));

const BIOSAMPLE: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/biosample.xml"
));

const JOURNALS: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/journals.xml"
));

#[test]
fn taxonomy_dog_with_names_codes_and_lineage() {
    let taxa = parse_taxonomy(TAXONOMY).unwrap();
    // The <Taxon> entries nested in <LineageEx> are ancestors, not more records.
    assert_eq!(taxa.len(), 2);
    let dog = &taxa[0];
    assert_eq!(dog.taxid, 9615);
    assert_eq!(dog.scientific_name, "Canis lupus familiaris");
    assert_eq!(dog.common_name.as_deref(), Some("dog"));
    assert!(dog.synonyms.iter().any(|s| s == "Canis familiaris"));
    assert_eq!(dog.synonyms.len(), 5);
    assert_eq!(dog.rank.as_deref(), Some("subspecies"));
    assert_eq!(dog.parent_taxid, Some(9612));
    assert_eq!(dog.division.as_deref(), Some("Mammals"));
    let code = dog.genetic_code.as_ref().unwrap();
    assert_eq!((code.id, code.name.as_str()), (1, "Standard"));
    let mito = dog.mito_genetic_code.as_ref().unwrap();
    assert_eq!(
        (mito.id, mito.name.as_str()),
        (2, "Vertebrate Mitochondrial")
    );
    assert!(dog
        .lineage
        .starts_with("cellular organisms; Eukaryota; Opisthokonta"));
    assert!(dog.lineage.ends_with("Canidae; Canis; Canis lupus"));

    assert_eq!(dog.lineage_ex.len(), 27);
    let root = &dog.lineage_ex[0];
    assert_eq!(root.taxid, 131567);
    assert_eq!(root.name, "cellular organisms");
    assert_eq!(root.rank.as_deref(), Some("cellular root"));
    let carnivora = dog
        .lineage_ex
        .iter()
        .find(|e| e.name == "Carnivora")
        .unwrap();
    assert_eq!(carnivora.taxid, 33554);
    assert_eq!(carnivora.rank.as_deref(), Some("order"));
    // The last ancestor is the parent, and the names agree with the lineage string.
    assert_eq!(Some(dog.lineage_ex[26].taxid), dog.parent_taxid);
    assert_eq!(dog.lineage_ex[26].rank.as_deref(), Some("species"));
    let names: Vec<&str> = dog.lineage_ex.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names.join("; "), dog.lineage);
}

#[test]
fn taxonomy_cat() {
    let taxa = parse_taxonomy(TAXONOMY).unwrap();
    let cat = &taxa[1];
    assert_eq!(cat.taxid, 9685);
    assert_eq!(cat.scientific_name, "Felis catus");
    assert_eq!(cat.common_name.as_deref(), Some("domestic cat"));
    assert_eq!(cat.rank.as_deref(), Some("species"));
    assert_eq!(cat.parent_taxid, Some(9682));
    assert_eq!(cat.lineage_ex.last().unwrap().name, "Felis");
    assert_eq!(
        cat.lineage_ex.last().unwrap().rank.as_deref(),
        Some("genus")
    );
    let felinae = cat.lineage_ex.iter().find(|e| e.taxid == 338152).unwrap();
    assert_eq!(felinae.name, "Felinae");
    assert_eq!(felinae.rank.as_deref(), Some("subfamily"));
}

#[test]
fn ipg_report_products_proteins_and_cds() {
    let reports = parse_ipg(IPG).unwrap();
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(report.ipg, "79092155");
    assert_eq!(report.product_acc.as_deref(), Some("KJV04014.1"));
    let product = report.product.as_ref().unwrap();
    assert_eq!(product.accver, "WP_045840896.1");
    assert_eq!(
        product.name.as_deref(),
        Some("methylmalonate-semialdehyde dehydrogenase (CoA acylating)")
    );
    assert_eq!(product.taxid, Some(1356405));
    assert_eq!(product.slen, Some(513));
    assert_eq!(product.org.as_deref(), Some("Rhodococcus sp. PML026"));
    assert_eq!(product.kingdom.as_deref(), Some("Bacteria"));

    assert_eq!(report.proteins.len(), 2);
    let insdc = &report.proteins[0];
    assert_eq!(insdc.accver, "KJV04014.1");
    assert_eq!(insdc.source.as_deref(), Some("INSDC"));
    assert_eq!(insdc.priority, Some(0));
    assert_eq!(insdc.cds.len(), 2);
    let cds = &insdc.cds[0];
    assert_eq!(cds.accver, "JZIS01000004.1");
    assert_eq!((cds.start, cds.stop), (Some(264437), Some(265978)));
    assert_eq!(cds.strand.as_deref(), Some("-"));
    assert_eq!(cds.strain.as_deref(), Some("PML026"));
    assert_eq!(cds.assembly.as_deref(), Some("GCA_000963615.1"));
    let refseq = &report.proteins[1];
    assert_eq!(refseq.source.as_deref(), Some("RefSeq"));
    assert_eq!(refseq.cds.len(), 1);
    assert_eq!(refseq.cds[0].accver, "NZ_KQ031368.1");
    assert_eq!(refseq.cds[0].assembly.as_deref(), Some("GCF_000963615.1"));

    let stats = report.statistics.as_ref().unwrap();
    assert_eq!(
        (stats.prot_count, stats.nuc_count, stats.assmb_count),
        (Some(2), Some(3), Some(2))
    );
    // The protein count NCBI states matches the proteins listed.
    assert_eq!(stats.prot_count, Some(report.proteins.len() as u64));
}

fn texts<'a>(records: &'a [XmlNode], child: &str) -> Vec<&'a str> {
    records
        .iter()
        .filter_map(|r| r.child(child)?.text.as_deref())
        .collect()
}

#[test]
fn generic_biosample_keeps_attributes_and_text() {
    let records = parse_generic(BIOSAMPLE, None).unwrap();
    assert_eq!(records.len(), 1);
    let sample = &records[0];
    assert_eq!(sample.element, "BioSample");
    assert_eq!(sample.attribute("accession"), Some("SAMN03502652"));
    assert_eq!(sample.attribute("access"), Some("controlled-access"));
    assert_eq!(sample.attribute("id"), Some("3502652"));
    let description = sample.child("Description").unwrap();
    let title = description.child("Title").unwrap().text.as_deref().unwrap();
    // The title's &quot; escapes come back as quotes.
    assert_eq!(
        title,
        "Non-tumor DNA sample from Saliva of a human female participant in the dbGaP study \"CCDG: Genetics of Orofacial Clefts and Related Phenotypes\""
    );
    let organism = description.child("Organism").unwrap();
    assert_eq!(organism.attribute("taxonomy_id"), Some("9606"));
    assert_eq!(organism.text, None);
    let attributes = sample.child("Attributes").unwrap();
    assert_eq!(attributes.children.len(), 18);
    let sex = attributes
        .children
        .iter()
        .find(|a| a.attribute("harmonized_name") == Some("sex"))
        .unwrap();
    assert_eq!(sex.text.as_deref(), Some("female"));
    // Whitespace between elements is not text.
    assert_eq!(sample.text, None);
}

#[test]
fn generic_biosample_serialises_attributes_as_an_object() {
    let records = parse_generic(BIOSAMPLE, None).unwrap();
    let v = serde_json::to_value(&records[0]).unwrap();
    assert_eq!(v["element"], "BioSample");
    assert_eq!(v["attributes"]["accession"], "SAMN03502652");
    assert!(v.get("text").is_none(), "empty text is left out");
    let ids = &v["children"][0];
    assert_eq!(ids["element"], "Ids");
    assert_eq!(ids["children"][1]["attributes"]["db"], "dbGaP");
    assert_eq!(ids["children"][1]["text"], "774-21971@1091668107");
}

#[test]
fn generic_journals_one_record_per_serial() {
    let records = parse_generic(JOURNALS, None).unwrap();
    assert_eq!(records.len(), 3);
    assert!(records.iter().all(|r| r.element == "Serial"));
    assert_eq!(
        texts(&records, "NlmUniqueID"),
        ["0413066", "0410462", "0404511"]
    );
    assert_eq!(
        texts(&records, "Title"),
        ["Cell", "Nature", "Science (New York, N.Y.)"]
    );
    let cell = &records[0];
    assert_eq!(cell.attribute("Status"), Some("NLMCollection"));
    let history = cell
        .child("IndexingHistoryList")
        .and_then(|l| l.child("IndexingHistory"))
        .unwrap();
    // An attribute value split over two lines is normalised to one.
    assert_eq!(
        history.attribute("IndexingStatus"),
        Some("Currently-indexed")
    );
    assert_eq!(
        history.child("CoverageNote").unwrap().text.as_deref(),
        Some("Last issue indexed from print: v132n1, Jan 11, 2008.")
    );
    let issns: Vec<_> = cell
        .children
        .iter()
        .filter(|c| c.element == "ISSN")
        .map(|c| (c.attribute("IssnType").unwrap(), c.text.as_deref().unwrap()))
        .collect();
    assert_eq!(issns, [("Print", "0092-8674"), ("Electronic", "1097-4172")]);
}

#[test]
fn generic_named_record_element_is_found_at_any_depth() {
    let issns = parse_generic(JOURNALS, Some("ISSN")).unwrap();
    // Two per journal; <ISSNLinking> is a different element.
    assert_eq!(issns.len(), 6);
    assert_eq!(issns[0].text.as_deref(), Some("0092-8674"));
    assert_eq!(issns[5].text.as_deref(), Some("1095-9203"));
    assert_eq!(issns[5].attribute("IssnType"), Some("Electronic"));
    let attrs = parse_generic(BIOSAMPLE, Some("Attribute")).unwrap();
    assert_eq!(attrs.len(), 18);
    assert_eq!(attrs[17].text.as_deref(), Some("DS-CFR"));
    assert!(parse_generic(BIOSAMPLE, Some("NoSuchElement"))
        .unwrap()
        .is_empty());
}

#[test]
fn generic_empty_set_is_no_records_and_a_lone_value_is_one() {
    let none = parse_generic(
        b"<?xml version=\"1.0\" ?>\n<BioSampleSet>\n</BioSampleSet>",
        None,
    );
    assert!(none.unwrap().is_empty());
    let one = parse_generic(b"<Count>42</Count>", None).unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].element, "Count");
    assert_eq!(one[0].text.as_deref(), Some("42"));
}

#[test]
fn generic_is_bounded_in_depth() {
    let mut deep = String::new();
    for _ in 0..40 {
        deep.push_str("<a>");
    }
    deep.push_str("bottom");
    for _ in 0..40 {
        deep.push_str("</a>");
    }
    let records = parse_generic(deep.as_bytes(), None).unwrap();
    let mut node = &records[0];
    let mut levels = 1;
    while let Some(child) = node.children.first() {
        node = child;
        levels += 1;
    }
    // The root is level 0 and its child the first record, so 24 more levels are kept.
    assert_eq!(levels, 24);
    assert_eq!(node.text.as_deref(), Some("bottom"));
}
