//! MEDLINE tagged text (`efetch db=pubmed rettype=medline retmode=text`) to records.
//!
//! The text format is what many people save from PubMed and what some tools prefer because
//! it is small. Each line is a tag padded to four characters, a dash and the value (`TI  -
//! The Bio* toolkits`); a line starting with six spaces continues the previous value; a
//! blank line or a new `PMID` starts the next record. It maps onto the same
//! [`PubmedArticle`] record the XML parser produces, so callers handle one shape.

use crate::error::{ParseError, ParseErrorKind};
use crate::pubmed::integrity::{medline_correction, MEDLINE_TAGS};
use crate::pubmed::read::{first_year, normalize_orcid, pmcid};
use crate::pubmed::{
    join_abstract, AbstractSection, Author, Integrity, Keyword, MeshHeading, MeshQualifier,
    PubmedArticle,
};
use crate::xml::unexpected;

/// A citation read from MEDLINE text; the same shape as one read from PubMed XML.
pub type MedlineRecord = PubmedArticle;

const WHAT: &str = "MEDLINE text";

/// Parses MEDLINE tagged text into citation records.
///
/// What the text format does not carry is left empty: MeSH unique ids, abstract section
/// labels (the abstract is one unlabelled section), and the author an early-style record-level
/// `AD` belongs to (it is given to the first author, which is whom NLM recorded it for).
pub fn parse_medline(text: &str) -> Result<Vec<MedlineRecord>, ParseError> {
    let body = text.trim_start_matches('\u{feff}');
    check_is_medline(body)?;
    let mut records = Vec::new();
    let mut builder: Option<Builder> = None;
    let mut field: Option<(&str, String)> = None;
    for line in body.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            flush(&mut builder, &mut field, &mut records, None);
            continue;
        }
        if let Some((tag, value)) = split_tag(line) {
            let new_record = tag == "PMID";
            flush(&mut builder, &mut field, &mut records, Some(new_record));
            field = Some((tag, value.to_string()));
        } else if let Some((_, value)) = field.as_mut() {
            // A continuation line (six spaces) or a stray line: part of the value.
            let more = line.trim();
            if !value.is_empty() {
                value.push(' ');
            }
            value.push_str(more);
        }
    }
    flush(&mut builder, &mut field, &mut records, None);
    Ok(records)
}

/// Ends the pending field; `next_starts` says whether a record follows
/// (`Some(true)` for a new `PMID`, `None` at a blank line or the end).
fn flush(
    builder: &mut Option<Builder>,
    field: &mut Option<(&str, String)>,
    records: &mut Vec<MedlineRecord>,
    next_starts: Option<bool>,
) {
    if let Some((tag, value)) = field.take() {
        builder
            .get_or_insert_with(Builder::default)
            .apply(tag, value);
    }
    if next_starts != Some(false) {
        if let Some(b) = builder.take() {
            records.push(b.finish());
        }
    }
}

/// `TAG - value` split into its parts, or `None` for a continuation line.
fn split_tag(line: &str) -> Option<(&str, &str)> {
    let b = line.as_bytes();
    if b.len() < 5 || b[4] != b'-' || b[0] == b' ' {
        return None;
    }
    let tag = line[..4].trim_end();
    if tag.is_empty()
        || !tag
            .bytes()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return None;
    }
    Some((tag, line[5..].trim()))
}

/// Refuses a body that is not MEDLINE text, naming what it is instead.
fn check_is_medline(body: &str) -> Result<(), ParseError> {
    let Some(first) = body.lines().map(str::trim).find(|l| !l.is_empty()) else {
        return Err(unexpected(WHAT, "the body was empty").of_kind(ParseErrorKind::Empty));
    };
    if split_tag(first).is_some() {
        return Ok(());
    }
    let lower = first.to_ascii_lowercase();
    let what = if lower.starts_with("<!doctype html") || lower.starts_with("<html") {
        let head = body.get(..body.len().min(4096)).unwrap_or(body);
        let head_lower = head.to_ascii_lowercase();
        match head_lower.find("<title>").and_then(|i| {
            let rest = &head[i + 7..];
            rest.find('<').map(|j| rest[..j].trim().to_string())
        }) {
            Some(title) if !title.is_empty() => {
                format!("NCBI sent an HTML page titled \"{title}\"")
            }
            _ => "NCBI sent an HTML page".to_string(),
        }
    } else if first.starts_with('<') {
        "NCBI sent XML (ask for retmode=xml and the XML parser, or rettype=medline retmode=text)"
            .to_string()
    } else if first.starts_with('{') || first.starts_with('[') {
        "NCBI sent JSON".to_string()
    } else {
        let preview: String = first.chars().take(80).collect();
        format!("the first line is not a MEDLINE tag: {preview:?}")
    };
    Err(unexpected(
        WHAT,
        format!("{what} where MEDLINE text was expected"),
    ))
}

/// One record being assembled, with what the text spreads over several tags.
#[derive(Default)]
struct Builder {
    rec: PubmedArticle,
    /// The last author came from `FAU` and still waits for its `AU` line.
    full_name_open: bool,
    /// `AD` lines seen before any author (older records).
    orphan_affiliations: Vec<String>,
    aid_doi: Option<String>,
    lid_doi: Option<String>,
    abstract_text: Option<String>,
    book_title: Option<String>,
}

impl Builder {
    fn apply(&mut self, tag: &str, value: String) {
        let rec = &mut self.rec;
        match tag {
            "PMID" => rec.pmid = value,
            "TI" => rec.title = value,
            "BTI" => self.book_title = Some(value),
            "AB" => self.abstract_text = Some(value),
            "FAU" => {
                let (last, fore) = match value.split_once(',') {
                    Some((l, f)) => (l.trim().to_string(), non_empty(f.trim())),
                    None => (value.trim().to_string(), None),
                };
                rec.authors.push(Author {
                    last_name: Some(last),
                    fore_name: fore,
                    ..Author::default()
                });
                self.full_name_open = true;
            }
            "AU" => {
                let (last, initials) = match value.rsplit_once(' ') {
                    Some((l, i)) => (l.to_string(), non_empty(i)),
                    None => (value, None),
                };
                match rec.authors.last_mut() {
                    Some(a) if self.full_name_open => a.initials = initials,
                    _ => rec.authors.push(Author {
                        last_name: Some(last),
                        initials,
                        ..Author::default()
                    }),
                }
                self.full_name_open = false;
            }
            "CN" => {
                rec.authors.push(Author {
                    collective_name: Some(value),
                    ..Author::default()
                });
                self.full_name_open = false;
            }
            "AD" => match rec.authors.last_mut() {
                Some(a) => a.affiliations.push(value),
                None => self.orphan_affiliations.push(value),
            },
            "AUID" => {
                if let Some(a) = rec.authors.last_mut() {
                    if value.to_ascii_uppercase().starts_with("ORCID") {
                        a.orcid = normalize_orcid(&value);
                    }
                }
            }
            "DP" => {
                rec.year = first_year(&value);
                rec.pub_date = non_empty(&value);
            }
            "TA" => rec.iso_abbreviation = non_empty(&value),
            "JT" => rec.journal = non_empty(&value),
            "IS" if rec.issn.is_none() => {
                // "1467-5463 (Print)": the medium in brackets is not part of the number.
                rec.issn = non_empty(value.split(" (").next().unwrap_or_default())
            }
            "VI" => rec.volume = non_empty(&value),
            "IP" => rec.issue = non_empty(&value),
            "PG" => rec.pages = non_empty(&value),
            "AID" => take_doi(&value, &mut self.aid_doi),
            "LID" => take_doi(&value, &mut self.lid_doi),
            "PMC" => rec.pmcid = pmcid(&value),
            "MH" => rec.mesh.push(mesh(&value)),
            "OT" => {
                let major = value.starts_with('*');
                let keyword = value.trim_start_matches('*').trim().to_string();
                if !keyword.is_empty() {
                    rec.keywords.push(Keyword { keyword, major });
                }
            }
            "PT" => rec.publication_types.push(value),
            "LA" => rec.language.push(value),
            _ => {
                let linked = MEDLINE_TAGS.iter().find(|(t, _)| *t == tag);
                if let Some((_, ref_type)) = linked {
                    rec.corrections.push(medline_correction(ref_type, &value));
                }
            }
        }
    }

    fn finish(mut self) -> PubmedArticle {
        let mut rec = self.rec;
        if let Some(first) = rec.authors.first_mut() {
            let mut own = std::mem::take(&mut first.affiliations);
            first.affiliations = std::mem::take(&mut self.orphan_affiliations);
            first.affiliations.append(&mut own);
        }
        if rec.title.is_empty() {
            rec.title = self.book_title.unwrap_or_default();
        }
        rec.doi = self.aid_doi.or(self.lid_doi);
        if let Some(text) = self.abstract_text.filter(|t| !t.is_empty()) {
            rec.abstract_sections.push(AbstractSection {
                label: None,
                nlm_category: None,
                text,
            });
        }
        rec.abstract_text = join_abstract(&rec.abstract_sections);
        rec.integrity = Integrity::of(&rec.corrections, &rec.publication_types);
        rec
    }
}

fn non_empty(s: &str) -> Option<String> {
    let t = s.trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Keeps the first "10.1186/... [doi]" value.
fn take_doi(value: &str, slot: &mut Option<String>) {
    if slot.is_none() {
        if let Some(doi) = value.strip_suffix("[doi]") {
            *slot = non_empty(doi);
        }
    }
}

/// "Information Storage and Retrieval/*methods/*standards": '*' marks a major topic.
fn mesh(value: &str) -> MeshHeading {
    let mut parts = value.split('/');
    let descriptor = parts.next().unwrap_or_default().trim();
    MeshHeading {
        descriptor: descriptor.trim_start_matches('*').to_string(),
        descriptor_ui: None,
        major: descriptor.starts_with('*'),
        qualifiers: parts
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(|q| MeshQualifier {
                name: q.trim_start_matches('*').to_string(),
                ui: None,
                major: q.starts_with('*'),
            })
            .collect(),
    }
}
