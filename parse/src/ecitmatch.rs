//! ECitMatch replies: citation strings matched to PubMed ids.
//!
//! ECitMatch answers in plain text, one line per citation sent, echoing the
//! caller's fields and appending the PMID:
//! `journal|year|volume|first_page|author_name|your_key|PMID`. A miss leaves
//! the last field empty or writes a reason there (`NOT_FOUND;INVALID_JOURNAL`),
//! and a citation that fits several articles says `AMBIGUOUS`. Reading the
//! status from that field, rather than only "is there a number", lets the
//! caller tell a typo in the journal from a citation that needs more detail.

use serde::Serialize;

/// Whether a citation found its article.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    /// Exactly one PMID matched.
    Found,
    /// No article matched.
    NotFound,
    /// Several articles fit; add detail such as the first page or author.
    Ambiguous,
}

/// One line of an ECitMatch reply.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationMatch {
    /// Journal title or abbreviation as sent.
    pub journal: String,
    /// Year as sent.
    pub year: String,
    /// Volume as sent.
    pub volume: String,
    /// First page as sent.
    pub first_page: String,
    /// Author name as sent.
    pub author: String,
    /// The caller's key for this citation.
    pub key: String,
    /// The matched PMID, when there is exactly one.
    pub pmid: Option<String>,
    /// Found, not found or ambiguous.
    pub status: MatchStatus,
    /// NCBI's reason text when there is no single match (e.g. "NOT_FOUND;INVALID_JOURNAL").
    pub detail: Option<String>,
}

/// Parses the text of an ECitMatch reply; blank lines are skipped.
pub fn parse_ecitmatch(text: &str) -> Vec<CitationMatch> {
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .map(parse_line)
        .collect()
}

fn parse_line(line: &str) -> CitationMatch {
    let mut parts = line.split('|').map(str::trim);
    let mut next = || parts.next().unwrap_or("").to_string();
    let (journal, year, volume, first_page, author, key) =
        (next(), next(), next(), next(), next(), next());
    let answer = next();
    let upper = answer.to_ascii_uppercase();
    let (pmid, status, detail) = if !answer.is_empty() && answer.bytes().all(|b| b.is_ascii_digit())
    {
        (Some(answer), MatchStatus::Found, None)
    } else if upper.starts_with("AMBIGUOUS") {
        (None, MatchStatus::Ambiguous, Some(answer))
    } else if answer.is_empty() {
        (None, MatchStatus::NotFound, None)
    } else {
        (None, MatchStatus::NotFound, Some(answer))
    };
    CitationMatch {
        journal,
        year,
        volume,
        first_page,
        author,
        key,
        pmid,
        status,
        detail,
    }
}
