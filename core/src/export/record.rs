//! One bibliographic record as every export format reads it, assembled from the rows of the
//! `pubmed` or `pmc` layout: a staged dataset's rows (queried page by page) and a fetched
//! batch's rows (a bibliography of PMIDs) go through the same [`Assembler`].

pub use crate::export::date::{month_number, Issued};
use crate::staging::rows::SqlValue;
use crate::staging::schema::{Layout, Table};
use serde::{Deserialize, Serialize};

/// A journal article or a Bookshelf document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A journal article (PubMed's `article`, every PMC article).
    #[default]
    Article,
    /// A book or chapter from NCBI Bookshelf (PubMed's `book`).
    Book,
}

/// One author: a person (family and given names) or a collective.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Author {
    /// Family name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// Given names as PubMed writes them ("Jane A").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given: Option<String>,
    /// Initials ("JA").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initials: Option<String>,
    /// "Jr", "3rd".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suffix: Option<String>,
    /// A group author's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collective: Option<String>,
    /// ORCID, bare.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orcid: Option<String>,
    /// Affiliations in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub affiliations: Vec<String>,
}

impl Author {
    /// "Smith JA" (MEDLINE's AU), or the collective's name.
    pub fn short(&self) -> String {
        match (&self.family, &self.collective) {
            (Some(f), _) => match self.initials.as_deref().filter(|i| !i.is_empty()) {
                Some(i) => format!("{f} {i}"),
                None => f.clone(),
            },
            (None, Some(c)) => c.clone(),
            (None, None) => String::new(),
        }
    }

    /// "Smith, Jane A" (RIS, MEDLINE's FAU), or the collective's name.
    pub fn full(&self) -> String {
        match (&self.family, &self.collective) {
            (Some(f), _) => match self.given_or_initials() {
                Some(g) => format!("{f}, {g}"),
                None => f.clone(),
            },
            (None, Some(c)) => c.clone(),
            (None, None) => String::new(),
        }
    }

    /// The given names, else the initials spaced out ("J A"), for formats that want a given name.
    pub fn given_or_initials(&self) -> Option<String> {
        if let Some(g) = self.given.as_deref().filter(|g| !g.trim().is_empty()) {
            return Some(g.trim().to_string());
        }
        let i = self.initials.as_deref()?.trim();
        (!i.is_empty()).then(|| i.chars().map(String::from).collect::<Vec<_>>().join(" "))
    }
}

/// One MeSH heading with its qualifiers.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Mesh {
    /// Descriptor name.
    pub descriptor: String,
    /// Whether the heading (without a qualifier) is a major topic.
    pub major: bool,
    /// Qualifiers, each with whether the pair is a major topic.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub qualifiers: Vec<Qualifier>,
}

/// A MeSH qualifier (subheading) of a heading.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Qualifier {
    /// Its name, e.g. "drug therapy".
    pub name: String,
    /// Whether the descriptor/qualifier pair is a major topic.
    pub major: bool,
}

impl Mesh {
    /// MEDLINE's MH value: "Asthma/*drug therapy/genetics", "*Asthma".
    pub fn medline(&self) -> String {
        let star = |major: bool| if major { "*" } else { "" };
        let mut s = if self.qualifiers.is_empty() {
            format!("{}{}", star(self.major), self.descriptor)
        } else {
            self.descriptor.clone()
        };
        for q in &self.qualifiers {
            s.push('/');
            s.push_str(star(q.major));
            s.push_str(&q.name);
        }
        s
    }
}

/// A citation as the export formats read it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Record {
    /// The record's key in its layout: the PMID (`pubmed`) or the PMCID (`pmc`).
    #[serde(skip)]
    pub key: String,
    /// PubMed id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmid: Option<i64>,
    /// PubMed Central id, "PMC…".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmcid: Option<String>,
    /// DOI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// Article or book.
    pub kind: Kind,
    /// Title as plain text.
    pub title: String,
    /// The title with `<i>`, `<b>`, `<sup>`, `<sub>` kept (CSL JSON's rich text), where it
    /// has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title_markup: Option<String>,
    /// Authors in order.
    pub authors: Vec<Author>,
    /// Full journal title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    /// ISO abbreviation of the journal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal_abbrev: Option<String>,
    /// ISSN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issn: Option<String>,
    /// Volume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// Issue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
    /// Pages as PubMed writes them ("663-75").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<String>,
    /// An electronic article's number, where it has no pages ("e0212345").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_number: Option<String>,
    /// Publication year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i64>,
    /// Publication date as printed ("2019 Aug 26", "2021 Oct-Dec").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pub_date: Option<String>,
    /// Abstract; structured ones as "LABEL: text" lines.
    #[serde(rename = "abstract", skip_serializing_if = "Option::is_none")]
    pub abstract_text: Option<String>,
    /// Language codes ("eng").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub language: Vec<String>,
    /// Author and indexer keywords.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// MeSH headings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mesh: Vec<Mesh>,
    /// Publication types ("Journal Article", "Retracted Publication").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub publication_types: Vec<String>,
    /// Research-integrity flags, most serious first ("retracted", "expression_of_concern",
    /// "corrected", …; the `integrity` column of the pubmed layout's `article`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub integrity: Vec<String>,
    /// NLM's links from the record to notices about it (retraction, erratum, expression of
    /// concern, comment…; the `correction` table).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<Correction>,
    /// A citation network's metrics of the paper (the `metrics` table), where it has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metrics: Option<crate::export::metrics::Metrics>,
}

/// One link NLM made from a record to another publication (CommentsCorrections).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Correction {
    /// NLM's RefType, e.g. "RetractionIn", "ErratumIn".
    pub ref_type: String,
    /// The linked publication as NLM cites it.
    pub ref_source: String,
    /// Its PMID, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmid: Option<i64>,
}

/// The publication type PubMed gives an article that was retracted (MeSH D016441).
pub const RETRACTED: &str = "Retracted Publication";

impl Record {
    /// Month and day of publication read from the printed date ("2019 Aug 26" → (8, 26));
    /// none for seasons and ranges ("2021 Oct-Dec", "2019 Spring").
    pub fn month_day(&self) -> (Option<u32>, Option<u32>) {
        let Some(date) = self.pub_date.as_deref() else {
            return (None, None);
        };
        let mut parts = date.split_whitespace();
        let _year = parts.next();
        let Some(month) = parts.next().and_then(month_number) else {
            return (None, None);
        };
        let day = parts
            .next()
            .and_then(|d| d.parse::<u32>().ok())
            .filter(|d| (1..=31).contains(d));
        (Some(month), day)
    }

    /// Whether PubMed marks the record retracted (a retraction notice linked, or the
    /// publication type).
    pub fn retracted(&self) -> bool {
        self.integrity.iter().any(|f| f == "retracted")
            || self.publication_types.iter().any(|t| t == RETRACTED)
    }

    /// What the record's links and publication types say about its integrity (the same
    /// reading `entrez_query` gives every PubMed record).
    pub fn integrity(&self) -> crate::parse::pubmed::integrity::Integrity {
        let links: Vec<crate::parse::pubmed::integrity::Correction> = self
            .corrections
            .iter()
            .map(|c| crate::parse::pubmed::integrity::Correction {
                ref_type: c.ref_type.clone(),
                ref_source: c.ref_source.clone(),
                pmid: c.pmid.map(|p| p.to_string()),
                note: None,
            })
            .collect();
        crate::parse::pubmed::integrity::Integrity::of(&links, &self.publication_types)
    }

    /// PubMed's page for the record, where it has a PMID.
    pub fn pubmed_url(&self) -> Option<String> {
        self.pmid
            .map(|p| format!("https://pubmed.ncbi.nlm.nih.gov/{p}/"))
    }

    /// The pages with every range written out in full ("1203-10, 1215" → "1203-1210, 1215"),
    /// as CSL's `page` carries them.
    pub fn full_pages(&self) -> Option<String> {
        let pages = self.pages.as_deref()?.trim();
        if pages.is_empty() {
            return None;
        }
        let ranges: Vec<String> = pages
            .split(',')
            .map(|range| match range.trim().split_once('-') {
                Some((a, b)) => format!("{}-{}", a.trim(), expand_end_page(a.trim(), b.trim())),
                None => range.trim().to_string(),
            })
            .collect();
        Some(ranges.join(", "))
    }

    /// The publication date as CSL carries it.
    pub fn issued(&self) -> Option<Issued> {
        Issued::of(self.pub_date.as_deref(), self.year)
    }

    /// First and last page, the last written out ("663-75" → ("663", Some("675"))).
    pub fn page_span(&self) -> Option<(String, Option<String>)> {
        let pages = self.pages.as_deref()?.trim();
        if pages.is_empty() {
            return None;
        }
        // Only the first range of a list ("12-4, 18").
        let first = pages.split([',', ';']).next().unwrap_or(pages).trim();
        match first.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (a.trim(), b.trim());
                Some((a.to_string(), Some(expand_end_page(a, b))))
            }
            None => Some((first.to_string(), None)),
        }
    }
}

/// The end page with the digits NLM leaves out put back: ("663", "75") → "675". An end that
/// is not shorter digits than the start (or has letters) is kept as written.
pub fn expand_end_page(start: &str, end: &str) -> String {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if digits(start) && digits(end) && end.len() < start.len() {
        let mut full = start[..start.len() - end.len()].to_string();
        full.push_str(end);
        // "98-102" style ends are already whole; only a shorter end borrows digits.
        return full;
    }
    // A common prefix of letters ("e123-e125", "S12-4"): expand the digits after it.
    let split = |s: &str| {
        let at = s.find(|c: char| c.is_ascii_digit()).unwrap_or(s.len());
        (s[..at].to_string(), s[at..].to_string())
    };
    let (sp, sd) = split(start);
    let (ep, ed) = split(end);
    if !sp.is_empty() && digits(&sd) && digits(&ed) && (ep.is_empty() || ep == sp) {
        let whole = if ed.len() < sd.len() {
            format!("{}{ed}", &sd[..sd.len() - ed.len()])
        } else {
            ed
        };
        return format!("{sp}{whole}");
    }
    end.to_string()
}

/// Rows of one table, in its layout's column order, from a staged dataset or a batch.
pub struct TableRows<'a> {
    /// The layout table.
    pub table: &'static Table,
    /// Values row-major, `table.columns.len()` per row.
    pub rows: Vec<&'a [SqlValue]>,
}

/// Builds records from a layout's tables, one record per row of its primary table.
pub struct Assembler {
    layout: &'static Layout,
}

fn text(v: &SqlValue) -> Option<String> {
    match v {
        SqlValue::Text(s) if !s.trim().is_empty() => Some(s.clone()),
        SqlValue::Integer(n) => Some(n.to_string()),
        SqlValue::Real(f) => Some(f.to_string()),
        _ => None,
    }
}

fn int(v: &SqlValue) -> Option<i64> {
    match v {
        SqlValue::Integer(n) => Some(*n),
        SqlValue::Text(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn key_of(v: &SqlValue) -> String {
    match v {
        SqlValue::Integer(n) => n.to_string(),
        SqlValue::Text(s) => s.clone(),
        _ => String::new(),
    }
}

impl Assembler {
    /// An assembler for `layout`; `None` unless it is `pubmed`, `pmc` or `citation_network`.
    pub fn for_layout(layout: &'static Layout) -> Option<Assembler> {
        matches!(layout.name, "pubmed" | "pmc" | "citation_network").then_some(Assembler { layout })
    }

    /// The layout.
    pub fn layout(&self) -> &'static Layout {
        self.layout
    }

    /// The key column of the primary table.
    pub fn key_column(&self) -> &'static str {
        self.layout.tables[0].primary_key[0]
    }

    /// Records, in the order of `keys`, from the rows of each table (tables not given are
    /// left empty). Child rows must come in key, then position, order.
    pub fn assemble(&self, keys: &[String], tables: &[TableRows<'_>]) -> Vec<Record> {
        let mut by_key: std::collections::HashMap<String, Record> =
            std::collections::HashMap::with_capacity(keys.len());
        // A citation network's papers are PubMed records.
        let pubmed = self.layout.name != "pmc";
        for t in tables {
            let col = |name: &str| t.table.columns.iter().position(|c| c.name == name);
            let get = |row: &[SqlValue], name: &str| col(name).map(|i| row[i].clone());
            let s = |row: &[SqlValue], name: &str| get(row, name).as_ref().and_then(text);
            let n = |row: &[SqlValue], name: &str| get(row, name).as_ref().and_then(int);
            let key_index = col(self.key_column()).unwrap_or(0);
            for row in &t.rows {
                let key = key_of(&row[key_index]);
                let record = by_key.entry(key.clone()).or_insert_with(|| Record {
                    key,
                    ..Record::default()
                });
                match t.table.name {
                    "article" => {
                        record.title = s(row, "title").unwrap_or_default();
                        record.pmid = n(row, "pmid");
                        record.pmcid = s(row, "pmcid");
                        record.doi = s(row, "doi");
                        record.kind = match s(row, "kind").as_deref() {
                            Some("book") => Kind::Book,
                            _ => Kind::Article,
                        };
                        record.abstract_text = s(row, "abstract");
                        record.journal = s(row, "journal");
                        record.journal_abbrev = s(row, "iso_abbrev");
                        record.issn = s(row, "issn");
                        record.volume = s(row, "volume");
                        record.issue = s(row, "issue");
                        record.pages = if pubmed { s(row, "pages") } else { None };
                        record.article_number = s(row, "article_number");
                        record.title_markup = s(row, "title_markup");
                        record.year = n(row, "year");
                        record.pub_date = s(row, "pub_date");
                        record.language = s(row, "language")
                            .map(|l| l.split(';').map(|x| x.trim().to_string()).collect())
                            .unwrap_or_default();
                        record.integrity = s(row, "integrity")
                            .map(|l| {
                                l.split(';')
                                    .map(|x| x.trim().to_string())
                                    .filter(|x| !x.is_empty())
                                    .collect()
                            })
                            .unwrap_or_default();
                    }
                    "author" => record.authors.push(Author {
                        family: s(row, "last_name"),
                        given: s(row, "fore_name"),
                        initials: s(row, "initials"),
                        suffix: s(row, "suffix"),
                        collective: s(row, "collective_name"),
                        orcid: s(row, "orcid"),
                        affiliations: Vec::new(),
                    }),
                    "affiliation" => {
                        let at = n(row, "author_position").unwrap_or(0);
                        if let Some(a) = usize::try_from(at)
                            .ok()
                            .and_then(|i| i.checked_sub(1))
                            .and_then(|i| record.authors.get_mut(i))
                        {
                            a.affiliations.extend(s(row, "affiliation"));
                        }
                    }
                    "mesh" => {
                        let major = n(row, "major") == Some(1);
                        let descriptor = s(row, "descriptor").unwrap_or_default();
                        let qualifier = s(row, "qualifier");
                        // Rows of one heading are adjacent (key, position, qualifier order).
                        let same = record
                            .mesh
                            .last()
                            .is_some_and(|m| m.descriptor == descriptor)
                            && n(row, "qualifier_position").unwrap_or(0) > 1;
                        if !same {
                            record.mesh.push(Mesh {
                                descriptor,
                                major: major && qualifier.is_none(),
                                qualifiers: Vec::new(),
                            });
                        }
                        if let (Some(q), Some(m)) = (qualifier, record.mesh.last_mut()) {
                            m.qualifiers.push(Qualifier { name: q, major });
                        }
                    }
                    "keyword" => record.keywords.extend(s(row, "keyword")),
                    "publication_type" => {
                        record.publication_types.extend(s(row, "publication_type"))
                    }
                    "correction" => record.corrections.push(Correction {
                        ref_type: s(row, "ref_type").unwrap_or_default(),
                        ref_source: s(row, "ref_source").unwrap_or_default(),
                        pmid: n(row, "ref_pmid"),
                    }),
                    "metrics" => {
                        record.metrics = Some(crate::export::metrics::Metrics::of(|c| get(row, c)))
                    }
                    _ => {}
                }
            }
        }
        keys.iter().filter_map(|k| by_key.remove(k)).collect()
    }
}

/// The records of a PubMed XML reply (`efetch db=pubmed retmode=xml`) read as a staged
/// dataset's are: parsed, made the `pubmed` layout's rows, assembled; in the order of
/// `ids`, or in the reply's order when `ids` is empty.
pub fn from_pubmed_xml(
    body: &[u8],
    ids: &[String],
) -> Result<Vec<Record>, crate::parse::error::ParseError> {
    let articles = crate::parse::pubmed::parse_pubmed(body)?;
    let order: Vec<String> = if ids.is_empty() {
        articles.iter().map(|a| a.pmid.trim().to_string()).collect()
    } else {
        ids.to_vec()
    };
    let batch = crate::staging::rows::pubmed(articles);
    let assembler = Assembler {
        layout: batch.layout,
    };
    let tables: Vec<TableRows<'_>> = batch
        .tables
        .iter()
        .map(|t| TableRows {
            table: t.table,
            rows: (0..t.len()).map(|i| t.row(i)).collect(),
        })
        .collect();
    Ok(assembler.assemble(&order, &tables))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elided_end_pages_are_written_out() {
        assert_eq!(expand_end_page("663", "75"), "675");
        assert_eq!(expand_end_page("98", "102"), "102");
        assert_eq!(expand_end_page("1234", "9"), "1239");
        assert_eq!(expand_end_page("e123", "e125"), "e125");
        assert_eq!(expand_end_page("S12", "4"), "S14");
        assert_eq!(expand_end_page("12a", "13b"), "13b");
        assert_eq!(month_number("Aug"), Some(8));
        assert_eq!(month_number("august"), Some(8));
        assert_eq!(month_number("Oct-Dec"), None);
        assert_eq!(month_number("Spring"), None);
        let r = Record {
            pub_date: Some("2019 Aug 26".into()),
            pages: Some("663-75".into()),
            ..Record::default()
        };
        assert_eq!(r.month_day(), (Some(8), Some(26)));
        assert_eq!(r.page_span(), Some(("663".into(), Some("675".into()))));
    }

    #[test]
    fn pages_ranges_and_seasons_are_read_in_full() {
        let r = Record {
            pages: Some("1203-10, 1215-8".into()),
            ..Record::default()
        };
        assert_eq!(r.full_pages().as_deref(), Some("1203-1210, 1215-1218"));
    }

    #[test]
    fn authors_read_as_each_format_writes_them() {
        let a = Author {
            family: Some("Müller".into()),
            given: None,
            initials: Some("HP".into()),
            ..Author::default()
        };
        assert_eq!(a.short(), "Müller HP");
        assert_eq!(a.full(), "Müller, H P");
        let m = Mesh {
            descriptor: "Asthma".into(),
            major: false,
            qualifiers: vec![
                Qualifier {
                    name: "drug therapy".into(),
                    major: true,
                },
                Qualifier {
                    name: "genetics".into(),
                    major: false,
                },
            ],
        };
        assert_eq!(m.medline(), "Asthma/*drug therapy/genetics");
    }
}
