//! A bibliography entry read into its fields, by the rules of the styles people paste.
//!
//! Identifiers are taken out first, wherever they stand (`PMID:`, `PMCID:`, `doi:`, a
//! doi.org or PubMed link); then BibTeX and RIS are read by their tags, and a free-text
//! line by where its style puts each part: the title in quotes (MLA, IEEE, Chicago,
//! Harvard), after a year in parentheses (APA, Harvard) or a year sentence (Chicago
//! author-date), or between the author list and the journal (Vancouver/NLM, AMA). The
//! year, volume, issue and pages are read from the source part only, so a year in a title
//! is not the citation's. A line whose layout is none of these says so ([`Read::style`]).

use super::identifiers::{take_doi, take_pmcid, take_pmid};
pub use super::parts::Read;
use super::parts::{first_author, lone_year, set_authors, source};
use super::tagged::{bibtex, ris};

/// Reads one entry.
pub fn read(text: &str) -> Read {
    let mut line = text.trim().to_string();
    let mut r = Read {
        doi: take_doi(&mut line),
        pmcid: take_pmcid(&mut line),
        ..Read::default()
    };
    r.pmid = take_pmid(&mut line);
    let line = tidy(&line);
    r.more_words = has_words(&line);
    if line.starts_with('@') && line.contains('{') {
        bibtex(&line, &mut r);
    } else if line.starts_with("TY - ") || line.contains(" TY - ") {
        ris(&line, &mut r);
    } else {
        free_text(&line, &mut r);
    }
    if r.year.is_some_and(|y| !(1800..=2099).contains(&y)) {
        r.year = None;
    }
    r
}

/// Whether `s` has a word of three letters or more besides the labels and link parts an
/// identifier leaves behind: a line that says more than its id must be read, not trusted.
fn has_words(s: &str) -> bool {
    const LABELS: &[&str] = &[
        "doi",
        "pmid",
        "pmcid",
        "pmc",
        "pubmed",
        "https",
        "http",
        "www",
        "org",
        "ncbi",
        "nlm",
        "nih",
        "gov",
        "articles",
        "available",
        "from",
        "url",
        "accessed",
        "retrieved",
        "epub",
    ];
    s.split(|c: char| !c.is_alphabetic())
        .filter(|w| w.chars().count() >= 3)
        .any(|w| !LABELS.contains(&w.to_lowercase().as_str()))
}

/// The text left once identifiers are out: no numbering, no "Epub …", no other links.
fn tidy(s: &str) -> String {
    let mut s = s.trim().to_string();
    // "1. ", "[1] ", "1) ": a numbered list's number.
    let digits = s
        .trim_start_matches('[')
        .chars()
        .take_while(char::is_ascii_digit)
        .count();
    if (1..=3).contains(&digits) {
        let after = s.trim_start_matches('[')[digits..].to_string();
        if let Some(rest) = after
            .strip_prefix("] ")
            .or_else(|| after.strip_prefix(". "))
            .or_else(|| after.strip_prefix(") "))
        {
            s = rest.to_string();
        }
    }
    // NLM's "Epub 2016 Oct 21." and AMA's "Published online October 21, 2016." say when it
    // came out online: the print year stays the citation's.
    for marker in [
        "Epub ",
        "Published online",
        "[Epub",
        "Available from",
        "Accessed ",
        "http",
    ] {
        if let Some(at) = s.find(marker) {
            let end = s[at..].find(". ").map_or(s.len(), |e| at + e + 1);
            s.replace_range(at..end, "");
        }
    }
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    s.trim_matches(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .to_string()
}

/// The free-text styles, by where the title stands.
fn free_text(s: &str, r: &mut Read) {
    if let Some((before, title, after)) = quoted(s) {
        // MLA, IEEE, Chicago and Harvard quote an article's title.
        let (authors, year) = strip_year(before);
        r.style = Some(
            if s.contains(", vol. ") && after.contains("pp.") && year.is_none() {
                "ieee_or_mla"
            } else {
                "quoted_title"
            },
        );
        r.title = Some(title.trim_end_matches([',', '.']).trim().to_string());
        set_authors(r, &authors);
        source(after, r);
        if year.is_some() {
            r.year = year;
        }
        return;
    }
    if let Some((authors, year, rest)) = year_in_parentheses(s) {
        // APA 7 and Harvard: "Authors (2019). Title. Journal, 5(2), 1–10."
        r.style = Some("author_year");
        set_authors(r, authors);
        title_then_source(rest, r);
        r.year = Some(year);
        return;
    }
    let sentences = sentences(s);
    // Chicago author-date without quotes: "Authors. 2019. Title. Journal 5 (2): 1–10."
    if sentences.len() >= 3 && lone_year(sentences[1]).is_some() {
        r.style = Some("author_year");
        set_authors(r, sentences[0]);
        title_then_source(&sentences[2..].join(". "), r);
        r.year = lone_year(sentences[1]);
        return;
    }
    // Vancouver/NLM and AMA: "Authors. Title. Journal. 2019;5(2):1-10."
    let tail = sentences
        .iter()
        .rposition(|t| vancouver_tail(t))
        .or_else(|| {
            (sentences.len() >= 3 && year_sentence(sentences[sentences.len() - 1]))
                .then(|| sentences.len() - 1)
        });
    if let Some(at) = tail {
        if at >= 1 {
            let tail = sentences[at];
            let starts_with_year = tail.chars().next().is_some_and(|c| c.is_ascii_digit());
            let (journal_at, journal) = if starts_with_year {
                (at - 1, sentences[at - 1].to_string())
            } else {
                (at, leading_words(tail))
            };
            let mut source_part = tail.to_string();
            if !starts_with_year {
                source_part = tail[journal.len()..].to_string();
            }
            source(&source_part, r);
            // An abbreviation with periods ("Proc. Natl. Acad. Sci. U.S.A.") was cut into
            // one-word sentences: they are the journal's, not the title's.
            let mut journal_at = journal_at;
            let mut journal = journal;
            let abbreviated = |w: &str| {
                !w.contains(' ') && w.len() <= 8 && w.chars().all(|c| c.is_alphabetic() || c == '.')
            };
            while journal_at >= 3 && abbreviated(sentences[journal_at - 1]) {
                journal_at -= 1;
                journal = format!("{} {journal}", sentences[journal_at]);
            }
            r.journal = Some(journal).filter(|j| !j.is_empty());
            if journal_at >= 2 {
                r.style = Some("vancouver");
                set_authors(r, sentences[0]);
                r.title = Some(sentences[1..journal_at].join(". "));
            } else if journal_at == 1 {
                r.style = Some("vancouver");
                r.title = Some(sentences[0].to_string());
            }
            return;
        }
    }
    // No layout: a bare title is one sentence of several words.
    let has_year = s
        .split(|c: char| !c.is_ascii_digit())
        .any(|w| w.len() == 4 && lone_year(w).is_some());
    // (a title of two sentences too, unless the first is an author list).
    let authors_first = sentences.len() > 1 && {
        let (_, initials) = first_author(sentences[0]);
        initials.is_some() || sentences[0].contains(" et al")
    };
    if !authors_first && s.split_whitespace().count() >= 3 && !has_year && !s.contains(';') {
        r.style = Some("title_only");
        r.title = Some(s.trim_end_matches('.').to_string());
    }
}

/// The text before a quoted title, the title, and the text after it.
fn quoted(s: &str) -> Option<(&str, &str, &str)> {
    for (open, close) in [('“', '”'), ('"', '"'), ('‘', '’'), ('\'', '\'')] {
        let mut from = 0;
        while let Some(at) = s[from..].find(open).map(|p| p + from) {
            from = at + open.len_utf8();
            // A style's quoted title follows the authors' (or year's) closing mark.
            let before = s[..at].trim_end();
            let opens_word = (at == 0 || s[..at].ends_with([' ', '(']))
                && (before.is_empty() || before.ends_with(['.', ',', ')', ':']));
            if !opens_word {
                continue;
            }
            let inner_at = at + open.len_utf8();
            let mut search = inner_at;
            while let Some(end) = s[search..].find(close).map(|p| p + search) {
                search = end + close.len_utf8();
                let after = &s[end + close.len_utf8()..];
                let closes = after.is_empty() || after.starts_with([' ', ',', '.', ';', ':']);
                if closes && end > inner_at + 8 {
                    return Some((&s[..at], &s[inner_at..end], after));
                }
            }
        }
    }
    None
}

/// "Smith, J. (2019)" or "Smith, John. 2019." → the authors and the year.
fn strip_year(before: &str) -> (String, Option<i32>) {
    let b = before.trim().trim_end_matches([',', '.', ' ']);
    if let Some(open) = b.rfind('(') {
        if let Some(y) = lone_year(b[open + 1..].trim_end_matches(')')) {
            return (b[..open].trim().to_string(), Some(y));
        }
    }
    if let Some(space) = b.rfind(' ') {
        if let Some(y) = lone_year(&b[space + 1..]) {
            return (
                b[..space].trim().trim_end_matches(['.', ',']).to_string(),
                Some(y),
            );
        }
    }
    (b.to_string(), None)
}

/// "Authors (2019). Rest" or "Authors (2019) Rest" (Harvard) → parts.
fn year_in_parentheses(s: &str) -> Option<(&str, i32, &str)> {
    let mut from = 0;
    while let Some(open) = s[from..].find('(').map(|p| p + from) {
        from = open + 1;
        let close = s[open..].find(')')? + open;
        if let Some(y) = lone_year(&s[open + 1..close]) {
            if open == 0 {
                return None;
            }
            let rest = s[close + 1..].trim_start_matches(['.', ',', ' ']);
            // A year in brackets closing the line is the source's (Nature, Science), not
            // an author year with the title after it.
            if !rest.chars().any(char::is_alphabetic) {
                return None;
            }
            return Some((s[..open].trim(), y, rest));
        }
    }
    None
}

/// The sentences of a line: split at ". ", "? " or "! " (the question's mark kept), not
/// after "vol", "no", "pp" or "p" (a capital "P." is an author's initial: "Horby P.").
pub fn sentences(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = s.as_bytes();
    for i in 0..b.len().saturating_sub(1) {
        if !(matches!(b[i], b'.' | b'?' | b'!') && b[i + 1] == b' ') {
            continue;
        }
        let word = s[start..i].rsplit(' ').next().unwrap_or("");
        if word != "P"
            && matches!(
                word.to_ascii_lowercase().as_str(),
                "vol" | "no" | "pp" | "p" | "art"
            )
        {
            continue;
        }
        let end = if b[i] == b'.' { i } else { i + 1 };
        let piece = s[start..end].trim();
        if !piece.is_empty() {
            out.push(piece);
        }
        start = i + 2;
    }
    let last = s[start..].trim().trim_end_matches('.');
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// Whether a sentence is Vancouver's source: "2019;5(2):1-10", "2019 Jun;5:1", "Lancet
/// 1998;351:637", "2018;9:1034", or a year alone with a month.
fn vancouver_tail(t: &str) -> bool {
    let Some(semi) = t.find(';') else {
        return false;
    };
    let before = t[..semi].trim();
    let has_year = before
        .split(|c: char| !c.is_ascii_digit())
        .any(|w| w.len() == 4 && lone_year(w).is_some());
    has_year
        && t[semi + 1..]
            .trim_start()
            .starts_with(|c: char| c.is_ascii_alphanumeric())
}

/// "2018", "2018 Feb", "2018 Feb 3": a source with no volume yet (ahead of print).
fn year_sentence(t: &str) -> bool {
    let mut words = t.split_whitespace();
    words.next().and_then(lone_year).is_some()
        && words.all(|w| {
            (w.len() <= 4 && w.chars().all(char::is_alphabetic))
                || (w.len() <= 2 && w.chars().all(|c| c.is_ascii_digit()))
        })
}

/// The words of `t` before its first digit: a journal before its year.
fn leading_words(t: &str) -> String {
    let at = t.find(|c: char| c.is_ascii_digit()).unwrap_or(t.len());
    t[..at]
        .trim()
        .trim_end_matches([',', '.'])
        .trim()
        .to_string()
}

/// "Title. Journal, 5(2), 1–10" (APA) or "Title. Journal 5 (2): 1–10" (Chicago): the
/// title is every sentence before the last one that holds the source's numbers.
fn title_then_source(rest: &str, r: &mut Read) {
    let parts = sentences(rest);
    let at = parts
        .iter()
        .rposition(|p| p.chars().any(|c| c.is_ascii_digit()) && !leading_words(p).is_empty());
    match at {
        Some(at) if at >= 1 => {
            r.title = Some(parts[..at].join(". "));
            source(&parts[at..].join(". "), r);
        }
        _ => r.title = parts.first().map(|t| t.to_string()),
    }
}
