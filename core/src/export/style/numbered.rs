//! The numbered styles: Vancouver (`nlm-citation-sequence.csl`) and AMA
//! (`american-medical-association.csl`). Both write authors as "Smith JA", up to six
//! before "et al." (AMA: three when there are more than six), the journal's abbreviation
//! without periods, and the year, volume, issue and pages run together
//! ("2019 Aug 26;18(9):663–75" in Vancouver, "2019;18(9):663-675" in AMA).

use super::italics::marked_title;
use super::names::{names, Name};
use super::pages::{dashed, pages, Range};
use super::text::{typographic, Entry};
use super::title_case::title_case;
use super::{article, english, month_long, month_short, year_span, Place};
use crate::export::csl::citation_title;
use crate::export::record::Record;

const DASH: &str = "\u{2013}";

/// "Smith JA", "van der Berg P", "King ML Jr", a collective as named.
fn short_name(n: &Name) -> String {
    if let Some(l) = &n.literal {
        return l.clone();
    }
    let mut s = n.family_with_particle();
    if let Some(i) = n.initials("", false).filter(|i| !i.is_empty()) {
        s.push(' ');
        s.push_str(&i);
    }
    if let Some(x) = &n.suffix {
        s.push(' ');
        s.push_str(x);
    }
    s
}

/// The author list: all names up to six; past six, the first `shown` and "et al.".
fn authors(r: &Record, shown: usize) -> Option<String> {
    let list = names(&r.authors);
    if list.is_empty() {
        return None;
    }
    let mut parts: Vec<String> = if list.len() >= 7 {
        list[..shown].iter().map(short_name).collect()
    } else {
        list.iter().map(short_name).collect()
    };
    if list.len() >= 7 {
        parts.push("et al.".to_string());
    }
    Some(parts.join(", "))
}

/// The journal's abbreviation without its periods (its full title if it has none).
fn journal_short(r: &Record) -> Option<String> {
    r.journal_abbrev
        .as_ref()
        .or(r.journal.as_ref())
        .map(|j| typographic(&j.replace('.', "")))
        .filter(|j| !j.trim().is_empty())
}

/// A journal issue's date as Citing Medicine writes it: "2019 Aug 26", "1990 Spring",
/// "2019 Jan–Feb", "2019 Jan 3–9", "2018 Dec–2019 Jan".
fn nlm_date(r: &Record) -> Option<String> {
    let issued = r.issued()?;
    let part = |p: &[i64]| -> String {
        let mut out = Vec::new();
        if let Some(m) = p.get(1).and_then(|m| u32::try_from(*m).ok()) {
            out.push(month_short(m).to_string());
        }
        if let Some(d) = p.get(2) {
            out.push(d.to_string());
        }
        out.join(" ")
    };
    let from = &issued.from;
    let mut d = from[0].to_string();
    let first = part(from);
    if !first.is_empty() {
        d.push(' ');
        d.push_str(&first);
    }
    if let Some(season) = &issued.season {
        d.push(' ');
        d.push_str(&dashed(season, DASH));
    }
    if let Some(to) = &issued.to {
        d.push_str(DASH);
        if to[0] != from[0] {
            d.push_str(&to[0].to_string());
            let rest = part(to);
            if !rest.is_empty() {
                d.push(' ');
                d.push_str(&rest);
            }
        } else if to.len() == 3 && to[1] == from[1] {
            d.push_str(&to[2].to_string());
        } else {
            d.push_str(&part(to));
        }
    }
    Some(d)
}

/// Vancouver: "1. Smith JA, O’Brien S. Title. J Abbr. 2019 Aug 26;18(9):663–75.
/// doi:10.… PubMed PMID: 31452104; PubMed Central PMCID: PMC….".
pub(super) fn vancouver(r: &Record, place: &Place) -> Entry {
    let mut e = Entry::default();
    e.text(&format!("{}. ", place.number));
    let mut first = true;
    let mut part = |e: &mut Entry, s: &str| {
        if !first {
            e.punct(". ");
        }
        e.text(s);
        first = false;
    };
    if let Some(a) = authors(r, 6) {
        part(&mut e, &a);
    }
    part(&mut e, &typographic(citation_title(&marked_title(r))));
    let date = if article(r) {
        nlm_date(r)
    } else {
        r.year.map(|y| y.to_string())
    };
    if article(r) {
        if let Some(j) = journal_short(r) {
            part(&mut e, &j);
        }
        let mut serial = String::new();
        if let Some(v) = &r.volume {
            serial.push_str(v);
        }
        if let Some(i) = &r.issue {
            serial.push_str(&format!("({})", dashed(i, DASH)));
        }
        let locator = r
            .full_pages()
            .map(|p| pages(&p, Range::Minimal, DASH))
            .or_else(|| r.article_number.clone());
        if let Some(p) = locator {
            if !serial.is_empty() {
                serial.push(':');
            }
            serial.push_str(&p);
        }
        let joined: Vec<String> = date
            .into_iter()
            .chain((!serial.is_empty()).then_some(serial))
            .collect();
        if !joined.is_empty() {
            part(&mut e, &joined.join(";"));
        }
    } else if let Some(d) = date {
        part(&mut e, &d);
    }
    e.punct(".");
    if let Some(d) = &r.doi {
        e.text(" ");
        e.link(&format!("doi:{d}"), &format!("https://doi.org/{d}"));
    }
    let mut notes = Vec::new();
    if let (Some(p), Some(url)) = (r.pmid, r.pubmed_url()) {
        notes.push((format!("PubMed PMID: {p}"), url));
    }
    if let Some(c) = &r.pmcid {
        notes.push((
            format!("PubMed Central PMCID: {c}"),
            format!("https://pmc.ncbi.nlm.nih.gov/articles/{c}/"),
        ));
    }
    for (k, (label, url)) in notes.iter().enumerate() {
        e.text(if k == 0 { " " } else { "; " });
        e.link(label, url);
    }
    if !notes.is_empty() {
        e.text(".");
    }
    e
}

/// AMA: "1. Smith JA, O’Brien S, Müller HP, et al. Title. *J Abbr*. 2019;18(9):663-675.
/// doi:10.…"; an article with neither volume nor issue is "Published online" its date.
pub(super) fn ama(r: &Record, place: &Place) -> Entry {
    let mut e = Entry::default();
    e.text(&format!("{}. ", place.number));
    let mut first = true;
    let mut sep = |e: &mut Entry| {
        if !first {
            e.punct(". ");
        }
        first = false;
    };
    let title = typographic(citation_title(&marked_title(r)));
    let book = !article(r);
    let book_title = |t: &str| {
        if english(r) {
            title_case(t)
        } else {
            t.to_string()
        }
    };
    match authors(r, 3) {
        Some(a) => {
            sep(&mut e);
            e.text(&a);
            sep(&mut e);
            if book {
                e.italic(&book_title(&title));
            } else {
                e.text(&title);
            }
        }
        // Without authors the title leads (AMA's substitute), and is not repeated.
        None => {
            sep(&mut e);
            if book {
                e.italic(&book_title(&title));
            } else {
                e.text(&title);
            }
        }
    }
    if book {
        if let Some(y) = r.year {
            sep(&mut e);
            e.text(&y.to_string());
        }
    } else {
        if let Some(j) = journal_short(r) {
            sep(&mut e);
            e.italic(&j);
        }
        let mut when = String::new();
        if r.volume.is_some() || r.issue.is_some() {
            if let Some(y) = year_span(r) {
                when.push_str(&y);
            }
        } else if let Some(y) = r.year {
            let (m, d) = r.month_day();
            when.push_str("Published online ");
            when.push_str(&match (m, d) {
                (Some(m), Some(d)) => format!("{} {d}, {y}", month_long(m)),
                (Some(m), None) => format!("{} {y}", month_long(m)),
                _ => y.to_string(),
            });
        }
        let mut serial = String::new();
        if let Some(v) = &r.volume {
            serial.push_str(v);
        }
        if let Some(i) = &r.issue {
            serial.push_str(&format!("({})", dashed(i, "-")));
        }
        let mut s = [when, serial]
            .into_iter()
            .filter(|x| !x.is_empty())
            .collect::<Vec<_>>()
            .join(";");
        let locator = r
            .full_pages()
            .map(|p| pages(&p, Range::Expanded, "-"))
            .or_else(|| r.article_number.clone());
        if let Some(p) = locator {
            if !s.is_empty() {
                s.push(':');
            }
            s.push_str(&p);
        }
        if !s.is_empty() {
            sep(&mut e);
            e.text(&s);
        }
    }
    e.punct(".");
    if let Some(d) = &r.doi {
        e.text(" ");
        e.link(&format!("doi:{d}"), &format!("https://doi.org/{d}"));
    }
    e
}
