//! What the replay knows of each PubMed record it holds, for the answers NCBI computes from
//! its records rather than returns whole: document summaries (esummary JSON), field-tagged
//! searches (esearch by DOI, title, author, journal, volume, page, publication type or uid)
//! and citation matching (ecitmatch).
//!
//! The fields are read from the recorded and documented articles with plain text searches,
//! not with the server's own parser (the replay must not agree with the code it tests by
//! construction). Synthetic PMIDs are answered from the recorded article they clone.

use crate::ncbi::fixtures::Corpus;
use crate::ncbi::query::Query;
use crate::ncbi::synthetic::{is_synthetic, FIRST_ID};
use serde_json::{json, Value};

/// One link NLM made from a record (CommentsCorrections), as read.
#[derive(Debug, Clone)]
pub struct Link {
    /// RefType, e.g. "RetractionIn".
    pub ref_type: String,
    /// RefSource.
    pub source: String,
    /// The linked PMID.
    pub pmid: Option<u64>,
    /// Note.
    pub note: String,
}

/// One record's fields.
#[derive(Debug, Clone, Default)]
pub struct Citation {
    /// Its PMID.
    pub pmid: u64,
    /// ArticleTitle, tags stripped.
    pub title: String,
    /// Journal Title.
    pub journal: String,
    /// ISOAbbreviation (else MedlineTA).
    pub iso: String,
    /// PubDate Year.
    pub year: String,
    /// Volume.
    pub volume: String,
    /// Issue.
    pub issue: String,
    /// MedlinePgn (else StartPage).
    pub pages: String,
    /// Authors as ESummary names them ("Wakefield AJ", or a collective's name), in order.
    pub authors: Vec<String>,
    /// The article's own DOI.
    pub doi: String,
    /// Its PMC id ("PMC5442267"), when PMC holds it.
    pub pmcid: String,
    /// ArticleDate Year: when it came out online, if before print.
    pub epub_year: String,
    /// PublicationType labels.
    pub types: Vec<String>,
    /// CommentsCorrections other than Cites.
    pub links: Vec<Link>,
}

impl Citation {
    /// The first page: "637" of "637-41".
    pub fn first_page(&self) -> &str {
        self.pages.split(['-', ',', ' ']).next().unwrap_or("")
    }

    fn retracted(&self) -> bool {
        self.types.iter().any(|t| t == "Retracted Publication")
            || self.links.iter().any(|l| l.ref_type == "RetractionIn")
    }
}

/// Every record the replay holds, indexed.
#[derive(Debug, Default)]
pub struct Catalogue {
    /// Recorded and documented articles.
    pub records: Vec<Citation>,
    /// The recorded articles synthetic PMIDs clone, in clone order.
    templates: Vec<Citation>,
}

impl Catalogue {
    /// Reads every article of `corpus`.
    pub fn of(corpus: &Corpus) -> Catalogue {
        let mut records = Vec::new();
        for split in &corpus.pubmed {
            for a in &split.records {
                if let Some(c) = read(a.bytes) {
                    records.push(c);
                }
            }
        }
        // The synthetic clones follow the recorded files' articles in this order
        // (synthetic.rs, Templates).
        let templates = crate::ncbi::synthetic::template_bytes(corpus)
            .into_iter()
            .filter_map(read)
            .collect();
        Catalogue { records, templates }
    }

    /// The record with this PMID: one held, or the clone a synthetic PMID stands for.
    pub fn get(&self, pmid: u64) -> Option<Citation> {
        if let Some(c) = self.records.iter().find(|c| c.pmid == pmid) {
            return Some(c.clone());
        }
        if is_synthetic(pmid) && !self.templates.is_empty() {
            let i = ((pmid - FIRST_ID) % self.templates.len() as u64) as usize;
            let mut c = self.templates[i].clone();
            c.pmid = pmid;
            return Some(c);
        }
        None
    }

    /// Whether the record with this PMID is retracted.
    pub fn is_retracted(&self, pmid: u64) -> bool {
        self.get(pmid).is_some_and(|c| c.retracted())
    }

    /// The ids a field-tagged term finds among the records held (recorded and documented,
    /// not synthetic), in the records' order; None when a clause is not one the replay can
    /// evaluate (an untagged word, an unknown tag, NOT). Clauses combine with AND and OR and
    /// parentheses, as PubMed reads them ([`Query`]).
    pub fn search(&self, term: &str) -> Option<Vec<u64>> {
        let query = Query::parse(term)?;
        let mut ids = Vec::new();
        for c in &self.records {
            if query.matches(c)? {
                ids.push(c.pmid);
            }
        }
        Some(ids)
    }

    /// ESummary's JSON docsum for a record (NCBI's field names; only what the record holds).
    pub fn docsum(&self, pmid: u64) -> Option<Value> {
        let c = self.get(pmid)?;
        let references: Vec<Value> = c
            .links
            .iter()
            .map(|l| {
                json!({
                    "refsource": l.source,
                    "reftype": summary_wording(&l.ref_type),
                    "pmid": l.pmid.map_or(json!(""), |p| json!(p)),
                    "note": l.note,
                })
            })
            .collect();
        let authors: Vec<Value> = c
            .authors
            .iter()
            .map(|a| json!({"name": a, "authtype": "Author", "clusterid": ""}))
            .collect();
        let mut ids = vec![json!({"idtype": "pubmed", "idtypen": 1, "value": pmid.to_string()})];
        if !c.doi.is_empty() {
            ids.push(json!({"idtype": "doi", "idtypen": 3, "value": c.doi}));
        }
        if !c.pmcid.is_empty() {
            ids.push(json!({"idtype": "pmc", "idtypen": 8, "value": c.pmcid}));
        }
        Some(json!({
            "uid": pmid.to_string(),
            "pubdate": c.year,
            "epubdate": c.epub_year,
            "source": c.iso,
            "authors": authors,
            "title": c.title,
            "volume": c.volume,
            "issue": c.issue,
            "pages": c.pages,
            "fulljournalname": c.journal,
            "pubtype": c.types,
            "articleids": ids,
            "references": references,
        }))
    }

    /// One ecitmatch line's answer: a PMID, `AMBIGUOUS (n citations)`,
    /// `NOT_FOUND;INVALID_JOURNAL` or `NOT_FOUND` (NCBI's documented forms).
    pub fn citation_match(
        &self,
        journal: &str,
        year: &str,
        volume: &str,
        page: &str,
        author: &str,
    ) -> String {
        let j = squeeze(journal);
        let known_journal = self
            .records
            .iter()
            .any(|c| squeeze(&c.iso) == j || squeeze(&c.journal) == j);
        if j.is_empty() || !known_journal {
            return "NOT_FOUND;INVALID_JOURNAL".to_string();
        }
        let author = author.trim().to_ascii_lowercase();
        let found: Vec<u64> = self
            .records
            .iter()
            .filter(|c| squeeze(&c.iso) == j || squeeze(&c.journal) == j)
            .filter(|c| year.is_empty() || c.year == year.trim() || c.epub_year == year.trim())
            .filter(|c| volume.is_empty() || c.volume == volume.trim())
            .filter(|c| page.is_empty() || c.first_page() == page.trim())
            .filter(|c| {
                // "mann bj": the last name is what NCBI matches on, loosely.
                let last = author.split_whitespace().next().unwrap_or("");
                last.is_empty()
                    || c.authors
                        .iter()
                        .any(|a| a.to_ascii_lowercase().starts_with(last))
            })
            .map(|c| c.pmid)
            .collect();
        match found.len() {
            0 => "NOT_FOUND".to_string(),
            1 => found[0].to_string(),
            n => format!("AMBIGUOUS ({n} citations)"),
        }
    }
}

/// ESummary's wording of a RefType: "RetractionIn" reads "Retraction in".
fn summary_wording(ref_type: &str) -> String {
    let mut out = String::new();
    for (i, ch) in ref_type.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push(' ');
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out.replace("and ", " and ").replace("  ", " ")
}

/// Lower case, letters and digits only: "Proc Natl Acad Sci U S A" and
/// "proc natl acad sci u s a" meet.
pub(crate) fn squeeze(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The text of the first `<tag ...>…</tag>` at or after `from`, tags inside stripped.
fn element(hay: &str, tag: &str, from: usize) -> Option<(String, usize)> {
    let open = format!("<{tag}");
    let mut at = from;
    loop {
        let start = hay[at..].find(&open)? + at;
        let after = hay.as_bytes().get(start + open.len()).copied();
        // "<Title" must not match "<TitleX".
        if matches!(after, Some(b'>') | Some(b' ')) {
            let body = hay[start..].find('>')? + start + 1;
            let close = format!("</{tag}>");
            let end = hay[body..].find(&close)? + body;
            return Some((strip_tags(&hay[body..end]), end + close.len()));
        }
        at = start + open.len();
    }
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in s.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            _ if !inside => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .trim()
        .to_string()
}

/// The value of `name="..."` in the start tag at `at`.
fn attribute(hay: &str, at: usize, name: &str) -> Option<String> {
    let end = hay[at..].find('>')? + at;
    let tag = &hay[at..end];
    let key = format!("{name}=\"");
    let s = tag.find(&key)? + key.len();
    let e = tag[s..].find('"')? + s;
    Some(tag[s..e].to_string())
}

/// One PubmedArticle's fields.
fn read(bytes: &[u8]) -> Option<Citation> {
    let hay = std::str::from_utf8(bytes).ok()?;
    let citation_at = hay.find("<MedlineCitation")?;
    let (pmid, _) = element(hay, "PMID", citation_at)?;
    let mut c = Citation {
        pmid: pmid.parse().ok()?,
        ..Citation::default()
    };
    let text = |tag: &str| {
        element(hay, tag, citation_at)
            .map(|(t, _)| t)
            .unwrap_or_default()
    };
    c.title = text("ArticleTitle");
    c.journal = text("Title");
    c.iso = match text("ISOAbbreviation") {
        t if t.is_empty() => text("MedlineTA"),
        t => t,
    };
    if let Some(at) = hay.find("<PubDate>") {
        c.year = element(hay, "Year", at).map(|(t, _)| t).unwrap_or_default();
    }
    if let Some(at) = hay.find("<ArticleDate") {
        c.epub_year = element(hay, "Year", at).map(|(t, _)| t).unwrap_or_default();
    }
    c.volume = text("Volume");
    c.issue = text("Issue");
    c.pages = match text("MedlinePgn") {
        t if t.is_empty() => text("StartPage"),
        t => t,
    };
    let mut at = 0;
    while let Some(start) = hay[at..].find("<Author ").map(|p| p + at) {
        let end = hay[start..]
            .find("</Author>")
            .map_or(hay.len(), |e| e + start);
        let block = &hay[start..end];
        // ESummary's form: "Wakefield AJ", or the collective's name.
        let initials = element(block, "Initials", 0).map(|(i, _)| i);
        match (element(block, "LastName", 0), initials) {
            (Some((last, _)), Some(i)) => c.authors.push(format!("{last} {i}")),
            (Some((last, _)), None) => c.authors.push(last),
            (None, _) => {
                if let Some((n, _)) = element(block, "CollectiveName", 0) {
                    c.authors.push(n);
                }
            }
        }
        at = end;
    }
    let mut at = 0;
    while let Some(start) = hay[at..].find("<PublicationType ").map(|p| p + at) {
        let Some((t, end)) = element(hay, "PublicationType", start) else {
            break;
        };
        c.types.push(t);
        at = end;
    }
    let mut at = 0;
    while let Some(start) = hay[at..].find("<ArticleId ").map(|p| p + at) {
        let Some((value, end)) = element(hay, "ArticleId", start) else {
            break;
        };
        // The article's own ids are in PubmedData; a cited work's are inside ReferenceList.
        let in_references = hay[..start]
            .rfind("<ReferenceList")
            .is_some_and(|r| hay[r..start].find("</ReferenceList>").is_none());
        let kind = attribute(hay, start, "IdType");
        if kind.as_deref() == Some("doi") && c.doi.is_empty() && !in_references {
            c.doi = value;
        } else if kind.as_deref() == Some("pmc") && c.pmcid.is_empty() && !in_references {
            c.pmcid = value;
        }
        at = end;
    }
    let mut at = 0;
    while let Some(start) = hay[at..].find("<CommentsCorrections ").map(|p| p + at) {
        let end = hay[start..]
            .find("</CommentsCorrections>")
            .map_or(hay.len(), |e| e + start);
        let block = &hay[start..end];
        let ref_type = attribute(hay, start, "RefType").unwrap_or_default();
        if ref_type != "Cites" {
            c.links.push(Link {
                ref_type,
                source: element(block, "RefSource", 0)
                    .map(|(t, _)| t)
                    .unwrap_or_default(),
                pmid: element(block, "PMID", 0).and_then(|(t, _)| t.parse().ok()),
                note: element(block, "Note", 0)
                    .map(|(t, _)| t)
                    .unwrap_or_default(),
            });
        }
        at = end;
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogue() -> Catalogue {
        Catalogue::of(&Corpus::load())
    }

    #[test]
    fn records_are_read_with_their_links_and_dois() {
        let cat = catalogue();
        let w = cat.get(9_500_320).unwrap();
        assert_eq!(w.iso, "Lancet");
        assert_eq!(
            (w.year.as_str(), w.volume.as_str(), w.first_page()),
            ("1998", "351", "637")
        );
        assert_eq!(w.doi, "10.1016/s0140-6736(97)11096-0");
        assert!(w.retracted());
        assert_eq!(w.links.len(), 4, "Cites is not a link");
        assert_eq!(summary_wording("RetractionIn"), "Retraction in");
        assert_eq!(
            summary_wording("ExpressionOfConcernIn"),
            "Expression of concern in"
        );
        assert!(!cat.get(12_091_962).unwrap().retracted());
        // A synthetic PMID is its template's record under its own id.
        let s = cat.get(FIRST_ID).unwrap();
        assert_eq!(s.pmid, FIRST_ID);
        assert!(!s.title.is_empty());
    }

    #[test]
    fn field_tagged_searches_find_what_matches_and_refuse_what_they_cannot_read() {
        let cat = catalogue();
        assert_eq!(
            cat.search("\"10.1016/S0140-6736(97)11096-0\"[doi]"),
            Some(vec![9_500_320])
        );
        assert_eq!(
            cat.search("ileal lymphoid nodular hyperplasia[ti] AND 1998[dp]"),
            Some(vec![9_500_320])
        );
        let retracted = cat.search("\"retracted publication\"[pt]").unwrap();
        assert_eq!(retracted, vec![9_500_320]);
        assert_eq!(cat.search("asthma"), None);
        assert_eq!(
            cat.search("\"10.1016/s0140-6736(97)11096-0\"[doi] OR \"10.0000/jde.2019.100\"[doi] OR \"10.9/none\"[doi]"),
            Some(vec![9_500_320, 99_000_001])
        );
        assert_eq!(cat.search("a[ti] OR b"), None);
        assert_eq!(cat.search("x[mh]"), None);
    }

    #[test]
    fn searches_read_and_or_parentheses_stopwords_and_whole_words_as_pubmed_does() {
        let cat = catalogue();
        // Two references' title clauses in one search: each group ANDed, the groups ORed.
        assert_eq!(
            cat.search("(ileal[ti] AND colitis[ti] AND children[ti]) OR (leucocyte[ti] AND telomere[ti] AND pancreatic[ti])"),
            Some(vec![27_797_938, 9_500_320, 20_137_807])
        );
        // A stopword asks nothing; a word is a whole word, not a piece of one.
        assert_eq!(
            cat.search("the[ti] AND of[ti] AND leucocyte[ti]"),
            Some(vec![27_797_938])
        );
        assert_eq!(cat.search("telom[ti]"), Some(vec![]));
        assert_eq!(cat.search("telom*[ti]"), Some(vec![27_797_938]));
        // A typo finds nothing; a looser OR of the rarer words with the author and year does.
        assert_eq!(cat.search("leucocyte[ti] AND telomare[ti]"), Some(vec![]));
        assert_eq!(
            cat.search(
                "(leucocyte[ti] OR telomare[ti] OR pancreatic[ti]) AND bao[1au] AND 2017[dp]"
            ),
            Some(vec![27_797_938])
        );
        // The electronic year is a publication date too; a PMCID is searchable.
        assert_eq!(
            cat.search("leucocyte[ti] AND 2016[dp]"),
            Some(vec![27_797_938])
        );
        assert_eq!(cat.search("PMC5442267[pmcid]"), Some(vec![27_797_938]));
        assert_eq!(cat.search("a[ti] NOT b[ti]"), None);
        assert_eq!(cat.search("(a[ti] OR b[ti]"), None);
    }

    #[test]
    fn citations_match_by_journal_year_volume_and_page() {
        let cat = catalogue();
        assert_eq!(
            cat.citation_match("lancet", "1998", "351", "637", "wakefield aj"),
            "9500320"
        );
        assert_eq!(
            cat.citation_match("Lancet", "1998", "351", "999", ""),
            "NOT_FOUND"
        );
        assert_eq!(
            cat.citation_match("fake journal", "2000", "1", "1", ""),
            "NOT_FOUND;INVALID_JOURNAL"
        );
        assert!(cat
            .citation_match("j doc ex", "", "", "", "")
            .starts_with("AMBIGUOUS ("));
    }
}
