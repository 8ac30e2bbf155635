//! One reference as the caller gave it, read into what PubMed can be asked about.
//!
//! A reference comes as free text (a line of a bibliography, BibTeX or RIS), a DOI, a PMID,
//! a PMCID, or fields (title, authors, journal, year, volume, first page). Free text
//! is read by [`super::read`]; which fields were read is kept, and a line whose layout was
//! not recognized says so. What is wrong with the input itself (empty, too long, a
//! malformed DOI) makes the reference `invalid`, never the whole list.

use super::{parts, read};
use serde::Serialize;
use serde_json::Value;

/// The most references one call checks.
pub const MOST_REFERENCES: usize = 100;
/// The longest reference read, in characters: a bibliography entry is a few hundred.
pub const LONGEST_REFERENCE: usize = 2_000;

/// One reference, read.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Reference {
    /// The caller's key, or ref1, ref2, … in list order.
    pub key: String,
    /// The free text given, when the reference came as text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// A PMID it names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmid: Option<String>,
    /// A PMCID it names ("PMC5442267"): never taken for a PMID.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pmcid: Option<String>,
    /// A DOI it names, lower case (DOIs are case-insensitive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// Its title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its authors' family names, first author first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// The first author's initials, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initials: Option<String>,
    /// Its journal, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    /// Its year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Its volume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// Its issue.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issue: Option<String>,
    /// Its first page or article number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_page: Option<String>,
    /// The layout its text was read as ("vancouver", "author_year", …); None for fields,
    /// or for a line whose layout was not recognized (see [`Reference::unread`]).
    #[serde(skip)]
    pub style: Option<&'static str>,
    /// Why it cannot be checked, when its input is unusable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
    /// The item exactly as given, re-sent by `next_call`.
    #[serde(skip)]
    pub given: Value,
    /// Whether its text has words besides its identifiers: then an identifier alone never
    /// verifies it, whatever the reader made of the rest.
    #[serde(skip)]
    pub more_words: bool,
}

impl Reference {
    /// The `i`-th item of `references` (0-based): a string or an object.
    pub fn read(i: usize, item: &Value) -> Reference {
        let key = item
            .get("key")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|k| !k.is_empty())
            .map(String::from)
            .unwrap_or_else(|| format!("ref{}", i + 1));
        let mut r = match item {
            Value::String(s) => Reference::from_text(s),
            Value::Number(n) => Reference::from_text(&n.to_string()),
            Value::Object(_) => Reference::from_fields(item),
            _ => Reference {
                invalid: Some("a reference is a string or an object of fields".into()),
                ..Reference::default()
            },
        };
        r.key = key;
        r.given = item.clone();
        r
    }

    /// A reference given as fields; `text`, when given too, fills what the fields leave out.
    fn from_fields(v: &Value) -> Reference {
        let text = |name: &str| match v.get(name) {
            Some(Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let mut r = match text("text") {
            Some(t) => Reference::from_text(&t),
            None => Reference::default(),
        };
        if let Some(p) = text("pmid") {
            r.pmid = Some(p);
        }
        if let Some(d) = text("doi") {
            r.doi = Some(d);
        }
        if let Some(t) = text("title") {
            r.title = Some(t);
        }
        let authors: Vec<String> = match v.get("authors") {
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(Value::as_str)
                .map(|a| parts::first_author(a).0)
                .filter(|n| !n.is_empty())
                .collect(),
            Some(Value::String(s)) => {
                let (family, initials) = parts::first_author(s);
                r.initials = initials;
                vec![family].into_iter().filter(|n| !n.is_empty()).collect()
            }
            _ => Vec::new(),
        };
        if let Some(Value::Array(list)) = v.get("authors") {
            if let Some(first) = list.first().and_then(Value::as_str) {
                r.initials = parts::first_author(first).1;
            }
        }
        if !authors.is_empty() {
            r.authors = authors;
        }
        if let Some(j) = text("journal") {
            r.journal = Some(j);
        }
        if let Some(y) = text("year") {
            r.year = y.trim().parse().ok();
            if r.year.is_none() {
                r.invalid = Some(format!("year {y:?} is not a year"));
            }
        }
        if let Some(vol) = text("volume") {
            r.volume = Some(vol);
        }
        if let Some(p) = text("first_page").or_else(|| text("page")) {
            r.first_page = Some(parts::first_page(&p));
        }
        if text("text").is_none() {
            r.style = Some("fields");
        }
        r.check();
        if r.invalid.is_none() && r.is_empty() && !r.unread() {
            r.invalid = Some("the reference names nothing to look up (give text, a PMID, a DOI, a title, or journal, year, volume and first page)".into());
        }
        r
    }

    /// A reference given as text: a PMID, a PMCID, a DOI, or a bibliography entry.
    pub fn from_text(raw: &str) -> Reference {
        let t = raw.trim();
        let mut r = Reference {
            text: Some(t.chars().take(300).collect()),
            ..Reference::default()
        };
        if t.is_empty() {
            r.invalid = Some("the reference is empty".into());
            return r;
        }
        let length = t.chars().count();
        if length > LONGEST_REFERENCE {
            r.invalid = Some(format!(
                "the reference is {length} characters long, more than one bibliography entry ({LONGEST_REFERENCE} at most): give one reference per item"
            ));
            return r;
        }
        // A bare PMID.
        if !t.is_empty() && t.len() <= 9 && t.chars().all(|c| c.is_ascii_digit()) {
            r.pmid = Some(t.trim_start_matches('0').to_string());
            r.style = Some("identifier");
            return r;
        }
        let read = read::read(t);
        r.pmid = read.pmid;
        r.pmcid = read.pmcid;
        r.doi = read.doi;
        r.title = read.title;
        r.authors = read.authors;
        r.initials = read.initials;
        r.journal = read.journal;
        r.year = read.year;
        r.volume = read.volume;
        r.issue = read.issue;
        r.first_page = read.first_page;
        r.style = read.style;
        r.more_words = read.more_words;
        if r.style.is_none() && r.says_nothing_more() && r.has_identifier() {
            // A bare DOI, PMID or PMCID (or a link to one) is the whole reference.
            r.style = Some("identifier");
        }
        r.check();
        r
    }

    /// Marks the reference invalid for a malformed DOI, PMID or PMCID.
    fn check(&mut self) {
        if let Some(d) = &self.doi {
            let d = d.trim().to_ascii_lowercase();
            let d = d
                .trim_start_matches("https://doi.org/")
                .trim_start_matches("http://doi.org/")
                .trim_start_matches("doi:")
                .trim()
                .to_string();
            let well_formed = d.starts_with("10.")
                && d.split_once('/').is_some_and(|(prefix, suffix)| {
                    prefix.len() >= 7
                        && prefix[3..].chars().all(|c| c.is_ascii_digit() || c == '.')
                        && !suffix.is_empty()
                        && !suffix.contains(char::is_whitespace)
                });
            if !well_formed {
                self.invalid = Some(format!(
                    "{d:?} is not a DOI (a DOI reads 10.<registrant>/<suffix>, e.g. 10.1016/s0140-6736(97)11096-0)"
                ));
            }
            self.doi = Some(d);
        }
        if let Some(p) = &self.pmid {
            if p.is_empty() || p.len() > 9 || !p.chars().all(|c| c.is_ascii_digit()) {
                self.invalid = Some(format!("{p:?} is not a PMID (a PMID is a number)"));
            }
        }
        if let Some(p) = &self.pmcid {
            let digits = p.strip_prefix("PMC").unwrap_or("");
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                self.invalid = Some(format!(
                    "{p:?} is not a PMCID (a PMCID reads PMC and digits)"
                ));
            }
        }
    }

    /// Whether nothing in it can be looked up.
    fn is_empty(&self) -> bool {
        !self.has_identifier()
            && self.title.is_none()
            && !(self.journal.is_some() && (self.volume.is_some() || self.first_page.is_some()))
    }

    /// Whether it names a PMID, PMCID or DOI.
    pub fn has_identifier(&self) -> bool {
        self.pmid.is_some() || self.pmcid.is_some() || self.doi.is_some()
    }

    /// Whether it says nothing beyond its identifiers.
    pub fn says_nothing_more(&self) -> bool {
        !self.more_words
            && self.title.is_none()
            && self.authors.is_empty()
            && self.journal.is_none()
            && self.year.is_none()
            && self.volume.is_none()
            && self.first_page.is_none()
    }

    /// Whether ECitMatch can look it up: journal, year, and volume or first page.
    pub fn citable(&self) -> bool {
        self.journal.is_some()
            && self.year.is_some()
            && (self.volume.is_some() || self.first_page.is_some())
    }

    /// The fields it gave, by name (the evidence's `read.fields`).
    pub fn fields(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut has = |name: &'static str, present: bool| {
            if present {
                out.push(name);
            }
        };
        has("first_author", !self.authors.is_empty());
        has("title", self.title.is_some());
        has("journal", self.journal.is_some());
        has("year", self.year.is_some());
        has("volume", self.volume.is_some());
        has("issue", self.issue.is_some());
        has("first_page", self.first_page.is_some());
        has("doi", self.doi.is_some());
        has("pmid", self.pmid.is_some());
        has("pmcid", self.pmcid.is_some());
        out
    }

    /// The parts of a citation it did not give (first author, title, journal, year,
    /// volume, first page): what `read.missing` reports.
    pub fn missing(&self) -> Vec<&'static str> {
        let given = self.fields();
        [
            "first_author",
            "title",
            "journal",
            "year",
            "volume",
            "first_page",
        ]
        .into_iter()
        .filter(|f| !given.contains(f))
        .collect()
    }

    /// A line of free text whose layout was not recognized: it cannot be called not found.
    pub fn unread(&self) -> bool {
        self.text.is_some() && self.style.is_none() && self.invalid.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn vancouver_entries_are_read_into_their_parts() {
        let r = Reference::from_text(
            "Wakefield AJ, Murch SH, Anthony A, et al. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.",
        );
        assert_eq!(r.authors, ["Wakefield"]);
        assert_eq!(r.initials.as_deref(), Some("AJ"));
        assert_eq!(r.title.as_deref(), Some("Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children"));
        assert_eq!(r.journal.as_deref(), Some("Lancet"));
        assert_eq!(r.year, Some(1998));
        assert_eq!(
            (r.volume.as_deref(), r.first_page.as_deref()),
            (Some("351"), Some("637"))
        );
        assert!(r.citable() && r.invalid.is_none());
    }

    #[test]
    fn apa_entries_and_dois_inside_them_are_read() {
        let r = Reference::from_text(
            "Wakefield, A. J., Murch, S. H., & Anthony, A. (1998). Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. The Lancet, 351(9103), 637–641. https://doi.org/10.1016/S0140-6736(97)11096-0",
        );
        assert_eq!(r.doi.as_deref(), Some("10.1016/s0140-6736(97)11096-0"));
        assert_eq!(r.authors, ["Wakefield"]);
        assert_eq!(r.initials.as_deref(), Some("AJ"));
        assert_eq!(r.year, Some(1998));
        assert_eq!(r.journal.as_deref(), Some("The Lancet"));
        assert_eq!(r.first_page.as_deref(), Some("637"));
    }

    #[test]
    fn identifiers_alone_and_bad_input_are_told_apart() {
        assert_eq!(
            Reference::from_text("PMID: 9500320").pmid.as_deref(),
            Some("9500320")
        );
        assert_eq!(
            Reference::from_text(" 9500320 ").pmid.as_deref(),
            Some("9500320")
        );
        let d = Reference::from_text("doi:10.1016/S0140-6736(97)11096-0.");
        assert_eq!(d.doi.as_deref(), Some("10.1016/s0140-6736(97)11096-0"));
        assert!(d.title.is_none() && d.invalid.is_none());
        assert_eq!(
            Reference::from_text("https://doi.org/10.1038/nature12373")
                .doi
                .as_deref(),
            Some("10.1038/nature12373")
        );
        assert_eq!(
            Reference::from_text("   ").invalid.as_deref(),
            Some("the reference is empty")
        );
        assert!(Reference::from_text(&"x".repeat(5000))
            .invalid
            .unwrap()
            .contains("5000 characters"));
        let bad = Reference::read(0, &json!({"doi": "10.12/x"}));
        assert!(
            bad.invalid.unwrap().contains("is not a DOI"),
            "a registrant of two digits"
        );
        let bad = Reference::read(0, &json!({"pmid": "12a"}));
        assert!(bad.invalid.unwrap().contains("is not a PMID"));
        assert!(Reference::read(0, &json!({})).invalid.is_some());
        assert!(Reference::read(0, &json!(true)).invalid.is_some());
    }

    #[test]
    fn fields_are_taken_as_given_with_keys() {
        let r = Reference::read(
            3,
            &json!({"key": "smith2019", "title": "A title", "authors": ["Smith J", "Doe, A."], "journal": "Nature", "year": 2019, "volume": "571", "first_page": "95-98"}),
        );
        assert_eq!(r.key, "smith2019");
        assert_eq!(r.authors, ["Smith", "Doe"]);
        assert_eq!((r.year, r.first_page.as_deref()), (Some(2019), Some("95")));
        assert_eq!(Reference::read(3, &json!("PMID 1")).key, "ref4");
    }

    #[test]
    fn a_title_alone_is_looked_up_by_title() {
        let r = Reference::from_text(
            "Ileal-lymphoid-nodular hyperplasia and pervasive developmental disorder in children",
        );
        assert!(r.title.is_some() && !r.citable());
    }
}
