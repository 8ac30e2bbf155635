//! The readable text block of each `entrez_query` result.
//!
//! Structured content carries every field; the text gives a person (and an
//! assistant skimming) numbered records with title, authors, journal, year and
//! ids, or the sequence facts that matter, in a few lines each.

use crate::tools::entrez_query::plan::Format;
use serde_json::Value;

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// "Cock PJ, Antao T, Chang JT, et al." from parsed author objects or plain names.
fn authors(list: &Value, limit: usize) -> String {
    let names = crate::framework::shape::names(list);
    let mut out = names
        .iter()
        .take(limit)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > limit {
        out.push_str(", et al.");
    }
    out
}

/// esearch.
pub fn search(db: &str, r: &Value) -> String {
    let ids: Vec<&str> = r["ids"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut out = format!(
        "{} {db} records match; ids {}-{}: {}",
        r["count"],
        r["retstart"].as_u64().unwrap_or(0) + u64::from(!ids.is_empty()),
        r["retstart"].as_u64().unwrap_or(0) + ids.len() as u64,
        if ids.is_empty() {
            "(none)".to_string()
        } else {
            ids.join(", ")
        }
    );
    if let Some(n) = r["flagged"]["retracted_count"].as_u64().filter(|n| *n > 0) {
        out.push_str(&format!(
            "\nRETRACTED: {n} of the matches are retracted publications."
        ));
    }
    if let Some(t) = r["query_translation"].as_str() {
        out.push_str(&format!("\nQuery as NCBI understood it: {t}"));
    }
    if let (Some(w), Some(k)) = (r["webenv"].as_str(), r["query_key"].as_str()) {
        out.push_str(&format!("\nHistory: webenv={w} query_key={k}"));
    }
    for w in r["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("\nWarning: {}", s(w)));
    }
    out
}

/// esummary.
pub fn summary(db: &str, r: &Value) -> String {
    let mut out = format!("{} {db} summaries", r["count"]);
    if r["truncated"] == true {
        out.push_str(&format!(" (of {})", r["total"]));
    }
    out.push_str(":\n");
    out.push_str(&flagged_lead(r));
    for (i, d) in r["docs"].as_array().into_iter().flatten().enumerate() {
        out.push_str(&format!(
            "{}. {}{}\n",
            i + 1,
            integrity_lead(d),
            d["title"].as_str().unwrap_or("(no title)")
        ));
        let who = authors(&d["authors"], 3);
        let mut line = Vec::new();
        if !who.is_empty() {
            line.push(who);
        }
        if let Some(src) = d["source"].as_str() {
            line.push(src.to_string());
        }
        if let Some(y) = d["year"].as_u64() {
            line.push(y.to_string());
        }
        line.push(format!("uid {}", s(&d["uid"])));
        out.push_str(&format!("   {}\n", line.join(" · ")));
    }
    for w in r["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("Error for {}\n", s(w)));
    }
    out
}

/// efetch records, by format.
pub fn records(format: Format, r: &Value) -> String {
    let list = r["records"].as_array().cloned().unwrap_or_default();
    let mut out = format!("{} {} record(s)", r["count"], s(&r["database"]));
    if r["truncated"] == true {
        out.push_str(&format!(" (of {})", r["total"]));
    }
    out.push_str(":\n");
    out.push_str(&flagged_lead(r));
    for (i, rec) in list.iter().enumerate() {
        let n = i + 1;
        let block = match format {
            Format::PubmedXml | Format::Medline => article(rec),
            Format::PmcXml => pmc(rec),
            Format::GbseqXml | Format::TinyseqXml | Format::Fasta | Format::FlatFile => {
                sequence(rec)
            }
            Format::TaxonomyXml => format!(
                "{} (taxid {}), rank {}\n   {}",
                s(&rec["scientific_name"]),
                rec["taxid"],
                rec["rank"].as_str().unwrap_or("unranked"),
                s(&rec["lineage"])
            ),
            _ => {
                let compact = rec.to_string();
                compact.chars().take(400).collect()
            }
        };
        out.push_str(&format!("{n}. {block}\n"));
    }
    for w in r["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("Warning: {}\n", s(w)));
    }
    out
}

/// The plain line a retracted, corrected or concerned record leads with, and a break.
fn integrity_lead(record: &Value) -> String {
    match record["integrity"]["headline"].as_str() {
        Some(line) => format!("{line}\n   "),
        None => String::new(),
    }
}

/// A result's count of retracted records, first, before the records themselves.
fn flagged_lead(r: &Value) -> String {
    let ids: Vec<&str> = r["flagged"]["retracted"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    match ids.len() {
        0 => String::new(),
        1 => format!("RETRACTED among them: PMID {}.\n", ids[0]),
        n => format!("{n} RETRACTED among them: PMIDs {}.\n", ids.join(", ")),
    }
}

fn article(a: &Value) -> String {
    let mut out = integrity_lead(a);
    out.push_str(a["title"].as_str().unwrap_or("(no title)"));
    let who = authors(&a["authors"], 3);
    let mut cite = Vec::new();
    if !who.is_empty() {
        cite.push(who);
    }
    if let Some(j) = a["iso_abbreviation"].as_str().or(a["journal"].as_str()) {
        cite.push(j.to_string());
    }
    if let Some(y) = a["year"].as_i64() {
        cite.push(y.to_string());
    }
    if !cite.is_empty() {
        out.push_str(&format!("\n   {}", cite.join(" · ")));
    }
    let mut ids = vec![format!("PMID {}", s(&a["pmid"]))];
    if let Some(d) = a["doi"].as_str() {
        ids.push(format!("doi {d}"));
    }
    if let Some(p) = a["pmcid"].as_str() {
        ids.push(p.to_string());
    }
    out.push_str(&format!("\n   {}", ids.join(" · ")));
    if let Some(abs) = a["abstract_text"].as_str() {
        // Whole, one labelled section per line: what a reader needs to judge the work.
        for line in abs.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(&format!("\n   {line}"));
        }
    }
    let majors = mesh_majors(a);
    if !majors.is_empty() {
        out.push_str(&format!("\n   MeSH major: {}", majors.join("; ")));
    }
    let keywords: Vec<&str> = a["keywords"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|k| k.as_str().or(k["keyword"].as_str()))
        .collect();
    if !keywords.is_empty() {
        out.push_str(&format!("\n   Keywords: {}", keywords.join("; ")));
    }
    out
}

/// Major MeSH topics: `mesh_major` as shaped, or read from full `mesh` headings.
fn mesh_majors(a: &Value) -> Vec<String> {
    match (a["mesh_major"].as_array(), a["mesh"].as_array()) {
        (Some(list), _) => list
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
        (None, Some(mesh)) => crate::framework::shape::major_topics(mesh),
        (None, None) => Vec::new(),
    }
}

fn pmc(a: &Value) -> String {
    let mut out = a["title"].as_str().unwrap_or("(no title)").to_string();
    let ids: Vec<String> = [
        ("", &a["pmcid"]),
        ("PMID ", &a["pmid"]),
        ("doi ", &a["doi"]),
    ]
    .iter()
    .filter_map(|(p, v)| v.as_str().map(|x| format!("{p}{x}")))
    .collect();
    out.push_str(&format!("\n   {}", ids.join(" · ")));
    if let Some(abs) = a["abstract_text"].as_str().or(a["abstract"].as_str()) {
        out.push_str(&format!("\n   Abstract: {abs}"));
    }
    let sections: Vec<&Value> = a["sections"].as_array().into_iter().flatten().collect();
    if sections.iter().any(|x| x["text"].is_string()) {
        // detail full: the body, section by section.
        for x in &sections {
            out.push_str(&format!(
                "\n   ## {}\n   {}",
                x["title"].as_str().unwrap_or("(untitled)"),
                s(&x["text"])
            ));
        }
    } else {
        let titles: Vec<&str> = sections
            .iter()
            .filter_map(|x| x["title"].as_str())
            .collect();
        if !titles.is_empty() {
            out.push_str(&format!("\n   Sections: {}", titles.join("; ")));
        }
    }
    out
}

fn sequence(r: &Value) -> String {
    let acc = r["accession_version"]
        .as_str()
        .filter(|a| !a.is_empty())
        .unwrap_or(s(&r["accession"]));
    let mut out = format!(
        "{acc} — {}",
        r["definition"].as_str().unwrap_or("(no definition)")
    );
    let mut facts = vec![format!(
        "{} {}",
        r["length"],
        if r["moltype"]
            .as_str()
            .is_some_and(|m| m.eq_ignore_ascii_case("AA"))
        {
            "aa"
        } else {
            "bp"
        }
    )];
    if let Some(m) = r["moltype"].as_str() {
        facts.push(m.to_string());
    }
    if let Some(o) = r["organism"].as_str() {
        facts.push(o.to_string());
    }
    if let Some(t) = r["taxid"].as_u64() {
        facts.push(format!("taxid {t}"));
    }
    if let Some(f) = r["features"].as_array().filter(|f| !f.is_empty()) {
        facts.push(format!("{} features", f.len()));
    }
    out.push_str(&format!("\n   {}", facts.join(" · ")));
    out
}

/// elink.
pub fn link(r: &Value) -> String {
    let mut out = format!("elink {} from {}:\n", s(&r["cmd"]), s(&r["dbfrom"]));
    for set in r["linksets"].as_array().into_iter().flatten() {
        let ids: Vec<&str> = set["ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!("From {} {}:\n", s(&set["dbfrom"]), ids.join(",")));
        for db in set["linksetdbs"].as_array().into_iter().flatten() {
            let links: Vec<String> = db["links"]
                .as_array()
                .into_iter()
                .flatten()
                .take(20)
                .map(|l| match l["score"].as_i64() {
                    Some(sc) => format!("{} ({sc})", s(&l["id"])),
                    None => s(&l["id"]).to_string(),
                })
                .collect();
            let n = db["links"].as_array().map(Vec::len).unwrap_or(0);
            out.push_str(&format!(
                "  {} → {}: {n} link(s) {}{}\n",
                s(&db["linkname"]),
                s(&db["dbto"]),
                links.join(", "),
                if n > 20 { ", …" } else { "" }
            ));
        }
        for h in set["history"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "  {} saved to history: query_key {}\n",
                s(&h["linkname"]),
                h["query_key"]
            ));
        }
        for u in set["id_url_list"].as_array().into_iter().flatten() {
            let urls: Vec<String> = u["urls"]
                .as_array()
                .or(u["obj_urls"].as_array())
                .into_iter()
                .flatten()
                .take(5)
                .map(|o| {
                    format!(
                        "{} ({})",
                        s(&o["url"]),
                        o["provider_name"].as_str().unwrap_or("")
                    )
                })
                .collect();
            out.push_str(&format!("  {}: {}\n", s(&u["id"]), urls.join("; ")));
        }
        for c in set["id_check_list"].as_array().into_iter().flatten() {
            out.push_str(&format!("  {}: {}\n", s(&c["id"]), c));
        }
    }
    for w in r["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("Warning: {}\n", s(w)));
    }
    out
}

/// einfo for one database.
pub fn db_info(d: &Value) -> String {
    let mut out = format!(
        "{} ({}): {}\n{} records, last updated {}\n",
        s(&d["menu_name"]),
        s(&d["db_name"]),
        s(&d["description"]),
        d["count"],
        s(&d["last_update"])
    );
    let fields: Vec<String> = d["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| format!("[{}] {}", s(&f["name"]), s(&f["full_name"])))
        .collect();
    out.push_str(&format!("Search fields: {}\n", fields.join(", ")));
    let links: Vec<&str> = d["links"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| l["name"].as_str())
        .collect();
    out.push_str(&format!("Links: {}", links.join(", ")));
    out
}
