//! The parts of a citation: its source ("Journal, vol. 5, no. 2, pp. 1–10", "2019;5(2):1-10")
//! and its first author, in the forms the styles write them.

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
    /// Whether words are left beside the identifiers (the line says more than an id).
    pub more_words: bool,
}

/// "2019", "2019a", "2019, March 5" → 2019.
pub fn lone_year(s: &str) -> Option<i32> {
    let s = s.trim().trim_end_matches('.');
    let head = s.get(..4)?;
    let rest = &s[4..];
    let ok = rest.is_empty() || rest.len() == 1 || rest.starts_with(',');
    let y: i32 = head.parse().ok()?;
    (ok && (1800..=2099).contains(&y) && head.chars().all(|c| c.is_ascii_digit())).then_some(y)
}

/// The source part, "Journal, vol. 5, no. 2, pp. 1–10, 2019", "Journal, 5(2), 1–10",
/// "Journal 5 (2): 1–10", ";5(2):1-10" after "2019": journal, year, volume, issue, page.
pub fn source(s: &str, r: &mut Read) {
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
            let no_volume = vol.is_empty();
            if !no_volume {
                bare.push(vol);
            }
            // Chicago's notes: "5, no. 2 (2018): 026002", the year in brackets.
            let bracketed_year = issue.and_then(lone_year).filter(|_| no_volume);
            if bracketed_year.is_some() {
                r.year = bracketed_year;
            } else if let Some(is) = issue.filter(|x| !x.is_empty()) {
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

/// Sets the first author (family name and initials) from an author list.
pub fn set_authors(r: &mut Read, list: &str) {
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
    let first = first
        .trim_end_matches('.')
        .trim_end_matches(" et al")
        .trim();
    let words: Vec<&str> = first.split_whitespace().collect();
    if is_group(first) {
        // "RECOVERY Collaborative Group", "ESC Scientific Document Group": one name, whole.
        return (first.to_string(), None);
    }
    let short = words.len() <= 4;
    let given_first = |chunk: &str| {
        let w: Vec<&str> = chunk.split_whitespace().collect();
        (2..=3).contains(&w.len())
            && w.iter()
                .all(|x| x.starts_with(char::is_uppercase) && !is_initials(x))
    };
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
    // Chicago's notes: "Fumin Guo, Dante Capaldi, and Miranda Kirby" (given names first).
    let second = parts
        .get(1)
        .map(|g| g.trim_start_matches("and ").trim_start_matches("& "));
    if given_first(first) && second.is_none_or(given_first) {
        let initials: String = words[..words.len() - 1]
            .iter()
            .filter_map(|w| w.chars().next())
            .collect();
        return (words[words.len() - 1].to_string(), Some(initials));
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

/// Words that make a name a group's (PubMed's `CollectiveName`), not a person's.
const GROUP_WORDS: &[&str] = &[
    "group",
    "groups",
    "consortium",
    "consortia",
    "collaborative",
    "collaboration",
    "collaborators",
    "collaborating",
    "investigators",
    "investigator",
    "network",
    "committee",
    "society",
    "association",
    "council",
    "panel",
    "organization",
    "organisation",
    "trialists",
    "team",
    "alliance",
    "initiative",
    "editors",
    "board",
    "force",
    "working",
    "writing",
    "study",
    "program",
    "programme",
    "office",
    "centre",
    "center",
    "institute",
    "agency",
];

/// Whether a name is a group's: two words or more, one of them a group word ("RECOVERY
/// Collaborative Group", "The Editors of The Lancet"), and not ending in a person's
/// initials ("Team J").
pub fn is_group(name: &str) -> bool {
    let words: Vec<&str> = name.split_whitespace().collect();
    words.len() >= 2
        && !words.last().is_some_and(|w| is_initials(w))
        && words.iter().any(|w| {
            let w = w
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            GROUP_WORDS.contains(&w.as_str())
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_first_author_is_read_whole() {
        // "RECOVERY Collaborative Group" was read as given names and a family name
        // ("Group", initials "RC"); "ESC Scientific …" as IEEE's initials "ESC".
        for list in [
            "RECOVERY Collaborative Group, Horby P, Lim WS",
            "ESC Scientific Document Group",
            "The Editors of The Lancet",
        ] {
            let name = list.split(',').next().unwrap();
            assert_eq!(first_author(list), (name.to_string(), None), "{list}");
        }
        assert_eq!(
            first_author("Team J, Smith A"),
            ("Team".to_string(), Some("J".to_string()))
        );
        assert_eq!(
            first_author("Beane Freeman LE, Lerro CC"),
            ("Beane Freeman".to_string(), Some("LE".to_string()))
        );
    }
}
