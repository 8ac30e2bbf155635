//! A bibliography entry read into its fields, by the rules of the styles people paste.
//!
//! Identifiers are taken out first, wherever they stand (`PMID:`, `PMCID:`, `doi:`, a
//! doi.org or PubMed link); then BibTeX and RIS are read by their tags, and a free-text
//! line by where its style puts each part: the title in quotes (MLA, IEEE, Chicago,
//! Harvard), after a year in parentheses (APA, Harvard) or a year sentence (Chicago
//! author-date), or between the author list and the journal (Vancouver/NLM, AMA). The
//! year, volume, issue and pages are read from the source part only, so a year in a title
//! is not the citation's. A line whose layout is none of these says so ([`Read::style`]).

/// What a line gave, field by field.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Read {
    /// The style its layout follows; None when no layout was recognized.
    pub style: Option<&'static str>,
    /// Family names, first author first.
    pub authors: Vec<String>,
    /// The first author's initials ("AJ").
    pub initials: Option<String>,
    /// The title.
    pub title: Option<String>,
    /// The journal, as written.
    pub journal: Option<String>,
    /// The year of the source part.
    pub year: Option<i32>,
    /// The volume.
    pub volume: Option<String>,
    /// The issue.
    pub issue: Option<String>,
    /// The first page or the article number.
    pub first_page: Option<String>,
    /// A DOI, lower case.
    pub doi: Option<String>,
    /// A PMID.
    pub pmid: Option<String>,
    /// A PMCID, "PMC…".
    pub pmcid: Option<String>,
}

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

/// Removes `s[from..to]` and the label just before it (`doi:`, `PMID:`, a link's start).
fn cut(s: &mut String, from: usize, to: usize, labels: &[&str]) {
    let lower = s[..from].to_ascii_lowercase();
    let mut start = from;
    for l in labels {
        let trimmed = lower.trim_end();
        if trimmed.ends_with(l) {
            start = trimmed.len() - l.len();
            break;
        }
    }
    s.replace_range(start..to, " ");
}

/// The first well-formed DOI (`10.<4–9 digits>/…`), lower case, taken out of `s`.
pub fn take_doi(s: &mut String) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("10.").map(|p| p + from) {
        from = at + 3;
        let digits = lower[at + 3..]
            .chars()
            .take_while(char::is_ascii_digit)
            .count();
        let slash = lower[at + 3 + digits..].starts_with('/');
        let boundary = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
        if !(4..=9).contains(&digits) || !slash || !boundary {
            continue;
        }
        let tail = &lower[at..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '}' | '"' | '<' | '>' | '|'))
            .unwrap_or(tail.len());
        let mut doi = tail[..end].to_string();
        // A sentence's period or a closing bracket is not the DOI's, unless it closes one
        // the DOI opened (10.1016/s0140-6736(97)11096-0).
        while let Some(last) = doi.chars().last() {
            let unbalanced = last == ')' && doi.matches('(').count() < doi.matches(')').count();
            if !(matches!(last, '.' | ',' | ';' | ':' | ']' | '\'') || unbalanced) {
                break;
            }
            doi.pop();
        }
        if doi.len() <= digits + 4 {
            continue;
        }
        let labels = [
            "https://doi.org/",
            "http://doi.org/",
            "https://dx.doi.org/",
            "http://dx.doi.org/",
            "doi.org/",
            "doi:",
            "doi",
        ];
        cut(s, at, at + doi.len(), &labels);
        return Some(doi);
    }
    None
}

/// "PMC5442267" (after `PMCID:` or in a PMC link), taken out of `s`.
fn take_pmcid(s: &mut String) -> Option<String> {
    let upper = s.to_ascii_uppercase();
    let mut from = 0;
    while let Some(at) = upper[from..].find("PMC").map(|p| p + from) {
        from = at + 3;
        let digits: String = upper[at + 3..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let boundary = at == 0 || !upper.as_bytes()[at - 1].is_ascii_alphanumeric();
        if digits.is_empty() || !boundary {
            continue;
        }
        cut(
            s,
            at,
            at + 3 + digits.len(),
            &["pmcid:", "pmcid", "pmc/articles/"],
        );
        return Some(format!("PMC{digits}"));
    }
    None
}

/// "PMID: 9500320", "PMID 9500320" or a PubMed link, taken out of `s`.
fn take_pmid(s: &mut String) -> Option<String> {
    let upper = s.to_ascii_uppercase();
    for label in [
        "PMID",
        "PUBMED.NCBI.NLM.NIH.GOV/",
        "NCBI.NLM.NIH.GOV/PUBMED/",
    ] {
        if let Some(at) = upper.find(label) {
            let after = at + label.len();
            let gap = upper[after..].len() - upper[after..].trim_start_matches([':', ' ']).len();
            let digits: String = upper[after + gap..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !digits.is_empty() && digits.len() <= 9 {
                let start = upper[..at]
                    .rfind("HTTP")
                    .filter(|_| label != "PMID")
                    .unwrap_or(at);
                s.replace_range(start..after + gap + digits.len(), " ");
                return Some(digits.trim_start_matches('0').to_string());
            }
        }
    }
    None
}

/// `@article{key, title = {…}, author = {A and B}, …}`.
fn bibtex(s: &str, r: &mut Read) {
    r.style = Some("bibtex");
    let lower = s.to_ascii_lowercase();
    let field = |name: &str| -> Option<String> {
        let mut from = 0;
        while let Some(at) = lower[from..].find(name).map(|p| p + from) {
            from = at + name.len();
            let before_ok = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
            let rest = lower[at + name.len()..].trim_start();
            if !before_ok || !rest.starts_with('=') {
                continue;
            }
            let value_at = s.len() - rest.len() + 1;
            let v = s[value_at..].trim_start();
            let text = if let Some(inner) = v.strip_prefix('{') {
                let mut depth = 1;
                let mut end = inner.len();
                for (i, c) in inner.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                inner[..end].replace(['{', '}'], "")
            } else if let Some(inner) = v.strip_prefix('"') {
                inner.split('"').next().unwrap_or("").to_string()
            } else {
                v.split([',', '}']).next().unwrap_or("").trim().to_string()
            };
            let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
            return (!text.is_empty()).then_some(text);
        }
        None
    };
    r.title = field("title");
    r.journal = field("journal");
    r.year = field("year").and_then(|y| y.get(..4)?.parse().ok());
    r.volume = field("volume");
    r.issue = field("number");
    r.first_page = field("pages").map(|p| first_page(&p));
    if let Some(a) = field("author") {
        let first = a.split(" and ").next().unwrap_or("");
        let (family, initials) = person(first);
        r.authors = vec![family];
        r.initials = initials;
    }
    if r.doi.is_none() {
        r.doi = field("doi").map(|d| d.to_ascii_lowercase());
    }
    if r.pmid.is_none() {
        r.pmid = field("pmid");
    }
}

/// RIS pasted as one string: `TY  - JOUR AU  - Smith, J. TI  - … ER  -` (spaces squeezed).
fn ris(s: &str, r: &mut Read) {
    r.style = Some("ris");
    let mut tags: Vec<(String, String)> = Vec::new();
    let b = s.as_bytes();
    let mut starts = Vec::new();
    for i in 0..b.len().saturating_sub(5) {
        let tag = b[i].is_ascii_uppercase() && b[i + 1].is_ascii_alphanumeric();
        let boundary = i == 0 || b[i - 1].is_ascii_whitespace();
        if tag && boundary && &b[i + 2..i + 5] == b" - " {
            starts.push(i);
        }
    }
    for (n, &at) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(s.len());
        let value = s[at + 4..end].trim().to_string();
        tags.push((s[at..at + 2].to_string(), value));
    }
    let get = |names: &[&str]| {
        names.iter().find_map(|n| {
            tags.iter()
                .find(|(t, v)| t == n && !v.is_empty())
                .map(|(_, v)| v.clone())
        })
    };
    r.title = get(&["TI", "T1"]);
    r.journal = get(&["JO", "JF", "T2", "JA", "J2"]);
    r.year = get(&["PY", "Y1", "DA"]).and_then(|y| y.get(..4)?.parse().ok());
    r.volume = get(&["VL"]);
    r.issue = get(&["IS"]);
    r.first_page = get(&["SP"]).map(|p| first_page(&p));
    if let Some(a) = get(&["AU", "A1"]) {
        let (family, initials) = person(&a);
        r.authors = vec![family];
        r.initials = initials;
    }
    if r.doi.is_none() {
        r.doi = get(&["DO"]).map(|d| d.to_ascii_lowercase());
    }
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

/// "2019", "2019a", "2019, March 5" → 2019.
fn lone_year(s: &str) -> Option<i32> {
    let s = s.trim().trim_end_matches('.');
    let head = s.get(..4)?;
    let rest = &s[4..];
    let ok = rest.is_empty() || rest.len() == 1 || rest.starts_with(',');
    let y: i32 = head.parse().ok()?;
    (ok && (1800..=2099).contains(&y) && head.chars().all(|c| c.is_ascii_digit())).then_some(y)
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
            return Some((s[..open].trim(), y, rest));
        }
    }
    None
}

/// The sentences of a line: split at ". ", "? " or "! " (the question's mark kept), not
/// after "vol", "no", "pp" or "p".
pub fn sentences(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = s.as_bytes();
    for i in 0..b.len().saturating_sub(1) {
        if !(matches!(b[i], b'.' | b'?' | b'!') && b[i + 1] == b' ') {
            continue;
        }
        let word = s[start..i].rsplit(' ').next().unwrap_or("");
        if matches!(
            word.to_ascii_lowercase().as_str(),
            "vol" | "no" | "pp" | "p" | "art"
        ) {
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

/// The source part, "Journal, vol. 5, no. 2, pp. 1–10, 2019", "Journal, 5(2), 1–10",
/// "Journal 5 (2): 1–10", ";5(2):1-10" after "2019": journal, year, volume, issue, page.
fn source(s: &str, r: &mut Read) {
    let s = s.trim().trim_start_matches([',', '.', ' ']);
    // The journal: the words before the first number or "vol." (commas in parentheses kept).
    let mut depth = 0;
    let mut end = s.len();
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        let lower = s[i..].to_ascii_lowercase();
        if depth == 0
            && (c == ','
                || c.is_ascii_digit()
                || lower.starts_with("vol") && (i == 0 || s.as_bytes()[i - 1] == b' '))
        {
            end = i;
            break;
        }
    }
    let journal = s[..end]
        .trim()
        .trim_end_matches(['.', ',', ':', ';'])
        .trim();
    if journal.chars().filter(|c| c.is_alphabetic()).count() >= 2 {
        r.journal = Some(journal.to_string());
    }
    let rest = &s[end..];
    let words: Vec<&str> = rest
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let number = |w: &str| -> String {
        w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
            .to_string()
    };
    let mut bare: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].to_ascii_lowercase();
        let next = words.get(i + 1).map(|n| number(n)).unwrap_or_default();
        match w.trim_end_matches('.') {
            "vol" | "volume" => {
                r.volume = Some(next);
                i += 2;
                continue;
            }
            "no" | "issue" => {
                r.issue = Some(next);
                i += 2;
                continue;
            }
            "pp" | "p" | "pages" | "art" | "article" | "e" => {
                let n = if next.eq_ignore_ascii_case("no") {
                    words.get(i + 2).map(|n| number(n)).unwrap_or_default()
                } else {
                    first_page(words.get(i + 1).copied().unwrap_or(""))
                };
                r.first_page = Some(n);
                i += if next.eq_ignore_ascii_case("no") {
                    3
                } else {
                    2
                };
                continue;
            }
            _ => {}
        }
        // "2019;5(2):1-10", "5(2):", "(2):", "1-10", "2019".
        let raw = words[i];
        for piece in raw.split(';') {
            let (head, pages) = match piece.split_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (piece, None),
            };
            let (vol, issue) = match head.split_once('(') {
                Some((v, is)) => (v, Some(is.trim_end_matches([')', '.', ',']))),
                None => (head, None),
            };
            let vol = number(vol);
            if !vol.is_empty() {
                bare.push(vol);
            }
            if let Some(is) = issue.filter(|x| !x.is_empty()) {
                r.issue = Some(is.to_string());
                if let Some(v) = bare.pop() {
                    if lone_year(&v).is_some()
                        && r.year.is_none()
                        && pages.is_none()
                        && bare.is_empty()
                        && raw.contains(';')
                    {
                        r.year = lone_year(&v);
                    } else {
                        r.volume = Some(v);
                    }
                }
            }
            if let Some(p) = pages.filter(|p| !p.is_empty()) {
                if let Some(v) = bare.pop() {
                    if r.volume.is_none() {
                        r.volume = Some(v);
                    } else {
                        bare.push(v);
                    }
                }
                r.first_page = Some(first_page(p));
            } else if pages.is_some() {
                // "5 (2): 1–10": the pages are the next word.
                if let Some(next) = words.get(i + 1) {
                    r.first_page = Some(first_page(next));
                    i += 1;
                }
            }
        }
        i += 1;
    }
    // Bare numbers: a year (19xx/20xx) where none was read, then volume, then page.
    for n in bare {
        if r.year.is_none() && lone_year(&n).is_some() && n.len() == 4 {
            r.year = lone_year(&n);
        } else if r.volume.is_none() {
            r.volume = Some(n);
        } else if r.first_page.is_none() {
            r.first_page = Some(first_page(&n));
        }
    }
}

/// "637-41" → "637"; "e1034" → "e1034"; "pp. 1–10" → "1".
pub fn first_page(p: &str) -> String {
    p.trim()
        .trim_start_matches("pp.")
        .trim_start_matches("p.")
        .split(['-', '–', '—', ',', ' '])
        .find(|s| !s.is_empty())
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string()
}

fn set_authors(r: &mut Read, list: &str) {
    let list = list.trim().trim_end_matches(['.', ',', ' ']);
    if list.is_empty() {
        return;
    }
    let (family, initials) = first_author(list);
    if !family.is_empty() {
        r.authors = vec![family];
        r.initials = initials;
    }
}

/// The first author of a list: "Wakefield AJ, Murch SH" (Vancouver), "Wakefield, A. J.,
/// Murch, S. H., & …" (APA), "Wakefield, Andrew J., and …" (MLA, Chicago), "A. J.
/// Wakefield, S. H. Murch" (IEEE), or a group's name.
pub fn first_author(list: &str) -> (String, Option<String>) {
    let parts: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let Some(first) = parts.first() else {
        return (String::new(), None);
    };
    let first = first
        .split(" and ")
        .next()
        .unwrap_or(first)
        .split(" & ")
        .next()
        .unwrap_or(first);
    let words: Vec<&str> = first.split_whitespace().collect();
    let short = words.len() <= 4;
    if short && words.len() >= 2 && is_initials(words[words.len() - 1]) && !is_initials(words[0]) {
        // Vancouver: "Beane Freeman LE".
        return (
            words[..words.len() - 1].join(" "),
            Some(letters(words[words.len() - 1])),
        );
    }
    if short && words.len() >= 2 && is_initials(words[0]) {
        // IEEE: "A. J. Wakefield".
        let at = words
            .iter()
            .position(|w| !is_initials(w))
            .unwrap_or(words.len() - 1);
        let initials: String = words[..at].iter().map(|w| letters(w)).collect();
        return (words[at..].join(" "), Some(initials));
    }
    // Inverted: "Wakefield" then "A. J." or "Andrew J.".
    let given = parts
        .get(1)
        .map(|g| g.trim_start_matches("and ").trim_start_matches("& "));
    let initials = given
        .filter(|g| g.split_whitespace().count() <= 3 && !g.contains(" et al"))
        .map(|g| {
            g.split([' ', '.', '-'])
                .filter(|w| !w.is_empty())
                .filter_map(|w| w.chars().next())
                .filter(|c| c.is_uppercase())
                .collect::<String>()
        })
        .filter(|i| !i.is_empty());
    (
        first.trim_end_matches(" et al").trim().to_string(),
        initials,
    )
}

/// "Smith, John" or "John Smith" or "Smith J": one person's family name and initials.
fn person(s: &str) -> (String, Option<String>) {
    first_author(s.trim())
}

/// "AJ", "A.J.", "A. J.", "A": an initials token.
fn is_initials(w: &str) -> bool {
    let l: Vec<char> = w.chars().filter(|c| c.is_alphabetic()).collect();
    !l.is_empty()
        && l.len() <= 3
        && l.iter().all(|c| c.is_uppercase())
        && (w.contains('.') || l.len() == w.chars().count())
}

fn letters(w: &str) -> String {
    w.chars().filter(|c| c.is_alphabetic()).collect()
}
