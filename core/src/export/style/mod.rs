//! Bibliographies in five styles, written by this project for journal articles (and
//! Bookshelf books) from what PubMed records hold: Vancouver (NLM's Citing Medicine,
//! `nlm-citation-sequence.csl`), APA 7 (`apa.csl`), AMA 11 (`american-medical-association.csl`),
//! Harvard (Cite Them Right 12, `harvard-cite-them-right.csl`) and Chicago author-date
//! (CMOS 18, `chicago-author-date.csl`). Each follows its official CSL style as
//! citeproc-js renders it; the tests hold them to citeproc-js running those files on the
//! same CSL JSON (`tests/fixtures/csl`, CC BY-SA 3.0, the Citation Style Language project,
//! <https://citationstyles.org/>). A full CSL processor was measured and left out: see
//! docs/src/export.md, "Bibliographies".

pub mod names;
pub mod pages;
pub mod text;

mod author_date;
mod numbered;

use crate::export::csl::{citation_title, language};
use crate::export::record::{Kind, Record};
use crate::parse::pubmed::integrity::Flag;
use names::Name;
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

/// The order in which an author-date style lists `records`, with the letters that tell
/// one author's works of one year apart: positions into `records`, and each one's place.
pub fn arrange(style: Style, records: &[Record]) -> Vec<(usize, Place)> {
    if style.numbered() {
        return (0..records.len())
            .map(|i| {
                (
                    i,
                    Place {
                        number: i + 1,
                        ..Place::default()
                    },
                )
            })
            .collect();
    }
    let keys: Vec<SortKey> = records.iter().map(|r| SortKey::of(style, r)).collect();
    let mut order: Vec<usize> = (0..records.len()).collect();
    // Stable: records that compare equal keep the order given.
    order.sort_by(|a, b| keys[*a].cmp(&keys[*b]));
    let mut places: Vec<(usize, Place)> = order.iter().map(|i| (*i, Place::default())).collect();
    // Works whose author lists are the same and whose years are the same get letters in
    // the order listed (the in-text citation cannot tell them apart by names).
    let mut start = 0;
    while start < places.len() {
        let first = places[start].0;
        let mut end = start + 1;
        while end < places.len() && same_cite(&records[first], &records[places[end].0]) {
            end += 1;
        }
        if end - start > 1 {
            for (k, slot) in places[start..end].iter_mut().enumerate() {
                slot.1.suffix = Some(letters(k));
            }
        }
        start = end;
    }
    for (n, slot) in places.iter_mut().enumerate() {
        slot.1.number = n + 1;
    }
    if let Some(et_al) = et_al_of(style) {
        add_names(records, &mut places, et_al);
    }
    places
}

/// Where an author-date style's bibliography cuts its author list: (at least this many
/// names, show this many), for the styles whose in-text citation cuts it the same way
/// (Harvard: four or more are the first and "et al."), so that CSL's disambiguation by
/// added names shows in the bibliography too.
fn et_al_of(style: Style) -> Option<(usize, usize)> {
    matches!(style, Style::Harvard).then_some((4, 1))
}

/// The names a citation shows when `shown` of them are.
fn cite(all: &[String], shown: usize) -> &[String] {
    &all[..shown.min(all.len())]
}

/// CSL 1.0.2's `disambiguate-add-names`: entries whose citations read alike (the same
/// family names before "et al.", the same year) get names added, one at a time to all of
/// them, until their names differ or no name is left to add.
fn add_names(records: &[Record], places: &mut [(usize, Place)], (min, first): (usize, usize)) {
    let families = |r: &Record| -> Vec<String> {
        names::names(&r.authors)
            .iter()
            .map(|n| match &n.literal {
                Some(l) => fold(l),
                None => fold(&n.family_with_particle()),
            })
            .collect()
    };
    let lists: Vec<Vec<String>> = places.iter().map(|(i, _)| families(&records[*i])).collect();
    // Entries grouped by how their citation reads before any name is added: one pass.
    let mut groups: std::collections::HashMap<(Option<i64>, &[String]), Vec<usize>> =
        std::collections::HashMap::new();
    for (b, list) in lists.iter().enumerate() {
        if list.len() >= min {
            let year = records[places[b].0].year;
            groups.entry((year, &list[..first])).or_default().push(b);
        }
    }
    for group in groups.into_values().filter(|g| g.len() > 1) {
        let distinct: std::collections::HashSet<&Vec<String>> =
            group.iter().map(|b| &lists[*b]).collect();
        if distinct.len() < 2 {
            // The same names throughout: the year's letters tell them apart.
            continue;
        }
        let longest = group.iter().map(|b| lists[*b].len()).max().unwrap_or(first);
        let mut shown = first;
        while shown < longest {
            shown += 1;
            let cites: std::collections::HashSet<&[String]> =
                group.iter().map(|b| cite(&lists[*b], shown)).collect();
            if cites.len() == distinct.len() {
                break;
            }
        }
        for b in group {
            places[b].1.names = Some(shown);
        }
    }
}

/// "a", "b", … "z", "aa", "ab", … as CSL's year suffixes run.
fn letters(k: usize) -> String {
    let mut k = k + 1;
    let mut out = Vec::new();
    while k > 0 {
        k -= 1;
        out.push((b'a' + (k % 26) as u8) as char);
        k /= 26;
    }
    out.iter().rev().collect()
}

/// Whether two records share every author (family name and initials) and their year.
fn same_cite(a: &Record, b: &Record) -> bool {
    let who = |r: &Record| -> Vec<String> {
        names::names(&r.authors)
            .iter()
            .map(|n| match &n.literal {
                Some(l) => fold(l),
                None => format!(
                    "{} {}",
                    fold(&n.family_with_particle()),
                    fold(&n.initials("", false).unwrap_or_default())
                ),
            })
            .collect()
    };
    let wa = who(a);
    !wa.is_empty() && a.year == b.year && wa == who(b)
}

/// A string as collation compares it at its base level: lower case, without marks,
/// punctuation or spaces.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !c.is_alphanumeric() {
            continue;
        }
        for l in c.to_lowercase() {
            match base_letter(l) {
                Some(b) => out.push_str(b),
                None => out.push(l),
            }
        }
    }
    out
}

fn base_letter(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ł' | 'ľ' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'œ' => "oe",
        'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'ß' => "ss",
        'ť' | 'ţ' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

/// Folded text compared with runs of digits as numbers (collation's numeric ordering).
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let mut n = String::new();
                while let Some(c) = x.peek().copied().filter(char::is_ascii_digit) {
                    n.push(c);
                    x.next();
                }
                let mut m = String::new();
                while let Some(d) = y.peek().copied().filter(char::is_ascii_digit) {
                    m.push(d);
                    y.next();
                }
                let (n, m) = (n.trim_start_matches('0'), m.trim_start_matches('0'));
                let o = n.len().cmp(&m.len()).then_with(|| n.cmp(m));
                if o != std::cmp::Ordering::Equal {
                    return o;
                }
            }
            (Some(c), Some(d)) => {
                let o = c.cmp(&d);
                if o != std::cmp::Ordering::Equal {
                    return o;
                }
                x.next();
                y.next();
            }
        }
    }
}

/// How an author-date style orders its entries: by authors as the style lists them, then
/// undated before or after dated works, then year, then title.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SortKey {
    names: String,
    dated_group: u8,
    year: i64,
    title: String,
}

impl SortKey {
    fn of(style: Style, r: &Record) -> SortKey {
        let list = names::names(&r.authors);
        let shown: Vec<&Name> = match style {
            Style::Apa if list.len() >= 21 => list[..19].iter().chain(list.last()).collect(),
            Style::Harvard if list.len() >= 4 => list[..1].iter().collect(),
            Style::Chicago if list.len() >= 7 => list[..3].iter().collect(),
            _ => list.iter().collect(),
        };
        let mut names = String::new();
        for n in shown {
            match &n.literal {
                Some(l) => names.push_str(&fold(l)),
                None => {
                    // APA keeps a particle with the family name; the others sort by the
                    // family name alone and put the particle after the given names.
                    let (family, given) = match style {
                        Style::Apa => (
                            n.family_with_particle(),
                            n.initials(". ", true).unwrap_or_default(),
                        ),
                        Style::Chicago => (
                            n.family.clone(),
                            format!(
                                "{} {}",
                                n.given_full().unwrap_or_default(),
                                n.particle.clone().unwrap_or_default()
                            ),
                        ),
                        _ => (
                            n.family.clone(),
                            format!(
                                "{} {}",
                                n.initials(".", true).unwrap_or_default(),
                                n.particle.clone().unwrap_or_default()
                            ),
                        ),
                    };
                    names.push_str(&fold(&family));
                    names.push_str(&fold(&given));
                    if let Some(s) = &n.suffix {
                        names.push_str(&fold(s));
                    }
                }
            }
        }
        if names.is_empty() {
            // A work without authors is listed by what leads its entry: in Harvard an
            // article's journal, else its title.
            names = match (&r.journal, style) {
                (Some(j), Style::Harvard) if article(r) => fold(j),
                _ => fold(citation_title(&r.title)),
            };
        }
        let dated_group = match (style, r.year.is_some()) {
            (Style::Apa, true) => 1,
            (Style::Apa, false) => 0,
            (_, true) => 0,
            (_, false) => 1,
        };
        SortKey {
            names,
            dated_group,
            year: r.year.unwrap_or(0),
            title: fold(citation_title(&r.title)),
        }
    }
}

impl PartialOrd for SortKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for SortKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        natural_cmp(&self.names, &other.names)
            .then(self.dated_group.cmp(&other.dated_group))
            .then(self.year.cmp(&other.year))
            .then_with(|| natural_cmp(&self.title, &other.title))
    }
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
