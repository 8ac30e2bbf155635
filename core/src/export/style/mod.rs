//! Bibliographies in five styles, written by this project for journal articles (and
//! Bookshelf books) from what PubMed records hold: Vancouver (NLM's Citing Medicine,
//! `nlm-citation-sequence.csl`), APA 7 (`apa.csl`), AMA 11 (`american-medical-association.csl`),
//! Harvard (Cite Them Right 12, `harvard-cite-them-right.csl`) and Chicago author-date
//! (CMOS 18, `chicago-author-date.csl`). Each follows its official CSL style as
//! citeproc-js renders it; the tests hold them to citeproc-js running those files on the
//! same CSL JSON (`tests/fixtures/csl`, CC BY-SA 3.0, the Citation Style Language project,
//! <https://citationstyles.org/>). A full CSL processor was measured and left out: see
//! docs/src/export.md, "Bibliographies".

pub mod italics;
pub mod names;
pub mod pages;
pub mod text;
pub mod title_case;

mod author_date;
mod numbered;
mod order;

use crate::export::csl::language;
use crate::export::record::{Kind, Record};
use crate::parse::pubmed::integrity::Flag;
pub use order::{arrange, fold};
pub use text::{Entry, Markup};

/// A bibliography style.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    /// NLM/Vancouver (Citing Medicine, ICMJE), numbered in citation order.
    Vancouver,
    /// APA 7th edition, author-date.
    Apa,
    /// AMA Manual of Style 11th edition, numbered.
    Ama,
    /// Harvard (Cite Them Right 12th edition), author-date.
    Harvard,
    /// Chicago Manual of Style 18th edition, author-date.
    Chicago,
}

/// Every style with the names it answers to.
pub const STYLES: &[(Style, &str, &[&str])] = &[
    (
        Style::Vancouver,
        "vancouver",
        &["nlm", "icmje", "nlm-citation-sequence", "citing-medicine"],
    ),
    (Style::Apa, "apa", &["apa7", "apa-7"]),
    (
        Style::Ama,
        "ama",
        &["american-medical-association", "ama11", "jama"],
    ),
    (
        Style::Harvard,
        "harvard",
        &["harvard-cite-them-right", "cite-them-right", "harvard1"],
    ),
    (
        Style::Chicago,
        "chicago",
        &["chicago-author-date", "cmos", "chicago18"],
    ),
];

impl Style {
    /// The style's name.
    pub fn name(self) -> &'static str {
        STYLES
            .iter()
            .find(|(s, _, _)| *s == self)
            .map_or("vancouver", |(_, n, _)| n)
    }

    /// The style named `name` (or one of its other names), any case.
    pub fn named(name: &str) -> Option<Style> {
        let n = name.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        STYLES
            .iter()
            .find(|(_, main, other)| *main == n || other.contains(&n.as_str()))
            .map(|(s, _, _)| *s)
    }

    /// The official CSL style file it follows.
    pub fn csl_file(self) -> &'static str {
        match self {
            Style::Vancouver => "nlm-citation-sequence.csl",
            Style::Apa => "apa.csl",
            Style::Ama => "american-medical-association.csl",
            Style::Harvard => "harvard-cite-them-right.csl",
            Style::Chicago => "chicago-author-date.csl",
        }
    }

    /// Whether entries are numbered in the order given (else sorted by author and year).
    pub fn numbered(self) -> bool {
        matches!(self, Style::Vancouver | Style::Ama)
    }
}

/// What an entry needs beyond its record: its number, or its year's letter ("2019a").
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Place {
    /// 1-based position in a numbered style.
    pub number: usize,
    /// The letter that tells apart one author's works of one year, in author-date styles.
    pub suffix: Option<String>,
    /// Names shown before "et al." where CSL's disambiguation added names to tell two
    /// entries apart ("Smith, J., Brown, A., et al." beside "Smith, J., Green, P., et al.").
    pub names: Option<usize>,
}

/// Whether a record's titles are English, which title case applies to.
fn english(r: &Record) -> bool {
    language(r).is_none_or(|l| l.starts_with("en"))
}

/// The entry for one record.
pub fn entry(style: Style, r: &Record, place: &Place) -> Entry {
    let mut e = match style {
        Style::Vancouver => numbered::vancouver(r, place),
        Style::Ama => numbered::ama(r, place),
        Style::Apa => author_date::apa(r, place),
        Style::Harvard => author_date::harvard(r, place),
        Style::Chicago => author_date::chicago(r, place),
    };
    flag(&mut e, r);
    e
}

/// The research-integrity flags written beside an entry, after it: a retraction and an
/// expression of concern, each with the PMIDs of its notices (linked in Markdown), e.g.
/// " [RETRACTED, see PMID 20137807; EXPRESSION OF CONCERN, see PMID 21971344]". A
/// correction is not flagged: the entry stands as cited.
fn flag(e: &mut Entry, r: &Record) {
    let integrity = r.integrity();
    let mut flags: Vec<Flag> = integrity
        .flags
        .iter()
        .copied()
        .filter(|f| matches!(f, Flag::Retracted | Flag::ExpressionOfConcern))
        .collect();
    if r.retracted() && !flags.contains(&Flag::Retracted) {
        flags.insert(0, Flag::Retracted);
    }
    if r.integrity.iter().any(|f| f == "expression_of_concern")
        && !flags.contains(&Flag::ExpressionOfConcern)
    {
        flags.push(Flag::ExpressionOfConcern);
    }
    if flags.is_empty() {
        return;
    }
    e.text(" [");
    for (i, f) in flags.iter().enumerate() {
        if i > 0 {
            e.text("; ");
        }
        e.text(f.label());
        let notices = integrity
            .notices
            .iter()
            .filter(|n| n.flag == *f)
            .filter_map(|n| n.pmid.as_deref());
        for (k, p) in notices.enumerate() {
            e.text(if k == 0 { ", see PMID " } else { ", " });
            e.link(p, &format!("https://pubmed.ncbi.nlm.nih.gov/{p}/"));
        }
    }
    e.text("]");
}

/// One entry written out; Markdown also links the PubMed record (where the style did not
/// print its PMID).
pub fn write(style: Style, r: &Record, place: &Place, markup: Markup) -> String {
    let mut e = entry(style, r, place);
    if markup == Markup::Markdown && style != Style::Vancouver {
        if let (Some(p), Some(url)) = (r.pmid, r.pubmed_url()) {
            e.text(" ");
            e.link(&format!("PMID: {p}"), &url);
        }
    }
    e.render(markup)
}

/// Short month names as NLM writes them, and full ones.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// "Aug" for 8.
fn month_short(m: u32) -> &'static str {
    MONTHS.get(m as usize - 1).map_or("", |name| &name[..3])
}

/// "August" for 8.
fn month_long(m: u32) -> &'static str {
    MONTHS.get(m as usize - 1).copied().unwrap_or("")
}

/// The year as the author-date styles and AMA print it: "2019", or "2018–2019" for an issue
/// dated across two years ("2018 Dec-2019 Jan").
fn year_span(r: &Record) -> Option<String> {
    let y = r.year?;
    Some(match r.issued().and_then(|i| i.to) {
        Some(to) if to[0] != y => format!("{y}\u{2013}{}", to[0]),
        _ => y.to_string(),
    })
}

/// Whether the record is a journal article (books are written as books).
fn article(r: &Record) -> bool {
    r.kind == Kind::Article
}

#[cfg(test)]
mod tests {
    use super::order::{letters, natural_cmp};
    use super::*;

    #[test]
    fn styles_answer_to_their_names_and_letters_run_on() {
        assert_eq!(Style::named("NLM"), Some(Style::Vancouver));
        assert_eq!(Style::named("apa_7"), Some(Style::Apa));
        assert_eq!(Style::named("chicago-author-date"), Some(Style::Chicago));
        assert_eq!(Style::named("mla"), None);
        assert_eq!(letters(0), "a");
        assert_eq!(letters(25), "z");
        assert_eq!(letters(26), "aa");
        assert_eq!(fold("Müller-Ørsted, J."), "mullerorstedj");
        assert_eq!(natural_cmp("p9", "p10"), std::cmp::Ordering::Less);
    }

    fn person(family: &str, initials: &str) -> crate::export::record::Author {
        crate::export::record::Author {
            family: Some(family.into()),
            initials: Some(initials.into()),
            ..Default::default()
        }
    }

    #[test]
    fn harvard_adds_names_to_tell_et_al_entries_apart() {
        let with = |second: &str, title: &str| Record {
            key: title.into(),
            title: title.into(),
            year: Some(2019),
            authors: vec![
                person("Smith", "J"),
                person(second, "A"),
                person("Wilson", "M"),
                person("Taylor", "R"),
            ],
            ..Record::default()
        };
        let records = vec![with("Brown", "One"), with("Green", "Two"), {
            let mut r = with("Brown", "Three");
            r.year = Some(2020);
            r
        }];
        let written: Vec<String> = arrange(Style::Harvard, &records)
            .iter()
            .map(|(i, place)| write(Style::Harvard, &records[*i], place, Markup::Text))
            .collect();
        assert!(
            written
                .iter()
                .any(|w| w.starts_with("Smith, J., Brown, A., et al. (2019)")),
            "{written:?}"
        );
        assert!(
            written
                .iter()
                .any(|w| w.starts_with("Smith, J., Green, A., et al. (2019)")),
            "{written:?}"
        );
        // Another year's entry reads alike with no other: the first name only.
        assert!(
            written
                .iter()
                .any(|w| w.starts_with("Smith, J. et al. (2020)")),
            "{written:?}"
        );
    }

    #[test]
    fn vancouver_writes_seasons_and_ranges_as_citing_medicine() {
        let on = |date: &str| {
            let r = Record {
                title: "T".into(),
                journal_abbrev: Some("J".into()),
                year: date[..4].parse().ok(),
                pub_date: Some(date.into()),
                volume: Some("1".into()),
                ..Record::default()
            };
            write(
                Style::Vancouver,
                &r,
                &Place {
                    number: 1,
                    ..Place::default()
                },
                Markup::Text,
            )
        };
        assert_eq!(on("1990 Spring"), "1. T. J. 1990 Spring;1.");
        assert_eq!(on("2019 Jan-Feb"), "1. T. J. 2019 Jan\u{2013}Feb;1.");
        assert_eq!(
            on("2018 Dec-2019 Jan"),
            "1. T. J. 2018 Dec\u{2013}2019 Jan;1."
        );
        assert_eq!(on("2019 Jan 3-9"), "1. T. J. 2019 Jan 3\u{2013}9;1.");
    }
}
