//! check_references on what a researcher calls the same citation: a group author (PubMed's
//! `CollectiveName`) cited by its name, and a field the record lacks listed as unchecked,
//! never counted as agreeing. Each citation is built from the stand-in's own XML, read here.

use super::references::by_key;
use crate::common::replay::Replay;
use crate::common::*;
use serde_json::{json, Value};

/// The text of the first `<name>` (or `<name …>`) element in `xml`.
fn tag(xml: &str, name: &str) -> Option<String> {
    let open = [format!("<{name}>"), format!("<{name} ")]
        .into_iter()
        .filter_map(|o| xml.find(&o))
        .min()?;
    let start = open + xml[open..].find('>')? + 1;
    let end = start + xml[start..].find(&format!("</{name}>"))?;
    Some(xml[start..end].trim().to_string())
}

/// The `<PubmedArticle>` of `pmid` in a fixture.
fn article(file: &str, pmid: &str) -> String {
    let xml = String::from_utf8(fixtures::ncbi(file)).unwrap();
    xml.split("<PubmedArticle>")
        .find(|a| tag(a, "PMID").as_deref() == Some(pmid))
        .unwrap_or_else(|| panic!("no {pmid} in {file}"))
        .to_string()
}

/// The article's title as a researcher copies it: quotes unescaped, italics dropped.
fn plain_title(article: &str) -> String {
    tag(article, "ArticleTitle")
        .unwrap()
        .replace("&quot;", "\"")
        .replace("<i>", "")
        .replace("</i>", "")
}

fn check(refs: Value) -> Value {
    let replay = Replay::start();
    let s = networked_server(&replay.eutils_base(), None);
    let r = call_tool(
        &s,
        "entrez_query",
        json!({"operation": "check_references", "references": refs}),
    );
    assert_eq!(r["isError"], false, "{r}");
    r["structuredContent"].clone()
}

/// A retraction notice whose only author is a group ("The Editors of The Lancet"): cited by
/// the group's name as a researcher writes it (without "The", in another case), it is the
/// record, not a mismatch; a person's name in the group's place still disagrees.
#[test]
fn a_group_author_is_compared_by_its_name() {
    let pmid = "20137807";
    let a = article("documented/pubmed_integrity.xml", pmid);
    let authors = tag(&a, "AuthorList").unwrap();
    let group = tag(&authors, "CollectiveName").expect("a group author");
    assert!(
        tag(&authors, "LastName").is_none(),
        "the group is the only author"
    );
    let title = tag(&a, "ArticleTitle").unwrap();
    let source = format!(
        "{}. {};{}({}):{}.",
        tag(&a, "ISOAbbreviation").unwrap(),
        tag(&a, "Year").unwrap(),
        tag(&a, "Volume").unwrap(),
        tag(&a, "Issue").unwrap(),
        tag(&a, "MedlinePgn").unwrap()
    );
    let without_the = group.strip_prefix("The ").unwrap_or(&group).to_string();
    let refs = json!([
        {"key": "as-recorded", "text": format!("{group}. {title} {source}")},
        {"key": "without-the", "text": format!("{without_the}. {title} {source}")},
        {"key": "upper", "text": format!("{}. {title} {source}", without_the.to_uppercase())},
        {"key": "fields", "title": title, "authors": [without_the.to_lowercase()], "journal": tag(&a, "ISOAbbreviation").unwrap()},
        {"key": "person", "text": format!("Smith J. {title} {source}")},
    ]);
    let r = check(refs);
    for key in ["as-recorded", "without-the", "upper", "fields"] {
        let v = by_key(&r, key);
        assert_eq!(v["verdict"], "verified", "{key}: {v}");
        assert_eq!(v["pmid"], pmid, "{key}");
        assert!(
            v["agreed"]
                .as_array()
                .unwrap()
                .contains(&json!("first_author")),
            "{key}: {v}"
        );
    }
    let person = by_key(&r, "person");
    assert_eq!(person["verdict"], "mismatch", "{person}");
    assert_eq!(person["disagreed"], json!(["first_author"]), "{person}");
}

/// A record without an issue (the fixture's own record is read for which it lacks): a
/// citation giving one is verified on the rest, and the issue is listed as unchecked in
/// `read` and in the record's evidence, never among the fields that agreed.
#[test]
fn fields_the_record_lacks_are_listed_unchecked() {
    let pmid = "30108519";
    let a = article("eutils/pubmed6.xml", pmid);
    let lacks: Vec<&str> = [
        ("Volume", "volume"),
        ("Issue", "issue"),
        ("MedlinePgn", "first_page"),
    ]
    .into_iter()
    .filter(|(t, _)| tag(&a, t).is_none())
    .map(|(_, f)| f)
    .collect();
    assert_eq!(lacks, ["issue"], "the record this test was written for");
    let family = tag(&a, "LastName").unwrap();
    let initials = tag(&a, "Initials").unwrap();
    let title = plain_title(&a);
    let line = format!(
        "{family} {initials}. {title} {}. {};{}(7):{}.",
        tag(&a, "ISOAbbreviation").unwrap(),
        tag(&a, "Year").unwrap(),
        tag(&a, "Volume").unwrap(),
        tag(&a, "MedlinePgn").unwrap()
    );
    let r = check(json!([{"key": "with-issue", "text": line}]));
    let v = by_key(&r, "with-issue");
    assert_eq!(v["verdict"], "verified", "{v}");
    assert_eq!(v["pmid"], pmid);
    assert_eq!(v["read"]["unchecked"], json!(lacks), "{v}");
    assert_eq!(v["unchecked"], json!(lacks), "{v}");
    assert!(
        !v["agreed"].as_array().unwrap().contains(&json!("issue")),
        "{v}"
    );
    assert!(
        v["message"].as_str().unwrap().contains("Not checked"),
        "{v}"
    );
}

/// A recorded author with a Spanish name written in the record without its accent
/// ("Garcia-Tabar"), cited as reference managers and keyboards write it: precomposed
/// ("García"), NFD ("Garci\u{301}a"), with the title in NFD too ("Mi\u{301}nimum"): the
/// same paper, verified with its first author agreeing.
#[test]
fn accented_and_nfd_names_and_titles_are_the_records() {
    let pmid = "30108519";
    let a = article("eutils/pubmed6.xml", pmid);
    let family = tag(&a, "LastName").unwrap();
    assert_eq!(
        family, "Garcia-Tabar",
        "the record this test was written for"
    );
    let title = plain_title(&a);
    let source = format!(
        "{}. {};{}:{}.",
        tag(&a, "ISOAbbreviation").unwrap(),
        tag(&a, "Year").unwrap(),
        tag(&a, "Volume").unwrap(),
        tag(&a, "MedlinePgn").unwrap()
    );
    let nfd_title = title.replace("Minimum", "Mi\u{301}nimum");
    assert_ne!(nfd_title, title);
    let refs = json!([
        {"key": "precomposed", "text": format!("García-Tabar I. {title} {source}")},
        {"key": "nfd", "text": format!("Garci\u{301}a-Tabar I. {nfd_title} {source}")},
        {"key": "title-only", "title": nfd_title, "authors": ["Garci\u{301}a-Tabar"]},
    ]);
    let r = check(refs);
    for key in ["precomposed", "nfd", "title-only"] {
        let v = by_key(&r, key);
        assert_eq!(v["verdict"], "verified", "{key}: {v}");
        assert_eq!(v["pmid"], pmid, "{key}");
        assert!(
            v["agreed"]
                .as_array()
                .unwrap()
                .contains(&json!("first_author"))
                && v["agreed"].as_array().unwrap().contains(&json!("title")),
            "{key}: {v}"
        );
    }
}
