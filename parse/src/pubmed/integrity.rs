//! Whether a PubMed record was retracted, corrected or put under concern, from what NLM links
//! to it.
//!
//! NLM links a record to the notices about it with `CommentsCorrections` (PubMed XML: a
//! `RefType` such as `RetractionIn`, the notice's citation and often its PMID; MEDLINE text: a
//! tag such as `RIN`; ESummary: a `references` entry such as "Retraction in"), and marks a
//! retracted article and each notice with a publication type. [`Integrity::of`] reads both,
//! since a record can carry one without the other, into a few [`Flag`]s and the [`Notice`]s
//! behind them; [`Integrity::headline`] is the one line a reader sees first.

use serde::Serialize;
use serde_json::{Map, Value};

/// One `CommentsCorrections` link from a record to another publication (reference lists,
/// RefType `Cites`, are not kept).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Correction {
    /// NLM's RefType, e.g. "RetractionIn", "ErratumIn", "CommentOn".
    pub ref_type: String,
    /// The linked publication as NLM cites it, e.g. "Lancet. 2010 Feb 6;375(9713):445."
    pub ref_source: String,
    /// The linked publication's PMID, when it has one.
    pub pmid: Option<String>,
    /// NLM's note, e.g. "Whitely RJ [corrected to Whitley RJ]".
    pub note: Option<String>,
}

/// What a record's links and publication types say about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Flag {
    /// Retracted (wholly; a retraction and replacement too).
    Retracted,
    /// An expression of concern was published about it.
    ExpressionOfConcern,
    /// An erratum (or a partial retraction, an erratum since 2016) corrects it.
    Corrected,
    /// It is itself a retraction notice.
    RetractionNotice,
    /// It is itself an expression of concern.
    ConcernNotice,
    /// It is itself a published erratum.
    ErratumNotice,
    /// A later update of it exists.
    Updated,
    /// It was republished (corrected, or retracted and replaced).
    Republished,
}

impl Flag {
    /// The flag's name as it is serialized, e.g. "expression_of_concern".
    pub fn name(self) -> &'static str {
        match self {
            Flag::Retracted => "retracted",
            Flag::ExpressionOfConcern => "expression_of_concern",
            Flag::Corrected => "corrected",
            Flag::RetractionNotice => "retraction_notice",
            Flag::ConcernNotice => "concern_notice",
            Flag::ErratumNotice => "erratum_notice",
            Flag::Updated => "updated",
            Flag::Republished => "republished",
        }
    }

    /// The flag as a reader reads it, in capitals.
    pub fn label(self) -> &'static str {
        match self {
            Flag::Retracted => "RETRACTED",
            Flag::ExpressionOfConcern => "EXPRESSION OF CONCERN",
            Flag::Corrected => "CORRECTED",
            Flag::RetractionNotice => "RETRACTION NOTICE",
            Flag::ConcernNotice => "EXPRESSION OF CONCERN NOTICE",
            Flag::ErratumNotice => "ERRATUM NOTICE",
            Flag::Updated => "UPDATED",
            Flag::Republished => "REPUBLISHED",
        }
    }
}

/// One link that raises a flag: the notice (or, on a notice, the publication it is about).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// NLM's RefType, e.g. "RetractionIn".
    pub relation: String,
    /// The flag it raises.
    pub flag: Flag,
    /// The linked publication's PMID, when it has one.
    pub pmid: Option<String>,
    /// Its citation, without the DOI NLM appends ("Lancet. 2010 Feb 6;375(9713):445").
    pub citation: String,
}

/// What the flags were read from: a whole record, or only publication types (an ESummary
/// without its `references`), which cannot show errata or expressions of concern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The record's links and publication types.
    #[default]
    Record,
    /// Publication types only.
    PublicationTypes,
    /// Nothing: the source held neither links nor publication types, so the record may or
    /// may not be flagged.
    Unavailable,
}

/// A record's retractions, corrections and concerns, in brief.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Integrity {
    /// The line a flagged record leads with ([`Integrity::headline`]); None when unflagged.
    pub headline: Option<String>,
    /// Most serious first; empty for a record with none.
    pub flags: Vec<Flag>,
    /// The links behind the flags, most serious first.
    pub notices: Vec<Notice>,
    /// What the flags were read from.
    pub basis: Basis,
}

/// RefTypes that raise a flag, with it; other links (comments, reprints, datasets, the
/// newer side of an update or a republication) raise none.
const RAISES: &[(&str, Flag)] = &[
    ("RetractionIn", Flag::Retracted),
    ("RetractedandRepublishedIn", Flag::Retracted),
    ("ExpressionOfConcernIn", Flag::ExpressionOfConcern),
    ("ErratumIn", Flag::Corrected),
    ("CorrectedandRepublishedIn", Flag::Corrected),
    // MEDLINE's historic PRIN: partial retractions are errata since 2016.
    ("PartialRetractionIn", Flag::Corrected),
    ("RetractionOf", Flag::RetractionNotice),
    ("ExpressionOfConcernFor", Flag::ConcernNotice),
    ("ErratumFor", Flag::ErratumNotice),
    ("PartialRetractionOf", Flag::ErratumNotice),
    ("UpdateIn", Flag::Updated),
    ("RepublishedIn", Flag::Republished),
];

/// Publication types that raise a flag, by NLM's label; "Retraction Notice" is D016440's
/// label since 2024, "Retraction of Publication" its earlier one, found in older records.
const PUBLICATION_TYPES: &[(&str, Flag)] = &[
    ("Retracted Publication", Flag::Retracted),
    ("Retraction Notice", Flag::RetractionNotice),
    ("Retraction of Publication", Flag::RetractionNotice),
    ("Expression of Concern", Flag::ConcernNotice),
    ("Published Erratum", Flag::ErratumNotice),
];

/// MEDLINE tags of comments and corrections, with the RefType each stands for (the PubMed
/// Help's "PubMed format" table; PRIN/PROF are historic).
pub const MEDLINE_TAGS: &[(&str, &str)] = &[
    ("CIN", "CommentIn"),
    ("CON", "CommentOn"),
    ("EIN", "ErratumIn"),
    ("EFR", "ErratumFor"),
    ("CRI", "CorrectedandRepublishedIn"),
    ("CRF", "CorrectedandRepublishedFrom"),
    ("RIN", "RetractionIn"),
    ("ROF", "RetractionOf"),
    ("RRI", "RetractedandRepublishedIn"),
    ("RRF", "RetractedandRepublishedFrom"),
    ("ECI", "ExpressionOfConcernIn"),
    ("ECF", "ExpressionOfConcernFor"),
    ("RPI", "RepublishedIn"),
    ("RPF", "RepublishedFrom"),
    ("UIN", "UpdateIn"),
    ("UOF", "UpdateOf"),
    ("SPIN", "SummaryForPatientsIn"),
    ("ORI", "OriginalReportIn"),
    ("DDIN", "AssociatedDataset"),
    ("DRIN", "AssociatedPublication"),
    ("PRIN", "PartialRetractionIn"),
    ("PROF", "PartialRetractionOf"),
];

/// The RefType `label` names: a RefType itself ("RetractionIn") or ESummary's wording of it
/// ("Retraction in", "Expression of concern in"), compared without spaces or case.
pub fn ref_type_of(label: &str) -> Option<&'static str> {
    let squeezed: String = label
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    RAISES
        .iter()
        .map(|(r, _)| *r)
        .chain(MEDLINE_TAGS.iter().map(|(_, r)| *r))
        .chain(["ReprintIn", "ReprintOf", "Cites"])
        .find(|r| r.to_ascii_lowercase() == squeezed)
}

/// A MEDLINE comments-and-corrections line's value ("Lancet. 2010 Feb 6;375(9713):445. doi:
/// 10.1016/... PMID: 20137807") as a link of RefType `ref_type`.
pub fn medline_correction(ref_type: &str, value: &str) -> Correction {
    let value = value.trim();
    let (source, pmid) = match value.rfind("PMID:") {
        Some(at) => {
            let id = value[at + 5..].trim().trim_end_matches('.');
            let id = id
                .chars()
                .all(|c| c.is_ascii_digit())
                .then(|| id.to_string());
            (value[..at].trim(), id.filter(|i| !i.is_empty()))
        }
        None => (value, None),
    };
    Correction {
        ref_type: ref_type.to_string(),
        ref_source: source.to_string(),
        pmid,
        note: None,
    }
}

/// The strings of a list (or of a list of objects with one string member each).
fn strings(v: &Value) -> Vec<String> {
    let items: Vec<&Value> = match v {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    items
        .into_iter()
        .filter_map(|i| match i {
            Value::String(s) => Some(s.trim().to_string()),
            Value::Object(o) => o
                .values()
                .find_map(Value::as_str)
                .map(|s| s.trim().to_string()),
            _ => None,
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// One docsum `references` entry as a link: `reftype` in ESummary's wording, `pmid` a
/// number, or "" when there is none.
fn summary_link(entry: &Value) -> Option<Correction> {
    let field = |name: &str| {
        entry
            .as_object()?
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
    };
    let ref_type = ref_type_of(field("reftype")?.as_str()?)?;
    let pmid = match field("pmid") {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    };
    let note = field("note")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty());
    Some(Correction {
        ref_type: ref_type.to_string(),
        ref_source: field("refsource")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string(),
        pmid,
        note: note.map(String::from),
    })
}

/// A citation without the DOI NLM appends to it and without its final period.
fn citation(ref_source: &str) -> String {
    let cut = ref_source
        .find(" doi:")
        .or_else(|| ref_source.find(" DOI:"))
        .unwrap_or(ref_source.len());
    ref_source[..cut].trim().trim_end_matches('.').to_string()
}

impl Integrity {
    /// What `corrections` and `publication_types` say, read from a whole record.
    pub fn of(corrections: &[Correction], publication_types: &[String]) -> Integrity {
        let mut notices: Vec<Notice> = corrections
            .iter()
            .filter_map(|c| {
                let (relation, flag) = RAISES.iter().find(|(r, _)| *r == c.ref_type)?;
                Some(Notice {
                    relation: relation.to_string(),
                    flag: *flag,
                    pmid: c.pmid.clone(),
                    citation: citation(&c.ref_source),
                })
            })
            .collect();
        // Most serious first; within a flag, the latest notice (the highest PMID) first: a
        // record retracted in part and then whole leads with the whole retraction.
        notices.sort_by(|a, b| {
            a.flag.cmp(&b.flag).then_with(|| {
                let n = |x: &Notice| x.pmid.as_deref().and_then(|p| p.parse::<u64>().ok());
                n(b).cmp(&n(a))
            })
        });
        let mut flags: Vec<Flag> = notices.iter().map(|n| n.flag).collect();
        // A retraction and replacement also republished the article.
        if corrections
            .iter()
            .any(|c| c.ref_type == "RetractedandRepublishedIn")
        {
            flags.push(Flag::Republished);
        }
        flags.extend(publication_types.iter().filter_map(|t| {
            PUBLICATION_TYPES
                .iter()
                .find(|(label, _)| label.eq_ignore_ascii_case(t.trim()))
                .map(|(_, f)| *f)
        }));
        flags.sort();
        flags.dedup();
        Integrity {
            headline: None,
            flags,
            notices,
            basis: Basis::Record,
        }
        .with_headline()
    }

    /// What publication types alone say (an ESummary without `references`).
    pub fn of_publication_types(publication_types: &[String]) -> Integrity {
        Integrity {
            basis: Basis::PublicationTypes,
            ..Integrity::of(&[], publication_types)
        }
        .with_headline()
    }

    /// Nothing known: the source held neither links nor publication types.
    pub fn unavailable() -> Integrity {
        Integrity {
            basis: Basis::Unavailable,
            ..Integrity::default()
        }
    }

    /// What a PubMed document summary says: its `references` (the docsum form of comments
    /// and corrections, "Retraction in" and the like) with its publication types (`pubtype`,
    /// v1's `PubTypeList`); publication types alone when it has no `references`.
    pub fn of_summary(fields: &Map<String, Value>) -> Integrity {
        let get = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v)
        };
        let types: Vec<String> = get("pubtype")
            .or_else(|| get("PubTypeList"))
            .map(strings)
            .unwrap_or_default();
        match get("references").and_then(Value::as_array) {
            Some(list) => {
                let links: Vec<Correction> = list.iter().filter_map(summary_link).collect();
                Integrity::of(&links, &types)
            }
            None if get("pubtype").is_some() || get("PubTypeList").is_some() => {
                Integrity::of_publication_types(&types)
            }
            None => Integrity::unavailable(),
        }
    }

    fn with_headline(mut self) -> Integrity {
        self.headline = self.line();
        self
    }

    /// Whether the record is flagged as retracted.
    pub fn retracted(&self) -> bool {
        self.flags.contains(&Flag::Retracted)
    }

    /// The line a flagged record leads with, e.g. `RETRACTED: retraction notice PMID
    /// 20137807 (Lancet. 2010 Feb 6;375(9713):445)`; None for a record without flags.
    pub fn headline(&self) -> Option<String> {
        self.headline.clone()
    }

    fn line(&self) -> Option<String> {
        let first = *self.flags.first()?;
        let mut line = first.label().to_string();
        let about: Vec<String> = self
            .notices
            .iter()
            .filter(|n| n.flag == first)
            .map(|n| {
                let what = match n.flag {
                    Flag::Retracted => "retraction notice",
                    Flag::ExpressionOfConcern => "notice",
                    Flag::Corrected => "erratum",
                    Flag::RetractionNotice => "retracts",
                    Flag::ConcernNotice | Flag::ErratumNotice => "about",
                    Flag::Updated => "update",
                    Flag::Republished => "republished as",
                };
                match &n.pmid {
                    Some(p) => format!("{what} PMID {p} ({})", n.citation),
                    None => format!("{what} {}", n.citation),
                }
            })
            .collect();
        if !about.is_empty() {
            line.push_str(": ");
            line.push_str(&about.join("; "));
        }
        let others: Vec<&str> = self.flags[1..].iter().map(|f| f.label()).collect();
        if !others.is_empty() {
            line.push_str(&format!(" [also {}]", others.join(", ")));
        }
        if self.basis == Basis::PublicationTypes {
            line.push_str(" (from publication types only)");
        }
        Some(line)
    }
}

#[cfg(test)]
mod tests;
