//! ELink replies for every cmd, XML and JSON, into one record.
//!
//! One utility, several answers. `neighbor` (and `neighbor_score`) lists linked ids per link
//! name, with scores for similarity links; `neighbor_history` stores them on the history
//! server and returns a QueryKey per link name; `prlinks` and `llinks` give LinkOut URLs with
//! their providers; `acheck`, `ncheck` and `lcheck` say which links exist at all. A
//! `<LinkSet>` carries whichever part the cmd produced, so [`LinkSet`] has a field for each
//! and the others stay empty.

use crate::envelope::{each_child, root, yes};
use crate::error::ParseError;
use crate::xml::{attr, unexpected, Xml};
use serde::Serialize;

pub mod json;

pub use json::parse_elink_json;

const WHAT: &str = "an ELink reply";

/// Everything an elink reply says.
///
/// NCBI reports link failures as `<ERROR>` at the top or inside a LinkSet while other sets
/// still carry results; those messages are collected in `errors` rather than failing the whole
/// reply.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ElinkResult {
    /// One set per source id group (one per `id=` parameter when sent separately).
    pub linksets: Vec<LinkSet>,
    /// NCBI's `<ERROR>` messages, from the top level, link sets and link lists.
    pub errors: Vec<String>,
}

/// The links from one group of source ids.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LinkSet {
    /// Source database.
    pub dbfrom: String,
    /// Source ids.
    pub ids: Vec<String>,
    /// Linked ids per link name (cmd=neighbor, neighbor_score).
    pub linksetdbs: Vec<LinkSetDb>,
    /// History keys per link name (cmd=neighbor_history).
    pub history: Vec<LinkHistory>,
    /// History session holding `history` (cmd=neighbor_history).
    pub webenv: Option<String>,
    /// LinkOut URLs per source id (cmd=prlinks, llinks, llinkslib).
    pub id_url_list: Vec<IdUrlSet>,
    /// Which links exist per source id (cmd=acheck, ncheck, lcheck).
    pub id_check_list: Vec<IdCheck>,
    /// NCBI's `<Info>` notes, e.g. "Empty result".
    pub info: Vec<String>,
}

/// Ids reached through one link name.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LinkSetDb {
    /// Target database.
    pub dbto: String,
    /// Link name, e.g. "pubmed_pubmed".
    pub linkname: String,
    /// Linked ids, in NCBI's order (best first for similarity links).
    pub links: Vec<Link>,
}

/// One linked id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    /// The linked UID.
    pub id: String,
    /// Similarity score (cmd=neighbor_score).
    pub score: Option<i64>,
}

/// A link name's result stored on the history server.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LinkHistory {
    /// Target database.
    pub dbto: String,
    /// Link name.
    pub linkname: String,
    /// Key of the stored set within the linkset's WebEnv.
    pub query_key: String,
}

/// LinkOut resources for one source id.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IdUrlSet {
    /// The source id.
    pub id: String,
    /// Its LinkOut resources.
    pub urls: Vec<ObjUrl>,
    /// NCBI's note when there are none.
    pub info: Option<String>,
}

/// One LinkOut resource.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ObjUrl {
    /// Where the resource is.
    pub url: String,
    /// The resource's own label, when it has one.
    pub link_name: Option<String>,
    /// Provider's name, e.g. "MedlinePlus Health Information".
    pub provider_name: String,
    /// Provider's abbreviation, e.g. "MEDPLUS".
    pub provider_abbr: String,
    /// Provider's LinkOut id.
    pub provider_id: Option<String>,
    /// Categories, e.g. "Full Text Sources" (usually one).
    pub category: Vec<String>,
    /// Subject types.
    pub subject_type: Vec<String>,
    /// Access attributes, e.g. "free resource".
    pub attribute: Vec<String>,
}

/// Which links exist for one source id.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IdCheck {
    /// The source id.
    pub id: String,
    /// Whether it has neighbors in the target (cmd=ncheck).
    pub has_neighbor: Option<bool>,
    /// Whether it has LinkOut resources (cmd=lcheck).
    pub has_linkout: Option<bool>,
    /// The links available from it (cmd=acheck).
    pub link_info: Vec<LinkInfo>,
}

/// One available link (cmd=acheck).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LinkInfo {
    /// Target database ("LinkOut" for external links).
    pub dbto: String,
    /// Link name.
    pub linkname: String,
    /// Menu label.
    pub menu_tag: Option<String>,
    /// Short label.
    pub html_tag: Option<String>,
    /// URL, for LinkOut entries that carry one.
    pub url: Option<String>,
    /// NCBI's display priority (lower shows first).
    pub priority: Option<i64>,
}

/// Parses an elink XML reply of any cmd.
pub fn parse_elink_xml(bytes: &[u8]) -> Result<ElinkResult, ParseError> {
    let mut x = Xml::new(bytes, WHAT)?;
    let mut r = ElinkResult::default();
    let top = root(&mut x, WHAT)?;
    if top == "ERROR" {
        push_error(&mut r.errors, x.text()?);
        return Ok(r);
    }
    if top != "eLinkResult" {
        return Err(unexpected(WHAT, format!("the root element is <{top}>")));
    }
    each_child(&mut x, |x, name, _| {
        match name {
            "LinkSet" => {
                let set = link_set(x, &mut r.errors)?;
                r.linksets.push(set);
            }
            "ERROR" => push_error(&mut r.errors, x.text()?),
            _ => {}
        }
        Ok(())
    })?;
    Ok(r)
}

fn push_error(errors: &mut Vec<String>, text: String) {
    if !text.is_empty() {
        errors.push(text);
    }
}

fn link_set(x: &mut Xml<'_>, errors: &mut Vec<String>) -> Result<LinkSet, ParseError> {
    let mut set = LinkSet::default();
    each_child(x, |x, name, _| {
        match name {
            "DbFrom" => set.dbfrom = x.text()?,
            "IdList" => each_child(x, |x, name, _| {
                if name == "Id" {
                    set.ids.push(x.text()?);
                }
                Ok(())
            })?,
            "LinkSetDb" => {
                let db = link_set_db(x, errors, &mut set.info)?;
                set.linksetdbs.push(db);
            }
            "LinkSetDbHistory" => {
                let h = history(x, errors, &mut set.info)?;
                set.history.push(h);
            }
            "WebEnv" => set.webenv = Some(x.text()?),
            "IdUrlList" => each_child(x, |x, name, _| {
                match name {
                    "IdUrlSet" => set.id_url_list.push(id_url_set(x)?),
                    "Info" => push_error(&mut set.info, x.text()?),
                    _ => {}
                }
                Ok(())
            })?,
            "IdCheckList" => each_child(x, |x, name, start| {
                match name {
                    // ncheck and lcheck answer with flagged <Id>s; acheck with <IdLinkSet>s.
                    "Id" => {
                        let flag = |a: &str| attr(start, a).map(|v| yes(&v));
                        let (has_neighbor, has_linkout) = (flag("HasNeighbor"), flag("HasLinkOut"));
                        set.id_check_list.push(IdCheck {
                            id: x.text()?,
                            has_neighbor,
                            has_linkout,
                            link_info: Vec::new(),
                        });
                    }
                    "IdLinkSet" => set.id_check_list.push(id_link_set(x)?),
                    "ERROR" => push_error(errors, x.text()?),
                    _ => {}
                }
                Ok(())
            })?,
            "Info" => push_error(&mut set.info, x.text()?),
            "ERROR" => push_error(errors, x.text()?),
            _ => {}
        }
        Ok(())
    })?;
    Ok(set)
}

fn link_set_db(
    x: &mut Xml<'_>,
    errors: &mut Vec<String>,
    info: &mut Vec<String>,
) -> Result<LinkSetDb, ParseError> {
    let mut db = LinkSetDb::default();
    each_child(x, |x, name, _| {
        match name {
            "DbTo" => db.dbto = x.text()?,
            "LinkName" => db.linkname = x.text()?,
            "Link" => {
                let mut link = Link {
                    id: String::new(),
                    score: None,
                };
                each_child(x, |x, name, _| {
                    match name {
                        "Id" => link.id = x.text()?,
                        "Score" => {
                            let t = x.text()?;
                            link.score = Some(t.parse().map_err(|_| {
                                unexpected(WHAT, format!("<Score> holds {t:?}, not an integer"))
                            })?);
                        }
                        _ => {}
                    }
                    Ok(())
                })?;
                db.links.push(link);
            }
            "Info" => push_error(info, x.text()?),
            "ERROR" => push_error(errors, x.text()?),
            _ => {}
        }
        Ok(())
    })?;
    Ok(db)
}

fn history(
    x: &mut Xml<'_>,
    errors: &mut Vec<String>,
    info: &mut Vec<String>,
) -> Result<LinkHistory, ParseError> {
    let mut h = LinkHistory::default();
    each_child(x, |x, name, _| {
        match name {
            "DbTo" => h.dbto = x.text()?,
            "LinkName" => h.linkname = x.text()?,
            "QueryKey" => h.query_key = x.text()?,
            "Info" => push_error(info, x.text()?),
            "ERROR" => push_error(errors, x.text()?),
            _ => {}
        }
        Ok(())
    })?;
    Ok(h)
}

fn id_url_set(x: &mut Xml<'_>) -> Result<IdUrlSet, ParseError> {
    let mut set = IdUrlSet::default();
    each_child(x, |x, name, _| {
        match name {
            "Id" => set.id = x.text()?,
            "ObjUrl" => set.urls.push(obj_url(x)?),
            "Info" => set.info = Some(x.text()?),
            _ => {}
        }
        Ok(())
    })?;
    Ok(set)
}

fn obj_url(x: &mut Xml<'_>) -> Result<ObjUrl, ParseError> {
    let mut o = ObjUrl::default();
    each_child(x, |x, name, _| {
        match name {
            "Url" => o.url = x.text()?,
            "LinkName" => o.link_name = Some(x.text()?),
            "Category" => o.category.push(x.text()?),
            "SubjectType" => o.subject_type.push(x.text()?),
            "Attribute" => o.attribute.push(x.text()?),
            // The provider has its own Url and IconUrl, which must not overwrite the resource's.
            "Provider" => each_child(x, |x, name, _| {
                match name {
                    "Name" => o.provider_name = x.text()?,
                    "NameAbbr" => o.provider_abbr = x.text()?,
                    "Id" => o.provider_id = Some(x.text()?),
                    _ => {}
                }
                Ok(())
            })?,
            _ => {}
        }
        Ok(())
    })?;
    Ok(o)
}

fn id_link_set(x: &mut Xml<'_>) -> Result<IdCheck, ParseError> {
    let mut check = IdCheck::default();
    each_child(x, |x, name, _| {
        match name {
            "Id" => check.id = x.text()?,
            "LinkInfo" => {
                let mut info = LinkInfo::default();
                each_child(x, |x, name, _| {
                    match name {
                        "DbTo" => info.dbto = x.text()?,
                        "LinkName" => info.linkname = x.text()?,
                        "MenuTag" => info.menu_tag = Some(x.text()?),
                        "HtmlTag" => info.html_tag = Some(x.text()?),
                        "Url" => info.url = Some(x.text()?),
                        "Priority" => info.priority = x.text()?.parse().ok(),
                        _ => {}
                    }
                    Ok(())
                })?;
                check.link_info.push(info);
            }
            _ => {}
        }
        Ok(())
    })?;
    Ok(check)
}
