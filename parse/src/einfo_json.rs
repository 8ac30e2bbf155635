//! EInfo JSON replies (retmode=json) into the same record as the XML.
//!
//! The JSON mirrors version 2.0's XML in lower case: `einforesult.dblist`
//! for the database list, `einforesult.dbinfo[0]` with `fieldlist` and
//! `linklist` for one database. Flags are "Y"/"N" strings and counts are
//! strings, as in the XML, so the same readers apply.

use crate::body_errors::{body_error, ncbi_error};
use crate::einfo::{DbField, DbInfo, DbLink, EInfo};
use crate::envelope::{json_count, json_strings, json_text, yes};
use crate::error::ParseError;
use crate::xml::unexpected;
use serde_json::Value;

const WHAT: &str = "an EInfo JSON reply";

/// Parses an einfo JSON reply: the database list, or one database described.
pub fn parse_einfo_json(bytes: &[u8]) -> Result<EInfo, ParseError> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| unexpected(WHAT, format!("invalid JSON: {e}")))?;
    let Some(result) = v.get("einforesult") else {
        return Err(body_error(bytes, Some("application/json"))
            .unwrap_or_else(|| unexpected(WHAT, "it has no \"einforesult\" object")));
    };
    if let Some(message) = json_text(result.get("ERROR").or_else(|| result.get("error"))) {
        return Err(ncbi_error(&[message]));
    }
    if let Some(list) = result.get("dblist") {
        return Ok(EInfo::Databases(json_strings(Some(list))));
    }
    let info = match result.get("dbinfo") {
        Some(Value::Array(items)) => items.first(),
        Some(other @ Value::Object(_)) => Some(other),
        _ => None,
    }
    .ok_or_else(|| unexpected(WHAT, "it has neither \"dblist\" nor \"dbinfo\""))?;
    let text = |k: &str| json_text(info.get(k)).unwrap_or_default();
    let flag = |f: &Value, k: &str| json_text(f.get(k)).is_some_and(|t| yes(&t));
    let fields = array(info.get("fieldlist"))
        .map(|f| DbField {
            name: json_text(f.get("name")).unwrap_or_default(),
            full_name: json_text(f.get("fullname")).unwrap_or_default(),
            description: json_text(f.get("description")).unwrap_or_default(),
            term_count: json_count(f.get("termcount")),
            is_date: flag(f, "isdate"),
            is_numerical: flag(f, "isnumerical"),
            single_token: flag(f, "singletoken"),
            hierarchy: flag(f, "hierarchy"),
            is_hidden: flag(f, "ishidden"),
        })
        .collect();
    let links = array(info.get("linklist"))
        .map(|l| DbLink {
            name: json_text(l.get("name")).unwrap_or_default(),
            menu: json_text(l.get("menu")).unwrap_or_default(),
            description: json_text(l.get("description")).unwrap_or_default(),
            db_to: json_text(l.get("dbto")).unwrap_or_default(),
        })
        .collect();
    Ok(EInfo::Database(DbInfo {
        db_name: text("dbname"),
        menu_name: text("menuname"),
        description: text("description"),
        db_build: json_text(info.get("dbbuild")),
        count: json_count(info.get("count")),
        last_update: json_text(info.get("lastupdate")),
        fields,
        links,
    }))
}

fn array(v: Option<&Value>) -> impl Iterator<Item = &Value> {
    v.and_then(Value::as_array).into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_database_list_and_one_database_read_as_the_xml_does() {
        let list = br#"{"header":{"type":"einfo","version":"0.3"},"einforesult":{"dblist":["pubmed","protein"]}}"#;
        assert_eq!(
            parse_einfo_json(list).unwrap(),
            EInfo::Databases(vec!["pubmed".into(), "protein".into()])
        );
        let one = br#"{"einforesult":{"dbinfo":[{"dbname":"protein","menuname":"Protein","description":"Protein sequence record","dbbuild":"Build1","count":"1200","lastupdate":"2026/01/10 03:02",
            "fieldlist":[{"name":"ALL","fullname":"All Fields","description":"All terms","termcount":"0","isdate":"N","isnumerical":"N","singletoken":"N","hierarchy":"N","ishidden":"N"},
                         {"name":"PDAT","fullname":"Publication Date","description":"Date","isdate":"Y","isnumerical":"N","singletoken":"Y","hierarchy":"N","ishidden":"N"}],
            "linklist":[{"name":"protein_gene","menu":"Gene","description":"Gene records","dbto":"gene"}]}]}}"#;
        let EInfo::Database(db) = parse_einfo_json(one).unwrap() else {
            panic!("one database")
        };
        assert_eq!((db.db_name.as_str(), db.count), ("protein", Some(1200)));
        assert_eq!(db.fields.len(), 2);
        assert!(db.fields[1].is_date && db.fields[1].single_token && !db.fields[0].is_date);
        assert_eq!(db.links[0].db_to, "gene");
    }

    #[test]
    fn errors_and_other_bodies_are_errors() {
        assert!(parse_einfo_json(br#"{"einforesult":{"ERROR":"Invalid db name"}}"#).is_err());
        assert!(parse_einfo_json(b"<html>").is_err());
        assert!(parse_einfo_json(br#"{"einforesult":{}}"#).is_err());
    }
}
