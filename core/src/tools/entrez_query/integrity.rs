//! Retractions, errata and expressions of concern across one result's PubMed records.
//!
//! Each record carries its own `integrity` (`parse::pubmed::integrity`); a result that
//! holds several also says, in a warning and in `flagged`, how many are retracted, under
//! concern or corrected, and which, counting every record the reply held, also those a
//! budget left out of the result.

use crate::framework::ToolContext;
use crate::json;
use crate::parse;
use crate::parse::pubmed::integrity::{Basis, Flag, Integrity};
use crate::tools::entrez_query::call::{ReplyMode, Search};
use crate::tools::entrez_query::plan;
use serde_json::Value;

/// The clause that keeps a PubMed search's retracted articles.
pub const RETRACTED_CLAUSE: &str = "\"retracted publication\"[pt]";

/// The most retracted ids one check lists.
const MOST_LISTED: u64 = 100;

/// How many of a PubMed search's `count` matches are retracted, and which of the ids it
/// returned (`shown`): one more search, the same term `AND "retracted publication"[pt]`,
/// paced and cached like any. `flagged` and a warning for the result; a check that could
/// not be made says so in a warning and leaves the search's answer as it is.
pub async fn search_retractions(
    ctx: &ToolContext<'_>,
    call: &Search,
    shown: &[String],
    count: u64,
) -> (Option<Value>, Vec<String>) {
    let Some(term) = call.term.as_deref().filter(|t| !t.trim().is_empty()) else {
        return (None, Vec::new());
    };
    if count == 0 || term.to_ascii_lowercase().contains("retracted publication") {
        return (None, Vec::new());
    }
    let check = Search {
        term: Some(format!("({term}) AND {RETRACTED_CLAUSE}")),
        webenv: None,
        query_key: None,
        retstart: 0,
        retmax: MOST_LISTED,
        usehistory: false,
        check_retractions: false,
        rettype: None,
        sort: None,
        retmode: ReplyMode::Xml,
        ..call.clone()
    };
    let answer = async {
        let reply = ctx.entrez()?.send(&plan::search(&check)).await?;
        Ok::<_, crate::error::Error>(parse::esearch::parse_esearch_xml(&reply.body)?)
    }
    .await;
    let found = match answer {
        Ok(found) => found,
        Err(e) => {
            return (
                None,
                vec![format!(
                    "Whether any of the matches are retracted could not be checked ({}); fetch or summarize them to see each record's integrity.",
                    e.message
                )],
            )
        }
    };
    let among_shown: Vec<String> = shown
        .iter()
        .filter(|id| found.ids.contains(id))
        .cloned()
        .collect();
    let flagged = json!({
        "checked": count,
        "retracted_count": found.count,
        "retracted": among_shown,
    });
    let mut warnings = Vec::new();
    if found.count > 0 {
        let listed = if among_shown.is_empty() {
            "none of the ids returned here".to_string()
        } else {
            format!("of the ids returned here: {}", among_shown.join(", "))
        };
        warnings.push(format!(
            "{} of the {count} matches are RETRACTED publications ({listed}); search ({term}) AND {RETRACTED_CLAUSE} lists them all. A retracted paper is not evidence for what it reported.",
            found.count
        ));
    }
    (Some(flagged), warnings)
}

/// The PMIDs of one result's flagged records, by flag, and what the flags were read from.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Flagged {
    /// Records read.
    pub checked: usize,
    /// Retracted.
    pub retracted: Vec<String>,
    /// Under an expression of concern.
    pub expression_of_concern: Vec<String>,
    /// Corrected by an erratum.
    pub corrected: Vec<String>,
    /// Read from publication types only (summaries without links).
    pub types_only: usize,
    /// Read from nothing (summaries without links or publication types).
    pub unknown: usize,
}

impl Flagged {
    /// The flags of `records`, each given by its PMID and integrity.
    pub fn of<'a>(records: impl IntoIterator<Item = (&'a str, &'a Integrity)>) -> Flagged {
        let mut f = Flagged::default();
        for (pmid, i) in records {
            f.checked += 1;
            let has = |flag| i.flags.contains(&flag);
            if has(Flag::Retracted) {
                f.retracted.push(pmid.to_string());
            }
            if has(Flag::ExpressionOfConcern) {
                f.expression_of_concern.push(pmid.to_string());
            }
            if has(Flag::Corrected) {
                f.corrected.push(pmid.to_string());
            }
            match i.basis {
                Basis::Record => {}
                Basis::PublicationTypes => f.types_only += 1,
                Basis::Unavailable => f.unknown += 1,
            }
        }
        f
    }

    /// `flagged` in structuredContent.
    pub fn to_value(&self) -> Value {
        json!({
            "checked": self.checked,
            "retracted": self.retracted,
            "expression_of_concern": self.expression_of_concern,
            "corrected": self.corrected,
        })
    }

    /// The warnings a result carries: what is flagged, and what could not be checked.
    /// `noun` names the records ("records", "summaries").
    pub fn warnings(&self, noun: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut parts = Vec::new();
        let ids = |list: &[String]| {
            let shown: Vec<&str> = list.iter().take(20).map(String::as_str).collect();
            let more = list.len().saturating_sub(shown.len());
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            let word = if list.len() == 1 { "PMID" } else { "PMIDs" };
            format!("{word} {}{tail}", shown.join(", "))
        };
        if !self.retracted.is_empty() {
            let verb = if self.retracted.len() == 1 {
                "is"
            } else {
                "are"
            };
            parts.push(format!(
                "{} of the {} {noun} {verb} RETRACTED ({})",
                self.retracted.len(),
                self.checked,
                ids(&self.retracted)
            ));
        }
        if !self.expression_of_concern.is_empty() {
            parts.push(format!(
                "{} under an expression of concern ({})",
                self.expression_of_concern.len(),
                ids(&self.expression_of_concern)
            ));
        }
        if !self.corrected.is_empty() {
            parts.push(format!(
                "{} corrected by an erratum ({})",
                self.corrected.len(),
                ids(&self.corrected)
            ));
        }
        if !parts.is_empty() {
            out.push(format!(
                "{}: each record's integrity names the notices. A retracted paper is not evidence for what it reported.",
                parts.join("; ")
            ));
        }
        if self.types_only > 0 {
            out.push(format!(
                "{} of the {noun} carried publication types but no links to notices: retractions show, errata and expressions of concern cannot; fetch the records to see those.",
                self.types_only
            ));
        }
        if self.unknown > 0 {
            out.push(format!(
                "{} of the {noun} carried neither publication types nor links to notices: whether they were retracted is not known from this answer; fetch the records to check.",
                self.unknown
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::pubmed::integrity::Correction;

    #[test]
    fn counts_name_every_flagged_record_and_what_could_not_be_checked() {
        let retracted = Integrity::of(&[], &["Retracted Publication".into()]);
        let concern = Integrity::of(
            &[Correction {
                ref_type: "ExpressionOfConcernIn".into(),
                ref_source: "J. 2020;1:2.".into(),
                pmid: Some("5".into()),
                note: None,
            }],
            &[],
        );
        let clean = Integrity::default();
        let types_only = Integrity::of_publication_types(&["Review".into()]);
        let f = Flagged::of([
            ("1", &retracted),
            ("2", &concern),
            ("3", &clean),
            ("4", &types_only),
        ]);
        assert_eq!(f.retracted, ["1"]);
        assert_eq!(f.expression_of_concern, ["2"]);
        let w = f.warnings("records");
        assert_eq!(
            w[0],
            "1 of the 4 records is RETRACTED (PMID 1); 1 under an expression of concern (PMID 2): each record's integrity names the notices. A retracted paper is not evidence for what it reported."
        );
        assert!(w[1].starts_with("1 of the records carried publication types but no links"));
        assert!(Flagged::of([("3", &clean)]).warnings("records").is_empty());
    }
}
