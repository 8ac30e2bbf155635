//! ESummary parsers (v1 XML, v2.0 XML, JSON) and the cross-database headline.
//!
//! The v1 fixtures are recorded NCBI replies; the v2.0 and JSON documents are
//! written inline from NCBI's documented shapes, since no recording exists.

use entrez_mcp_parse::esummary::{
    headline, parse_esummary_json, parse_esummary_xml, DocSummary, EsummaryResult,
};
use serde_json::json;

macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/eutils/",
            $path
        ))
    };
}

fn parse(bytes: &[u8]) -> EsummaryResult {
    let r = parse_esummary_xml(bytes).unwrap();
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    r
}

#[test]
fn esummary1_pubmed_items_are_typed() {
    let r = parse(fixture!("esummary1.xml"));
    assert_eq!(r.docs.len(), 2);
    let d = &r.docs[0];
    assert_eq!(d.uid, "11850928");
    let f = &d.fields;
    assert_eq!(f["PubDate"], "1965 Aug");
    assert_eq!(f["Source"], "Arch Dermatol");
    assert_eq!(f["AuthorList"], json!(["LoPresti PJ", "Hambrick GW Jr"]));
    assert_eq!(f["LangList"], json!(["English"]));
    assert_eq!(f["HasAbstract"], json!(1));
    assert_eq!(f["PmcRefCount"], json!(0));
    assert_eq!(f["ArticleIds"], json!({"pubmed": "11850928"}));
    assert_eq!(
        f["History"],
        json!({"pubmed": "1965/08/01 00:00", "medline": "2002/03/09 10:01", "entrez": "1965/08/01 00:00"})
    );
    assert_eq!(f["References"], json!([]));
    assert_eq!(f["EPubDate"], "");

    let h = headline(d);
    assert_eq!(
        h.title.as_deref(),
        Some("Zirconium granuloma following treatment of rhus dermatitis.")
    );
    assert_eq!(h.authors, ["LoPresti PJ", "Hambrick GW Jr"]);
    assert_eq!(h.source.as_deref(), Some("Arch Dermatol"));
    assert_eq!(h.year, Some(1965));

    let second = &r.docs[1];
    assert_eq!(second.uid, "11482001");
    assert_eq!(
        second.fields["PubTypeList"],
        json!(["Journal Article", "Review"])
    );
    assert_eq!(headline(second).authors.len(), 3);
    assert_eq!(headline(second).year, Some(2001));
}

#[test]
fn esummary3_protein() {
    let r = parse(fixture!("esummary3.xml"));
    let d = &r.docs[0];
    assert_eq!(d.uid, "28800982");
    assert_eq!(d.fields["Caption"], "AAO47091");
    assert_eq!(d.fields["Gi"], json!(28800982));
    assert_eq!(d.fields["TaxId"], json!(9606));
    assert_eq!(d.fields["Length"], json!(268));
    // An empty Integer item is no value, not zero.
    assert!(d.fields["Flags"].is_null());
    assert_eq!(d.fields["Comment"], "");
    let h = headline(d);
    assert_eq!(
        h.title.as_deref(),
        Some("hemochromatosis, partial [Homo sapiens]")
    );
    assert_eq!(h.year, Some(2003));
    assert!(h.authors.is_empty());
    assert_eq!(r.docs[1].fields["AccessionVersion"], "AAO49381.1");
}

#[test]
fn esummary4_nucleotide() {
    let r = parse(fixture!("esummary4.xml"));
    assert_eq!(r.docs.len(), 2);
    assert_eq!(r.docs[0].uid, "28864546");
    assert_eq!(r.docs[0].fields["Length"], json!(491));
    assert_eq!(
        headline(&r.docs[1]).title.as_deref(),
        Some("Homo sapiens hemochromatosis (HFE) mRNA, partial cds")
    );
    assert_eq!(
        r.docs[1].fields["Extra"],
        "gi|28800981|gb|AY205604.1|[28800981]"
    );
}

#[test]
fn esummary5_structure_reads_through_pdb_fields() {
    let r = parse(fixture!("esummary5.xml"));
    let d = &r.docs[0];
    assert_eq!(d.uid, "19923");
    assert_eq!(d.fields["PdbAcc"], "1L5J");
    assert_eq!(d.fields["OrganismList"], json!(["Escherichia coli"]));
    let h = headline(d);
    assert_eq!(
        h.title.as_deref(),
        Some("CRYSTAL STRUCTURE OF E. COLI ACONITASE B")
    );
    assert_eq!(h.year, Some(2002));
    assert_eq!(headline(&r.docs[1]).year, Some(1998));
}

#[test]
fn esummary6_taxonomy_entities_and_names() {
    let r = parse(fixture!("esummary6.xml"));
    let d = &r.docs[0];
    assert_eq!(d.uid, "9913");
    assert_eq!(d.fields["Division"], "even-toed ungulates & whales");
    assert_eq!(d.fields["TaxId"], json!(9913));
    assert_eq!(
        headline(d).title.as_deref(),
        Some("Bos taurus (domestic cattle)")
    );
    assert_eq!(
        headline(&r.docs[1]).title.as_deref(),
        Some("Bos grunniens (domestic yak)")
    );
}

#[test]
fn esummary8_request_error_is_reported_without_docs() {
    let r = parse_esummary_xml(fixture!("esummary8.xml")).unwrap();
    assert!(r.docs.is_empty());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].uid, None);
    assert_eq!(r.errors[0].message, "Neither query_key nor id specified");
}

#[test]
fn esummary9_pccompound_lists_and_numbers() {
    let r = parse(fixture!("esummary9.xml"));
    let d = &r.docs[0];
    assert_eq!(d.uid, "7488");
    assert_eq!(d.fields["CID"], json!(7488));
    let synonyms = d.fields["SynonymList"].as_array().unwrap();
    assert_eq!(synonyms.len(), 77);
    assert_eq!(synonyms[1], "100-20-9");
    assert!(synonyms.contains(&json!("Terephthaloyl chloride, >=99%, flakes")));
    assert_eq!(
        d.fields["MeSHHeadingList"],
        json!(["terephthaloyl chloride"])
    );
    assert_eq!(d.fields["SourceNameList"], json!([]));
    assert_eq!(d.fields["TotalAidCount"], json!(243));
    assert_eq!(d.fields["MolecularFormula"], "C8H4Cl2O2");
    assert_eq!(d.fields["InChIKey"], "LXEJRKJRKIFVNY-UHFFFAOYSA-N");
    let h = headline(d);
    assert_eq!(h.title.as_deref(), Some("Terephthaloyl chloride"));
    assert_eq!(h.year, Some(2005));
}

/// An esummary version=2.0 reply in NCBI's documented shape, with one missing uid.
const V2: &[u8] = br#"<?xml version="1.0" encoding="UTF-8" ?>
<!DOCTYPE eSummaryResult PUBLIC "-//NLM//DTD esummary pubmed 20130110//EN" "https://eutils.ncbi.nlm.nih.gov/eutils/dtd/20130110/esummary_pubmed.dtd">
<eSummaryResult>
<DocumentSummarySet status="OK">
<DbBuild>Build250101-0000.1</DbBuild>
<DocumentSummary uid="11850928">
	<PubDate>1965 Aug</PubDate>
	<Source>Arch Dermatol</Source>
	<Authors>
		<Author><Name>LoPresti PJ</Name><AuthType>Author</AuthType><ClusterID></ClusterID></Author>
	</Authors>
	<Title>Zirconium granuloma following treatment of rhus dermatitis.</Title>
	<ArticleIds>
		<ArticleId><IdType>pubmed</IdType><IdTypeN>1</IdTypeN><Value>11850928</Value></ArticleId>
		<ArticleId><IdType>eid</IdType><IdTypeN>8</IdTypeN><Value>11850928</Value></ArticleId>
	</ArticleIds>
	<PmcRefCount>0</PmcRefCount>
</DocumentSummary>
<DocumentSummary uid="999999999">
	<error>cannot get document summary</error>
</DocumentSummary>
</DocumentSummarySet>
</eSummaryResult>"#;

#[test]
fn esummary_v2_nested_fields_and_per_uid_error() {
    let r = parse_esummary_xml(V2).unwrap();
    assert_eq!(r.docs.len(), 1);
    let d = &r.docs[0];
    assert_eq!(d.uid, "11850928");
    assert_eq!(d.fields["Source"], "Arch Dermatol");
    assert_eq!(
        d.fields["Authors"],
        json!([{"Name": "LoPresti PJ", "AuthType": "Author", "ClusterID": ""}])
    );
    assert_eq!(d.fields["ArticleIds"][1]["IdType"], "eid");
    assert!(!d.fields.contains_key("DbBuild"));
    let h = headline(d);
    assert_eq!(h.authors, ["LoPresti PJ"]);
    assert_eq!(h.year, Some(1965));

    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].uid.as_deref(), Some("999999999"));
    assert_eq!(r.errors[0].message, "cannot get document summary");
}

#[test]
fn esummary_json_docs_and_per_uid_error() {
    let body = br#"{"header":{"type":"esummary","version":"0.3"},"result":{"uids":["11850928","123"],
      "11850928":{"uid":"11850928","pubdate":"1965 Aug","source":"Arch Dermatol",
        "authors":[{"name":"LoPresti PJ","authtype":"Author","clusterid":""},{"name":"Hambrick GW Jr","authtype":"Author","clusterid":""}],
        "title":"Zirconium granuloma following treatment of rhus dermatitis.","pmcrefcount":0},
      "123":{"uid":"123","error":"cannot get document summary"}}}"#;
    let r = parse_esummary_json(body).unwrap();
    assert_eq!(r.docs.len(), 1);
    let d: &DocSummary = &r.docs[0];
    assert_eq!(d.uid, "11850928");
    assert!(!d.fields.contains_key("uid"));
    assert_eq!(d.fields["pmcrefcount"], json!(0));
    let h = headline(d);
    assert_eq!(
        h.title.as_deref(),
        Some("Zirconium granuloma following treatment of rhus dermatitis.")
    );
    assert_eq!(h.authors, ["LoPresti PJ", "Hambrick GW Jr"]);
    assert_eq!(h.source.as_deref(), Some("Arch Dermatol"));
    assert_eq!(h.year, Some(1965));
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].uid.as_deref(), Some("123"));
    assert_eq!(r.errors[0].message, "cannot get document summary");
}

#[test]
fn esummary_json_too_many_uids_is_a_request_error() {
    let body = br#"{"header":{"type":"esummary","version":"0.3"},"error":"Too many UIDs in request. Maximum number of UIDs is 500 for JSON format output."}"#;
    let r = parse_esummary_json(body).unwrap();
    assert!(r.docs.is_empty());
    assert_eq!(r.errors.len(), 1);
    assert_eq!(r.errors[0].uid, None);
    assert!(r.errors[0].message.starts_with("Too many UIDs in request."));
}

#[test]
fn esummary_v1_trailing_error_names_its_uid() {
    let body = b"<eSummaryResult><DocSum><Id>1</Id><Item Name=\"Title\" Type=\"String\">t</Item></DocSum><ERROR>UID=999999999: cannot get document summary</ERROR></eSummaryResult>";
    let r = parse_esummary_xml(body).unwrap();
    assert_eq!(r.docs.len(), 1);
    assert_eq!(r.errors[0].uid.as_deref(), Some("999999999"));
}

#[test]
fn records_serialize_as_plain_json() {
    let r = parse(fixture!("esummary6.xml"));
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["docs"][1]["uid"], "30521");
    assert_eq!(v["docs"][1]["fields"]["CommonName"], "domestic yak");
    let h = serde_json::to_value(headline(&r.docs[0])).unwrap();
    assert_eq!(h["title"], "Bos taurus (domestic cattle)");
}
