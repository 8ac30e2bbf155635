//! One reference as the caller gave it, read into what PubMed can be asked about.
//!
//! A reference comes as free text (a line of a bibliography), a DOI, a PMID, or fields
//! (title, authors, journal, year, volume, first page). Free text is read for the parts a
//! citation style puts in known places: a DOI or PMID anywhere; Vancouver's and AMA's
//! `Authors. Title. Journal. Year;Volume(Issue):Pages`, APA's `Authors (Year). Title.
//! Journal, Volume(Issue), Pages`. What cannot be read is left out and the check falls back
//! on a title search; what is wrong with the input itself (empty, too long, a malformed DOI)
//! makes the reference `invalid`, never the whole list.

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
    /// A DOI it names, lower case (DOIs are case-insensitive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doi: Option<String>,
    /// Its title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its authors' family names, first author first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// Its journal, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<String>,
    /// Its year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// Its volume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// Its first page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_page: Option<String>,
    /// Why it cannot be checked, when its input is unusable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid: Option<String>,
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
                .map(family_name)
                .filter(|n| !n.is_empty())
                .collect(),
            Some(Value::String(s)) => names_of(s),
            _ => Vec::new(),
        };
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
            r.first_page = Some(p.split(['-', '–']).next().unwrap_or("").trim().to_string());
        }
        r.check();
        if r.invalid.is_none() && r.is_empty() {
            r.invalid = Some("the reference names nothing to look up (give text, a PMID, a DOI, a title, or journal, year, volume and first page)".into());
        }
        r
    }

    /// A reference given as text: a PMID, a DOI, or a bibliography entry.
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
        let bare = t
            .trim_start_matches("PMID:")
            .trim_start_matches("pmid:")
            .trim();
        if !bare.is_empty() && bare.len() <= 9 && bare.chars().all(|c| c.is_ascii_digit()) {
            r.pmid = Some(bare.trim_start_matches('0').to_string());
            return r;
        }
        r.doi = doi_in(t);
        r.pmid = pmid_in(t);
        // A bare DOI (or a doi.org link) is the whole reference.
        let without_doi = r
            .doi
            .as_deref()
            .map(|d| t.to_ascii_lowercase().replace(d, ""))
            .unwrap_or_else(|| t.to_string());
        if r.doi.is_some()
            && without_doi
                .trim_matches(|c: char| !c.is_alphanumeric())
                .len()
                <= 12
        {
            r.check();
            return r;
        }
        read_citation(t, &mut r);
        r.check();
        r
    }

    /// Marks the reference invalid for a malformed DOI or PMID.
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
    }

    /// Whether nothing in it can be looked up.
    fn is_empty(&self) -> bool {
        self.pmid.is_none()
            && self.doi.is_none()
            && self.title.is_none()
            && !(self.journal.is_some() && (self.volume.is_some() || self.first_page.is_some()))
    }

    /// Whether ECitMatch can look it up: journal, year, and volume or first page.
    pub fn citable(&self) -> bool {
        self.journal.is_some()
            && self.year.is_some()
            && (self.volume.is_some() || self.first_page.is_some())
    }
}

/// The DOI in `t` (after "doi:", in a doi.org link, or bare), lower case, trailing
/// punctuation left out.
pub fn doi_in(t: &str) -> Option<String> {
    let lower = t.to_ascii_lowercase();
    let start = lower.find("10.")?;
    let tail = &lower[start..];
    let end = tail.find(char::is_whitespace).unwrap_or(tail.len());
    let mut doi = tail[..end].to_string();
    // A sentence's final period or a closing bracket is not part of it, unless it closes
    // one the DOI opened (10.1016/s0140-6736(97)11096-0).
    while let Some(last) = doi.chars().last() {
        let unbalanced = last == ')' && doi.matches('(').count() < doi.matches(')').count();
        if !(matches!(last, '.' | ',' | ';' | ':' | ']' | '>' | '"' | '\'') || unbalanced) {
            break;
        }
        doi.pop();
    }
    doi.contains('/').then_some(doi)
}

/// "PMID: 123" or "PMID 123" in `t`.
fn pmid_in(t: &str) -> Option<String> {
    let upper = t.to_ascii_uppercase();
    let at = upper.find("PMID")? + 4;
    let digits: String = t[at..]
        .trim_start_matches([':', ' '])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (!digits.is_empty()).then_some(digits)
}

/// A family name from "Wakefield AJ", "Wakefield, A. J." or "A. J. Wakefield".
fn family_name(s: &str) -> String {
    let s = s.trim().trim_end_matches('.');
    if let Some((last, _)) = s.split_once(',') {
        return last.trim().to_string();
    }
    let words: Vec<&str> = s.split_whitespace().collect();
    match words.as_slice() {
        [] => String::new(),
        [one] => one.to_string(),
        // "Wakefield AJ": initials last; "A. J. Wakefield": initials first.
        [first, .., last] if is_initials(last) => first.to_string(),
        [.., last] => last.to_string(),
    }
}

fn is_initials(w: &str) -> bool {
    let letters: String = w.chars().filter(|c| c.is_alphabetic()).collect();
    !letters.is_empty() && letters.len() <= 3 && letters.chars().all(char::is_uppercase)
}

/// Family names from an author list: "Wakefield AJ, Murch SH, et al." (Vancouver),
/// "Wakefield, A. J., Murch, S. H., & Anthony, A." (APA).
fn names_of(s: &str) -> Vec<String> {
    let cleaned = s
        .replace(" & ", ", ")
        .replace(" and ", ", ")
        .replace("et al", "");
    let parts: Vec<&str> = cleaned
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    // APA alternates family names and initials: "Wakefield", "A. J.", "Murch", "S. H.".
    let apa = parts.len() >= 2 && parts.iter().skip(1).step_by(2).all(|p| is_initials_apa(p));
    if apa {
        return parts.iter().step_by(2).map(|p| p.to_string()).collect();
    }
    parts
        .iter()
        .map(|p| family_name(p))
        .filter(|n| !n.is_empty())
        .collect()
}

fn is_initials_apa(p: &str) -> bool {
    let letters: Vec<char> = p.chars().filter(|c| c.is_alphabetic()).collect();
    !letters.is_empty() && letters.len() <= 3 && p.contains('.')
}

/// Reads a bibliography entry's parts into `r`.
fn read_citation(t: &str, r: &mut Reference) {
    // Cut the DOI and PMID off: they are read already.
    let mut body = t.to_string();
    for marker in [
        "doi:",
        "DOI:",
        "https://doi.org/",
        "http://doi.org/",
        "PMID:",
        "PMID",
    ] {
        if let Some(at) = body.find(marker) {
            body.truncate(at);
        }
    }
    let body = body.trim().trim_end_matches(['.', ',', ';']).to_string();
    if let Some(apa) = read_apa(&body) {
        *r = Reference {
            text: r.text.take(),
            doi: r.doi.take(),
            pmid: r.pmid.take(),
            ..apa
        };
        return;
    }
    // Vancouver and AMA: "Authors. Title. Journal. Year;Vol(Issue):Pages" (AMA: "Journal.
    // Year;Vol(Issue):Pages" too, with full given names at times).
    let sentences: Vec<&str> = split_sentences(&body);
    let tail_at = sentences
        .iter()
        .position(|s| volume_pages(s).is_some() || year_of(s).is_some());
    if let Some(i) = tail_at {
        let (year, volume, page) =
            volume_pages(sentences[i]).unwrap_or((year_of(sentences[i]), None, None));
        r.year = year;
        r.volume = volume;
        r.first_page = page;
        // The journal is the sentence before the year (or the start of the same sentence).
        let journal_in_tail = sentences[i]
            .split(|c: char| c.is_ascii_digit())
            .next()
            .map(str::trim)
            .filter(|j| j.chars().filter(|c| c.is_alphabetic()).count() >= 2);
        let (journal, title_at) = match journal_in_tail {
            Some(j) => (
                Some(j.trim_end_matches(['.', ',']).to_string()),
                i.checked_sub(1),
            ),
            None => (
                i.checked_sub(1).map(|j| sentences[j].to_string()),
                i.checked_sub(2),
            ),
        };
        r.journal = journal;
        if let Some(ti) = title_at {
            r.title = Some(sentences[ti].to_string());
            if ti >= 1 {
                r.authors = names_of(sentences[ti - 1]);
            }
        }
    }
    if r.title.is_none() {
        // No recognisable layout: the longest sentence is the likeliest title.
        r.title = sentences
            .iter()
            .max_by_key(|s| s.len())
            .map(|s| s.to_string())
            .filter(|s| s.split_whitespace().count() >= 3);
    }
}

/// APA: "Authors (Year). Title. Journal, Volume(Issue), Pages."
fn read_apa(body: &str) -> Option<Reference> {
    let open = body.find(" (")?;
    let close = body[open..].find(").")? + open;
    let year: i32 = body[open + 2..close].trim().get(..4)?.parse().ok()?;
    let rest = body[close + 2..].trim();
    let (title, after) = rest.split_once(". ")?;
    let mut parts = after.split(", ");
    let journal = parts.next()?.trim().to_string();
    let volume = parts
        .next()
        .map(|v| v.split('(').next().unwrap_or("").trim().to_string());
    let page = parts.next().map(|p| {
        p.split(['-', '–'])
            .next()
            .unwrap_or("")
            .trim()
            .trim_end_matches('.')
            .to_string()
    });
    Some(Reference {
        authors: names_of(&body[..open]),
        year: Some(year),
        title: Some(title.trim().to_string()),
        journal: Some(journal),
        volume: volume.filter(|v| !v.is_empty()),
        first_page: page.filter(|p| !p.is_empty()),
        ..Reference::default()
    })
}

/// The sentences of an entry: split at ". " where the period does not end an initial.
fn split_sentences(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = body.as_bytes();
    for (i, _) in body.match_indices(". ") {
        // "Wakefield AJ. Ileal": a run of capitals before the period ends the author list;
        // "J. Michael" inside a name list (a single capital after a space) does not end it.
        let word_start = body[..i].rfind(' ').map_or(0, |s| s + 1);
        let word = &body[word_start..i];
        let single_initial = word.len() == 1 && bytes[word_start].is_ascii_uppercase();
        if single_initial
            && body[i + 2..].starts_with(|c: char| c.is_ascii_uppercase())
            && body[i + 2..]
                .split_whitespace()
                .next()
                .is_some_and(|w| w.len() <= 2)
        {
            continue;
        }
        let s = body[start..i].trim();
        if !s.is_empty() {
            out.push(s);
        }
        start = i + 2;
    }
    let last = body[start..].trim();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// A plausible publication year in `s`: the first four-digit run from 1800 to 2099.
fn year_of(s: &str) -> Option<i32> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let run = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            if run == 4 {
                let y: i32 = s[i..i + 4].parse().ok()?;
                if (1800..=2099).contains(&y) {
                    return Some(y);
                }
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

/// "2019;571(7763):95-98" or "1998 Feb 28;351(9103):637-41": year, volume, first page.
fn volume_pages(s: &str) -> Option<(Option<i32>, Option<String>, Option<String>)> {
    let (before, after) = s.split_once(';')?;
    let year = year_of(before);
    let (volume, pages) = after.split_once(':')?;
    let volume = volume.split('(').next().unwrap_or("").trim().to_string();
    let page = pages
        .trim()
        .split(['-', '–', ',', ' ', '.'])
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    if volume.is_empty() || page.is_empty() {
        return None;
    }
    Some((year, Some(volume), Some(page)))
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
        assert_eq!(r.authors, ["Wakefield", "Murch", "Anthony"]);
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
        assert_eq!(r.authors, ["Wakefield", "Murch", "Anthony"]);
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
