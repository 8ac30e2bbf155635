//! A candidate record against what a reference says of it: which fields agree, which do not.
//!
//! Titles are compared by the Sørensen–Dice coefficient of their character pairs, on lower
//! case letters and digits only, so punctuation, case and a subtitle's colon do not count;
//! years agree within one (an epub year and a print year); the first author agrees when
//! the record lists an author of that family name; journals when one names the other.

use crate::parse::esummary::{headline, DocSummary};
use crate::parse::pubmed::integrity::Integrity;
use crate::tools::entrez_query::references::input::Reference;
use serde_json::Value;

/// Titles this alike are the same title.
pub const SAME_TITLE: f64 = 0.85;
/// Titles this alike are worth listing as candidates.
pub const LIKE_TITLE: f64 = 0.6;

/// One PubMed record, as its summary gives it.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Its PMID.
    pub pmid: String,
    /// Its title.
    pub title: String,
    /// Its authors, "Wakefield AJ".
    pub authors: Vec<String>,
    /// Its journal abbreviation.
    pub source: String,
    /// Its journal's full name.
    pub journal: String,
    /// Its year.
    pub year: Option<i32>,
    /// Its volume.
    pub volume: String,
    /// Its pages, "637-41".
    pub pages: String,
    /// Its DOI.
    pub doi: Option<String>,
    /// Its PMC id.
    pub pmcid: Option<String>,
    /// Its retractions, corrections and concerns.
    pub integrity: Integrity,
}

impl Candidate {
    /// The candidate a JSON document summary describes.
    pub fn of(d: &DocSummary) -> Candidate {
        let h = headline(d);
        let field = |name: &str| {
            d.fields
                .get(name)
                .and_then(Value::as_str)
                .unwrap_or("")
                .trim()
                .to_string()
        };
        let id_of = |kind: &str| {
            d.fields
                .get("articleids")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .find_map(|a| {
                    (a["idtype"].as_str() == Some(kind))
                        .then(|| a["value"].as_str().map(str::to_string))
                        .flatten()
                })
        };
        Candidate {
            pmid: d.uid.clone(),
            title: h
                .title
                .unwrap_or_default()
                .trim_end_matches('.')
                .to_string(),
            authors: h.authors,
            source: field("source"),
            journal: field("fulljournalname"),
            year: h.year.map(i32::from),
            volume: field("volume"),
            pages: field("pages"),
            doi: id_of("doi"),
            pmcid: id_of("pmc")
                .or_else(|| id_of("pmcid"))
                .filter(|p| p.starts_with("PMC")),
            integrity: Integrity::of_summary(&d.fields),
        }
    }

    /// "Wakefield AJ, et al. Lancet. 1998;351:637-41".
    pub fn citation(&self) -> String {
        let who = match self.authors.as_slice() {
            [] => String::new(),
            [one] => format!("{one}. "),
            [first, ..] => format!("{first}, et al. "),
        };
        let year = self.year.map(|y| y.to_string()).unwrap_or_default();
        let mut out = format!("{who}{}. {year}", self.source);
        if !self.volume.is_empty() {
            out.push_str(&format!(";{}", self.volume));
        }
        if !self.pages.is_empty() {
            out.push_str(&format!(":{}", self.pages));
        }
        out
    }
}

/// Which fields a candidate agrees and disagrees on, and how alike the titles are.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Fields that agree.
    pub agreed: Vec<&'static str>,
    /// Fields that disagree.
    pub disagreed: Vec<&'static str>,
    /// 0 to 1; 1 when the reference gives no title (nothing to disagree with).
    pub title_similarity: f64,
}

/// Lower case letters and digits, words joined by one space.
fn plain(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How alike two titles are, 0 to 1 (Sørensen–Dice on character pairs).
pub fn title_similarity(a: &str, b: &str) -> f64 {
    let (a, b) = (plain(a), plain(b));
    if a == b {
        return 1.0;
    }
    let score = strsim::sorensen_dice(&a, &b);
    (score * 100.0).round() / 100.0
}

/// `c` against what `r` says.
pub fn compare(r: &Reference, c: &Candidate) -> Comparison {
    let mut cmp = Comparison {
        title_similarity: 1.0,
        ..Comparison::default()
    };
    let mut judge = |field: &'static str, agrees: bool| {
        if agrees {
            cmp.agreed.push(field);
        } else {
            cmp.disagreed.push(field);
        }
    };
    if let Some(t) = &r.title {
        let similarity = title_similarity(t, &c.title);
        cmp.title_similarity = similarity;
        judge("title", similarity >= SAME_TITLE);
    }
    if let (Some(y), Some(cy)) = (r.year, c.year) {
        judge("year", (y - cy).abs() <= 1);
    }
    if let Some(first) = r.authors.first() {
        let family = plain(first);
        let listed = c.authors.iter().any(|a| {
            plain(a).split(' ').next().is_some_and(|f| {
                !f.is_empty() && (f == family || family.starts_with(f) || f.starts_with(&family))
            })
        });
        if !c.authors.is_empty() {
            judge("first_author", listed);
        }
    }
    if let Some(j) = &r.journal {
        let j = plain(j).replace("the ", "");
        let names = [plain(&c.source), plain(&c.journal)];
        if names.iter().any(|n| !n.is_empty()) {
            judge(
                "journal",
                names
                    .iter()
                    .any(|n| !n.is_empty() && (n.contains(&j) || j.contains(n.as_str()))),
            );
        }
    }
    if let Some(v) = &r.volume {
        if !c.volume.is_empty() {
            judge("volume", v.trim() == c.volume);
        }
    }
    if let Some(p) = &r.first_page {
        let first = c.pages.split(['-', ',', ' ']).next().unwrap_or("");
        if !first.is_empty() {
            judge("first_page", p.trim() == first);
        }
    }
    cmp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wakefield() -> Candidate {
        Candidate {
            pmid: "9500320".into(),
            title: "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children".into(),
            authors: vec!["Wakefield AJ".into(), "Murch SH".into()],
            source: "Lancet".into(),
            journal: "Lancet (London, England)".into(),
            year: Some(1998),
            volume: "351".into(),
            pages: "637-41".into(),
            doi: None,
            pmcid: None,
            integrity: Integrity::default(),
        }
    }

    #[test]
    fn a_faithful_reference_agrees_on_everything_it_says() {
        let r = Reference::from_text("Wakefield AJ, Murch SH. Ileal lymphoid nodular hyperplasia, non-specific colitis and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.");
        let cmp = compare(&r, &wakefield());
        assert_eq!(cmp.disagreed, Vec::<&str>::new(), "{cmp:?}");
        assert_eq!(
            cmp.agreed,
            [
                "title",
                "year",
                "first_author",
                "journal",
                "volume",
                "first_page"
            ]
        );
        assert!(cmp.title_similarity > 0.9);
    }

    #[test]
    fn a_made_up_reference_on_a_real_pmid_disagrees() {
        let r = Reference::read(
            0,
            &serde_json::json!({"pmid": "9500320", "title": "Measles vaccination and autism spectrum disorder in a Danish cohort", "authors": ["Smith J"], "year": 2019}),
        );
        let cmp = compare(&r, &wakefield());
        assert_eq!(cmp.disagreed, ["title", "year", "first_author"]);
        assert!(
            cmp.title_similarity < LIKE_TITLE,
            "{}",
            cmp.title_similarity
        );
    }

    #[test]
    fn citations_read_like_a_reference_list() {
        assert_eq!(
            wakefield().citation(),
            "Wakefield AJ, et al. Lancet. 1998;351:637-41"
        );
        assert_eq!(title_similarity("A: B.", "a b"), 1.0);
    }
}
