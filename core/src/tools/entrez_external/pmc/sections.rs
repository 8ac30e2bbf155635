//! An article's full text as a reader asks for it: sections with heading paths, figure and
//! table captions with tables as text rows, back matter; chosen by heading, and cut to a
//! budget naming what was left out.
//!
//! Made from the parsed JATS ([`PmcArticle`]); the operation that fetches it is
//! [`crate::tools::entrez_external::pmc::fulltext`].

use crate::framework::budget;
use crate::json;
use crate::parse::pmc::PmcArticle;
use serde_json::Value;

/// Heading words that stand for each other: a "methods" filter finds "Materials and Methods".
const EQUIVALENTS: &[(&str, &[&str])] = &[
    (
        "methods",
        &[
            "method",
            "materials",
            "methodology",
            "experimental",
            "procedures",
            "study design",
        ],
    ),
    ("results", &["result", "findings", "outcomes"]),
    ("introduction", &["background", "intro"]),
    (
        "discussion",
        &["discussion", "conclusion", "interpretation"],
    ),
    ("conclusions", &["conclusion", "summary"]),
];

/// The words a wanted heading matches, lower-cased: itself and its equivalents.
pub fn terms(wanted: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for w in wanted {
        let w = w.trim().to_lowercase();
        let stem = w.trim_end_matches('s');
        for (name, alts) in EQUIVALENTS {
            if name.trim_end_matches('s') == stem || alts.contains(&w.as_str()) {
                out.push(name.to_string());
                out.extend(alts.iter().map(|a| a.to_string()));
            }
        }
        out.push(w);
    }
    out.sort();
    out.dedup();
    out
}

fn matches(terms: &[String], heading: &str) -> bool {
    let h = heading.to_lowercase();
    terms.iter().any(|t| h.contains(t.as_str()))
}

/// The article as a reader wants it, every part kept (the filter and the budget come after).
pub fn article_value(a: &PmcArticle) -> Value {
    let paths = a.heading_paths();
    let mut sections = Vec::new();
    let mut back = Vec::new();
    for (s, path) in a.sections.iter().zip(&paths) {
        let heading = s.title.clone().unwrap_or_default();
        let entry = json!({"path": path, "heading": heading, "level": s.level, "text": s.text});
        if s.back {
            back.push(entry);
        } else {
            sections.push(entry);
        }
    }
    if !a.funding.is_empty() {
        back.push(json!({"path": "Funding", "heading": "Funding", "level": 1, "text": a.funding.join("\n\n")}));
    }
    let floats: Vec<Value> = a
        .floats
        .iter()
        .map(|f| {
            json!({
                "kind": f.kind, "label": f.label, "caption": f.caption,
                "section": paths.get(f.section).cloned().unwrap_or_default(),
                "rows": f.rows,
            })
        })
        .collect();
    json!({
        "pmcid": a.pmcid, "pmid": a.pmid, "doi": a.doi, "title": a.title,
        "journal": a.journal, "year": a.year, "article_type": a.article_type,
        "license": a.license, "license_url": a.license_url,
        "abstract": a.abstract_text,
        "sections": sections, "floats": floats, "back": back,
    })
}

/// Keeps the parts whose heading path matches one of `wanted` (the abstract when "abstract"
/// is asked for, floats in kept sections or when "figures"/"tables" are, back matter by its
/// heading); records what was left out.
pub fn filter(article: &mut Value, wanted: &[String]) {
    if wanted.is_empty() {
        return;
    }
    let t = terms(wanted);
    let asked = |word: &str| t.iter().any(|x| x == word || x == &format!("{word}s"));
    let mut left: Vec<Value> = Vec::new();
    for key in ["sections", "back"] {
        let Some(Value::Array(items)) = article.get_mut(key).map(Value::take) else {
            continue;
        };
        let (keep, drop): (Vec<Value>, Vec<Value>) = items
            .into_iter()
            .partition(|s| matches(&t, s["path"].as_str().unwrap_or("")));
        left.extend(drop.iter().map(|s| s["path"].clone()));
        article[key] = json!(keep);
    }
    let kept_paths: Vec<String> = article["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|s| s["path"].as_str().map(String::from))
        .collect();
    if let Some(Value::Array(floats)) = article.get_mut("floats").map(Value::take) {
        let keep: Vec<Value> = floats
            .into_iter()
            .filter(|f| {
                let kind = f["kind"].as_str().unwrap_or("");
                asked(kind)
                    || kept_paths
                        .iter()
                        .any(|p| Some(p.as_str()) == f["section"].as_str())
            })
            .collect();
        article["floats"] = json!(keep);
    }
    if !asked("abstract") && !article["abstract"].is_null() {
        article["abstract"] = Value::Null;
        left.insert(0, json!("abstract"));
    }
    json::set(article, "sections_requested", json!(wanted));
    json::set(article, "sections_left_out", json!(left));
}

/// `detail` brief: headings only, no text or rows.
pub fn brief(article: &mut Value) {
    for key in ["sections", "back"] {
        for s in article[key].as_array_mut().into_iter().flatten() {
            if let Some(o) = s.as_object_mut() {
                let chars = o["text"].as_str().map_or(0, |t| t.chars().count());
                o.remove("text");
                o.insert("characters".into(), json!(chars));
            }
        }
    }
    for f in article["floats"].as_array_mut().into_iter().flatten() {
        if let Some(o) = f.as_object_mut() {
            o.remove("rows");
        }
    }
}

/// Cuts an article to `room` characters by dropping its last sections (body, then floats and
/// back matter first), naming each left out and the call that returns them.
pub fn trim(article: &mut Value, room: usize, id: &str) {
    let size = |a: &Value| budget::json_chars(a).max(text(a).chars().count());
    if size(article) <= room {
        return;
    }
    let mut left: Vec<String> = Vec::new();
    for key in ["back", "floats", "sections"] {
        while size(article) > room {
            let Some(dropped) = article[key].as_array_mut().and_then(Vec::pop) else {
                break;
            };
            let name = match key {
                "floats" => dropped["label"]
                    .as_str()
                    .unwrap_or(dropped["kind"].as_str().unwrap_or(""))
                    .to_string(),
                _ => dropped["path"].as_str().unwrap_or("").to_string(),
            };
            left.insert(0, name);
        }
    }
    if left.is_empty() {
        return;
    }
    // Sections come back by their top-level headings; a float or back part by its section.
    let mut headings: Vec<String> = left
        .iter()
        .map(|p| p.split(" > ").next().unwrap_or("").to_string())
        .filter(|h| !h.is_empty() && !h.starts_with("Table") && !h.starts_with("Fig"))
        .collect();
    headings.dedup();
    json::set(article, "cut", json!(true));
    json::set(article, "parts_left_out", json!(left));
    json::set(
        article,
        "next_call",
        json!({"tool": "entrez_external", "arguments": {
            "service": "pmc", "operation": "full_text", "ids": [id], "sections": headings,
        }}),
    );
}

/// The text block of one article.
pub fn text(a: &Value) -> String {
    let s = |v: &Value| v.as_str().unwrap_or("").to_string();
    let mut out = format!(
        "{} [{}{}{}]",
        s(&a["title"]),
        s(&a["id"]),
        a["pmcid"]
            .as_str()
            .map(|p| format!(" · {p}"))
            .unwrap_or_default(),
        a["pmid"]
            .as_str()
            .map(|p| format!(" · PMID {p}"))
            .unwrap_or_default(),
    );
    out.push_str(&format!(
        "\nsource {} · license {}",
        a["source"].as_str().unwrap_or("none"),
        a["license"].as_str().unwrap_or("not stated")
    ));
    if a["retracted"] == true {
        out.push_str(" · RETRACTED");
    }
    if let Some(h) = a["integrity"]["headline"].as_str() {
        out.push_str(&format!("\n{h}"));
    }
    if let Some(r) = a["reason"].as_str() {
        out.push_str(&format!("\nNo full text: {r}"));
    }
    if let Some(ab) = a["abstract"].as_str() {
        out.push_str(&format!("\n\n## Abstract\n{ab}"));
    }
    for sec in a["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(a["back"].as_array().into_iter().flatten())
    {
        let path = s(&sec["path"]);
        out.push_str(&format!(
            "\n\n## {}\n{}",
            if path.is_empty() { "(body)" } else { &path },
            sec["text"]
                .as_str()
                .map(String::from)
                .unwrap_or_else(|| format!("({} characters)", sec["characters"]))
        ));
    }
    for f in a["floats"].as_array().into_iter().flatten() {
        out.push_str(&format!("\n\n[{}] {}", s(&f["label"]), s(&f["caption"])));
        for r in f["rows"].as_array().into_iter().flatten() {
            out.push_str(&format!("\n  {}", s(r)));
        }
    }
    if let Some(left) = a["parts_left_out"].as_array() {
        out.push_str(&format!(
            "\n\nLeft out to fit max_characters: {}; next call: {}",
            left.iter().map(s).collect::<Vec<_>>().join("; "),
            a["next_call"]
        ));
    }
    if let Some(left) = a["sections_left_out"].as_array().filter(|l| !l.is_empty()) {
        out.push_str(&format!(
            "\n\nNot asked for: {}",
            left.iter().map(s).collect::<Vec<_>>().join("; ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_finds_its_variants_and_nothing_else() {
        let t = terms(&["Methods".to_string()]);
        assert!(matches(&t, "Materials and Methods > Data sources"));
        assert!(matches(&t, "Patients and methods"));
        assert!(!matches(&t, "Results"));
        let r = terms(&["results".to_string()]);
        assert!(matches(&r, "Findings"));
        assert!(!matches(&r, "Discussion"));
    }
}
