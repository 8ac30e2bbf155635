//! `PubmedBookArticle` (NCBI Bookshelf chapters such as GeneReviews), read minimally.
//!
//! Book records turn up in PubMed searches but have their own shape: the
//! title may be the chapter's or only the book's, and author lists can be
//! the book's editors. An assistant needs to recognise and cite them, not
//! every Bookshelf field, so this reads the PMID, title, abstract, authors,
//! date, keywords and ids into the same record as a journal article.

use super::flatten::{opt_text, text};
use super::read::{attr_is, children};
use super::{
    abstract_sections, article_ids, authors, keywords, pub_date, Ids, PubmedArticle, RecordKind,
};
use crate::error::ParseError;
use crate::xml::Xml;

/// A `PubmedBookArticle`, read minimally.
pub(super) fn book(x: &mut Xml<'_>) -> Result<PubmedArticle, ParseError> {
    let mut rec = PubmedArticle {
        kind: RecordKind::Book,
        ..PubmedArticle::default()
    };
    let mut ids = Ids::default();
    let mut book_title = None;
    let mut book_authors = Vec::new();
    children(x, |x, _, name| {
        match name {
            "BookDocument" => children(x, |x, s, name| {
                match name {
                    "PMID" => rec.pmid = text(x)?,
                    "ArticleTitle" => rec.title = text(x)?,
                    "ArticleIdList" => article_ids(x, &mut ids)?,
                    "Abstract" => abstract_sections(x, &mut rec.abstract_sections)?,
                    "AuthorList" if !attr_is(s, "Type", "editors") => authors(x, &mut rec.authors)?,
                    "Language" => rec.language.extend(opt_text(x)?),
                    "KeywordList" => keywords(x, &mut rec.keywords)?,
                    "PublicationType" => rec.publication_types.extend(opt_text(x)?),
                    "Book" => children(x, |x, s, name| {
                        match name {
                            "BookTitle" => book_title = opt_text(x)?,
                            "PubDate" => (rec.year, rec.pub_date) = pub_date(x)?,
                            "AuthorList" if !attr_is(s, "Type", "editors") => {
                                authors(x, &mut book_authors)?
                            }
                            _ => {}
                        }
                        Ok(())
                    })?,
                    _ => {}
                }
                Ok(())
            })?,
            "PubmedBookData" => children(x, |x, _, name| {
                if name == "ArticleIdList" {
                    article_ids(x, &mut ids)?;
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    if rec.title.is_empty() {
        rec.title = book_title.unwrap_or_default();
    }
    if rec.authors.is_empty() {
        rec.authors = book_authors;
    }
    ids.apply(&mut rec);
    Ok(rec)
}
