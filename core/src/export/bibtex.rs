//! BibTeX, for LaTeX (BibTeX and biber) and the managers that read `.bib` files: one
//! `@article{key, field = {value}, ...}` entry per record. Values are braced and escaped
//! (`\ { } & % $ # _ ~ ^` as LaTeX reads them; UTF-8 otherwise, which biber and
//! bibtexparser read as is), words with capitals after their first letter ("DNA",
//! "mRNA") are braced so that styles which lower-case titles keep them, and authors are
//! `Family, Given` joined with `and`. Keys are built from the first author's family name,
//! the year and the record's own id, so each is unique in any export without knowing
//! the others: `smith2019_31452104`.

use crate::export::csl::citation_title;
use crate::export::record::{Kind, Record};

/// A value with LaTeX's special characters escaped.
pub fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 8);
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '{' | '}' | '&' | '%' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '\n' | '\r' | '\t' => out.push(' '),
            _ => out.push(c),
        }
    }
    out
}

/// A title escaped, with each word that has a capital after its first letter braced.
fn title(value: &str) -> String {
    value
        .split(' ')
        .map(|word| {
            let escaped = escape(word);
            let inner_capital = word.chars().skip(1).any(|c| c.is_uppercase());
            if inner_capital {
                format!("{{{escaped}}}")
            } else {
                escaped
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The citation key: ASCII letters of the first author's family name (or the collective's
/// first word), the year, and the record's key.
pub fn key(r: &Record) -> String {
    let name = r
        .authors
        .first()
        .and_then(|a| a.family.clone().or_else(|| a.collective.clone()))
        .unwrap_or_default();
    let mut k: String = name
        .split_whitespace()
        .next()
        .unwrap_or("")
        .chars()
        .filter_map(fold_ascii)
        .collect::<String>()
        .to_ascii_lowercase();
    if k.is_empty() {
        k.push_str("anon");
    }
    if let Some(y) = r.year {
        k.push_str(&y.to_string());
    }
    k.push('_');
    k.push_str(
        &r.key
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>(),
    );
    k
}

/// An ASCII letter for a Latin letter with or without its marks; `None` for others.
fn fold_ascii(c: char) -> Option<char> {
    if c.is_ascii_alphabetic() {
        return Some(c);
    }
    let base = match c {
        'à'..='å' | 'À'..='Å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'Ç' | 'ć' | 'č' | 'Č' | 'Ć' => 'c',
        'è'..='ë' | 'È'..='Ë' | 'ē' | 'ę' | 'ě' => 'e',
        'ì'..='ï' | 'Ì'..='Ï' | 'ī' | 'ı' => 'i',
        'ñ' | 'Ñ' | 'ń' | 'ň' => 'n',
        'ò'..='ö' | 'ø' | 'Ò'..='Ö' | 'Ø' | 'ō' | 'ő' => 'o',
        'ù'..='ü' | 'Ù'..='Ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' | 'Ý' => 'y',
        'ś' | 'š' | 'Š' | 'Ś' | 'ş' => 's',
        'ź' | 'ż' | 'ž' | 'Ž' | 'Ż' => 'z',
        'ł' | 'Ł' => 'l',
        'ß' => 's',
        'ř' | 'Ř' => 'r',
        'ğ' => 'g',
        _ => return None,
    };
    Some(base)
}

/// One entry.
pub fn record(r: &Record, out: &mut String) {
    let kind = match r.kind {
        Kind::Article => "article",
        Kind::Book => "book",
    };
    out.push_str(&format!("@{kind}{{{},\n", key(r)));
    let mut field = |name: &str, value: String| {
        if !value.trim().is_empty() {
            out.push_str(&format!("  {name} = {{{value}}},\n"));
        }
    };
    let authors: Vec<String> = r
        .authors
        .iter()
        .filter_map(|a| match (&a.family, &a.collective) {
            (Some(f), _) => {
                // "von Last, Jr, First" is BibTeX's full form; a suffix goes in the middle.
                let mut s = escape(f);
                if let Some(x) = &a.suffix {
                    s.push_str(", ");
                    s.push_str(&escape(x));
                }
                if let Some(g) = a.given_or_initials() {
                    s.push_str(", ");
                    s.push_str(&escape(&g));
                }
                Some(s)
            }
            // A collective is one name: braced so that it is not split into parts.
            (None, Some(c)) => Some(format!("{{{}}}", escape(c))),
            (None, None) => None,
        })
        .collect();
    field("author", authors.join(" and "));
    field("title", title(citation_title(&r.title)));
    if let Some(j) = &r.journal {
        field("journal", escape(j));
    }
    if let Some(j) = &r.journal_abbrev {
        field("shortjournal", escape(j));
    }
    if let Some(y) = r.year {
        field("year", y.to_string());
    }
    if let (Some(m), _) = r.month_day() {
        const MONTHS: [&str; 12] = [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ];
        field("month", MONTHS[m as usize - 1].to_string());
    }
    for (name, value) in [("volume", &r.volume), ("number", &r.issue)] {
        if let Some(v) = value {
            field(name, escape(v));
        }
    }
    if let Some((start, end)) = r.page_span() {
        field(
            "pages",
            match end {
                Some(e) => format!("{}--{}", escape(&start), escape(&e)),
                None => escape(&start),
            },
        );
    } else if let Some(n) = &r.article_number {
        // An electronic article's number, where BibTeX styles print pages.
        field("pages", escape(n));
    }
    if let Some(d) = &r.doi {
        field("doi", escape(d));
    }
    if let Some(p) = r.pmid {
        field("pmid", p.to_string());
    }
    if let Some(c) = &r.pmcid {
        field("pmcid", escape(c));
    }
    if let Some(s) = &r.issn {
        field("issn", escape(s));
    }
    if let Some(u) = r.pubmed_url() {
        field("url", u);
    }
    if let Some(l) = r.language.first() {
        field("language", escape(l));
    }
    let keywords: Vec<&str> = r.keywords.iter().map(String::as_str).collect();
    field("keywords", escape(&keywords.join(", ")));
    if let Some(a) = &r.abstract_text {
        field("abstract", escape(a));
    }
    if let Some(headline) = r.integrity().headline() {
        field("note", escape(&headline));
    }
    out.push_str("}\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::record::Author;

    #[test]
    fn values_are_escaped_keys_unique_and_capitals_kept() {
        assert_eq!(
            escape(r"50% of $x_1 & {y} #2 ~ ^ \"),
            r"50\% of \$x\_1 \& \{y\} \#2 \textasciitilde{} \textasciicircum{} \textbackslash{}"
        );
        assert_eq!(
            title("The DNA of mRNA in COVID-19"),
            "The {DNA} of {mRNA} in {COVID-19}"
        );
        let r = Record {
            key: "31452104".into(),
            pmid: Some(31452104),
            authors: vec![Author {
                family: Some("Müller-Ørsted".into()),
                given: Some("Hans".into()),
                suffix: Some("Jr".into()),
                ..Author::default()
            }],
            title: "X.".into(),
            year: Some(2019),
            pages: Some("663-75".into()),
            ..Record::default()
        };
        assert_eq!(key(&r), "mullerorsted2019_31452104");
        let mut out = String::new();
        record(&r, &mut out);
        assert!(out.starts_with("@article{mullerorsted2019_31452104,\n  author = {Müller-Ørsted, Jr, Hans},\n  title = {X},\n  year = {2019},\n  pages = {663--675},\n"), "{out}");
        assert!(out.ends_with("}\n\n"));
    }
}
