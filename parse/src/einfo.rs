//! EInfo replies: the list of Entrez databases, or one database's fields and links.
//!
//! EInfo is how a caller learns which search field tags (`[TIAB]`, `[MAJR]`)
//! and which link names (`pubmed_pmc_refs`) exist, so those are kept whole:
//! every field with its flags and every link with its target database. An
//! einfo body that ends early (einfo4.xml) must not pass for a short list; the
//! shared reader reports it as `truncated_response`.

use crate::body_errors::ncbi_error;
use crate::envelope::{count, each_child, root, yes};
use crate::error::ParseError;
use crate::xml::{unexpected, Xml};
use serde::Serialize;

const WHAT: &str = "an EInfo reply";

/// What einfo returned: every database name, or one database described.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EInfo {
    /// einfo without db: the names of all Entrez databases.
    Databases(Vec<String>),
    /// einfo with db: that database's statistics, search fields and links.
    Database(DbInfo),
}

/// One database as einfo describes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DbInfo {
    /// The db parameter value, e.g. "pubmed".
    pub db_name: String,
    /// Display name, e.g. "PubMed".
    pub menu_name: String,
    /// One-line description of the records.
    pub description: String,
    /// Index build identifier.
    pub db_build: Option<String>,
    /// Number of records in the database.
    pub count: Option<u64>,
    /// When the index was last updated, as NCBI writes it.
    pub last_update: Option<String>,
    /// Searchable fields, in NCBI's order.
    pub fields: Vec<DbField>,
    /// Link names leaving this database.
    pub links: Vec<DbLink>,
}

/// A searchable field (the tag used in `term[TAG]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DbField {
    /// Short tag, e.g. "TIAB".
    pub name: String,
    /// Long name, e.g. "Title/Abstract".
    pub full_name: String,
    /// What the field holds.
    pub description: String,
    /// Number of distinct terms, when NCBI reports it (often empty).
    pub term_count: Option<u64>,
    /// The field holds dates (range searches with `:`).
    pub is_date: bool,
    /// The field holds numbers.
    pub is_numerical: bool,
    /// Values are indexed as one token.
    pub single_token: bool,
    /// The field is a hierarchy (e.g. MeSH) that explodes to narrower terms.
    pub hierarchy: bool,
    /// The field is hidden from NCBI's search builder.
    pub is_hidden: bool,
}

/// A named link from this database to another.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DbLink {
    /// Link name for elink's linkname parameter.
    pub name: String,
    /// Menu label.
    pub menu: String,
    /// What the link means.
    pub description: String,
    /// Target database.
    pub db_to: String,
}

/// Parses an einfo XML reply; NCBI `<ERROR>` bodies become an `ncbi_error`.
pub fn parse_einfo(bytes: &[u8]) -> Result<EInfo, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let top = root(&mut x, WHAT)?;
    if top == "ERROR" {
        return Err(ncbi_error(&[x.text()?]));
    }
    if top != "eInfoResult" {
        return Err(unexpected(WHAT, format!("the root element is <{top}>")));
    }
    let mut result = None;
    let mut errors = Vec::new();
    each_child(&mut x, |x, name, _| {
        match name {
            "DbList" => {
                let mut names = Vec::new();
                each_child(x, |x, name, _| {
                    if name == "DbName" {
                        names.push(x.text()?);
                    }
                    Ok(())
                })?;
                result = Some(EInfo::Databases(names));
            }
            "DbInfo" => result = Some(EInfo::Database(db_info(x)?)),
            "ERROR" => {
                let t = x.text()?;
                if !t.is_empty() {
                    errors.push(t);
                }
            }
            _ => {}
        }
        Ok(())
    })?;
    match result {
        Some(r) => Ok(r),
        None if !errors.is_empty() => Err(ncbi_error(&errors)),
        None => Err(unexpected(WHAT, "it holds neither <DbList> nor <DbInfo>")),
    }
}

fn db_info(x: &mut Xml<'_>) -> Result<DbInfo, ParseError> {
    let mut info = DbInfo {
        db_name: String::new(),
        menu_name: String::new(),
        description: String::new(),
        db_build: None,
        count: None,
        last_update: None,
        fields: Vec::new(),
        links: Vec::new(),
    };
    each_child(x, |x, name, _| {
        match name {
            "DbName" => info.db_name = x.text()?,
            "MenuName" => info.menu_name = x.text()?,
            "Description" => info.description = x.text()?,
            "DbBuild" => info.db_build = Some(x.text()?),
            "Count" => info.count = Some(count(&x.text()?, WHAT, "Count")?),
            "LastUpdate" => info.last_update = Some(x.text()?),
            "FieldList" => each_child(x, |x, name, _| {
                if name == "Field" {
                    info.fields.push(field(x)?);
                }
                Ok(())
            })?,
            "LinkList" => each_child(x, |x, name, _| {
                if name == "Link" {
                    info.links.push(link(x)?);
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(info)
}

fn field(x: &mut Xml<'_>) -> Result<DbField, ParseError> {
    let mut f = DbField {
        name: String::new(),
        full_name: String::new(),
        description: String::new(),
        term_count: None,
        is_date: false,
        is_numerical: false,
        single_token: false,
        hierarchy: false,
        is_hidden: false,
    };
    each_child(x, |x, name, _| {
        match name {
            "Name" => f.name = x.text()?,
            "FullName" => f.full_name = x.text()?,
            "Description" => f.description = x.text()?,
            "TermCount" => {
                let t = x.text()?;
                // An empty <TermCount/> means "not reported", which is not zero terms.
                if !t.is_empty() {
                    f.term_count = Some(count(&t, WHAT, "TermCount")?);
                }
            }
            "IsDate" => f.is_date = yes(&x.text()?),
            "IsNumerical" => f.is_numerical = yes(&x.text()?),
            "SingleToken" => f.single_token = yes(&x.text()?),
            "Hierarchy" => f.hierarchy = yes(&x.text()?),
            "IsHidden" => f.is_hidden = yes(&x.text()?),
            _ => {}
        }
        Ok(())
    })?;
    Ok(f)
}

fn link(x: &mut Xml<'_>) -> Result<DbLink, ParseError> {
    let mut l = DbLink {
        name: String::new(),
        menu: String::new(),
        description: String::new(),
        db_to: String::new(),
    };
    each_child(x, |x, name, _| {
        match name {
            "Name" => l.name = x.text()?,
            "Menu" => l.menu = x.text()?,
            "Description" => l.description = x.text()?,
            "DbTo" => l.db_to = x.text()?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(l)
}
