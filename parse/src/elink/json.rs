//! ELink JSON replies (retmode=json) into the same record as the XML.
//!
//! The JSON mirrors the XML in lower case: `linksets[].linksetdbs[].links`,
//! `linksetdbhistories`, `idurllist`, `idchecklist`. It is looser about
//! types: links are bare id strings for cmd=neighbor but objects with a
//! score for neighbor_score, URLs are `{"value": ..}` objects, and numbers
//! may be strings. Each accessor here accepts both spellings so one odd field
//! does not lose a whole reply.

use super::{
    ElinkResult, IdCheck, IdUrlSet, Link, LinkHistory, LinkInfo, LinkSet, LinkSetDb, ObjUrl,
};
use crate::body_errors::body_error;
use crate::envelope::{json_strings, json_text, yes};
use crate::error::ParseError;
use crate::xml::unexpected;
use serde_json::Value;

const WHAT: &str = "an ELink JSON reply";

/// Parses an elink JSON reply of any cmd.
pub fn parse_elink_json(bytes: &[u8]) -> Result<ElinkResult, ParseError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| unexpected(WHAT, format!("invalid JSON: {e}")))?;
    let mut r = ElinkResult::default();
    errors_in(&v, &mut r.errors);
    match v.get("linksets") {
        Some(Value::Array(sets)) => {
            for s in sets {
                errors_in(s, &mut r.errors);
                r.linksets.push(link_set(s, &mut r.errors));
            }
        }
        _ if r.errors.is_empty() => {
            return Err(body_error(bytes, Some("application/json"))
                .unwrap_or_else(|| unexpected(WHAT, "it has no \"linksets\" list")));
        }
        _ => {}
    }
    Ok(r)
}

fn errors_in(v: &Value, errors: &mut Vec<String>) {
    for key in ["ERROR", "error"] {
        if let Some(t) = json_text(v.get(key)).filter(|t| !t.trim().is_empty()) {
            errors.push(t);
        }
    }
}

fn link_set(s: &Value, errors: &mut Vec<String>) -> LinkSet {
    let mut set = LinkSet {
        dbfrom: json_text(s.get("dbfrom")).unwrap_or_default(),
        ids: ids(s.get("ids")),
        webenv: json_text(s.get("webenv")),
        info: json_strings(s.get("info")),
        ..LinkSet::default()
    };
    for db in array(s.get("linksetdbs")) {
        errors_in(db, errors);
        set.linksetdbs.push(LinkSetDb {
            dbto: json_text(db.get("dbto")).unwrap_or_default(),
            linkname: json_text(db.get("linkname")).unwrap_or_default(),
            links: array(db.get("links")).iter().filter_map(link).collect(),
        });
    }
    for h in array(s.get("linksetdbhistories")) {
        errors_in(h, errors);
        set.history.push(LinkHistory {
            dbto: json_text(h.get("dbto")).unwrap_or_default(),
            linkname: json_text(h.get("linkname")).unwrap_or_default(),
            query_key: json_text(h.get("querykey")).unwrap_or_default(),
        });
    }
    for u in array(s.get("idurllist")) {
        set.id_url_list.push(IdUrlSet {
            id: json_text(u.get("id")).unwrap_or_default(),
            urls: array(u.get("objurls")).iter().map(obj_url).collect(),
            info: value_text(u.get("info")),
        });
    }
    if let Some(check) = s.get("idchecklist") {
        errors_in(check, errors);
        for id in array(check.get("ids")) {
            set.id_check_list.push(IdCheck {
                id: value_text(Some(id)).unwrap_or_default(),
                has_neighbor: json_text(id.get("hasneighbor")).map(|f| yes(&f)),
                has_linkout: json_text(id.get("haslinkout")).map(|f| yes(&f)),
                link_info: Vec::new(),
            });
        }
        for l in array(check.get("idlinksets")) {
            set.id_check_list.push(IdCheck {
                id: value_text(l.get("id")).unwrap_or_default(),
                link_info: array(l.get("linkinfos")).iter().map(link_info).collect(),
                ..IdCheck::default()
            });
        }
    }
    set
}

/// The elements of a JSON array, or nothing.
fn array(v: Option<&Value>) -> &[Value] {
    match v {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

/// Source ids: a list of strings or numbers, or NCBI's occasional `{"id": [...]}` wrapper.
fn ids(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Object(o)) => json_strings(o.get("id")),
        other => json_strings(other),
    }
}

/// A scalar, or the `value` member of an object such as `{"value": "...", "hasneighbor": "Y"}`.
fn value_text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Object(o) => json_text(o.get("value").or_else(|| o.get("$"))),
        other => json_text(Some(other)),
    }
}

fn link(v: &Value) -> Option<Link> {
    match v {
        Value::Object(o) => Some(Link {
            id: json_text(o.get("id"))?,
            score: json_text(o.get("score")).and_then(|s| s.trim().parse().ok()),
        }),
        other => Some(Link {
            id: json_text(Some(other))?,
            score: None,
        }),
    }
}

fn obj_url(o: &Value) -> ObjUrl {
    let provider = o.get("provider");
    let field = |k: &str| provider.and_then(|p| value_text(p.get(k)));
    ObjUrl {
        url: value_text(o.get("url")).unwrap_or_default(),
        link_name: value_text(o.get("linkname")),
        provider_name: field("name").unwrap_or_default(),
        provider_abbr: field("nameabbr").unwrap_or_default(),
        provider_id: field("id"),
        category: json_strings(o.get("categories")),
        subject_type: json_strings(o.get("subjecttypes")),
        attribute: json_strings(o.get("attributes")),
    }
}

fn link_info(i: &Value) -> LinkInfo {
    LinkInfo {
        dbto: json_text(i.get("dbto")).unwrap_or_default(),
        linkname: json_text(i.get("linkname")).unwrap_or_default(),
        menu_tag: json_text(i.get("menutag")),
        html_tag: json_text(i.get("htmltag")),
        url: value_text(i.get("url")),
        priority: json_text(i.get("priority")).and_then(|p| p.trim().parse().ok()),
    }
}
