//! Each kind of record at the detail the caller chose: one table, read by every tool.
//!
//! Parsers keep everything a record holds (`detail: full`). Most questions
//! need less: `brief` is enough to choose among records, `standard` is what a
//! researcher reads (for literature the whole abstract with its labels,
//! authors' names, main topics). A level is a row of [`KINDS`]: the fields
//! `brief` keeps, the fields `standard` leaves out, and the bulky lists it
//! writes shorter. `fields` then picks fields by name, at the chosen level
//! where it has them and whole otherwise. The text blocks are written from
//! the shaped record, so the same choice shapes both.

use crate::framework::view::{Detail, View};
use crate::json;
use serde_json::{Map, Value};

/// A kind of record this server parses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// PubMed XML or MEDLINE.
    Article,
    /// PMC JATS.
    PmcArticle,
    /// GBSeq, TinySeq, FASTA or a flat file.
    Sequence,
    /// Taxonomy XML.
    Taxon,
    /// An ESummary document.
    Summary,
    /// A PubChem compound.
    Compound,
    /// A BioC document.
    Bioc,
    /// Anything else: the same at every level.
    Other,
}

/// One kind's levels.
struct Levels {
    kind: Kind,
    /// The record's id field, kept whatever `fields` names.
    id: &'static str,
    /// Fields kept at every level, whatever `fields` names: what no reader may miss.
    always: &'static [&'static str],
    /// What `brief` keeps.
    brief: &'static [&'static str],
    /// What `standard` leaves out (`full` keeps everything).
    standard_drops: &'static [&'static str],
}

/// The table: one row per kind.
const KINDS: &[Levels] = &[
    Levels {
        kind: Kind::Article,
        id: "pmid",
        // Retracted, corrected or under concern: said at every level.
        always: &["integrity"],
        brief: &[
            "pmid",
            "kind",
            "title",
            "journal",
            "iso_abbreviation",
            "year",
            "doi",
            "pmcid",
            "integrity",
        ],
        // abstract_text already holds every section with its label; the links behind
        // `integrity` (comments and corrections) are detail `full`'s.
        // title_markup repeats the title with its italics for citation formats.
        standard_drops: &[
            "abstract_sections",
            "mesh",
            "issn",
            "corrections",
            "title_markup",
        ],
    },
    Levels {
        kind: Kind::PmcArticle,
        id: "pmcid",
        always: &[],
        brief: &[
            "pmcid",
            "pmid",
            "doi",
            "title",
            "journal",
            "iso_abbreviation",
            "year",
        ],
        standard_drops: &["issn", "license_url"],
    },
    Levels {
        kind: Kind::Sequence,
        id: "accession_version",
        always: &[],
        brief: &[
            "accession",
            "accession_version",
            "definition",
            "length",
            "moltype",
            "organism",
            "taxid",
        ],
        // The feature table is what makes an annotated record long; the residues stay (a
        // FASTA is asked for them), held to the budget like any text.
        standard_drops: &["features"],
    },
    Levels {
        kind: Kind::Taxon,
        id: "taxid",
        always: &[],
        brief: &["taxid", "scientific_name", "common_name", "rank"],
        standard_drops: &[],
    },
    Levels {
        kind: Kind::Summary,
        id: "uid",
        // Retracted, corrected or under concern: said at every level.
        always: &["integrity"],
        brief: &["uid", "title", "source", "year", "integrity"],
        standard_drops: &[],
    },
    Levels {
        kind: Kind::Compound,
        id: "cid",
        always: &[],
        brief: &[
            "cid",
            "title",
            "molecular_formula",
            "molecular_weight",
            "iupac_name",
        ],
        // Every PubChem property again, under PubChem's own names.
        standard_drops: &["properties"],
    },
    Levels {
        kind: Kind::Bioc,
        id: "id",
        always: &[],
        // format xml is asked for by name, so its text stays at every level.
        brief: &["id", "ok", "error", "passages", "xml"],
        standard_drops: &[],
    },
];

/// Where a record of a kind without its own id field keeps its id, in the order looked for.
const OTHER_IDS: &[&str] = &["cid", "sid", "aid", "requested_id", "pmcid", "id", "uid"];

fn levels(kind: Kind) -> Option<&'static Levels> {
    KINDS.iter().find(|l| l.kind == kind)
}

/// The record as the view asks for it.
pub fn record(kind: Kind, full: Value, view: &View) -> Value {
    record_keeping(kind, full, view, &[])
}

/// The record as the view asks for it, `keep` (the fields its result's schema requires)
/// kept whatever `fields` names.
pub fn record_keeping(kind: Kind, full: Value, view: &View, keep: &[&str]) -> Value {
    let Value::Object(map) = &full else {
        return full;
    };
    let levels = levels(kind);
    let mut shaped = match (levels, view.detail) {
        (None, _) | (_, Detail::Full) => map.clone(),
        (Some(l), Detail::Standard) => standard(kind, l, map),
        (Some(l), Detail::Brief) => brief(kind, l, map),
    };
    if !view.fields.is_empty() {
        let id = levels.map(|l| l.id);
        let always = levels.map_or(&[][..], |l| l.always);
        let wanted = |k: &str| {
            Some(k) == id
                || always.contains(&k)
                || keep.contains(&k)
                || view.fields.iter().any(|f| f == k)
        };
        let mut picked = Map::new();
        for (name, value) in shaped.iter().chain(map.iter()) {
            if wanted(name) && !picked.contains_key(name) {
                picked.insert(name.clone(), value.clone());
            }
        }
        shaped = picked;
    }
    Value::Object(shaped)
}

/// Shapes every record of a list.
pub fn records(kind: Kind, list: Vec<Value>, view: &View) -> Vec<Value> {
    records_keeping(kind, list, view, &[])
}

/// Shapes every record of a list, keeping `keep` in each (see [`record_keeping`]).
pub fn records_keeping(kind: Kind, list: Vec<Value>, view: &View, keep: &[&str]) -> Vec<Value> {
    list.into_iter()
        .map(|r| record_keeping(kind, r, view, keep))
        .collect()
}

/// The id of a record of `kind`: the kind's own id field, else the first id field it has.
pub fn id_of(kind: Kind, record: &Value) -> Option<String> {
    let own = levels(kind).map(|l| l.id);
    own.into_iter()
        .chain(OTHER_IDS.iter().copied())
        .find_map(|f| match &record[f] {
            Value::String(s) if !s.is_empty() => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
}

fn brief(kind: Kind, levels: &Levels, map: &Map<String, Value>) -> Map<String, Value> {
    let mut out: Map<String, Value> = levels
        .brief
        .iter()
        .filter_map(|k| map.get(*k).map(|v| (k.to_string(), v.clone())))
        .filter(|(_, v)| !v.is_null())
        .collect();
    if kind == Kind::Bioc {
        // The title and abstract passages: what a reader skims before the body.
        if let Some(Value::Array(passages)) = out.get_mut("passages") {
            passages.retain(|p| {
                let section = p["section"].as_str().unwrap_or("").to_ascii_uppercase();
                section == "TITLE" || section == "ABSTRACT"
            });
        }
    }
    out
}

fn standard(kind: Kind, levels: &Levels, map: &Map<String, Value>) -> Map<String, Value> {
    let mut out: Map<String, Value> = map
        .iter()
        .filter(|(k, _)| !levels.standard_drops.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    match kind {
        Kind::Article => {
            if let Some(list) = map.get("authors") {
                out.insert("authors".into(), json!(names(list)));
            }
            if let Some(Value::Array(mesh)) = map.get("mesh") {
                out.insert("mesh_major".into(), json!(major_topics(mesh)));
            }
            if let Some(Value::Array(words)) = map.get("keywords") {
                let words: Vec<&str> = words.iter().filter_map(|k| k["keyword"].as_str()).collect();
                out.insert("keywords".into(), json!(words));
            }
        }
        Kind::PmcArticle => {
            if let Some(list) = map.get("authors") {
                out.insert("authors".into(), json!(names(list)));
            }
            // The outline, not the body: `full` has every section's text.
            if let Some(Value::Array(sections)) = map.get("sections") {
                let outline: Vec<Value> = sections
                    .iter()
                    .map(|s| json!({"position": s["position"].clone(), "level": s["level"].clone(), "title": s["title"].clone()}))
                    .collect();
                out.insert("sections".into(), Value::Array(outline));
            }
        }
        Kind::Sequence => {
            if let Some(Value::Array(features)) = map.get("features") {
                out.insert("feature_count".into(), json!(features.len()));
            }
        }
        Kind::Summary => {
            // Every scalar field of the docsum; lists and nested records only at full.
            if let Some(Value::Object(fields)) = map.get("fields") {
                let scalars: Map<String, Value> = fields
                    .iter()
                    .filter(|(_, v)| !v.is_array() && !v.is_object())
                    .filter(|(_, v)| v.as_str() != Some(""))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                out.insert("fields".into(), Value::Object(scalars));
            }
        }
        _ => {}
    }
    out
}

/// Authors as "Last Initials" (or the collective's name), in citation order.
pub fn names(list: &Value) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| match a {
            Value::String(n) => Some(n.clone()),
            Value::Object(_) => {
                if let Some(c) = a["collective_name"].as_str() {
                    return Some(c.to_string());
                }
                let last = a["last_name"].as_str().or(a["surname"].as_str())?;
                let initials = a["initials"]
                    .as_str()
                    .or(a["given_names"].as_str())
                    .unwrap_or("");
                Some(format!("{last} {initials}").trim().to_string())
            }
            _ => None,
        })
        .collect()
}

/// MeSH descriptors that are major topics themselves or through a qualifier.
pub fn major_topics(mesh: &[Value]) -> Vec<String> {
    mesh.iter()
        .filter(|h| {
            h["major"] == true
                || h["qualifiers"]
                    .as_array()
                    .is_some_and(|q| q.iter().any(|q| q["major"] == true))
        })
        .filter_map(|h| h["descriptor"].as_str().map(String::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn article() -> Value {
        json!({
            "pmid": "1", "kind": "article", "title": "T", "abstract_text": "BACKGROUND: b\nRESULTS: r",
            "abstract_sections": [{"label": "BACKGROUND", "text": "b"}, {"label": "RESULTS", "text": "r"}],
            "authors": [{"last_name": "Cock", "initials": "PJ", "affiliations": ["Dundee"]},
                        {"collective_name": "The Group", "affiliations": []}],
            "journal": "J", "year": 2009, "issn": "1", "doi": "10/x",
            "mesh": [{"descriptor": "Humans", "major": false, "qualifiers": []},
                     {"descriptor": "Software", "major": false, "qualifiers": [{"name": "methods", "major": true}]}],
            "keywords": [{"keyword": "python", "major": false}],
        })
    }

    fn view(detail: Detail, fields: &[&str]) -> View {
        View {
            detail,
            fields: fields.iter().map(|f| f.to_string()).collect(),
            ..View::default()
        }
    }

    #[test]
    fn standard_article_keeps_the_abstract_and_writes_lists_shorter() {
        let a = record(Kind::Article, article(), &view(Detail::Standard, &[]));
        assert_eq!(a["abstract_text"], "BACKGROUND: b\nRESULTS: r");
        assert_eq!(a["authors"], json!(["Cock PJ", "The Group"]));
        assert_eq!(a["mesh_major"], json!(["Software"]));
        assert_eq!(a["keywords"], json!(["python"]));
        assert!(a.get("abstract_sections").is_none() && a.get("mesh").is_none());
    }

    #[test]
    fn brief_keeps_what_chooses_and_full_keeps_everything() {
        let b = record(Kind::Article, article(), &view(Detail::Brief, &[]));
        let keys: Vec<&String> = b.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["doi", "journal", "kind", "pmid", "title", "year"]);
        assert_eq!(
            record(Kind::Article, article(), &view(Detail::Full, &[])),
            article()
        );
    }

    #[test]
    fn fields_pick_by_name_at_the_level_or_whole() {
        let a = record(
            Kind::Article,
            article(),
            &view(Detail::Standard, &["title", "mesh", "authors", "nothing"]),
        );
        assert_eq!(
            a.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["authors", "mesh", "pmid", "title"]
        );
        assert_eq!(a["mesh"][1]["qualifiers"][0]["name"], "methods");
        assert_eq!(a["authors"][0], "Cock PJ");
    }

    #[test]
    fn fields_never_drop_what_the_schema_requires() {
        let r = json!({"requested_id": "PMC1", "status": "ok", "pmid": "1", "doi": "10/x"});
        let v = view(Detail::Standard, &["doi"]);
        let picked = record_keeping(Kind::Other, r.clone(), &v, &["requested_id", "status"]);
        assert_eq!(
            picked,
            json!({"requested_id": "PMC1", "status": "ok", "doi": "10/x"})
        );
        assert_eq!(record(Kind::Other, r.clone(), &View::default()), r);
    }

    #[test]
    fn each_kind_is_known_by_its_own_id() {
        let pmc = json!({"pmid": "1", "pmcid": "PMC2"});
        assert_eq!(id_of(Kind::PmcArticle, &pmc).as_deref(), Some("PMC2"));
        assert_eq!(id_of(Kind::Article, &pmc).as_deref(), Some("1"));
        assert_eq!(
            id_of(Kind::Other, &json!({"cid": 2244})).as_deref(),
            Some("2244")
        );
    }

    #[test]
    fn standard_summary_keeps_scalar_fields_only() {
        let d = json!({"uid": "1", "title": "T", "fields": {"pubdate": "2009", "history": [1], "elocationid": ""}});
        let s = record(Kind::Summary, d, &view(Detail::Standard, &[]));
        assert_eq!(s["fields"], json!({"pubdate": "2009"}));
    }
}
