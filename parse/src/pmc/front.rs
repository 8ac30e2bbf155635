//! JATS front matter: journal, ids, title, authors and affiliations, dates,
//! licence, abstract and keywords.
//!
//! Kept apart from the body walk because its difficulty is different: facts
//! are spread out and cross-referenced (an author's `xref rid="aff2"` points
//! to an `aff` that may come before or after it, in the contrib-group or in
//! article-meta), and several elements compete for one field (a graphical
//! abstract beside the main one; epub, ppub and collection dates). Everything
//! is gathered into [`Front`] and resolved once the article ends.

use super::PmcArticle;
use crate::error::ParseError;
use crate::pubmed::flatten::{flatten_skipping, opt_text, text, Flat};
use crate::pubmed::read::{
    attr_is, attr_raw, children, first_year, month_name, normalize_orcid, pmcid,
};
use crate::pubmed::Author;
use crate::xml::Xml;
use quick_xml::events::BytesStart;

/// What the front matter spreads out and the article resolves at its end.
#[derive(Default)]
pub(super) struct Front {
    /// Per author, the ids of the `aff` elements it points to.
    aff_refs: Vec<Vec<String>>,
    /// `aff` elements by id (`None` for an aff without an id).
    affs: Vec<(Option<String>, String)>,
    /// Best publication date so far: (rank, year, text); lower rank wins.
    date: Option<(u8, Option<i32>, Option<String>)>,
    main_abstract_seen: bool,
}

impl Front {
    /// Writes what could only be settled at the end into the record.
    pub(super) fn resolve(self, rec: &mut PmcArticle) {
        resolve_affiliations(&mut rec.authors, self.aff_refs, &self.affs);
        if let Some((_, year, date)) = self.date {
            rec.year = year;
            rec.pub_date = date;
        }
    }
}

/// Reads `journal-meta`: title, abbreviation, ISSN.
pub(super) fn journal_meta(x: &mut Xml<'_>, rec: &mut PmcArticle) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        match name {
            "journal-id" if attr_is(s, "journal-id-type", "iso-abbrev") => {
                rec.iso_abbreviation = opt_text(x)?
            }
            "journal-id"
                if attr_is(s, "journal-id-type", "nlm-ta") && rec.iso_abbreviation.is_none() =>
            {
                rec.iso_abbreviation = opt_text(x)?
            }
            "journal-title" if rec.journal.is_none() => rec.journal = opt_text(x)?,
            "journal-title-group" => children(x, |x, _, name| {
                if name == "journal-title" && rec.journal.is_none() {
                    rec.journal = opt_text(x)?;
                }
                Ok(())
            })?,
            "issn" if rec.issn.is_none() => rec.issn = opt_text(x)?,
            _ => {}
        }
        Ok(())
    })
}

/// Reads `article-meta`, gathering what needs resolving into `front`.
pub(super) fn article_meta(
    x: &mut Xml<'_>,
    rec: &mut PmcArticle,
    front: &mut Front,
) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        match name {
            "article-id" => {
                let value = opt_text(x)?;
                match attr_raw(s, "pub-id-type").as_deref() {
                    Some("pmid") => rec.pmid = value,
                    Some("pmc" | "pmcid") => rec.pmcid = value.as_deref().and_then(pmcid),
                    Some("doi") => rec.doi = value,
                    _ => {}
                }
            }
            "title-group" => children(x, |x, _, name| {
                match name {
                    "article-title" => rec.title = text(x)?,
                    "subtitle" => {
                        let sub = text(x)?;
                        if !sub.is_empty() {
                            rec.title = format!("{}: {sub}", rec.title);
                        }
                    }
                    _ => {}
                }
                Ok(())
            })?,
            "contrib-group" => contrib_group(x, rec, front)?,
            "aff" => front.affs.push(aff(x, s)?),
            "pub-date" => pub_date(x, s, front)?,
            "volume" => rec.volume = opt_text(x)?,
            "issue" => rec.issue = opt_text(x)?,
            "permissions" => permissions(x, rec)?,
            "funding-group" => funding(x, rec)?,
            "abstract" => {
                // A graphical abstract or teaser carries an abstract-type; the main one does not.
                let main = attr_raw(s, "abstract-type").is_none();
                if rec.abstract_text.is_none() || (main && !front.main_abstract_seen) {
                    rec.abstract_text = abstract_text(x)?;
                    front.main_abstract_seen = main;
                }
            }
            "kwd-group" => children(x, |x, _, name| {
                if name == "kwd" {
                    rec.keywords.extend(opt_text(x)?);
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })
}

fn contrib_group(
    x: &mut Xml<'_>,
    rec: &mut PmcArticle,
    front: &mut Front,
) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        match name {
            "contrib" if attr_raw(s, "contrib-type").is_none_or(|t| t == "author") => {
                let mut refs = Vec::new();
                rec.authors.push(contrib(x, &mut refs)?);
                front.aff_refs.push(refs);
            }
            "aff" => front.affs.push(aff(x, s)?),
            _ => {}
        }
        Ok(())
    })
}

fn contrib(x: &mut Xml<'_>, refs: &mut Vec<String>) -> Result<Author, ParseError> {
    let mut a = Author::default();
    children(x, |x, s, name| {
        match name {
            "name" | "name-alternatives" => person_name(x, &mut a)?,
            "collab" => a.collective_name = opt_text(x)?,
            "contrib-id" if attr_is(s, "contrib-id-type", "orcid") => {
                a.orcid = normalize_orcid(&text(x)?)
            }
            "xref" if attr_is(s, "ref-type", "aff") => {
                if let Some(rid) = attr_raw(s, "rid") {
                    refs.extend(rid.split_ascii_whitespace().map(str::to_string));
                }
            }
            "aff" => a.affiliations.push(aff(x, s)?.1),
            _ => {}
        }
        Ok(())
    })?;
    Ok(a)
}

fn person_name(x: &mut Xml<'_>, a: &mut Author) -> Result<(), ParseError> {
    children(x, |x, _, name| {
        match name {
            // In name-alternatives the first name form wins; nesting stops there.
            "name" if a.last_name.is_none() => person_name(x, a)?,
            "surname" => a.last_name = opt_text(x)?,
            "given-names" => a.fore_name = opt_text(x)?,
            "suffix" => a.suffix = opt_text(x)?,
            _ => {}
        }
        Ok(())
    })
}

/// An `aff`: its id and its text without the footnote label ("1", "a").
fn aff(x: &mut Xml<'_>, s: &BytesStart<'_>) -> Result<(Option<String>, String), ParseError> {
    let id = attr_raw(s, "id").map(|i| i.into_owned());
    let mut f = Flat::default();
    flatten_skipping(x, &mut f, &["label"])?;
    Ok((id, f.finish()))
}

/// Gives each author the affiliations it points to; when no author points to
/// any, every author gets every affiliation (the one-affiliation paper).
fn resolve_affiliations(
    authors: &mut [Author],
    refs: Vec<Vec<String>>,
    affs: &[(Option<String>, String)],
) {
    let any_refs = refs.iter().any(|r| !r.is_empty());
    for (author, refs) in authors.iter_mut().zip(refs) {
        if any_refs {
            for r in &refs {
                if let Some((_, text)) = affs.iter().find(|(id, _)| id.as_deref() == Some(r)) {
                    author.affiliations.push(text.clone());
                }
            }
        } else if author.affiliations.is_empty() {
            author.affiliations = affs.iter().map(|(_, t)| t.clone()).collect();
        }
        author.affiliations.retain(|a| !a.is_empty());
    }
}

fn pub_date(x: &mut Xml<'_>, s: &BytesStart<'_>, front: &mut Front) -> Result<(), ParseError> {
    // JATS 1.0-1.2 say pub-type, 1.3 says date-type.
    let kind = attr_raw(s, "pub-type").or_else(|| attr_raw(s, "date-type"));
    let rank = match kind.as_deref() {
        Some("epub") => 0,
        Some("ppub") | Some("pub") => 1,
        Some("collection") => 2,
        _ => 3,
    };
    let (mut year, mut month, mut day, mut season) = (None, None, None, None);
    children(x, |x, _, name| {
        match name {
            "year" => year = opt_text(x)?,
            "month" => month = opt_text(x)?,
            "day" => day = opt_text(x)?,
            "season" => season = opt_text(x)?,
            _ => {}
        }
        Ok(())
    })?;
    if front
        .date
        .as_ref()
        .is_some_and(|(best, _, _)| *best <= rank)
    {
        return Ok(());
    }
    let month = month.map(month_name);
    let parts: Vec<String> = [year.clone(), month.or(season), day]
        .into_iter()
        .flatten()
        .collect();
    let y = year.as_deref().and_then(first_year);
    front.date = Some((rank, y, (!parts.is_empty()).then(|| parts.join(" "))));
    Ok(())
}

fn permissions(x: &mut Xml<'_>, rec: &mut PmcArticle) -> Result<(), ParseError> {
    children(x, |x, s, name| {
        if name == "license" {
            if let Some(href) = attr_raw(s, "href") {
                rec.license_url = Some(href.trim().to_string());
            }
            let mut paragraphs = Vec::new();
            children(x, |x, _, name| {
                match name {
                    "license-p" => paragraphs.extend(opt_text(x)?),
                    "license_ref" if rec.license_url.is_none() => rec.license_url = opt_text(x)?,
                    _ => {}
                }
                Ok(())
            })?;
            if !paragraphs.is_empty() {
                rec.license = Some(paragraphs.join("\n"));
            }
        }
        Ok(())
    })
}

/// The abstract, one line per paragraph; a titled part reads "Title: text".
fn abstract_text(x: &mut Xml<'_>) -> Result<Option<String>, ParseError> {
    let mut lines: Vec<String> = Vec::new();
    children(x, |x, _, name| {
        match name {
            "sec" => {
                let mut title = None;
                let mut paras = Vec::new();
                children(x, |x, _, name| {
                    match name {
                        "title" => title = opt_text(x)?,
                        "label" => {}
                        _ => paras.extend(opt_text(x)?),
                    }
                    Ok(())
                })?;
                let body = paras.join(" ");
                lines.push(match title {
                    Some(t) if !body.is_empty() => format!("{t}: {body}"),
                    Some(t) => t,
                    None => body,
                });
            }
            // The abstract's own heading ("Abstract") says nothing.
            "title" => {}
            _ => lines.extend(opt_text(x)?),
        }
        Ok(())
    })?;
    lines.retain(|l| !l.is_empty());
    Ok((!lines.is_empty()).then(|| lines.join("\n")))
}

/// A funding group: its statements, or else each award's source and id.
fn funding(x: &mut Xml<'_>, rec: &mut PmcArticle) -> Result<(), ParseError> {
    let mut awards = Vec::new();
    let mut statements = Vec::new();
    children(x, |x, _, name| {
        match name {
            "funding-statement" => statements.extend(opt_text(x)?),
            "award-group" => awards.extend(opt_text(x)?),
            _ => {}
        }
        Ok(())
    })?;
    rec.funding.extend(if statements.is_empty() {
        awards
    } else {
        statements
    });
    Ok(())
}
