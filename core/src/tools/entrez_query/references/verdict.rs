//! One reference's verdict from what the lookups found, with its evidence.
//!
//! An identifier is a claim like any other field: the record it names is compared with
//! everything else the reference gives, and `verified` needs the title, or the journal or
//! year with the volume or page, to agree ([`compare::confirms`]) unless the reference is
//! the identifier alone. A disagreement is a `mismatch` naming the record the identifier
//! (or title, or citation) really belongs to, and the other record when the title names
//! one paper and the authors or journal another (a chimera). A line that could not be read
//! is `unreadable`, never `not_found`.

use crate::json;
use crate::tools::entrez_query::references::compare::{self, Candidate, Comparison};
use crate::tools::entrez_query::references::fold::fold;
use crate::tools::entrez_query::references::input::Reference;
use crate::tools::entrez_query::references::lookup::Found;
use serde_json::Value;
use std::collections::BTreeMap;

/// A record and how it compares, with the route that found it.
struct Named<'a> {
    c: &'a Candidate,
    cmp: Comparison,
    by: &'static str,
}

/// The verdict and evidence for `r`.
pub fn verdict(r: &Reference, f: &Found, docs: &BTreeMap<String, Candidate>) -> Value {
    let mut out = json!({"key": r.key});
    if let Some(why) = &r.invalid {
        out["verdict"] = json!("invalid");
        out["message"] = json!(why);
        out["given"] = serde_json::to_value(r).unwrap_or(Value::Null);
        return out;
    }
    out["read"] = json!({"style": r.style, "fields": r.fields(), "missing": r.missing()});
    if r.unread() {
        out["verdict"] = json!("unreadable");
        out["message"] = json!(format!(
            "Could not read this reference: its layout is none of the styles known (Vancouver, AMA, APA, Harvard, Chicago, MLA, IEEE, BibTeX, RIS), so its {} could not be told apart. Give it as fields (title, authors, journal, year, volume, first_page) or with its PMID or DOI.",
            r.missing().join(", ")
        ));
        return out;
    }
    if f.unchecked || f.failed.is_some() {
        out["verdict"] = json!("unchecked");
        out["message"] = json!(match &f.failed {
            Some(why) => format!("Not checked: {why}; next_call tries it again."),
            None =>
                "Not checked in this call: its requests ran out first; next_call checks it.".into(),
        });
        return out;
    }
    let named = |c, by| named(r, c, by);
    // The records the identifiers name.
    let mut by_id: Vec<Named> = Vec::new();
    let mut missing_ids: Vec<String> = Vec::new();
    if let Some(p) = &r.pmid {
        match docs.get(p) {
            Some(c) => by_id.push(named(c, "pmid")),
            None => missing_ids.push(format!("PMID {p}")),
        }
    }
    let owned = |want: &str, of: fn(&Candidate) -> Option<&String>| {
        f.by_id
            .iter()
            .filter_map(|p| docs.get(p))
            .find(|c| of(c).is_some_and(|v| v.eq_ignore_ascii_case(want)))
    };
    if let Some(d) = &r.doi {
        match owned(d, |c| c.doi.as_ref()) {
            Some(c) if !by_id.iter().any(|n| n.c.pmid == c.pmid) => by_id.push(named(c, "doi")),
            Some(_) => {}
            None => missing_ids.push(format!("DOI {d}")),
        }
    }
    if let Some(p) = &r.pmcid {
        match owned(p, |c| c.pmcid.as_ref()) {
            Some(c) if !by_id.iter().any(|n| n.c.pmid == c.pmid) => by_id.push(named(c, "pmcid")),
            Some(_) => {}
            None => missing_ids.push(format!("PMCID {p}")),
        }
    }
    // The records the citation and the title name.
    let by_citation = f
        .citation
        .as_ref()
        .and_then(|p| docs.get(p))
        .map(|c| named(c, "citation_match"));
    let mut by_title: Vec<Named> = Vec::new();
    if let Some(t) = &r.title {
        // A batch's candidates are every reference's in it: only a title sharing one of
        // this one's three longest words is compared (cheap where CPU is counted).
        let mut words: Vec<String> = fold(t)
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 4)
            .map(str::to_string)
            .collect();
        words.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
        words.truncate(3);
        let near = |c: &Candidate| {
            let title = fold(&c.title);
            words.is_empty() || words.iter().any(|w| title.contains(w.as_str()))
        };
        let mut seen: Vec<&str> = Vec::new();
        for p in f
            .by_title
            .iter()
            .chain(&f.citation)
            .chain(&f.by_id)
            .chain(r.pmid.iter())
        {
            if let Some(c) = docs.get(p) {
                if !seen.contains(&c.pmid.as_str())
                    && near(c)
                    && compare::title_similarity(t, &c.title) >= compare::SAME_TITLE
                {
                    seen.push(&c.pmid);
                    by_title.push(named(c, "title_search"));
                }
            }
        }
    }
    // Several titles alike ("Erratum: <title>" and <title>): the clearly closest is the one.
    by_title.sort_by(|a, b| b.cmp.title_similarity.total_cmp(&a.cmp.title_similarity));
    if by_title.len() > 1
        && by_title[0].cmp.title_similarity >= by_title[1].cmp.title_similarity + 0.03
    {
        by_title.truncate(1);
    }
    let agrees = |n: &Named| {
        n.cmp.disagreed.is_empty() && (compare::confirms(&n.cmp) || r.says_nothing_more())
    };
    // The record meant: an identifier's when it agrees, else the title's or citation's that agrees.
    let agreeing_title: Vec<&Named> = by_title.iter().filter(|n| agrees(n)).collect();
    let citation_agrees = by_citation.as_ref().filter(|n| agrees(n));
    let best_other: Option<&Named> = match (agreeing_title.as_slice(), citation_agrees) {
        ([one], Some(c)) if c.c.pmid == one.c.pmid => Some(c),
        ([one], _) => Some(one),
        (_, c) => c,
    };
    let (verdict, chosen, also, message): (&str, Option<&Named>, Vec<&Named>, String) =
        if let Some(id) = by_id.first() {
            let others: Vec<&Named> = by_id[1..].iter().collect();
            // Another identifier it gives names nothing, where the record has one of that
            // kind to compare (a record without a DOI cannot tell a DOI wrong).
            let wrong_ids: Vec<&String> = missing_ids
                .iter()
                .filter(|m| match m.split(' ').next() {
                    Some("DOI") => id.c.doi.is_some(),
                    Some("PMCID") => id.c.pmcid.is_some(),
                    _ => true,
                })
                .collect();
            let agrees_alone = agrees(id) && others.iter().all(|o| o.c.pmid == id.c.pmid);
            if agrees_alone && !wrong_ids.is_empty() {
                let wrong: Vec<&str> = wrong_ids.iter().map(|m| m.as_str()).collect();
                (
                    "mismatch",
                    Some(id),
                    vec![],
                    format!(
                        "Its {} is not in PubMed; its {} names PMID {} ({}), which agrees with the rest: the other identifier is wrong.",
                        wrong.join(" and "),
                        id_name(id.by),
                        id.c.pmid,
                        short(id.c)
                    ),
                )
            } else if agrees_alone {
                let then = if r.says_nothing_more() {
                    "the reference says nothing else to compare".to_string()
                } else {
                    format!("it agrees on {}", id.cmp.agreed.join(", "))
                };
                (
                    "verified",
                    Some(id),
                    vec![],
                    format!(
                        "PMID {}, found by its {}: {then}.",
                        id.c.pmid,
                        id_name(id.by)
                    ),
                )
            } else if id.cmp.disagreed.is_empty() && others.is_empty() {
                let what = if id.cmp.agreed.is_empty() {
                    "nothing".to_string()
                } else {
                    id.cmp.agreed.join(", ")
                };
                ("ambiguous", Some(id), vec![], format!(
                "PMID {} (by its {}) agrees only on {what}: too little to call it the cited paper; add the title, or journal, year, volume and page.",
                id.c.pmid, id_name(id.by)
            ))
            } else {
                let mut also: Vec<&Named> = others;
                if let Some(o) = best_other.filter(|o| o.c.pmid != id.c.pmid) {
                    also.push(o);
                }
                let fields = if id.cmp.disagreed.is_empty() {
                    "identifiers".to_string()
                } else {
                    id.cmp.disagreed.join(", ")
                };
                let mut m = format!(
                "Its {} names PMID {} ({}), whose {fields} disagree with the reference: the citation is wrong or made up.",
                id_name(id.by), id.c.pmid, short(id.c)
            );
                for o in &also {
                    m.push_str(&format!(
                        " Its {} names PMID {} ({}).",
                        route_name(o.by),
                        o.c.pmid,
                        short(o.c)
                    ));
                }
                ("mismatch", Some(id), also, m)
            }
        } else {
            let gone = (!missing_ids.is_empty())
                .then(|| format!("{} is not in PubMed", missing_ids.join(" and ")));
            match (gone, best_other) {
            (Some(gone), Some(o)) => (
                "mismatch",
                Some(o),
                vec![],
                format!("Its {gone}; the rest of the reference is PMID {} ({}): the identifier is wrong.", o.c.pmid, short(o.c)),
            ),
            (None, Some(o)) => {
                let found_by = if o.by == "citation_match" { "its journal, year, volume and page (ECitMatch)" } else { "its title" };
                ("verified", Some(o), vec![], format!("PMID {}, found by {found_by}: it agrees on {}.", o.c.pmid, o.cmp.agreed.join(", ")))
            }
            (gone, None) => without_match(r, f, &by_title, by_citation.as_ref(), gone),
        }
        };
    out["verdict"] = json!(verdict);
    let mut message = message;
    if let Some(n) = chosen {
        out["matched_by"] = json!(n.by);
        write_record(&mut out, n);
        // What the reference says that the record cannot confirm is said, not assumed.
        out["read"]["unchecked"] = json!(n.cmp.unchecked);
        if !n.cmp.unchecked.is_empty() {
            message.push_str(&format!(
                " Not checked (PMID {} has none): {}.",
                n.c.pmid,
                n.cmp.unchecked.join(", ")
            ));
        }
    }
    if !also.is_empty() {
        out["also"] = json!(also
            .iter()
            .map(|n| {
                let mut v = json!({});
                write_record(&mut v, n);
                v["matched_by"] = json!(n.by);
                v
            })
            .collect::<Vec<_>>());
    }
    if verdict == "ambiguous" && chosen.is_none() {
        let mut listed: Vec<&Candidate> = by_title.iter().map(|n| n.c).collect();
        if listed.is_empty() {
            listed = f.by_title.iter().filter_map(|p| docs.get(p)).collect();
            match &r.title {
                Some(t) => {
                    listed.retain(|c| compare::title_similarity(t, &c.title) >= compare::LIKE_TITLE)
                }
                // A citation's candidates: those its journal, year and volume agree with.
                None => listed.retain(|c| compare::compare(r, c).disagreed.is_empty()),
            }
        }
        listed.dedup_by(|a, b| a.pmid == b.pmid);
        out["candidates"] = json!(listed
            .iter()
            .take(5)
            .map(|c| json!({
                "pmid": c.pmid, "title": c.title, "citation": c.citation(),
                "title_similarity": compare::compare(r, c).title_similarity,
            }))
            .collect::<Vec<_>>());
    }
    out["message"] = json!(message);
    out
}

fn named<'a>(r: &Reference, c: &'a Candidate, by: &'static str) -> Named<'a> {
    Named {
        c,
        cmp: compare::compare(r, c),
        by,
    }
}

type Decided<'a> = (
    &'static str,
    Option<&'a Named<'a>>,
    Vec<&'a Named<'a>>,
    String,
);

/// No record agrees: a title or citation that names a paper whose other fields disagree,
/// several papers, or none.
fn without_match<'a>(
    r: &Reference,
    f: &Found,
    by_title: &'a [Named<'a>],
    by_citation: Option<&'a Named<'a>>,
    gone: Option<String>,
) -> Decided<'a> {
    let prefix = gone.map(|g| format!("Its {g}. ")).unwrap_or_default();
    match by_title {
        [one] => {
            // The title is this paper's; the authors, journal or numbers are not (a chimera when
            // they are another paper's).
            let also: Vec<&Named> = by_citation.filter(|c| c.c.pmid != one.c.pmid).into_iter().collect();
            let mut m = format!(
                "{prefix}The title is PMID {}'s ({}), but its {} disagree with the reference: the citation is wrong or made up.",
                one.c.pmid, short(one.c), disagreed(&one.cmp)
            );
            for o in &also {
                m.push_str(&format!(" Its journal, year, volume and page are PMID {}'s ({}): two papers mixed in one citation.", o.c.pmid, short(o.c)));
            }
            ("mismatch", Some(one), also, m)
        }
        [] => match by_citation {
            Some(c) => (
                "mismatch",
                Some(c),
                vec![],
                format!(
                    "{prefix}Its journal, year, volume and page are PMID {}'s ({}), but its {} disagree: the citation is wrong or made up.",
                    c.c.pmid, short(c.c), disagreed(&c.cmp)
                ),
            ),
            None => match &f.said {
                Some(said) if said.starts_with("AMBIGUOUS") && r.title.is_none() => (
                    "ambiguous",
                    None,
                    vec![],
                    format!("{prefix}ECitMatch: {said}; the candidates are listed: add the title or the first page."),
                ),
                _ if !f.by_title.is_empty() && r.title.is_some() && f.by_title.len() <= 5 => (
                    "not_found",
                    None,
                    vec![],
                    format!("{prefix}No PubMed record has this title (nor one like it with this first author and year)."),
                ),
                _ => (
                    "not_found",
                    None,
                    vec![],
                    match (&r.title, &f.said) {
                        (Some(_), _) => format!("{prefix}No PubMed record has a title like this one, nor this journal, year, volume and page."),
                        (None, Some(said)) => format!("{prefix}No PubMed record matches (ECitMatch: {said}), and there was no title to search."),
                        (None, None) => format!("{prefix}Nothing else in the reference could be looked up: give a title, or journal, year, volume and first page."),
                    },
                ),
            },
        },
        several => (
            "ambiguous",
            None,
            vec![],
            format!("{prefix}{} records have this title and none agrees with the rest of the reference; the candidates are listed.", several.len()),
        ),
    }
}

fn disagreed(cmp: &Comparison) -> String {
    cmp.disagreed.join(", ")
}

fn id_name(by: &str) -> &'static str {
    match by {
        "pmid" => "PMID",
        "doi" => "DOI",
        _ => "PMCID",
    }
}

fn route_name(by: &str) -> &'static str {
    match by {
        "pmid" => "PMID",
        "doi" => "DOI",
        "pmcid" => "PMCID",
        "citation_match" => "journal, year, volume and page",
        _ => "title",
    }
}

/// "Wakefield, Lancet 1998": who, where and when, for a message.
fn short(c: &Candidate) -> String {
    let who = c.first_author().unwrap_or_else(|| "no author".into());
    let year = c.year.map(|y| y.to_string()).unwrap_or_default();
    format!("{who}, {} {year}: “{}”", c.source, c.title)
}

fn write_record(out: &mut Value, n: &Named) {
    let c = n.c;
    out["pmid"] = json!(c.pmid);
    out["doi"] = json!(c.doi);
    out["pmcid"] = json!(c.pmcid);
    out["title"] = json!(c.title);
    out["first_author"] = json!(c.first_author());
    out["journal"] = json!(c.source);
    out["year"] = json!(c.year);
    out["citation"] = json!(c.citation());
    out["agreed"] = json!(n.cmp.agreed);
    out["disagreed"] = json!(n.cmp.disagreed);
    out["unchecked"] = json!(n.cmp.unchecked);
    out["title_similarity"] = json!(n.cmp.title_similarity);
    out["integrity"] = serde_json::to_value(&c.integrity).unwrap_or(Value::Null);
}
