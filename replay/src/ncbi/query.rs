//! PubMed's query language as the replay evaluates it on its records: `value[tag]` clauses
//! joined by AND and OR and grouped by parentheses, title words matched whole with PubMed's
//! stopwords ignored and a trailing `*` truncating, the electronic year a publication date.
//! What it cannot evaluate (NOT, an untagged word, an unknown tag) is None: the replay then
//! answers from its recordings.

use crate::ncbi::citations::{squeeze, Citation};

/// A PubMed query: tagged clauses joined by AND and OR, grouped by parentheses. AND binds
/// tighter than OR, as in PubMed's left-to-right reading of `a AND b OR c AND d` only when
/// parenthesized; the terms this project and its users send always group with parentheses.
#[derive(Debug, Clone, PartialEq)]
pub enum Query {
    /// `value[tag]`.
    Clause(String, String),
    /// Every part.
    And(Vec<Query>),
    /// Any part.
    Or(Vec<Query>),
}

impl Query {
    /// The query a term is; None for what the replay does not evaluate (NOT, an untagged word).
    pub fn parse(term: &str) -> Option<Query> {
        let tokens = tokens(term)?;
        let mut at = 0;
        let q = or_of(&tokens, &mut at)?;
        (at == tokens.len()).then_some(q)
    }

    /// Whether record `c` matches; None for a clause the replay does not evaluate.
    pub fn matches(&self, c: &Citation) -> Option<bool> {
        Some(match self {
            Query::Clause(value, tag) => matches(c, value, tag)?,
            Query::And(parts) => {
                let mut all = true;
                for p in parts {
                    all &= p.matches(c)?;
                }
                all
            }
            Query::Or(parts) => {
                let mut any = false;
                for p in parts {
                    any |= p.matches(c)?;
                }
                any
            }
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Open,
    Close,
    And,
    Or,
    Clause(String, String),
}

/// The term's tokens: parentheses, AND, OR (any case) and `value[tag]` clauses (a value
/// may be several words or quoted); None for NOT or a clause without a tag.
fn tokens(term: &str) -> Option<Vec<Token>> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let flush = |current: &mut String, out: &mut Vec<Token>| -> Option<()> {
        let word = current.trim().to_string();
        current.clear();
        if word.is_empty() {
            return Some(());
        }
        let open = word.rfind('[')?;
        let tag = word[open + 1..]
            .strip_suffix(']')?
            .trim()
            .to_ascii_lowercase();
        let value = word[..open].trim().trim_matches('"').trim().to_string();
        if value.is_empty() {
            return None;
        }
        out.push(Token::Clause(value, tag));
        Some(())
    };
    let chars: Vec<char> = term.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            quoted = !quoted;
            current.push(c);
            i += 1;
            continue;
        }
        if !quoted && (c == '(' || c == ')') {
            flush(&mut current, &mut out)?;
            out.push(if c == '(' { Token::Open } else { Token::Close });
            i += 1;
            continue;
        }
        if !quoted && c.is_whitespace() {
            // A boolean word stands alone between spaces or parentheses.
            let rest: String = chars[i + 1..].iter().take(4).collect();
            let word_end = |n: usize| {
                chars
                    .get(i + 1 + n)
                    .is_none_or(|c| c.is_whitespace() || *c == '(')
            };
            let upper = rest.to_ascii_uppercase();
            if upper.starts_with("AND") && word_end(3) {
                flush(&mut current, &mut out)?;
                out.push(Token::And);
                i += 4;
                continue;
            }
            if upper.starts_with("OR") && word_end(2) {
                flush(&mut current, &mut out)?;
                out.push(Token::Or);
                i += 3;
                continue;
            }
            if upper.starts_with("NOT") && word_end(3) {
                return None;
            }
            // A clause ends at its tag; the next words start another (an implied AND).
            if current.trim_end().ends_with(']') {
                flush(&mut current, &mut out)?;
                out.push(Token::And);
            }
        }
        current.push(c);
        i += 1;
    }
    flush(&mut current, &mut out)?;
    // Leading or doubled implied ANDs (before a boolean word) are not clauses.
    let mut cleaned: Vec<Token> = Vec::new();
    for t in out {
        let doubled = matches!(t, Token::And | Token::Or | Token::Close)
            && matches!(cleaned.last(), Some(Token::And));
        if doubled {
            cleaned.pop();
        }
        cleaned.push(t);
    }
    Some(cleaned)
}

fn or_of(t: &[Token], at: &mut usize) -> Option<Query> {
    let mut parts = vec![and_of(t, at)?];
    while t.get(*at) == Some(&Token::Or) {
        *at += 1;
        parts.push(and_of(t, at)?);
    }
    Some(if parts.len() == 1 {
        parts.remove(0)
    } else {
        Query::Or(parts)
    })
}

fn and_of(t: &[Token], at: &mut usize) -> Option<Query> {
    let mut parts = vec![atom(t, at)?];
    while t.get(*at) == Some(&Token::And) {
        *at += 1;
        parts.push(atom(t, at)?);
    }
    Some(if parts.len() == 1 {
        parts.remove(0)
    } else {
        Query::And(parts)
    })
}

fn atom(t: &[Token], at: &mut usize) -> Option<Query> {
    match t.get(*at)? {
        Token::Open => {
            *at += 1;
            let q = or_of(t, at)?;
            (t.get(*at) == Some(&Token::Close)).then_some(())?;
            *at += 1;
            Some(q)
        }
        Token::Clause(v, tag) => {
            *at += 1;
            Some(Query::Clause(v.clone(), tag.clone()))
        }
        _ => None,
    }
}

/// PubMed's stopwords: words its search ignores (PubMed Help, "Stopwords").
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "again",
    "all",
    "almost",
    "also",
    "although",
    "always",
    "among",
    "an",
    "and",
    "another",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "done",
    "due",
    "during",
    "each",
    "either",
    "enough",
    "especially",
    "etc",
    "for",
    "found",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "here",
    "how",
    "however",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "kg",
    "km",
    "made",
    "mainly",
    "make",
    "may",
    "mg",
    "might",
    "ml",
    "mm",
    "most",
    "mostly",
    "must",
    "nearly",
    "neither",
    "no",
    "nor",
    "obtained",
    "of",
    "often",
    "on",
    "our",
    "overall",
    "perhaps",
    "pmid",
    "quite",
    "rather",
    "really",
    "regarding",
    "seem",
    "seen",
    "several",
    "should",
    "show",
    "showed",
    "shown",
    "shows",
    "significantly",
    "since",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "therefore",
    "these",
    "they",
    "this",
    "those",
    "through",
    "thus",
    "to",
    "upon",
    "use",
    "used",
    "using",
    "various",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "which",
    "while",
    "with",
    "within",
    "without",
    "would",
];

/// Whether PubMed ignores this word in a search.
pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.contains(&w)
}

/// A title's words, lower case, as PubMed indexes them: split at anything not a letter or
/// digit.
fn words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(String::from)
        .collect()
}

/// Whether `c` matches one clause; None for a tag the replay does not evaluate.
fn matches(c: &Citation, value: &str, tag: &str) -> Option<bool> {
    let v = value.to_ascii_lowercase();
    Some(match tag {
        "doi" | "aid" | "lid" | "location id" => c.doi.eq_ignore_ascii_case(value),
        "pmcid" | "pmc" => !c.pmcid.is_empty() && c.pmcid.eq_ignore_ascii_case(value.trim()),
        "ti" | "title" => {
            // Whole words, stopwords ignored; a trailing * truncates (PubMed's wildcard).
            let title = words(&c.title);
            let wild = v.ends_with('*');
            let asked = words(&v);
            let last = asked.len().saturating_sub(1);
            asked
                .iter()
                .enumerate()
                .filter(|(_, w)| !is_stopword(w))
                .all(|(i, w)| {
                    title
                        .iter()
                        .any(|t| t == w || (wild && i == last && t.starts_with(w.as_str())))
                })
        }
        "au" | "author" | "1au" => {
            let last = v.split_whitespace().next().unwrap_or("");
            let authors: Vec<String> = c.authors.iter().map(|a| a.to_ascii_lowercase()).collect();
            match tag {
                "1au" => authors.first().is_some_and(|a| a.starts_with(last)),
                _ => authors.iter().any(|a| a.starts_with(last)),
            }
        }
        // PubMed's publication date is the print date and the electronic one.
        "dp" | "pdat" | "publication date" => {
            c.year == value.trim() || (!c.epub_year.is_empty() && c.epub_year == value.trim())
        }
        "ta" | "journal" => {
            squeeze(&c.iso) == squeeze(value) || squeeze(&c.journal) == squeeze(value)
        }
        "vi" | "volume" => c.volume == value.trim(),
        "pg" | "pagination" => c.first_page() == value.trim(),
        "pt" | "publication type" => c.types.iter().any(|t| t.eq_ignore_ascii_case(value)),
        "uid" | "pmid" => value
            .split([',', ' '])
            .filter_map(|i| i.trim().parse::<u64>().ok())
            .any(|i| i == c.pmid),
        _ => return None,
    })
}
