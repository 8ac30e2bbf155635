//! The order of a bibliography in an author-date style ([`arrange`]): entries sorted as
//! collation compares names, years and titles ([`fold`], digits as numbers), the year letters
//! that tell one author's works of one year apart ("2019a"), and the names CSL's
//! disambiguation adds to citations that read alike.

use super::names::{self, Name};
use super::{article, Place, Style};
use crate::export::csl::citation_title;
use crate::export::record::Record;

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
pub(super) fn letters(k: usize) -> String {
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
pub(super) fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
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
