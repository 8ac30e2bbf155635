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

/// A family name's particle and the name after it ("van der Berg" → ("van der", "Berg")):
/// the lower-case words that lead it, as CSL processors read a family name.
pub fn particle(family: &str) -> (Option<String>, String) {
    let words: Vec<&str> = family.split_whitespace().collect();
    let lead = words
        .iter()
        .take_while(|w| w.chars().next().is_some_and(char::is_lowercase))
        .count();
    if lead > 0 && lead < words.len() {
        (Some(words[..lead].join(" ")), words[lead..].join(" "))
    } else {
        (None, family.trim().to_string())
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
    let title = record.title_markup.as_deref().unwrap_or(&record.title);
    put("title", Some(json!(citation_title(title))));
    let authors: Vec<Value> = record
        .authors
        .iter()
        .filter_map(|a| match (&a.family, &a.collective) {
            (Some(f), _) => {
                let mut n = Map::new();
                let (particle, family) = particle(f);
                n.insert("family".into(), json!(family));
                if let Some(p) = particle {
                    n.insert("non-dropping-particle".into(), json!(p));
                }
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
    if let Some(issued) = record.issued() {
        let mut date = Map::new();
        let mut parts = vec![json!(issued.from)];
        parts.extend(issued.to.map(|to| json!(to)));
        date.insert("date-parts".into(), Value::Array(parts));
        if let Some(season) = issued.season {
            date.insert("season".into(), json!(season));
        }
        put("issued", Some(Value::Object(date)));
    }
    put("volume", text(&record.volume));
    put("issue", text(&record.issue));
    let page = record.full_pages();
    if page.is_none() {
        put("number", text(&record.article_number));
    }
    put("page", page.map(Value::String));
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
        assert_eq!(v["page"], "663-675");
        assert_eq!(citation_title("Why?."), "Why?");
        assert_eq!(citation_title("Wait..."), "Wait...");
    }

    #[test]
    fn an_item_carries_numbers_seasons_ranges_particles_and_markup() {
        let base = Record {
            key: "1".into(),
            title: "Resistance of E. coli.".into(),
            year: Some(2020),
            ..Record::default()
        };
        // An article number where there are no pages; pages win where there are.
        let numbered = Record {
            article_number: Some("e0252345".into()),
            ..base.clone()
        };
        assert_eq!(item(&numbered)["number"], "e0252345");
        assert_eq!(item(&numbered).get("page"), None);
        let paged = Record {
            pages: Some("1203-10".into()),
            ..numbered.clone()
        };
        assert_eq!(item(&paged)["page"], "1203-1210");
        assert_eq!(item(&paged).get("number"), None);
        // Seasons and date ranges.
        let dated = |d: &str| {
            item(&Record {
                pub_date: Some(d.into()),
                ..base.clone()
            })["issued"]
                .clone()
        };
        assert_eq!(
            dated("2020 Winter"),
            json!({"date-parts": [[2020]], "season": "Winter"})
        );
        assert_eq!(
            dated("2020 Jan-Feb"),
            json!({"date-parts": [[2020, 1], [2020, 2]]})
        );
        assert_eq!(
            dated("2020 Dec-2021 Jan"),
            json!({"date-parts": [[2020, 12], [2021, 1]]})
        );
        // A particle apart, a suffix kept.
        let named = Record {
            authors: vec![Author {
                family: Some("van der Berg".into()),
                given: Some("Pieter".into()),
                suffix: Some("Jr".into()),
                ..Author::default()
            }],
            ..base.clone()
        };
        assert_eq!(
            item(&named)["author"][0],
            json!({"family": "Berg", "non-dropping-particle": "van der", "given": "Pieter", "suffix": "Jr"})
        );
        // The title's markup, where the record has it.
        let marked = Record {
            title_markup: Some("Resistance of <i>E. coli</i>.".into()),
            ..base
        };
        assert_eq!(item(&marked)["title"], "Resistance of <i>E. coli</i>");
    }
}
