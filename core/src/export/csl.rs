//! CSL JSON: the records as the Citation Style Language's data schema (`csl-data.json`,
//! CSL 1.0.2) describes items, which Zotero, Mendeley, Pandoc and every CSL processor read.
//! The bibliography styles ([`crate::export::style`]) render exactly these items, and the
//! tests have citeproc-js render the same ones to compare.

use crate::export::record::{Kind, Record};
use crate::json;
use serde_json::{Map, Value};

/// The title as a citation carries it: PubMed ends titles with a period, which the styles
/// add themselves (Zotero's PubMed import drops it the same way).
pub fn citation_title(title: &str) -> &str {
    let t = title.trim();
    match t.strip_suffix('.') {
        Some(rest) if !rest.ends_with('.') => rest,
        _ => t,
    }
}

/// MEDLINE's language code as the two-letter code CSL processors read ("eng" → "en"); a
/// code not in this list is kept as written.
pub fn language_tag(medline: &str) -> String {
    const CODES: &[(&str, &str)] = &[
        ("eng", "en"),
        ("ger", "de"),
        ("fre", "fr"),
        ("spa", "es"),
        ("ita", "it"),
        ("jpn", "ja"),
        ("chi", "zh"),
        ("rus", "ru"),
        ("por", "pt"),
        ("dut", "nl"),
        ("pol", "pl"),
        ("kor", "ko"),
        ("swe", "sv"),
        ("dan", "da"),
        ("nor", "no"),
        ("fin", "fi"),
        ("cze", "cs"),
        ("hun", "hu"),
        ("tur", "tr"),
        ("gre", "el"),
        ("heb", "he"),
        ("ara", "ar"),
        ("per", "fa"),
        ("ukr", "uk"),
        ("hrv", "hr"),
        ("slv", "sl"),
        ("srp", "sr"),
        ("rum", "ro"),
        ("bul", "bg"),
        ("lit", "lt"),
        ("ice", "is"),
    ];
    let code = medline.trim().to_ascii_lowercase();
    CODES
        .iter()
        .find(|(m, _)| *m == code)
        .map_or(code.clone(), |(_, t)| (*t).to_string())
}

/// The record's one language as CSL's tag, where it has exactly one.
pub fn language(record: &Record) -> Option<String> {
    match record.language.as_slice() {
        [one] if !one.trim().is_empty() => Some(language_tag(one)),
        _ => None,
    }
}

/// One record as a CSL JSON item.
pub fn item(record: &Record) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(k.to_string(), v);
        }
    };
    let text = |s: &Option<String>| s.as_ref().map(|s| Value::String(s.clone()));
    put("id", Some(json!(record.key)));
    put(
        "type",
        Some(json!(match record.kind {
            Kind::Article => "article-journal",
            Kind::Book => "book",
        })),
    );
    put("title", Some(json!(citation_title(&record.title))));
    let authors: Vec<Value> = record
        .authors
        .iter()
        .filter_map(|a| match (&a.family, &a.collective) {
            (Some(f), _) => {
                let mut n = Map::new();
                n.insert("family".into(), json!(f));
                if let Some(g) = a.given_or_initials() {
                    n.insert("given".into(), json!(g));
                }
                if let Some(s) = &a.suffix {
                    n.insert("suffix".into(), json!(s));
                }
                Some(Value::Object(n))
            }
            (None, Some(c)) => Some(json!({ "literal": c })),
            (None, None) => None,
        })
        .collect();
    if !authors.is_empty() {
        put("author", Some(Value::Array(authors)));
    }
    if record.kind == Kind::Article {
        put("container-title", text(&record.journal));
        put("container-title-short", text(&record.journal_abbrev));
    }
    if let Some(year) = record.year {
        let mut parts = vec![json!(year)];
        if let (Some(month), day) = record.month_day() {
            parts.push(json!(month));
            if let Some(d) = day {
                parts.push(json!(d));
            }
        }
        put("issued", Some(json!({ "date-parts": [parts] })));
    }
    put("volume", text(&record.volume));
    put("issue", text(&record.issue));
    put("page", text(&record.pages));
    put("DOI", text(&record.doi));
    put("PMID", record.pmid.map(|p| json!(p.to_string())));
    put("PMCID", text(&record.pmcid));
    put("ISSN", text(&record.issn));
    put("language", language(record).map(Value::String));
    put("abstract", text(&record.abstract_text));
    if !record.keywords.is_empty() {
        put("keyword", Some(json!(record.keywords.join(", "))));
    }
    Value::Object(m)
}

/// The items of one page, written so that the pages joined are one JSON array: the first
/// page opens it, every item after the export's first is preceded by a comma, the last
/// page closes it.
pub fn write(records: &[Record], first_index: usize, out: &mut String) {
    for (i, r) in records.iter().enumerate() {
        out.push_str(if first_index + i == 0 {
            "\n  "
        } else {
            ",\n  "
        });
        out.push_str(&serde_json::to_string(&item(r)).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::record::Author;

    #[test]
    fn an_item_carries_what_the_styles_need() {
        let r = Record {
            key: "31452104".into(),
            pmid: Some(31452104),
            title: "Deep learning for drug discovery.".into(),
            authors: vec![
                Author {
                    family: Some("Smith".into()),
                    given: Some("Jane A".into()),
                    ..Author::default()
                },
                Author {
                    collective: Some("The DL Consortium".into()),
                    ..Author::default()
                },
            ],
            journal: Some("Nature reviews. Drug discovery".into()),
            journal_abbrev: Some("Nat Rev Drug Discov".into()),
            year: Some(2019),
            pub_date: Some("2019 Aug 26".into()),
            pages: Some("663-75".into()),
            language: vec!["eng".into()],
            ..Record::default()
        };
        let v = item(&r);
        assert_eq!(v["title"], "Deep learning for drug discovery");
        assert_eq!(v["type"], "article-journal");
        assert_eq!(
            v["author"][0],
            json!({"family": "Smith", "given": "Jane A"})
        );
        assert_eq!(v["author"][1], json!({"literal": "The DL Consortium"}));
        assert_eq!(v["issued"], json!({"date-parts": [[2019, 8, 26]]}));
        assert_eq!(v["PMID"], "31452104");
        assert_eq!(v["language"], "en");
        assert_eq!(v["page"], "663-75");
        assert_eq!(citation_title("Why?."), "Why?");
        assert_eq!(citation_title("Wait..."), "Wait...");
    }
}
