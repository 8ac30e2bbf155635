//! A candidate record against what a reference says of it: which fields agree, which do not.
//!
//! Titles are compared by the Sørensen–Dice coefficient of their character pairs, on lower
//! case letters and digits only (accents folded), so punctuation, case and a subtitle's
//! colon do not count; years agree when the cited year is the record's print or electronic
//! year, never "within one"; the first author as [`super::authors`] says (a group by its
//! name); journals when one is the other or its abbreviation; volume and first page when
//! they are the same, an issue when it is the record's or part of its double issue. What
//! the record lacks is `unchecked`, never agreed.

use crate::parse::esummary::{headline, DocSummary};
use crate::parse::pubmed::integrity::Integrity;
use crate::tools::entrez_query::references::authors::{family_of, first_author_agrees};
use crate::tools::entrez_query::references::fold::{fold, squeeze};
use crate::tools::entrez_query::references::input::Reference;
use crate::tools::entrez_query::references::parts::is_group;
use serde_json::Value;

/// Titles this alike are the same title.
pub const SAME_TITLE: f64 = 0.85;
/// Titles this alike are worth listing as candidates.
pub const LIKE_TITLE: f64 = 0.6;

/// One PubMed record, as its summary gives it.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its PMID.
    pub pmid: String,
    /// Its title.
    pub title: String,
    /// Its authors, "Wakefield AJ".
    pub authors: Vec<String>,
    /// Which of its authors are groups (ESummary's `CollectiveName`, or a group's name).
    pub groups: Vec<String>,
    /// Its journal abbreviation.
    pub source: String,
    /// Its journal's full name.
    pub journal: String,
    /// Its (print) year.
    pub year: Option<i32>,
    /// Its electronic publication year, when ESummary gives one.
    pub epub_year: Option<i32>,
    /// Its volume.
    pub volume: String,
    /// Its issue.
    pub issue: String,
    /// Its pages, "637-41".
    pub pages: String,
    /// Its DOI.
    pub doi: Option<String>,
    /// Its PMC id.
    pub pmcid: Option<String>,
    /// Its retractions, corrections and concerns.
    pub integrity: Integrity,
}

impl Candidate {
    /// The candidate a JSON document summary describes.
    pub fn of(d: &DocSummary) -> Candidate {
        let h = headline(d);
        let field = |name: &str| {
            d.fields
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let id_of = |kind: &str| {
            d.fields
                .get("articleids")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find_map(|a| {
                    (a["idtype"].as_str() == Some(kind))
                        .then(|| a["value"].as_str().map(str::to_string))
                        .flatten()
                })
        };
        // ESummary marks a group author's authtype "CollectiveName"; a name read as a
        // group's counts too (a summary may not say).
        let collective: Vec<String> = d
            .fields
            .get("authors")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|a| a["authtype"].as_str() == Some("CollectiveName"))
            .filter_map(|a| a["name"].as_str().map(|n| n.trim().to_string()))
            .collect();
        let groups = h
            .authors
            .iter()
            .filter(|a| collective.contains(a) || is_group(a))
            .cloned()
            .collect();
        Candidate {
            pmid: d.uid.clone(),
            groups,
            title: h
                .title
                .unwrap_or_default()
                .trim_end_matches('.')
                .to_string(),
            authors: h.authors,
            source: field("source"),
            journal: field("fulljournalname"),
            year: h.year.map(i32::from),
            epub_year: field("epubdate").get(..4).and_then(|y| y.parse().ok()),
            volume: field("volume"),
            issue: field("issue"),
            pages: field("pages"),
            doi: id_of("doi"),
            pmcid: id_of("pmc")
                .or_else(|| id_of("pmcid"))
                .filter(|p| p.starts_with("PMC")),
            integrity: Integrity::of_summary(&d.fields),
        }
    }

    /// The first author's family name ("Beane Freeman" of "Beane Freeman LE").
    pub fn first_author(&self) -> Option<String> {
        self.authors.first().map(|a| family_of(a).0)
    }

    /// "Wakefield AJ, et al. Lancet. 1998;351:637-41".
    pub fn citation(&self) -> String {
        let who = match self.authors.as_slice() {
            [] => String::new(),
            [one] => format!("{one}. "),
            [first, ..] => format!("{first}, et al. "),
        };
        let year = self.year.map(|y| y.to_string()).unwrap_or_default();
        let mut out = format!("{who}{}. {year}", self.source);
        if !self.volume.is_empty() {
            out.push_str(&format!(";{}", self.volume));
        }
        if !self.pages.is_empty() {
            out.push_str(&format!(":{}", self.pages));
        }
        out
    }
}

/// Which fields a candidate agrees and disagrees on, and how alike the titles are.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Fields that agree.
    pub agreed: Vec<&'static str>,
    /// Fields that disagree.
    pub disagreed: Vec<&'static str>,
    /// Fields the reference gives that the record lacks (an ahead-of-print record's volume
    /// and pages): not checked, never counted as agreeing.
    pub unchecked: Vec<&'static str>,
    /// 0 to 1; 1 when the reference gives no title (nothing to disagree with).
    pub title_similarity: f64,
}

/// Lower case letters and digits, words joined by one space.
fn plain(s: &str) -> String {
    fold(s)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How alike two titles are, 0 to 1 (Sørensen–Dice on character pairs).
pub fn title_similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (plain(a), plain(b));
    if a == b {
        return 1.0;
    }
    let score = strsim::sorensen_dice(&a, &b);
    (score * 100.0).round() / 100.0
}

/// Words that carry no meaning of their own in a title: a citation may drop or add them.
const TITLE_STOPWORDS: &[&str] = &[
    "a", "an", "the", "of", "and", "in", "on", "for", "to", "with", "by", "at", "from", "or", "as",
    "its", "is", "are", "be",
];

/// A title's meaningful words, folded, sorted (negations and numbers kept).
fn title_words(t: &str) -> Vec<String> {
    let mut words: Vec<String> = fold(t)
        .replace(['\'', '’'], "")
        .split(|c: char| !c.is_alphanumeric())
        .map(squeeze)
        .filter(|w| !w.is_empty() && !TITLE_STOPWORDS.contains(&w.as_str()))
        .collect();
    words.sort();
    words
}

/// Whether two titles alike by their letters also say the same thing: the same meaningful
/// words and numbers, but for one word of five letters or more spelled one letter apart (a
/// typo, British and American spelling). "Type 1" against "type 2", "adults" against
/// "children" or an added "not" is another paper's title, however alike the letters.
pub fn same_words(a: &str, b: &str) -> bool {
    let (x, y) = (title_words(a), title_words(b));
    let only = |p: &[String], q: &[String]| {
        let mut q = q.to_vec();
        let mut out = Vec::new();
        for w in p {
            match q.iter().position(|v| v == w) {
                Some(i) => {
                    q.remove(i);
                }
                None => out.push(w.clone()),
            }
        }
        out
    };
    let (x_only, y_only) = (only(&x, &y), only(&y, &x));
    match (x_only.as_slice(), y_only.as_slice()) {
        ([], []) => true,
        ([u], [v]) => {
            let word = |w: &str| w.chars().count() >= 5 && !w.chars().any(|c| c.is_ascii_digit());
            word(u) && word(v) && strsim::levenshtein(u, v) <= 1
        }
        _ => false,
    }
}

/// Words that abbreviations leave out.
const JOURNAL_STOPWORDS: &[&str] = &[
    "the", "of", "and", "in", "for", "on", "et", "de", "la", "le", "und", "fur",
];

/// A journal name's words, lower case, parenthetical place names and small words left out.
fn journal_words(s: &str) -> Vec<String> {
    let mut out = String::new();
    let mut depth = 0;
    for c in s.chars().filter(|c| !matches!(c, '\'' | '’')) {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let words: Vec<String> = fold(&out)
        .split(|c: char| !c.is_alphanumeric())
        .map(squeeze)
        .filter(|w| !w.is_empty() && !JOURNAL_STOPWORDS.contains(&w.as_str()))
        .collect();
    // "U S A" is "USA": a run of three or more single letters is one word.
    let mut joined: Vec<String> = Vec::new();
    let mut run: Vec<String> = Vec::new();
    for w in words.into_iter().chain(std::iter::once(String::new())) {
        if w.chars().count() == 1 {
            run.push(w);
            continue;
        }
        if run.len() >= 3 {
            joined.push(run.concat());
        } else {
            joined.append(&mut run);
        }
        run.clear();
        if !w.is_empty() {
            joined.push(w);
        }
    }
    joined
}

/// Whether a cited journal is the record's: the same words, or each word of one the start
/// of the other's word in order ("Occup Environ Med" and "Occupational and Environmental
/// Medicine", "J Med Imaging" and "Journal of Medical Imaging").
pub fn journal_agrees(cited: &str, names: &[&str]) -> bool {
    let c = journal_words(cited);
    if c.is_empty() {
        return false;
    }
    names.iter().any(|n| {
        let n = journal_words(n);
        if n.is_empty() {
            return false;
        }
        let abbreviates = |short: &[String], long: &[String]| {
            short.len() == long.len()
                && short
                    .iter()
                    .zip(long)
                    // A shorter word abbreviates a longer one, but "Cancer" is not
                    // "Cancers", nor "Cell" "Cells": another journal.
                    .all(|(s, l)| s == l || (l.starts_with(s.as_str()) && *l != format!("{s}s")))
        };
        c == n || abbreviates(&c, &n) || abbreviates(&n, &c)
    })
}

/// "e1034" and "1034", "026002" and "26002": the same page or article number.
fn same_page(a: &str, b: &str) -> bool {
    let norm = |p: &str| {
        squeeze(p)
            .trim_start_matches('e')
            .trim_start_matches('0')
            .to_string()
    };
    !a.trim().is_empty() && norm(a) == norm(b)
}

/// `c` against what `r` says.
pub fn compare(r: &Reference, c: &Candidate) -> Comparison {
    let mut cmp = Comparison {
        title_similarity: 1.0,
        ..Comparison::default()
    };
    let mut judge = |field: &'static str, agrees: bool| {
        if agrees {
            cmp.agreed.push(field);
        } else {
            cmp.disagreed.push(field);
        }
    };
    if let Some(t) = &r.title {
        let similarity = title_similarity(t, &c.title);
        cmp.title_similarity = similarity;
        judge("title", similarity >= SAME_TITLE && same_words(t, &c.title));
    }
    let mut unchecked = Vec::new();
    let mut lacks = |field: &'static str, gone: bool| {
        if gone {
            unchecked.push(field);
        }
        !gone
    };
    if let Some(y) = r.year {
        if lacks("year", c.year.or(c.epub_year).is_none()) {
            judge("year", c.year == Some(y) || c.epub_year == Some(y));
        }
    }
    if let Some(first) = r.authors.first() {
        if lacks("first_author", c.authors.is_empty()) {
            judge(
                "first_author",
                first_author_agrees(r, first, &c.authors, &c.groups),
            );
        }
    }
    if let Some(j) = &r.journal {
        if lacks("journal", c.source.is_empty() && c.journal.is_empty()) {
            judge("journal", journal_agrees(j, &[&c.source, &c.journal]));
        }
    }
    if let Some(v) = &r.volume {
        if lacks("volume", c.volume.is_empty()) {
            judge("volume", squeeze(v) == squeeze(&c.volume));
        }
    }
    if let Some(i) = &r.issue {
        if lacks("issue", c.issue.is_empty()) {
            // "3" agrees with a double issue "3-4"; "Suppl 1" with "Suppl 1".
            let parts = |s: &str| {
                s.split(|c: char| !c.is_alphanumeric())
                    .map(squeeze)
                    .collect::<Vec<_>>()
            };
            let same = squeeze(i) == squeeze(&c.issue)
                || parts(&c.issue).contains(&squeeze(i))
                || parts(i).contains(&squeeze(&c.issue));
            judge("issue", same);
        }
    }
    if let Some(p) = &r.first_page {
        let first = c.pages.split(['-', ',', ' ']).next().unwrap_or("");
        if lacks("first_page", first.is_empty()) {
            judge("first_page", same_page(p, first));
        }
    }
    cmp.unchecked = unchecked;
    cmp
}

/// Whether what agrees is enough to call a record the cited one: the title, or the
/// journal or year with the volume or first page.
pub fn confirms(cmp: &Comparison) -> bool {
    let has = |f: &str| cmp.agreed.contains(&f);
    has("title") || ((has("journal") || has("year")) && (has("volume") || has("first_page")))
}

#[cfg(test)]
mod tests;
