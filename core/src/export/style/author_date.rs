//! The author-date styles: APA 7 (`apa.csl`), Harvard (`harvard-cite-them-right.csl`) and
//! Chicago author-date (`chicago-author-date.csl`). Entries are listed by author, then
//! year (see [`super::arrange`]); each starts with its authors and year and ends with the
//! DOI as a link.

use super::italics::marked_title;
use super::names::{names, Name};
use super::pages::{dashed, pages, Range};
use super::text::{typographic, Entry};
use super::title_case::title_case;
use super::{article, english, month_long, year_span, Place};
use crate::export::csl::citation_title;
use crate::export::record::Record;

const DASH: &str = "\u{2013}";

fn doi_url(d: &str) -> String {
    format!("https://doi.org/{d}")
}

/// The title in title case where the record is English (Chicago's titles, APA's and
/// Chicago's journal names).
fn cased(r: &Record, s: &str) -> String {
    if english(r) {
        title_case(s)
    } else {
        s.to_string()
    }
}

/// "Family, I. I." with the style's initials; "Family, I. I., Jr" with a suffix.
fn inverted_initials(n: &Name, with: &str) -> String {
    if let Some(l) = &n.literal {
        return l.clone();
    }
    let mut s = n.family_with_particle();
    if let Some(i) = n.initials(with, true).filter(|i| !i.is_empty()) {
        s.push_str(", ");
        s.push_str(&i);
    }
    if let Some(x) = &n.suffix {
        s.push_str(", ");
        s.push_str(x);
    }
    s
}

/// APA: "Smith, J. A., O’Brien, S., & Müller, H.-P. (2019a). Title. *Journal*, *18*(9),
/// 663–675. https://doi.org/…"; 21 authors or more are the first 19, "…", and the last.
pub(super) fn apa(r: &Record, place: &Place) -> Entry {
    let mut e = Entry::default();
    let list = names(&r.authors);
    let title = typographic(citation_title(&marked_title(r)));
    let book = !article(r);
    let names_text = match list.len() {
        0 => None,
        1 => Some(inverted_initials(&list[0], ". ")),
        n if n >= 21 => {
            let first: Vec<String> = list[..19]
                .iter()
                .map(|n| inverted_initials(n, ". "))
                .collect();
            Some(format!(
                "{}, \u{2026} {}",
                first.join(", "),
                inverted_initials(&list[n - 1], ". ")
            ))
        }
        n => {
            let first: Vec<String> = list[..n - 1]
                .iter()
                .map(|n| inverted_initials(n, ". "))
                .collect();
            Some(format!(
                "{}, & {}",
                first.join(", "),
                inverted_initials(&list[n - 1], ". ")
            ))
        }
    };
    let year = match year_span(r) {
        Some(y) => format!("{y}{}", place.suffix.as_deref().unwrap_or("")),
        None => match &place.suffix {
            Some(s) => format!("n.d.-{s}"),
            None => "n.d.".to_string(),
        },
    };
    let write_title = |e: &mut Entry| {
        if book {
            e.italic(&title);
        } else {
            e.text(&title);
        }
    };
    match names_text {
        Some(n) => {
            e.text(&n);
            e.punct(".");
            e.text(&format!(" ({year}). "));
            write_title(&mut e);
            e.punct(".");
        }
        // Without authors the title leads (APA's substitute).
        None => {
            write_title(&mut e);
            e.punct(".");
            e.text(&format!(" ({year})."));
        }
    }
    if let Some(j) = r.journal.as_ref().filter(|_| !book) {
        e.text(" ");
        e.italic(&cased(r, &typographic(j)));
        if let Some(v) = &r.volume {
            e.text(", ");
            e.italic(v);
        }
        if let Some(i) = &r.issue {
            if r.volume.is_none() {
                e.text(", ");
            }
            e.text(&format!("({})", dashed(i, DASH)));
        }
        if let Some(p) = &r.full_pages() {
            e.text(", ");
            e.text(&pages(p, Range::Expanded, DASH));
        } else if let Some(n) = &r.article_number {
            e.text(", Article ");
            e.text(n);
        }
    }
    e.punct(".");
    if let Some(d) = &r.doi {
        e.text(" ");
        let url = doi_url(d);
        e.link(&url, &url);
    }
    e
}

/// Harvard: "Smith, J.A., O’Brien, S. and Müller, H.-P. (2019a) “Title,” *Journal*,
/// 18(9), pp. 663–675. Available at: https://doi.org/…."; four authors or more are the
/// first and *et al.*
pub(super) fn harvard(r: &Record, place: &Place) -> Entry {
    let mut e = Entry::default();
    let list = names(&r.authors);
    let book = !article(r);
    let title = typographic(citation_title(&marked_title(r)));
    let year = match (year_span(r), &place.suffix) {
        (Some(y), s) => format!("{y}{}", s.as_deref().unwrap_or("")),
        (None, Some(s)) => format!("no date {s}"),
        (None, None) => "no date".to_string(),
    };
    // Without authors, an article's journal leads, a book's title (Harvard's substitute),
    // and is not repeated.
    let journal_leads = list.is_empty() && !book && r.journal.is_some();
    match list.len() {
        0 if book => e.italic(&title),
        0 => {
            if let Some(j) = &r.journal {
                e.italic(&cased(r, &typographic(j)));
            }
        }
        n if n >= 4 && place.names.is_none_or(|k| k < n) => {
            // The first, or as many as disambiguation added, then "et al.".
            let k = place.names.unwrap_or(1).max(1);
            let shown: Vec<String> = list[..k]
                .iter()
                .map(|n| inverted_initials(n, "."))
                .collect();
            e.text(&shown.join(", "));
            e.text(if k > 1 { ", " } else { " " });
            e.italic("et al.");
        }
        1 => e.text(&inverted_initials(&list[0], ".")),
        n => {
            let first: Vec<String> = list[..n - 1]
                .iter()
                .map(|n| inverted_initials(n, "."))
                .collect();
            e.text(&format!(
                "{} and {}",
                first.join(", "),
                inverted_initials(&list[n - 1], ".")
            ));
        }
    }
    if !e.is_empty() {
        e.text(" ");
    }
    e.text(&format!("({year})"));
    if book {
        if !list.is_empty() {
            e.text(" ");
            e.italic(&title);
        }
    } else {
        let journal = r.journal.as_ref().filter(|_| !journal_leads);
        let mut tail = Vec::new();
        let mut serial = String::new();
        if let Some(v) = &r.volume {
            serial.push_str(v);
        }
        if let Some(i) = &r.issue {
            serial.push_str(&format!("({})", dashed(i, DASH)));
        }
        if !serial.is_empty() {
            tail.push(serial);
        }
        if let Some(p) = &r.full_pages() {
            let written = pages(p, Range::AsGiven, DASH);
            let label = if written.contains(['-', '\u{2013}', ',', '&']) {
                "pp."
            } else {
                "p."
            };
            tail.push(format!("{label} {written}"));
        }
        let after = if journal.is_some() || !tail.is_empty() {
            ","
        } else {
            ""
        };
        e.text(" ");
        e.quoted(&title, after);
        if let Some(j) = journal {
            e.text(" ");
            e.italic(&typographic(j));
            if r.pages.is_none() && r.volume.is_none() {
                e.text(" [Preprint]");
            }
            if !tail.is_empty() {
                e.text(",");
            }
        }
        if !tail.is_empty() {
            e.text(" ");
            e.text(&tail.join(", "));
        }
    }
    if let Some(d) = &r.doi {
        e.punct(". ");
        e.text("Available at: ");
        let url = doi_url(d);
        e.link(&url, &url);
    }
    e.punct(".");
    e
}

/// A Chicago name: the first inverted ("Berg, Pieter van der"), the others in reading
/// order ("Pieter van der Berg"), given names in full.
fn chicago_name(n: &Name, first: bool) -> String {
    if let Some(l) = &n.literal {
        return l.clone();
    }
    let given = n.given_full();
    if first {
        let mut s = n.family.clone();
        let mut rest: Vec<String> = given.into_iter().collect();
        if let Some(p) = &n.particle {
            rest.push(p.clone());
        }
        if !rest.is_empty() {
            s.push_str(", ");
            s.push_str(&rest.join(" "));
        }
        if let Some(x) = &n.suffix {
            s.push_str(", ");
            s.push_str(x);
        }
        s
    } else {
        let mut parts: Vec<String> = given.into_iter().collect();
        parts.push(n.family_with_particle());
        let mut s = parts.join(" ");
        if let Some(x) = &n.suffix {
            s.push(' ');
            s.push_str(x);
        }
        s
    }
}

/// Chicago author-date: "Smith, Jane A., Séamus O’Brien, and Hans-Peter Müller. 2019a.
/// “Title in Title Case.” *Journal* 18 (9): 663–75. https://doi.org/…."; seven authors
/// or more are the first three and "et al.".
pub(super) fn chicago(r: &Record, place: &Place) -> Entry {
    let mut e = Entry::default();
    let list = names(&r.authors);
    let book = !article(r);
    let shown: Vec<String> = if list.len() >= 7 {
        list[..3]
            .iter()
            .enumerate()
            .map(|(i, n)| chicago_name(n, i == 0))
            .collect()
    } else {
        list.iter()
            .enumerate()
            .map(|(i, n)| chicago_name(n, i == 0))
            .collect()
    };
    let authors = match (shown.len(), list.len() >= 7) {
        (0, _) => None,
        (_, true) => Some(format!("{}, et al.", shown.join(", "))),
        (1, false) => Some(shown[0].clone()),
        (n, false) => Some(format!(
            "{}, and {}",
            shown[..n - 1].join(", "),
            shown[n - 1]
        )),
    };
    let year = match (year_span(r), &place.suffix) {
        (Some(y), s) => format!("{y}{}", s.as_deref().unwrap_or("")),
        (None, Some(s)) => format!("n.d.-{s}"),
        (None, None) => "n.d.".to_string(),
    };
    let title = typographic(citation_title(&marked_title(r)));
    let title = cased(r, &title);
    let write_title = |e: &mut Entry| {
        if book {
            e.italic(&title);
        } else {
            e.quoted(&title, ".");
        }
    };
    match authors {
        Some(a) => {
            e.text(&a);
            e.punct(". ");
            e.text(&year);
            e.punct(". ");
            write_title(&mut e);
        }
        // Without authors the title leads (Chicago's substitute), then the year.
        None => {
            write_title(&mut e);
            e.punct(". ");
            e.text(&year);
            e.punct(".");
        }
    }
    if !book {
        if let Some(j) = &r.journal {
            e.text(" ");
            e.italic(&cased(r, &typographic(j)));
            // The pages, else the article's number (CMOS 14.71).
            let locator = r
                .full_pages()
                .map(|p| pages(&p, Range::Chicago16, DASH))
                .or_else(|| r.article_number.clone());
            let (month, day) = r.month_day();
            let month_day = month.map(|m| match day {
                Some(d) => format!("{} {d}", month_long(m)),
                None => month_long(m).to_string(),
            });
            if let Some(v) = &r.volume {
                e.text(" ");
                e.text(v);
                match (&r.issue, month) {
                    (Some(i), _) => e.text(&format!(" ({})", dashed(i, DASH))),
                    (None, Some(m)) => e.text(&format!(" ({})", month_long(m))),
                    (None, None) => {}
                }
                if let Some(p) = &locator {
                    e.text(": ");
                    e.text(p);
                }
            } else if let Some(i) = &r.issue {
                e.text(&format!(", no. {}", dashed(i, DASH)));
                if let Some(p) = &locator {
                    e.text(": ");
                    e.text(p);
                }
            } else if let Some(p) = &locator {
                e.text(", ");
                e.text(p);
            } else if r.doi.is_some() && r.year.is_some() {
                e.text(", ahead of print");
                if let Some(md) = month_day {
                    e.text(", ");
                    e.text(&md);
                }
            }
        }
    }
    e.punct(".");
    if let Some(d) = &r.doi {
        e.text(" ");
        let url = doi_url(d);
        e.link(&url, &url);
        e.punct(".");
    }
    e
}
