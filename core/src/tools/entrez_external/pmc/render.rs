//! The readable text block of each PMC result: converted ids, links, citations, passages.

use crate::tools::entrez_external::shared::output::{s, warnings};
use serde_json::Value;

/// ID Converter.
pub fn id_convert(r: &Value) -> String {
    let mut out = format!(
        "{} of {} {} id(s) found in PMC:",
        r["converted"],
        r["count"],
        s(&r["idtype"])
    );
    for rec in r["records"].as_array().into_iter().flatten() {
        if rec["status"] == "error" {
            out.push_str(&format!(
                "\n{}: {}",
                s(&rec["requested_id"]),
                s(&rec["error"])
            ));
            continue;
        }
        let mut ids = Vec::new();
        for (label, key) in [
            ("", "pmcid"),
            ("PMID ", "pmid"),
            ("DOI ", "doi"),
            ("MID ", "mid"),
        ] {
            if let Some(v) = rec[key].as_str() {
                ids.push(format!("{label}{v}"));
            }
        }
        out.push_str(&format!(
            "\n{} → {}",
            s(&rec["requested_id"]),
            ids.join(" · ")
        ));
    }
    // Per-id failures are listed above; only the other warnings are repeated.
    let failed: Vec<String> = r["records"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|rec| rec["status"] == "error")
        .map(|rec| format!("{}:", s(&rec["requested_id"])))
        .collect();
    for w in r["warnings"].as_array().into_iter().flatten() {
        if !failed.iter().any(|f| s(w).starts_with(f.as_str())) {
            out.push_str(&format!("\nWarning: {}", s(w)));
        }
    }
    out
}

/// OA web service.
pub fn oa_service(r: &Value) -> String {
    let mut out = if r["source"] == "pmc_cloud" {
        format!(
            "{} of {} article(s) in PMC's Cloud Service ({} in the Open Access subset):",
            r["records"]
                .as_array()
                .map_or(0, |a| a.iter().filter(|x| x["error"].is_null()).count()),
            r["count"],
            r["open_access"]
        )
    } else {
        format!(
            "{} of {} article(s) are in the PMC Open Access subset:",
            r["open_access"], r["count"]
        )
    };
    for rec in r["records"].as_array().into_iter().flatten() {
        if !rec["error"].is_null() {
            out.push_str(&format!(
                "\n{}: {}",
                s(&rec["id"]),
                s(&rec["error"]["message"])
            ));
            continue;
        }
        let version = match rec["version"].as_u64() {
            Some(v) => format!(
                " · version {v} of {}",
                rec["versions"].as_array().map_or(1, Vec::len)
            ),
            None => String::new(),
        };
        out.push_str(&format!(
            "\n{} — {} · license {}{}{}{}",
            s(&rec["id"]),
            rec["citation"].as_str().unwrap_or("(no citation)"),
            rec["license"].as_str().unwrap_or("not stated"),
            version,
            if rec["manuscript"] == true {
                " · author manuscript"
            } else {
                ""
            },
            if rec["retracted"] == true {
                " · RETRACTED"
            } else {
                ""
            }
        ));
        for l in rec["links"].as_array().into_iter().flatten() {
            out.push_str(&format!("\n   {}: {}", s(&l["format"]), s(&l["href"])));
            if let Some(u) = l["updated"].as_str() {
                out.push_str(&format!(" (updated {u})"));
            }
        }
    }
    out
}

/// Citation exporter.
pub fn citations(r: &Value) -> String {
    let mut out = format!(
        "{} of {} citation(s) from {} in {} format:\n",
        r["exported"],
        r["count"],
        s(&r["database"]),
        s(&r["format"])
    );
    for c in r["citations"].as_array().into_iter().flatten() {
        if c["ok"] == true {
            out.push_str(s(&c["text"]));
            out.push('\n');
        } else {
            out.push_str(&format!("{}: {}\n", s(&c["id"]), s(&c["error"])));
        }
    }
    out.trim_end().to_string()
}

/// The text block of a BioC result: each article's passages under their sections.
pub fn bioc(r: &Value) -> String {
    let mut out = format!(
        "{} of {} article(s) from the BioC API.",
        r["found"], r["count"]
    );
    for a in r["articles"].as_array().into_iter().flatten() {
        out.push_str(&format!("\n\n== {} ==", s(&a["id"])));
        if let Some(x) = a["xml"].as_str() {
            out.push_str(&format!("\n{x}"));
            continue;
        }
        if let Some(e) = a["error"].as_str() {
            out.push_str(&format!("\n{e}"));
            continue;
        }
        let mut section = String::new();
        for p in a["passages"].as_array().into_iter().flatten() {
            let here = s(&p["section"]).to_string();
            if here != section {
                out.push_str(&format!("\n[{here}]"));
                section = here;
            }
            out.push_str(&format!("\n{}", s(&p["text"])));
        }
    }
    warnings(&mut out, r);
    out
}
