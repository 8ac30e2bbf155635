//! Entrez search terms: balance, field tags, Boolean operators, dates.
//!
//! NCBI is forgiving in the worst way: an unclosed quote, an unknown field tag or a
//! lower-case "and" does not fail, it silently changes the query, and the caller reads a
//! count that answers a different question. This module names those slips before the search
//! runs. Balance problems are errors (the query cannot mean what was written); an unknown tag
//! or a lower-case operator is a warning, because NCBI still runs the search.

use crate::suggest::closest;
use crate::tools::entrez_query::validation::dates;
use crate::tools::entrez_query::validation::dates::EntrezDate;
use crate::validation::databases::pubmed_info;
use crate::validation::{codes, Report};
use std::sync::OnceLock;

/// PubMed tag abbreviations from PubMed Help ("Search Field Descriptions and Tags").
const PUBMED_ABBREVIATIONS: &[&str] = &[
    "ab", "ad", "affl", "aid", "all", "au", "auid", "book", "cn", "cois", "doi", "ec", "ed",
    "filter", "1au", "fau", "fir", "gr", "ir", "isbn", "ip", "ta", "jour", "jid", "la", "lang",
    "lastau", "lid", "majr", "sh", "mh", "mesh", "ot", "owner", "pg", "ps", "pa", "pl", "pmid",
    "pubn", "pt", "si", "nm", "rn", "sb", "tw", "ti", "tiab", "tt", "vi", "uid",
];

/// PubMed Help's long field names that differ from einfo's FullName.
const PUBMED_LONG_NAMES: &[&str] = &[
    "affiliation",
    "article identifier",
    "author identifier",
    "completion date",
    "conflict of interest statement",
    "corporate author",
    "create date",
    "ec/rn number",
    "entry date",
    "first author name",
    "full author name",
    "grants and funding",
    "investigator",
    "issue",
    "journal",
    "language",
    "last author name",
    "location id",
    "mesh date",
    "mesh major topic",
    "mesh subheading",
    "mesh subheadings",
    "mesh terms",
    "modification date",
    "nlm unique id",
    "other term",
    "pagination",
    "personal name as subject",
    "pharmacological action",
    "place of publication",
    "publication date",
    "publication type",
    "publisher",
    "secondary source id",
    "subset",
    "supplementary concept",
    "text word",
    "text words",
    "title",
    "title/abstract",
    "transliterated title",
    "volume",
];

/// Date tags: PubMed Help abbreviations and long names for date fields.
const DATE_TAGS: &[&str] = &[
    "dp",
    "pdat",
    "edat",
    "crdt",
    "mhda",
    "dcom",
    "lr",
    "mdat",
    "cdat",
    "publication date",
    "entry date",
    "create date",
    "mesh date",
    "completion date",
    "modification date",
];

/// Every PubMed tag: einfo Names and FullNames, PubMed Help's abbreviations and names.
///
/// Field tags are known only where NCBI's field list is embedded: PubMed
/// (`data/ncbi/einfo2.xml`, Name and FullName of every field) plus the tag abbreviations
/// PubMed's help documents. Other databases get every check except the tag list.
pub fn pubmed_tags() -> &'static [String] {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    TAGS.get_or_init(|| {
        let info = pubmed_info();
        let mut tags: Vec<String> = info
            .fields
            .iter()
            .flat_map(|f| {
                [
                    f.name.to_ascii_lowercase(),
                    f.full_name.to_ascii_lowercase(),
                ]
            })
            .chain(PUBMED_ABBREVIATIONS.iter().map(|s| s.to_string()))
            .chain(PUBMED_LONG_NAMES.iter().map(|s| s.to_string()))
            .chain(DATE_TAGS.iter().map(|s| s.to_string()))
            .collect();
        tags.sort();
        tags.dedup();
        tags
    })
}

fn is_date_tag(tag: &str) -> bool {
    DATE_TAGS.contains(&tag)
        || pubmed_info().fields.iter().any(|f| {
            f.is_date && (f.name.eq_ignore_ascii_case(tag) || f.full_name.eq_ignore_ascii_case(tag))
        })
}

/// The tag's field, without `:noexp` or a proximity `:~N` modifier.
fn field_of(tag: &str) -> String {
    tag.split(':')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

struct Scan<'t> {
    /// (byte offset of '[', contents) of every tag outside quotes.
    tags: Vec<(usize, &'t str)>,
    /// Words, quoted phrases and parentheses outside brackets, in order.
    tokens: Vec<String>,
}

/// 1-based character position of a byte offset, for messages.
fn position(term: &str, byte: usize) -> usize {
    term[..byte].chars().count() + 1
}

fn scan<'t>(term: &'t str, at: &str, report: &mut Report) -> Option<Scan<'t>> {
    let mut out = Scan {
        tags: Vec::new(),
        tokens: Vec::new(),
    };
    let mut quote: Option<usize> = None;
    let mut bracket: Option<usize> = None;
    let mut parens: Vec<usize> = Vec::new();
    let mut current = String::new();
    let mut balanced = true;
    let flush = |current: &mut String, tokens: &mut Vec<String>| {
        if !current.is_empty() {
            tokens.push(std::mem::take(current));
        }
    };
    for (i, c) in term.char_indices() {
        if quote.is_some() {
            current.push(c);
            if c == '"' {
                quote = None;
            }
            continue;
        }
        if let Some(open) = bracket {
            match c {
                ']' => {
                    out.tags.push((open, &term[open + 1..i]));
                    bracket = None;
                }
                '[' => {
                    report.error(
                        codes::UNBALANCED_BRACKETS,
                        at,
                        format!(
                            "The '[' at character {} opens before the '[' at character {} is closed; field tags cannot nest.",
                            position(term, i),
                            position(term, open)
                        ),
                    );
                    return None;
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                quote = Some(i);
                current.push(c);
            }
            '[' => bracket = Some(i),
            ']' => {
                report.error(
                    codes::UNBALANCED_BRACKETS,
                    at,
                    format!(
                        "The ']' at character {} has no '[' before it.",
                        position(term, i)
                    ),
                );
                balanced = false;
            }
            '(' => {
                flush(&mut current, &mut out.tokens);
                out.tokens.push("(".into());
                parens.push(i);
            }
            ')' => {
                flush(&mut current, &mut out.tokens);
                out.tokens.push(")".into());
                if parens.pop().is_none() {
                    report.error(
                        codes::UNBALANCED_PARENTHESES,
                        at,
                        format!("The ')' at character {} closes nothing.", position(term, i)),
                    );
                    balanced = false;
                }
            }
            c if c.is_whitespace() => flush(&mut current, &mut out.tokens),
            _ => current.push(c),
        }
    }
    flush(&mut current, &mut out.tokens);
    if let Some(q) = quote {
        report.error(
            codes::UNBALANCED_QUOTES,
            at,
            format!(
                "The '\"' at character {} is never closed, so NCBI would read the rest of the term as one phrase.",
                position(term, q)
            ),
        );
        balanced = false;
    }
    if let Some(b) = bracket {
        report.error(
            codes::UNBALANCED_BRACKETS,
            at,
            format!(
                "The '[' at character {} is never closed with ']'.",
                position(term, b)
            ),
        );
        balanced = false;
    }
    if let Some(p) = parens.first() {
        report.error(
            codes::UNBALANCED_PARENTHESES,
            at,
            format!(
                "{} '(' never closed; the first is at character {}.",
                parens.len(),
                position(term, *p)
            ),
        );
        balanced = false;
    }
    if !balanced {
        report.suggest("Balance every \" ( [ in the term with its closing \" ) ].");
    }
    balanced.then_some(out)
}

fn operators(tokens: &[String], at: &str, report: &mut Report) {
    let is_op = |t: &str| matches!(t, "AND" | "OR" | "NOT");
    if let Some(t) = tokens
        .iter()
        .find(|t| matches!(t.as_str(), "and" | "or" | "not"))
    {
        report.warn(
            codes::LOWERCASE_OPERATOR,
            at,
            format!(
                "\"{t}\" in lower case is searched as a word, not as the Boolean operator; write {}.",
                t.to_ascii_uppercase()
            ),
        );
    }
    for (i, t) in tokens.iter().enumerate() {
        if !is_op(t) {
            continue;
        }
        let before = i.checked_sub(1).map(|j| tokens[j].as_str());
        let after = tokens.get(i + 1).map(String::as_str);
        let open_left = before.is_none_or(|b| b == "(" || is_op(b));
        let open_right = after.is_none_or(|a| a == ")" || is_op(a));
        if open_left || open_right {
            report.warn(
                codes::DANGLING_OPERATOR,
                at,
                format!(
                    "{t} has nothing on its {} side; NCBI drops or misreads it.",
                    if open_left { "left" } else { "right" }
                ),
            );
            return;
        }
    }
}

/// The text a `[tag]` applies to: the quoted phrase or the word just before it.
fn tagged_value(term: &str, open: usize) -> &str {
    let before = &term[..open];
    if let Some(inner) = before.strip_suffix('"') {
        return inner.rfind('"').map(|q| &inner[q + 1..]).unwrap_or(inner);
    }
    let start = before
        .rfind(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == '"')
        .map(|p| p + 1)
        .unwrap_or(0);
    &before[start..]
}

fn date_value(value: &str, tag: &str, at: &str, report: &mut Report) {
    let v = value.trim();
    if !v.starts_with(|c: char| c.is_ascii_digit()) {
        return; // "last 5 years"[dp] and other relative forms NCBI accepts
    }
    let b = v.as_bytes();
    if b.len() == 9
        && b[4] == b'-'
        && v[..4]
            .bytes()
            .chain(v[5..].bytes())
            .all(|c| c.is_ascii_digit())
    {
        report.error(
            codes::INVALID_DATE,
            at,
            format!(
                "\"{v}[{tag}]\" is not a range to NCBI; write {}:{}[{tag}].",
                &v[..4],
                &v[5..]
            ),
        );
        return;
    }
    let parts: Vec<&str> = v.split(':').collect();
    let mut parsed: Vec<EntrezDate> = Vec::new();
    for p in &parts {
        let p = p.trim().trim_matches('"');
        if !p.starts_with(|c: char| c.is_ascii_digit()) {
            return;
        }
        match dates::parse(p) {
            Ok(d) => parsed.push(d),
            Err(why) => {
                report.error(
                    codes::INVALID_DATE,
                    at,
                    format!("The date \"{p}\" before [{tag}] is not a valid Entrez date: {why}."),
                );
                report.suggest(format!("Write dates in terms as YYYY, YYYY/MM or YYYY/MM/DD, e.g. 2020/01:2024/06[{tag}]."));
                return;
            }
        }
    }
    if let [from, to] = parsed[..] {
        if from.first_day() > to.last_day() {
            report.error(
                codes::DATE_RANGE_REVERSED,
                at,
                format!("The range \"{v}[{tag}]\" starts after it ends; NCBI would match nothing."),
            );
            report.suggest(format!(
                "Write the earlier date first: {}:{}[{tag}].",
                parts[1].trim(),
                parts[0].trim()
            ));
        }
    }
}

/// Checks a search term; `db` is the canonical database whose tags are known, if any.
pub fn check(term: &str, at: &str, db: &str, report: &mut Report) {
    let Some(scan) = scan(term, at, report) else {
        return;
    };
    operators(&scan.tokens, at, report);
    for (open, tag) in &scan.tags {
        let field = field_of(tag);
        if db == "pubmed" && !pubmed_tags().contains(&field) {
            let best = closest(
                &field,
                PUBMED_ABBREVIATIONS
                    .iter()
                    .copied()
                    .chain(PUBMED_LONG_NAMES.iter().copied()),
            );
            let hint = best
                .map(|b| format!(" Did you mean [{b}]?"))
                .unwrap_or_default();
            report.warn(
                codes::UNKNOWN_FIELD_TAG,
                at,
                format!("[{tag}] is not a PubMed search field; NCBI ignores an unknown tag and searches the words in all fields.{hint}"),
            );
            if let Some(b) = best {
                report.suggest(format!("Write [{b}] instead of [{tag}]."));
            }
        }
        if is_date_tag(&field) {
            date_value(tagged_value(term, *open), tag.trim(), at, report);
        }
    }
}

/// Checks a `field` parameter (a tag without brackets) for PubMed.
pub fn check_field(field: &str, at: &str, db: &str, report: &mut Report) {
    let name = field_of(field);
    if db == "pubmed" && !pubmed_tags().contains(&name) {
        let best = closest(&name, PUBMED_ABBREVIATIONS.iter().copied());
        report.warn(
            codes::UNKNOWN_FIELD_TAG,
            at,
            format!(
                "field \"{field}\" is not a PubMed search field; NCBI ignores it.{}",
                best.map(|b| format!(" Did you mean \"{b}\"?"))
                    .unwrap_or_default()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(term: &str) -> Vec<&'static str> {
        let mut r = Report::default();
        check(term, "$.term", "pubmed", &mut r);
        r.errors.iter().chain(&r.warnings).map(|f| f.code).collect()
    }

    #[test]
    fn good_terms_pass() {
        for t in [
            "crispr[tiab] AND 2023:2025[dp]",
            "\"breast neoplasms\"[mh:noexp] OR tp53[tiab:~2]",
            "(asthma[mh] OR copd[majr]) NOT review[pt]",
            "smith j[au] AND nature[ta] AND \"2020/01/01\"[pdat] : \"2020/12/31\"[pdat]",
            "\"last 5 years\"[dp] AND english[la]",
            "cancer[Title/Abstract] AND humans[MeSH Terms]",
            "10.1038/nature12373[doi]",
        ] {
            assert!(found(t).is_empty(), "{t}: {:?}", found(t));
        }
    }

    #[test]
    fn slips_are_named() {
        assert_eq!(found("\"breast cancer[tiab]"), ["unbalanced_quotes"]);
        assert_eq!(found("cancer[tiab AND x"), ["unbalanced_brackets"]);
        assert_eq!(found("(a OR b"), ["unbalanced_parentheses"]);
        assert_eq!(found("a OR b)"), ["unbalanced_parentheses"]);
        assert_eq!(found("cancer[tiabs]"), ["unknown_field_tag"]);
        assert_eq!(found("asthma and copd"), ["lowercase_operator"]);
        assert_eq!(found("asthma AND"), ["dangling_operator"]);
        assert_eq!(found("2024/13[dp]"), ["invalid_date"]);
        assert_eq!(found("2020-2024[dp]"), ["invalid_date"]);
        assert_eq!(found("2025:2020[dp]"), ["date_range_reversed"]);
    }
}
