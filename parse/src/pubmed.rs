//! PubMed XML (`efetch db=pubmed retmode=xml`) to typed citation records.
//!
//! A `PubmedArticleSet` can be tens of megabytes and most of it (reference
//! lists, history dates, chemical lists, grant lists) is not what an assistant
//! asks about. The parser streams over the borrowed body with quick-xml, reads
//! the elements a citation is made of, and skips every other subtree without
//! looking inside ([`parse_pubmed`]). `PubmedBookArticle` (NCBI Bookshelf
//! chapters) is read minimally: PMID, title, abstract, authors, date and ids.
//! [`MedlineRecord`](crate::medline::MedlineRecord) is this same type,
//! so a citation looks alike whether it came as XML or as MEDLINE text.

mod book;
pub(crate) mod flatten;
pub mod integrity;
pub(crate) mod read;

pub use self::integrity::{Correction, Integrity};

use self::flatten::{opt_text, text, text_and_markup};
use self::read::{
    attr_is, attr_raw, children, first_year, month_name, normalize_orcid, pmcid, root, truncation,
};
use crate::error::ParseError;
use crate::xml::Xml;
use quick_xml::events::Event;
use serde::Serialize;

const WHAT: &str = "PubMed XML";

/// Whether a record is a journal article or a Bookshelf document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    /// A `PubmedArticle` (or a MEDLINE record).
    #[default]
    Article,
    /// A `PubmedBookArticle`.
    Book,
}

/// One PubMed citation.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PubmedArticle {
    /// PubMed id.
    pub pmid: String,
    /// Journal article or book document.
    pub kind: RecordKind,
    /// Whether it was retracted, corrected or put under concern, and by which notices.
    pub integrity: Integrity,
    /// Article title as plain text (inline HTML and MathML flattened).
    pub title: String,
    /// The title with its italics, bold, superscripts and subscripts kept as `<i>`, `<b>`,
    /// `<sup>`, `<sub>` (CSL JSON's rich text), where it has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title_markup: Option<String>,
    /// Every `AbstractText`, in order.
    pub abstract_sections: Vec<AbstractSection>,
    /// The abstract as one string: one "LABEL: text" line per section.
    pub abstract_text: Option<String>,
    /// Authors in citation order.
    pub authors: Vec<Author>,
    /// Full journal title.
    pub journal: Option<String>,
    /// ISO journal abbreviation, else NLM's title abbreviation (`MedlineTA`; MEDLINE: the
    /// TA tag).
    pub iso_abbreviation: Option<String>,
    /// The journal's ISSN, print or electronic, as given first.
    pub issn: Option<String>,
    /// Journal volume.
    pub volume: Option<String>,
    /// Journal issue.
    pub issue: Option<String>,
    /// Pages, e.g. "113-25" (MedlinePgn, else StartPage-EndPage).
    pub pages: Option<String>,
    /// An electronic article's number (`ELocationID EIdType="pii"`, e.g. "e0212345"), where
    /// the record has no pages and the identifier reads as an article number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_number: Option<String>,
    /// Publication year (from PubDate/Year or the start of a MedlineDate).
    pub year: Option<i32>,
    /// Publication date as written, e.g. "2009 Jun 1" or "1998 Dec-1999 Jan".
    pub pub_date: Option<String>,
    /// DOI of the article.
    pub doi: Option<String>,
    /// PubMed Central id with its PMC prefix.
    pub pmcid: Option<String>,
    /// MeSH headings.
    pub mesh: Vec<MeshHeading>,
    /// Author or indexer keywords.
    pub keywords: Vec<Keyword>,
    /// Publication types, e.g. "Journal Article", "Review".
    pub publication_types: Vec<String>,
    /// Language codes, e.g. "eng".
    pub language: Vec<String>,
    /// Links to comments, errata, retractions and other related publications (not the
    /// reference list).
    pub corrections: Vec<Correction>,
}

/// One `AbstractText` of a (possibly structured) abstract.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct AbstractSection {
    /// The label printed before the section, e.g. "OBJECTIVE".
    pub label: Option<String>,
    /// NLM's normalised category, e.g. "OBJECTIVE" for a label "AIMS".
    pub nlm_category: Option<String>,
    /// The section's text, flattened.
    pub text: String,
}

/// One author, a person or a collective.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Author {
    /// Family name.
    pub last_name: Option<String>,
    /// Given names.
    pub fore_name: Option<String>,
    /// Initials of the given names.
    pub initials: Option<String>,
    /// Suffix such as "Jr".
    pub suffix: Option<String>,
    /// Group name when the author is a consortium.
    pub collective_name: Option<String>,
    /// Affiliations in the order given.
    pub affiliations: Vec<String>,
    /// ORCID in the bare form 0000-0000-0000-0000.
    pub orcid: Option<String>,
}

/// One MeSH heading: a descriptor and its qualifiers.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MeshHeading {
    /// Descriptor name, e.g. "Humans".
    pub descriptor: String,
    /// Descriptor id, e.g. "D006801" (absent in MEDLINE text).
    pub descriptor_ui: Option<String>,
    /// Whether the descriptor itself is a major topic.
    pub major: bool,
    /// Subheadings.
    pub qualifiers: Vec<MeshQualifier>,
}

/// One MeSH qualifier (subheading).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MeshQualifier {
    /// Qualifier name, e.g. "methods".
    pub name: String,
    /// Qualifier id, e.g. "Q000379" (absent in MEDLINE text).
    pub ui: Option<String>,
    /// Whether descriptor/qualifier is a major topic.
    pub major: bool,
}

/// One keyword.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Keyword {
    /// The keyword text.
    pub keyword: String,
    /// Whether it is marked as a major topic.
    pub major: bool,
}

/// Identifiers seen while reading, resolved by priority at the end.
#[derive(Default)]
struct Ids {
    doi: Option<String>,
    elocation_doi: Option<String>,
    elocation_pii: Option<String>,
    medline_ta: Option<String>,
    pmc: Option<String>,
}

impl Ids {
    fn apply(self, rec: &mut PubmedArticle) {
        rec.doi = self.doi.or(self.elocation_doi);
        if rec.iso_abbreviation.is_none() {
            rec.iso_abbreviation = self.medline_ta;
        }
        if rec.pages.is_none() {
            rec.article_number = self.elocation_pii.filter(|p| article_number(p));
        }
        rec.pmcid = self.pmc.as_deref().and_then(pmcid);
        rec.abstract_text = join_abstract(&rec.abstract_sections);
        rec.integrity = Integrity::of(&rec.corrections, &rec.publication_types);
    }
}

/// Parses an `efetch db=pubmed retmode=xml` body into citation records.
///
/// Names are matched as borrowed `&str`, flags are compared on the raw attribute bytes, and
/// text is collapsed while it is copied, so the only allocations are the strings the records
/// keep. Each element is read only where the DTD puts it that matters: the article's `PMID`
/// is the one directly under `MedlineCitation`, not the ones in comments and corrections;
/// its DOI is the one in `PubmedData/ArticleIdList`, not those of the works it cites (with
/// the `ELocationID` DOI as fallback).
pub fn parse_pubmed(bytes: &[u8]) -> Result<Vec<PubmedArticle>, ParseError> {
    parse(bytes).map_err(|e| truncation(e, bytes, WHAT))
}

fn parse(bytes: &[u8]) -> Result<Vec<PubmedArticle>, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let top = root(
        &mut x,
        &["PubmedArticleSet", "PubmedArticle", "PubmedBookArticle"],
        WHAT,
    )?;
    let mut out = Vec::new();
    match read::local(&top) {
        "PubmedArticle" => out.push(article(&mut x)?),
        "PubmedBookArticle" => out.push(book::book(&mut x)?),
        _ => children(&mut x, |x, _, name| {
            match name {
                "PubmedArticle" => out.push(article(x)?),
                "PubmedBookArticle" => out.push(book::book(x)?),
                _ => {}
            }
            Ok(())
        })?,
    }
    // Anything after the root is a second document or garbage; reading on
    // makes the reader report truncation or malformed trailing bytes.
    loop {
        match x.event()? {
            Event::Eof => return Ok(out),
            Event::Start(_) => x.skip()?,
            _ => {}
        }
    }
}

fn article(x: &mut Xml<'_>) -> Result<PubmedArticle, ParseError> {
    let mut rec = PubmedArticle::default();
    let mut ids = Ids::default();
    children(x, |x, _, name| {
        match name {
            "MedlineCitation" => citation(x, &mut rec, &mut ids)?,
            "PubmedData" => children(x, |x, _, name| {
                if name == "ArticleIdList" {
                    article_ids(x, &mut ids)?;
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    ids.apply(&mut rec);
    Ok(rec)
}

fn citation(x: &mut Xml<'_>, rec: &mut PubmedArticle, ids: &mut Ids) -> Result<(), ParseError> {
    children(x, |x, _, name| {
        match name {
            "PMID" => rec.pmid = text(x)?,
            "Article" => article_body(x, rec, ids)?,
            "MedlineJournalInfo" => children(x, |x, _, name| {
                if name == "MedlineTA" {
                    ids.medline_ta = opt_text(x)?;
                }
                Ok(())
            })?,
            "MeshHeadingList" => mesh_list(x, &mut rec.mesh)?,
            "KeywordList" => keywords(x, &mut rec.keywords)?,
            "CommentsCorrectionsList" => comments_corrections(x, &mut rec.corrections)?,
            _ => {}
        }
        Ok(())
    })
}

/// `CommentsCorrectionsList`: every link but `Cites` (older records list their references
/// there, hundreds of them, which are not what a record is read for).
fn comments_corrections(x: &mut Xml<'_>, out: &mut Vec<Correction>) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        if name != "CommentsCorrections" {
            return Ok(());
        }
        let ref_type = attr_raw(s, "RefType")
            .map(|r| r.into_owned())
            .unwrap_or_default();
        if ref_type == "Cites" {
            return Ok(());
        }
        let mut c = Correction {
            ref_type,
            ..Correction::default()
        };
        children(x, |x, _, name| {
            match name {
                "RefSource" => c.ref_source = text(x)?,
                "PMID" => c.pmid = opt_text(x)?,
                "Note" => c.note = opt_text(x)?,
                _ => {}
            }
            Ok(())
        })?;
        out.push(c);
        Ok(())
    })
}

fn article_body(x: &mut Xml<'_>, rec: &mut PubmedArticle, ids: &mut Ids) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        match name {
            "Journal" => journal(x, rec)?,
            "ArticleTitle" => (rec.title, rec.title_markup) = text_and_markup(x)?,
            "Pagination" => rec.pages = pagination(x)?,
            "ELocationID" if attr_is(s, "EIdType", "doi") && ids.elocation_doi.is_none() => {
                ids.elocation_doi = opt_text(x)?
            }
            "ELocationID" if attr_is(s, "EIdType", "pii") && ids.elocation_pii.is_none() => {
                ids.elocation_pii = opt_text(x)?
            }
            "Abstract" => abstract_sections(x, &mut rec.abstract_sections)?,
            "AuthorList" if !attr_is(s, "Type", "editors") => authors(x, &mut rec.authors)?,
            "Language" => rec.language.extend(opt_text(x)?),
            "PublicationTypeList" => children(x, |x, _, name| {
                if name == "PublicationType" {
                    rec.publication_types.extend(opt_text(x)?);
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })
}

fn journal(x: &mut Xml<'_>, rec: &mut PubmedArticle) -> Result<(), ParseError> {
    children(x, |x, _, name| {
        match name {
            "ISSN" if rec.issn.is_none() => rec.issn = opt_text(x)?,
            "Title" => rec.journal = opt_text(x)?,
            "ISOAbbreviation" => rec.iso_abbreviation = opt_text(x)?,
            "JournalIssue" => children(x, |x, _, name| {
                match name {
                    "Volume" => rec.volume = opt_text(x)?,
                    "Issue" => rec.issue = opt_text(x)?,
                    "PubDate" => (rec.year, rec.pub_date) = pub_date(x)?,
                    _ => {}
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })
}

/// A `PubDate`: its year and its text ("2009 Jun 1", "1990 Spring", or the MedlineDate).
fn pub_date(x: &mut Xml<'_>) -> Result<(Option<i32>, Option<String>), ParseError> {
    let mut parts: Vec<String> = Vec::with_capacity(3);
    let mut year = None;
    let mut medline_date = None;
    children(x, |x, _, name| {
        match name {
            "Year" => {
                let y = text(x)?;
                year = y.parse().ok();
                parts.insert(0, y);
            }
            "Month" => parts.extend(opt_text(x)?.map(month_name)),
            "Day" | "Season" => parts.extend(opt_text(x)?),
            "MedlineDate" => medline_date = opt_text(x)?,
            _ => {}
        }
        Ok(())
    })?;
    if let Some(d) = medline_date {
        return Ok((year.or_else(|| first_year(&d)), Some(d)));
    }
    parts.retain(|p| !p.is_empty());
    Ok((year, (!parts.is_empty()).then(|| parts.join(" "))))
}

fn pagination(x: &mut Xml<'_>) -> Result<Option<String>, ParseError> {
    let (mut medline, mut start, mut end) = (None, None, None);
    children(x, |x, _, name| {
        match name {
            "MedlinePgn" => medline = opt_text(x)?,
            "StartPage" => start = opt_text(x)?,
            "EndPage" => end = opt_text(x)?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(medline.or(match (start, end) {
        (Some(s), Some(e)) => Some(format!("{s}-{e}")),
        (s, _) => s,
    }))
}

/// Whether a publisher item identifier reads as an article number ("e0212345", "1034",
/// "eabc1234") rather than a publisher's internal PII ("S0140-6736(20)30183-5").
fn article_number(pii: &str) -> bool {
    let p = pii.trim();
    let elsevier = p.len() > 5 && p.starts_with('S') && p[1..5].bytes().all(|b| b.is_ascii_digit());
    !p.is_empty()
        && p.len() <= 12
        && !elsevier
        && p.bytes().any(|b| b.is_ascii_digit())
        && p.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
}

fn abstract_sections(x: &mut Xml<'_>, out: &mut Vec<AbstractSection>) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        if name == "AbstractText" {
            let label = attr_raw(s, "Label").map(|l| crate::xml::collapse_whitespace(&l));
            let nlm_category = attr_raw(s, "NlmCategory").map(|c| c.into_owned());
            out.push(AbstractSection {
                label: label.filter(|l| !l.is_empty()),
                nlm_category,
                text: text(x)?,
            });
        }
        Ok(())
    })
}

/// The abstract as one string, "LABEL: text" per labelled section.
pub(crate) fn join_abstract(sections: &[AbstractSection]) -> Option<String> {
    let mut out = String::new();
    for s in sections.iter().filter(|s| !s.text.is_empty()) {
        if !out.is_empty() {
            out.push('\n');
        }
        if let Some(label) = &s.label {
            out.push_str(label);
            out.push_str(": ");
        }
        out.push_str(&s.text);
    }
    (!out.is_empty()).then_some(out)
}

fn authors(x: &mut Xml<'_>, out: &mut Vec<Author>) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        // ValidYN="N" marks a misspelt name NLM kept next to the corrected one.
        if name == "Author" && !attr_is(s, "ValidYN", "N") {
            out.push(author(x)?);
        }
        Ok(())
    })
}

fn author(x: &mut Xml<'_>) -> Result<Author, ParseError> {
    let mut a = Author::default();
    children(x, |x, s, name| {
        match name {
            "LastName" => a.last_name = opt_text(x)?,
            "ForeName" | "FirstName" => a.fore_name = opt_text(x)?,
            "Initials" => a.initials = opt_text(x)?,
            "Suffix" => a.suffix = opt_text(x)?,
            "CollectiveName" => a.collective_name = opt_text(x)?,
            "Identifier" if attr_is(s, "Source", "ORCID") => {
                a.orcid = a.orcid.take().or(normalize_orcid(&text(x)?))
            }
            "Affiliation" => a.affiliations.extend(opt_text(x)?),
            "AffiliationInfo" => children(x, |x, _, name| {
                if name == "Affiliation" {
                    a.affiliations.extend(opt_text(x)?);
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(a)
}

fn mesh_list(x: &mut Xml<'_>, out: &mut Vec<MeshHeading>) -> Result<(), ParseError> {
    children(x, |x, _, name| {
        if name != "MeshHeading" {
            return Ok(());
        }
        let mut h = MeshHeading::default();
        children(x, |x, s, name| {
            let ui = || attr_raw(s, "UI").map(|u| u.into_owned());
            let major = attr_is(s, "MajorTopicYN", "Y");
            match name {
                "DescriptorName" => {
                    h.descriptor_ui = ui();
                    h.major = major;
                    h.descriptor = text(x)?;
                }
                "QualifierName" => h.qualifiers.push(MeshQualifier {
                    ui: ui(),
                    major,
                    name: text(x)?,
                }),
                _ => {}
            }
            Ok(())
        })?;
        out.push(h);
        Ok(())
    })
}

fn keywords(x: &mut Xml<'_>, out: &mut Vec<Keyword>) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        if name == "Keyword" {
            let major = attr_is(s, "MajorTopicYN", "Y");
            if let Some(keyword) = opt_text(x)? {
                out.push(Keyword { keyword, major });
            }
        }
        Ok(())
    })
}

fn article_ids(x: &mut Xml<'_>, ids: &mut Ids) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        if name == "ArticleId" {
            let slot = match attr_raw(s, "IdType").as_deref() {
                Some("doi") => &mut ids.doi,
                Some("pmc") => &mut ids.pmc,
                _ => return Ok(()),
            };
            if slot.is_none() {
                *slot = opt_text(x)?;
            }
        }
        Ok(())
    })
}
