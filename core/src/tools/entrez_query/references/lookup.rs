//! The requests a reference list takes, in as few as NCBI allows.
//!
//! One ECitMatch for every reference with journal, year and volume or page; one search for
//! every DOI and PMCID; title searches batched (each reference's title words ANDed, the
//! references ORed, [`TITLES_PER_SEARCH`] at a time), then one ESummary for every
//! candidate. A second round, for the references whose title no candidate has yet (a typo,
//! an identifier pointing elsewhere, a citation of another paper), searches the exact title
//! where it was not tried and a looser clause (any of the rarest words, with the first
//! author, year or journal), and reads the new candidates' summaries in one more request.

use crate::error::{Error, Result};
use crate::framework::ToolContext;
use crate::parse;
use crate::tools::entrez_query::call::{
    Citation, CitationMatch, Records, ReplyMode, Search, Summary,
};
use crate::tools::entrez_query::plan;
use crate::tools::entrez_query::references::compare::{self, Candidate};
use crate::tools::entrez_query::references::fold::fold;
use crate::tools::entrez_query::references::input::Reference;
use std::collections::BTreeMap;

/// How many references' title clauses one search carries.
pub const TITLES_PER_SEARCH: usize = 34;
/// The most ids one JSON ESummary takes (NCBI refuses more).
const SUMMARY_BATCH: usize = 500;
/// PubMed's stopwords (PubMed Help, "Stopwords"): a title search leaves them out.
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
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "made",
    "mainly",
    "make",
    "may",
    "might",
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

/// What the lookups found for one reference.
#[derive(Debug, Clone, Default)]
pub struct Found {
    /// ECitMatch's PMID.
    pub citation: Option<String>,
    /// ECitMatch's own word when it found no single article ("AMBIGUOUS (2 citations)").
    pub said: Option<String>,
    /// What the DOI/PMCID search returned (whose is which is read from the summaries).
    pub by_id: Vec<String>,
    /// What title searches (and a journal/year/volume search) returned.
    pub by_title: Vec<String>,
    /// Whether its exact title clause was searched.
    pub title_tried: bool,
    /// Not looked up in this call: its requests ran out first.
    pub unchecked: bool,
    /// Why a lookup failed, when one did.
    pub failed: Option<String>,
}

/// Every lookup's result: per reference, the candidates' summaries, and the requests sent.
pub struct Lookups {
    /// One per reference.
    pub found: Vec<Found>,
    /// Every candidate read, by PMID.
    pub docs: BTreeMap<String, Candidate>,
    /// Upstream requests made.
    pub sent: u64,
    /// What the caller should know (a service that failed).
    pub warnings: Vec<String>,
    /// The first failure, answered when nothing could be checked.
    pub first_error: Option<Error>,
}

/// Runs the lookups for `refs` within `requests` upstream requests.
pub async fn run(ctx: &ToolContext<'_>, refs: &[Reference], requests: u64) -> Result<Lookups> {
    let mut l = Lookups {
        found: vec![Found::default(); refs.len()],
        docs: BTreeMap::new(),
        sent: 0,
        warnings: Vec::new(),
        first_error: None,
    };
    let mut left = requests;
    let live: Vec<usize> = (0..refs.len())
        .filter(|&i| refs[i].invalid.is_none() && !refs[i].unread())
        .collect();
    // ECitMatch, for every citable reference (an identifier is a claim to check, not proof).
    let citable: Vec<usize> = live
        .iter()
        .copied()
        .filter(|&i| refs[i].citable())
        .collect();
    if !citable.is_empty() && left > 1 {
        left -= 1;
        citation_match(ctx, refs, &citable, &mut l).await;
    }
    // One search for every DOI and PMCID.
    let with_id: Vec<usize> = live
        .iter()
        .copied()
        .filter(|&i| refs[i].doi.is_some() || refs[i].pmcid.is_some())
        .collect();
    if !with_id.is_empty() && left > 1 {
        left -= 1;
        let term = id_term(with_id.iter().map(|&i| &refs[i]));
        match search_ids(ctx, &mut l, &term, (with_id.len() as u64) * 2).await {
            Ok(ids) => with_id.iter().for_each(|&i| l.found[i].by_id = ids.clone()),
            Err(e) => {
                let why = format!("the DOI/PMCID search failed: {}", e.message);
                with_id
                    .iter()
                    .for_each(|&i| l.found[i].failed = Some(why.clone()));
                l.first_error.get_or_insert(e);
            }
        }
    }
    // Round one: titles of the references nothing has answered for yet.
    let first: Vec<usize> = live
        .iter()
        .copied()
        .filter(|&i| {
            let f = &l.found[i];
            refs[i].pmid.is_none() && f.citation.is_none() && f.by_id.is_empty()
        })
        .collect();
    let clauses: Vec<(usize, String)> = first
        .iter()
        .filter_map(|&i| {
            refs[i]
                .title
                .as_deref()
                .and_then(title_term)
                .map(|t| (i, t))
        })
        .collect();
    batched_titles(ctx, &clauses, &mut left, &mut l).await;
    summaries(ctx, refs, &mut l).await?;
    // Round two: a title no candidate has yet, and citations ECitMatch found ambiguous.
    let mut second: Vec<(usize, String)> = Vec::new();
    for &i in &live {
        let r = &refs[i];
        let f = &l.found[i];
        if f.failed.is_some() || f.unchecked {
            continue;
        }
        let Some(title) = r.title.as_deref() else {
            if f.said
                .as_deref()
                .is_some_and(|s| s.starts_with("AMBIGUOUS"))
            {
                if let Some(c) = citation_term(r) {
                    second.push((i, c));
                }
            }
            continue;
        };
        let known = f
            .citation
            .iter()
            .chain(&f.by_id)
            .chain(&f.by_title)
            .chain(r.pmid.iter());
        let has_title = known
            .filter_map(|p| l.docs.get(p))
            .any(|c| compare::title_similarity(title, &c.title) >= compare::SAME_TITLE);
        if has_title {
            continue;
        }
        let mut parts = Vec::new();
        if !f.title_tried {
            parts.extend(title_term(title));
        }
        parts.extend(loose_term(r));
        if !parts.is_empty() {
            second.push((i, parts.join(" OR ")));
        }
    }
    batched_titles(ctx, &second, &mut left, &mut l).await;
    summaries(ctx, refs, &mut l).await?;
    Ok(l)
}

async fn citation_match(
    ctx: &ToolContext<'_>,
    refs: &[Reference],
    citable: &[usize],
    l: &mut Lookups,
) {
    let lines: Vec<Citation> = citable
        .iter()
        .map(|&i| citation_line(&refs[i], i))
        .collect();
    let request = plan::citation_match(&CitationMatch {
        citations: lines,
        retmode: Some("xml".into()),
        rettype: None,
    });
    l.sent += 1;
    match send(ctx, &request).await {
        Ok(body) => {
            for m in parse::ecitmatch::parse_ecitmatch(&String::from_utf8_lossy(&body)) {
                let Some(i) = m
                    .key
                    .strip_prefix('k')
                    .and_then(|k| k.parse::<usize>().ok())
                else {
                    continue;
                };
                if !citable.contains(&i) {
                    continue;
                }
                match &m.pmid {
                    Some(p) => l.found[i].citation = Some(p.clone()),
                    None => l.found[i].said = m.detail.clone().or(Some("NOT_FOUND".into())),
                }
            }
        }
        Err(e) => {
            l.warnings.push(format!(
                "ECitMatch could not be asked ({}); the references were searched by title and identifier only.",
                e.message
            ));
            l.first_error.get_or_insert(e);
        }
    }
    progress(ctx, l.sent, "citations matched");
}

/// Searches `clauses` (reference, clause) ORed, [`TITLES_PER_SEARCH`] references a search;
/// what a search returns is a candidate for every reference in it.
async fn batched_titles(
    ctx: &ToolContext<'_>,
    clauses: &[(usize, String)],
    left: &mut u64,
    l: &mut Lookups,
) {
    for chunk in clauses.chunks(TITLES_PER_SEARCH) {
        // One request is kept for the summaries.
        if *left <= 1 {
            chunk.iter().for_each(|(i, _)| l.found[*i].unchecked = true);
            continue;
        }
        *left -= 1;
        let term = batch_term(chunk.iter().map(|(_, c)| c.as_str()));
        let retmax = (chunk.len() as u64) * 5;
        match search_ids(ctx, l, &term, retmax).await {
            Ok(ids) => {
                for (i, _) in chunk {
                    let f = &mut l.found[*i];
                    f.title_tried = true;
                    f.by_title.extend(ids.iter().cloned());
                }
            }
            Err(e) => {
                let why = format!("the title search failed: {}", e.message);
                chunk
                    .iter()
                    .for_each(|(i, _)| l.found[*i].failed = Some(why.clone()));
                l.first_error.get_or_insert(e);
            }
        }
        progress(ctx, l.sent, "titles searched");
    }
}

/// One ESummary for every candidate not read yet.
async fn summaries(ctx: &ToolContext<'_>, refs: &[Reference], l: &mut Lookups) -> Result<()> {
    let mut wanted: Vec<String> = refs
        .iter()
        .zip(&l.found)
        .filter(|(r, _)| r.invalid.is_none())
        .flat_map(|(r, f)| {
            r.pmid
                .iter()
                .chain(&f.citation)
                .chain(&f.by_id)
                .chain(&f.by_title)
                .cloned()
                .collect::<Vec<_>>()
        })
        .filter(|p| !l.docs.contains_key(p))
        .collect();
    wanted.sort();
    wanted.dedup();
    for batch in wanted.chunks(SUMMARY_BATCH) {
        l.sent += 1;
        let request = plan::summary(&Summary {
            database: "pubmed".into(),
            records: Records::Ids {
                ids: batch.to_vec(),
            },
            retmode: ReplyMode::Json,
            version: None,
            max_records: SUMMARY_BATCH,
            view: Default::default(),
        });
        match send(ctx, &request).await {
            Ok(body) => {
                for d in &parse::esummary::parse_esummary_json(&body)?.docs {
                    l.docs.insert(d.uid.clone(), Candidate::of(d));
                }
            }
            Err(e) => {
                let why = format!("the candidates' summaries could not be read: {}", e.message);
                for (r, f) in refs.iter().zip(l.found.iter_mut()) {
                    let mine = r
                        .pmid
                        .iter()
                        .chain(&f.citation)
                        .chain(&f.by_id)
                        .chain(&f.by_title);
                    if mine.into_iter().any(|c| batch.contains(c)) {
                        f.failed = Some(why.clone());
                    }
                }
                l.first_error.get_or_insert(e);
            }
        }
        progress(ctx, l.sent, "candidates read");
    }
    Ok(())
}

async fn send(ctx: &ToolContext<'_>, request: &crate::entrez::EutilsRequest) -> Result<Vec<u8>> {
    Ok(ctx.entrez()?.send(request).await?.body.to_vec())
}

/// The PMIDs a PubMed search returns, at most `retmax`.
async fn search_ids(
    ctx: &ToolContext<'_>,
    l: &mut Lookups,
    term: &str,
    retmax: u64,
) -> Result<Vec<String>> {
    l.sent += 1;
    let search = Search::ids_of("pubmed", term.to_string(), retmax);
    let body = send(ctx, &plan::search(&search)).await?;
    Ok(parse::esearch::parse_esearch_xml(&body)?.ids)
}

fn progress(ctx: &ToolContext<'_>, sent: u64, what: &str) {
    if let Some(p) = ctx.progress {
        p.report(sent as f64, None, &format!("{what} ({sent} requests)"));
    }
}

/// An ECitMatch line for reference `i`, keyed `k<i>` so the answer finds its way back.
pub fn citation_line(r: &Reference, i: usize) -> Citation {
    let clean = |s: &str| s.replace(['|', '\r', '\n'], " ");
    Citation {
        journal: clean(r.journal.as_deref().unwrap_or("")),
        year: r.year.map(|y| y.to_string()).unwrap_or_default(),
        volume: clean(r.volume.as_deref().unwrap_or("")),
        first_page: clean(r.first_page.as_deref().unwrap_or("")),
        author: r
            .authors
            .first()
            .map(|a| a.to_ascii_lowercase())
            .unwrap_or_default(),
        key: format!("k{i}"),
    }
}

/// Several references' clauses as one search: each parenthesized, ORed.
pub fn batch_term<'a>(clauses: impl Iterator<Item = &'a str>) -> String {
    clauses
        .map(|c| format!("({c})"))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// One search for several DOIs: each quoted (DOIs hold parentheses and semicolons) and
/// tagged `[doi]`, ORed.
pub fn doi_term<'a>(dois: impl Iterator<Item = &'a str>) -> String {
    dois.map(|d| format!("\"{d}\"[doi]"))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The DOIs (`"…"[doi]`) and PMCIDs (`PMC…[pmcid]`) of `refs`, ORed.
pub fn id_term<'a>(refs: impl Iterator<Item = &'a Reference>) -> String {
    let mut parts = Vec::new();
    for r in refs {
        if let Some(d) = &r.doi {
            parts.push(format!("\"{d}\"[doi]"));
        }
        if let Some(p) = &r.pmcid {
            parts.push(format!("{p}[pmcid]"));
        }
    }
    parts.join(" OR ")
}

/// A title's searchable words: lower case, stopwords and one- or two-letter words left
/// out, each once.
/// Accents are folded as PubMed folds them ("Mu\u{308}ller" and "Müller" search "muller").
fn title_words(title: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for w in fold(title).split(|c: char| !c.is_alphanumeric()) {
        let w = w.to_string();
        if w.chars().count() >= 3 && !STOPWORDS.contains(&w.as_str()) && !words.contains(&w) {
            words.push(w);
        }
    }
    words
}

/// A title as a PubMed search: its longest ten words, each `[ti]`, ANDed (punctuation and
/// word order do not then matter); None for a title without words to search.
pub fn title_term(title: &str) -> Option<String> {
    let words = title_words(title);
    if words.is_empty() {
        return None;
    }
    let mut by_length = words.clone();
    by_length.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    by_length.truncate(10);
    let kept: Vec<String> = words
        .into_iter()
        .filter(|w| by_length.contains(w))
        .map(|w| format!("{w}[ti]"))
        .collect();
    Some(kept.join(" AND "))
}

/// A looser search for a title with a typo: any of its six longest words, with the first
/// author and year (or the journal where one of them is missing); None when the reference
/// gives too little to keep it narrow.
pub fn loose_term(r: &Reference) -> Option<String> {
    let mut words = title_words(r.title.as_deref()?);
    words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    words.truncate(6);
    if words.len() < 2 {
        return None;
    }
    let mut narrow = Vec::new();
    if let Some(a) = r.authors.first() {
        narrow.push(format!("\"{}\"[1au]", a.to_lowercase()));
    }
    if let Some(y) = r.year {
        narrow.push(format!("{y}[dp]"));
    }
    if narrow.len() < 2 {
        if let Some(j) = &r.journal {
            narrow.push(format!("\"{}\"[ta]", j.replace('"', "")));
        }
    }
    if narrow.len() < 2 {
        return None;
    }
    let any = words
        .iter()
        .map(|w| format!("{w}[ti]"))
        .collect::<Vec<_>>()
        .join(" OR ");
    Some(format!("({any}) AND {}", narrow.join(" AND ")))
}

/// Journal, year and volume (and page) as a search: the records ECitMatch found too many of.
fn citation_term(r: &Reference) -> Option<String> {
    let mut parts = vec![format!(
        "\"{}\"[ta]",
        r.journal.as_deref()?.replace('"', "")
    )];
    parts.push(format!("{}[dp]", r.year?));
    if let Some(v) = &r.volume {
        parts.push(format!("{v}[vi]"));
    }
    if let Some(p) = &r.first_page {
        parts.push(format!("{p}[pg]"));
    }
    Some(parts.join(" AND "))
}
