//! The readable text block of each PubChem result: names, formulas, ids in a few lines.

use crate::tools::entrez_external::shared::output::{s, warnings};
use serde_json::Value;

fn compound_line(c: &Value) -> String {
    let mut head = format!("CID {}", c["cid"]);
    if let Some(t) = c["title"].as_str() {
        head.push_str(&format!(" — {t}"));
    }
    let mut facts = Vec::new();
    if let Some(f) = c["molecular_formula"].as_str() {
        facts.push(f.to_string());
    }
    if let Some(w) = c["molecular_weight"].as_f64() {
        facts.push(format!("{w} g/mol"));
    }
    if let Some(x) = c["xlogp"].as_f64() {
        facts.push(format!("XLogP {x}"));
    }
    if let Some(t) = c["tpsa"].as_f64() {
        facts.push(format!("TPSA {t} Å²"));
    }
    if let (Some(d), Some(a)) = (
        c["hbond_donor_count"].as_u64(),
        c["hbond_acceptor_count"].as_u64(),
    ) {
        facts.push(format!("H-bond donors {d}, acceptors {a}"));
    }
    let mut out = head;
    if !facts.is_empty() {
        out.push_str(&format!("\n   {}", facts.join(" · ")));
    }
    for (label, key) in [
        ("IUPAC name", "iupac_name"),
        ("SMILES", "smiles"),
        ("Connectivity SMILES", "connectivity_smiles"),
        ("InChI", "inchi"),
        ("InChIKey", "inchikey"),
    ] {
        if let Some(v) = c[key].as_str() {
            out.push_str(&format!("\n   {label}: {v}"));
        }
    }
    out
}

/// "CID 2244", "SID 747285" or "AID 1000" for an entry that carries one of those ids.
fn record_id(v: &Value) -> String {
    for key in ["cid", "sid", "aid"] {
        if let Some(id) = v[key].as_u64() {
            return format!("{} {id}", key.to_ascii_uppercase());
        }
    }
    "record".to_string()
}

/// compound, substance and bioassay lookups.
pub fn pubchem_lookup(r: &Value) -> String {
    let ids: Vec<String> = r["identifiers"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| s(i).to_string())
        .collect();
    let mut out = format!(
        "PubChem {} {} for {} {}:",
        s(&r["operation"]),
        s(&r["data"]),
        s(&r["namespace"]),
        ids.join(", ")
    );
    for (i, c) in r["compounds"].as_array().into_iter().flatten().enumerate() {
        out.push_str(&format!("\n{}. {}", i + 1, compound_line(c)));
    }
    for (i, sub) in r["substances"].as_array().into_iter().flatten().enumerate() {
        let cids: Vec<String> = sub["compounds"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| format!("CID {} ({})", c["cid"], s(&c["type"])))
            .collect();
        out.push_str(&format!(
            "\n{}. SID {} from {} (source id {})",
            i + 1,
            sub["sid"],
            sub["source_name"].as_str().unwrap_or("?"),
            sub["source_id"].as_str().unwrap_or("?")
        ));
        if !cids.is_empty() {
            out.push_str(&format!("\n   Compounds: {}", cids.join(", ")));
        }
        let names: Vec<&str> = sub["synonyms"]
            .as_array()
            .into_iter()
            .flatten()
            .take(8)
            .filter_map(Value::as_str)
            .collect();
        if !names.is_empty() {
            out.push_str(&format!("\n   Names: {}", names.join("; ")));
        }
    }
    for (i, a) in r["assays"].as_array().into_iter().flatten().enumerate() {
        out.push_str(&format!(
            "\n{}. AID {} — {}\n   Source: {}",
            i + 1,
            a["aid"],
            a["name"].as_str().unwrap_or("(no name)"),
            a["source_name"].as_str().unwrap_or("?")
        ));
        if let (Some(all), Some(active)) =
            (a["cid_count_all"].as_u64(), a["cid_count_active"].as_u64())
        {
            out.push_str(&format!("\n   Compounds tested: {all}, active: {active}"));
        }
        let targets: Vec<&str> = a["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["name"].as_str())
            .collect();
        if !targets.is_empty() {
            out.push_str(&format!("\n   Targets: {}", targets.join("; ")));
        }
        let d = s(&a["description"]).replace('\n', "\n   ");
        if !d.is_empty() {
            let short: String = d.chars().take(600).collect();
            out.push_str(&format!(
                "\n   {short}{}",
                if d.chars().count() > 600 { "…" } else { "" }
            ));
        }
    }
    for syn in r["synonyms"].as_array().into_iter().flatten() {
        let names: Vec<&str> = syn["synonyms"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!(
            "\n{}: {} synonym(s): {}",
            record_id(syn),
            syn["synonym_count"],
            names.join("; ")
        ));
    }
    for d in r["descriptions"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "\n{} — {}",
            record_id(d),
            d["title"].as_str().unwrap_or("(no title)")
        ));
        for text in d["descriptions"].as_array().into_iter().flatten() {
            out.push_str(&format!(
                "\n   {} [{}]",
                s(&text["text"]),
                text["source"].as_str().unwrap_or("?")
            ));
        }
    }
    if let Some(cids) = r["cids"].as_array() {
        let shown: Vec<String> = cids.iter().take(50).map(Value::to_string).collect();
        out.push_str(&format!(
            "\n{} CID(s): {}{}",
            r["total"],
            shown.join(", "),
            if cids.len() > 50 { ", …" } else { "" }
        ));
    }
    if let Some(p) = r.get("picture") {
        out.push_str(&format!(
            "\nStructure picture of CID {} attached as a PNG image ({} bytes).",
            p["cid"], p["byte_length"]
        ));
    }
    if r["count"] == 0 {
        out.push_str("\nNothing came back.");
    }
    warnings(&mut out, r);
    out
}

/// What to call next after a lookup.
pub fn lookup_hint(r: &Value) -> Option<String> {
    match (s(&r["operation"]), s(&r["data"])) {
        ("compound", "cids") if r["count"].as_u64().unwrap_or(0) > 0 => Some(
            "For properties of these compounds, call entrez_external with service pubchem, operation compound, namespace cid and identifier set to the CIDs (up to 100 per call).".into(),
        ),
        ("compound", "properties") => Some(
            "data picture adds the 2D structure image; data synonyms and description give names and a summary; operation structure_search finds similar compounds.".into(),
        ),
        _ => None,
    }
}

/// Structure search.
pub fn structure_search(r: &Value) -> String {
    let cids: Vec<String> = r["cids"]
        .as_array()
        .into_iter()
        .flatten()
        .take(50)
        .map(Value::to_string)
        .collect();
    let mut out = format!(
        "PubChem {} search ({}) for {} {}",
        s(&r["search_type"]),
        s(&r["mode"]),
        s(&r["namespace"]),
        s(&r["query"])
    );
    if let Some(t) = r["threshold"].as_u64() {
        out.push_str(&format!(" at Tanimoto ≥ {t}%"));
    }
    out.push_str(&format!(": {} compound(s)", r["count"]));
    if !cids.is_empty() {
        out.push_str(&format!(
            "\nCIDs: {}{}",
            cids.join(", "),
            if r["count"].as_u64().unwrap_or(0) > 50 {
                ", …"
            } else {
                ""
            }
        ));
    }
    if let Some(k) = r["listkey"].as_str() {
        out.push_str(&format!(
            "\nCollected from ListKey {k} after {} poll(s).",
            r["polls"]
        ));
    }
    warnings(&mut out, r);
    out
}

/// What to call next after a structure search.
pub fn search_hint(r: &Value) -> Option<String> {
    (r["count"].as_u64().unwrap_or(0) > 0).then(|| {
        "Get names and properties of the hits with operation compound, namespace cid, identifier set to up to 100 of these CIDs.".to_string()
    })
}

/// The text block of a `pug_rest` JSON reply: tables and lists as lines, anything else as JSON.
pub fn pug_json(v: &Value) -> String {
    if let Some(rows) = v["PropertyTable"]["Properties"].as_array() {
        return rows
            .iter()
            .map(|r| {
                r.as_object()
                    .map(|o| {
                        o.iter()
                            .map(|(k, v)| format!("{k}: {}", scalar(v)))
                            .collect::<Vec<_>>()
                            .join(" · ")
                    })
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join("\n");
    }
    if let Some(list) = v.get("IdentifierList") {
        let mut out = String::new();
        for key in [
            "CID",
            "SID",
            "AID",
            "GeneID",
            "ProteinAccession",
            "PathwayAccession",
            "TaxonomyID",
        ] {
            if let Some(ids) = list[key].as_array() {
                out.push_str(&format!(
                    "{} {key}s: {}",
                    ids.len(),
                    ids.iter().map(scalar).collect::<Vec<_>>().join(", ")
                ));
            }
        }
        if let Some(k) = list["ListKey"].as_str() {
            out.push_str(&format!("ListKey {k} ({} ids)", list["Size"]));
        }
        if !out.is_empty() {
            return out;
        }
    }
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
