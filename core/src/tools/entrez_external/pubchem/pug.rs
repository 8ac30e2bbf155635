//! Reading PUG REST JSON into the shapes this tool returns.
//!
//! PUG REST answers with a handful of envelopes: `PropertyTable`,
//! `InformationList`, `IdentifierList`, `PC_Compounds`, `PC_Substances`,
//! `AssaySummaries`, `PC_AssayContainer`, and for failures `Fault` (and
//! `Waiting` while an asynchronous search runs). Each reader here accepts
//! what PubChem has sent over time, notably both SMILES naming schemes:
//! since 2025 `ConnectivitySMILES` and `SMILES` replace `CanonicalSMILES`
//! and `IsomericSMILES`, and `MolecularWeight` arrives as a string where it
//! used to be a number.

use crate::json;
use crate::tools::entrez_external::shared::fault::{fault, Fault};
use serde_json::{Map, Value};

/// The `Fault` in a body of any output format: JSON, XML (`<Fault><Code>…`), or the
/// `Code: PUGREST.…` / `Message: …` lines PubChem writes in text formats.
pub fn fault_in(body: &[u8]) -> Option<Fault> {
    if let Some(f) = fault(body) {
        return Some(f);
    }
    let text = String::from_utf8_lossy(&body[..body.len().min(64 * 1024)]);
    let code = element(&text, "Code").or_else(|| line_value(&text, "Code"))?;
    if !code.starts_with("PUGREST.") {
        return None;
    }
    let message = element(&text, "Message")
        .or_else(|| line_value(&text, "Message"))
        .unwrap_or_default();
    let details = element(&text, "Details")
        .or_else(|| line_value(&text, "Detail"))
        .into_iter()
        .collect();
    Some(Fault {
        code,
        message,
        details,
    })
}

/// The ListKey of a `Waiting` reply in JSON or XML, if the body is one.
pub fn waiting_in(body: &[u8]) -> Option<String> {
    if body.len() > 64 * 1024 {
        return None;
    }
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        return waiting(&v);
    }
    let text = String::from_utf8_lossy(body);
    if !text.contains("<Waiting") {
        return None;
    }
    element(&text, "ListKey").filter(|k| k.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The text of the first `<name>…</name>` (with or without attributes), trimmed.
fn element(text: &str, name: &str) -> Option<String> {
    let open = text.find(&format!("<{name}"))?;
    let after = &text[open + name.len() + 1..];
    if !after.starts_with(['>', ' ']) {
        return None;
    }
    let start = after.find('>')? + 1;
    let end = after[start..].find(&format!("</{name}>"))?;
    Some(after[start..start + end].trim().to_string())
}

/// The value of a `Name: value` line.
fn line_value(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        l.trim()
            .strip_prefix(name)
            .and_then(|r| r.strip_prefix(':'))
            .map(|v| v.trim().to_string())
    })
}

/// The ListKey and list size of an `IdentifierList` given as a ListKey (`list_return=listkey`).
pub fn listkey_of(v: &Value) -> Option<(String, u64)> {
    let list = v.get("IdentifierList")?;
    let key = &list["ListKey"];
    let key = key
        .as_str()
        .map(String::from)
        .or_else(|| key.as_u64().map(|k| k.to_string()))?;
    let size = list["Size"]
        .as_u64()
        .or_else(|| list["Size"].as_str().and_then(|s| s.parse().ok()))
        .unwrap_or(0);
    Some((key, size))
}

/// The ListKey of a `Waiting` body (an asynchronous search still running).
pub fn waiting(v: &Value) -> Option<String> {
    let key = &v["Waiting"]["ListKey"];
    key.as_str()
        .map(String::from)
        .or_else(|| key.as_u64().map(|k| k.to_string()))
        // It goes into URL paths and is kept with a pending task: letters and digits only.
        .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn number(v: &Value) -> Value {
    match v {
        Value::Number(_) => v.clone(),
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
            .unwrap_or(Value::Null),
        _ => Value::Null,
    }
}

fn first_str<'a>(o: &'a Value, names: &[&str]) -> Option<&'a str> {
    names.iter().find_map(|n| o.get(*n).and_then(Value::as_str))
}

/// One compound's properties under this tool's names, whichever names PubChem used.
pub fn normalize_properties(p: &Value) -> Value {
    json!({
        "cid": p["CID"].as_u64(),
        "title": first_str(p, &["Title"]),
        "molecular_formula": first_str(p, &["MolecularFormula"]),
        "molecular_weight": number(&p["MolecularWeight"]),
        "connectivity_smiles": first_str(p, &["ConnectivitySMILES", "CanonicalSMILES"]),
        "smiles": first_str(p, &["SMILES", "IsomericSMILES", "AbsoluteSMILES"]),
        "inchi": first_str(p, &["InChI"]),
        "inchikey": first_str(p, &["InChIKey"]),
        "iupac_name": first_str(p, &["IUPACName"]),
        "xlogp": number(&p["XLogP"]),
        "tpsa": number(&p["TPSA"]),
        "hbond_donor_count": p["HBondDonorCount"].as_u64(),
        "hbond_acceptor_count": p["HBondAcceptorCount"].as_u64(),
    })
}

/// `PropertyTable.Properties`, normalized.
pub fn properties(v: &Value) -> Vec<Value> {
    v["PropertyTable"]["Properties"]
        .as_array()
        .into_iter()
        .flatten()
        .map(normalize_properties)
        .collect()
}

/// The value of one `props` entry of a full record.
fn prop_value(v: &Value) -> Value {
    for k in ["sval", "fval", "ival", "binary"] {
        if let Some(x) = v.get(k) {
            return x.clone();
        }
    }
    if let Some(list) = v.get("slist").or(v.get("fvec")).or(v.get("ivec")) {
        return list.clone();
    }
    Value::Null
}

/// The `props` list of a full compound record as `"Label (Name)" → value`.
fn props_map(props: &Value) -> Map<String, Value> {
    let mut out = Map::new();
    for p in props.as_array().into_iter().flatten() {
        let label = p["urn"]["label"].as_str().unwrap_or("");
        let key = match p["urn"]["name"].as_str() {
            Some(name) if !label.is_empty() => format!("{label} ({name})"),
            _ => label.to_string(),
        };
        if !key.is_empty() {
            out.insert(key, prop_value(&p["value"]));
        }
    }
    out
}

fn pick<'a>(map: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| map.get(*k))
}

/// `PC_Compounds` records as summaries: ids, counts and every labelled property.
pub fn compound_records(v: &Value) -> Vec<Value> {
    v["PC_Compounds"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let props = props_map(&c["props"]);
            let s = |keys: &[&str]| pick(&props, keys).and_then(Value::as_str).map(String::from);
            let n = |keys: &[&str]| pick(&props, keys).map(number).unwrap_or(Value::Null);
            json!({
                "cid": c["id"]["id"]["cid"].as_u64(),
                "atom_count": c["atoms"]["aid"].as_array().map(Vec::len),
                "bond_count": c["bonds"]["aid1"].as_array().map(Vec::len),
                "charge": c["charge"].as_i64(),
                "molecular_formula": s(&["Molecular Formula"]),
                "molecular_weight": n(&["Molecular Weight"]),
                "connectivity_smiles": s(&["SMILES (Connectivity)", "SMILES (Canonical)"]),
                "smiles": s(&["SMILES (Absolute)", "SMILES (Isomeric)"]),
                "inchi": s(&["InChI (Standard)", "InChI"]),
                "inchikey": s(&["InChIKey (Standard)", "InChIKey"]),
                "iupac_name": s(&["IUPAC Name (Preferred)", "IUPAC Name (Systematic)"]),
                "xlogp": n(&["Log P (XLogP3)", "Log P (XLogP3-AA)"]),
                "tpsa": n(&["Topological (Polar Surface Area)"]),
                "hbond_donor_count": pick(&props, &["Count (Hydrogen Bond Donor)"]).and_then(Value::as_u64),
                "hbond_acceptor_count": pick(&props, &["Count (Hydrogen Bond Acceptor)"]).and_then(Value::as_u64),
                "properties": Value::Object(props.clone()),
            })
        })
        .collect()
}

/// `PC_Substances` records as summaries: SID, depositor and the compounds it maps to.
pub fn substance_records(v: &Value) -> Vec<Value> {
    v["PC_Substances"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let db = &s["source"]["db"];
            let cids: Vec<Value> = s["compound"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|c| {
                    let cid = c["id"]["id"]["cid"].as_u64()?;
                    Some(json!({"cid": cid, "type": compound_type(&c["id"]["type"])}))
                })
                .collect();
            json!({
                "sid": s["sid"]["id"].as_u64(),
                "version": s["sid"]["version"].as_u64(),
                "source_name": db["name"].as_str(),
                "source_id": db["source_id"]["str"].as_str().map(String::from)
                    .or_else(|| db["source_id"]["id"].as_u64().map(|i| i.to_string())),
                "synonyms": s["synonyms"].as_array().cloned().unwrap_or_default(),
                "compounds": cids,
                "comment": s["comment"].as_array().cloned().unwrap_or_default(),
            })
        })
        .collect()
}

/// PC-CompoundType, which JSON writes as its number: 0 is what the depositor sent, 1 PubChem's standardized form.
fn compound_type(v: &Value) -> String {
    if let Some(s) = v.as_str() {
        return s.to_string();
    }
    match v.as_u64() {
        Some(0) => "deposited",
        Some(1) => "standardized",
        Some(2) => "component",
        Some(3) => "neutralized",
        Some(4) => "mixture",
        Some(5) => "tautomer",
        Some(6) => "pka-state",
        _ => "unknown",
    }
    .to_string()
}

fn id_of(o: &Value) -> Value {
    for (k, name) in [("CID", "cid"), ("SID", "sid"), ("AID", "aid")] {
        if let Some(id) = o.get(k).and_then(Value::as_u64) {
            return json!({ name: id });
        }
    }
    json!({})
}

/// `InformationList` synonyms: one entry per record.
pub fn synonyms(v: &Value) -> Vec<Value> {
    v["InformationList"]["Information"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|i| {
            let mut out = id_of(i);
            json::set(
                &mut out,
                "synonyms",
                i.get("Synonym").cloned().unwrap_or(json!([])),
            );
            out
        })
        .collect()
}

/// `InformationList` titles and descriptions, grouped per record in order of first appearance.
pub fn descriptions(v: &Value) -> Vec<Value> {
    let mut groups: Vec<Value> = Vec::new();
    for i in v["InformationList"]["Information"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let id = id_of(i);
        let pos = match groups
            .iter()
            .position(|g| g["cid"] == id["cid"] && g["sid"] == id["sid"] && g["aid"] == id["aid"])
        {
            Some(p) => p,
            None => {
                let mut g = id.clone();
                json::set(&mut g, "title", Value::Null);
                json::set(&mut g, "descriptions", json!([]));
                groups.push(g);
                groups.len() - 1
            }
        };
        let g = &mut groups[pos];
        if let Some(t) = i["Title"].as_str() {
            json::set(g, "title", json!(t));
        }
        if let Some(d) = i["Description"].as_str() {
            if let Some(list) = g["descriptions"].as_array_mut() {
                list.push(json!({
                    "text": d,
                    "source": i["DescriptionSourceName"].as_str(),
                    "url": i["DescriptionURL"].as_str(),
                }));
            }
        }
    }
    groups
}

/// CIDs from `IdentifierList` or per-record `InformationList` entries, de-duplicated in order.
pub fn cids(v: &Value) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    let mut push = |c: &Value| {
        let list: Vec<u64> = match c {
            Value::Array(a) => a.iter().filter_map(Value::as_u64).collect(),
            other => other.as_u64().into_iter().collect(),
        };
        for cid in list {
            if !out.contains(&cid) {
                out.push(cid);
            }
        }
    };
    push(&v["IdentifierList"]["CID"]);
    for i in v["InformationList"]["Information"]
        .as_array()
        .into_iter()
        .flatten()
    {
        push(&i["CID"]);
    }
    out
}

fn text_list(v: &Value) -> String {
    match v {
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join("\n"),
        Value::String(s) => s.clone(),
        _ => String::new(),
    }
}

/// `AssaySummaries.AssaySummary`, normalized.
pub fn assay_summaries(v: &Value) -> Vec<Value> {
    v["AssaySummaries"]["AssaySummary"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|a| {
            let targets: Vec<Value> = a["Target"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| json!({"name": t["Name"].as_str(), "accession": t["Accession"].as_str(), "gene_id": t["GeneID"].as_u64(), "taxonomy_id": t["TaxonomyID"].as_u64()}))
                .collect();
            json!({
                "aid": a["AID"].as_u64(),
                "name": a["Name"].as_str(),
                "source_name": a["SourceName"].as_str(),
                "source_id": a["SourceID"].as_str().map(String::from).or_else(|| a["SourceID"].as_u64().map(|i| i.to_string())),
                "description": text_list(&a["Description"]),
                "protocol": text_list(&a["Protocol"]),
                "comment": text_list(&a["Comment"]),
                "method": a["Method"].as_str(),
                "targets": targets,
                "sid_count_all": a["SIDCountAll"].as_u64(),
                "sid_count_active": a["SIDCountActive"].as_u64(),
                "cid_count_all": a["CIDCountAll"].as_u64(),
                "cid_count_active": a["CIDCountActive"].as_u64(),
                "cid_count_inactive": a["CIDCountInactive"].as_u64(),
                "deposition_date": a["DepositionDate"].clone(),
            })
        })
        .collect()
}

/// `PC_AssayContainer[].assay.descr`, normalized.
pub fn assay_descriptions(v: &Value) -> Vec<Value> {
    v["PC_AssayContainer"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let d = &c["assay"]["descr"];
            let db = &d["aid_source"]["db"];
            let targets: Vec<Value> = d["target"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|t| json!({"name": t["name"].as_str(), "molecule_type": t["molecule_type"].clone()}))
                .collect();
            let columns: Vec<Value> = d["results"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| json!({"tid": r["tid"].as_u64(), "name": r["name"].as_str(), "unit": r["unit"].clone()}))
                .collect();
            json!({
                "aid": d["aid"]["id"].as_u64(),
                "version": d["aid"]["version"].as_u64(),
                "name": d["name"].as_str(),
                "source_name": db["name"].as_str(),
                "source_id": db["source_id"]["str"].as_str(),
                "description": text_list(&d["description"]),
                "protocol": text_list(&d["protocol"]),
                "comment": text_list(&d["comment"]),
                "targets": targets,
                "result_columns": columns,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_smiles_naming_schemes_land_in_the_same_fields() {
        let current = json!({"PropertyTable": {"Properties": [{"CID": 2244, "MolecularWeight": "180.16",
            "ConnectivitySMILES": "CC(=O)OC1=CC=CC=C1C(=O)O", "SMILES": "CC(=O)OC1=CC=CC=C1C(=O)O", "XLogP": 1.2}]}});
        let legacy = json!({"PropertyTable": {"Properties": [{"CID": 2244, "MolecularWeight": 180.16,
            "CanonicalSMILES": "CC(=O)OC1=CC=CC=C1C(=O)O", "IsomericSMILES": "CC(=O)OC1=CC=CC=C1C(=O)O", "XLogP": 1.2}]}});
        let a = properties(&current);
        let b = properties(&legacy);
        assert_eq!(a, b);
        assert_eq!(a[0]["molecular_weight"], json!(180.16));
        assert_eq!(a[0]["connectivity_smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
        assert_eq!(a[0]["inchi"], Value::Null);
    }

    #[test]
    fn faults_waiting_and_identifier_lists() {
        let f = fault(br#"{"Fault": {"Code": "PUGREST.NotFound", "Message": "No CID found", "Details": ["No CID found that matches the given name"]}}"#).unwrap();
        assert_eq!(f.code, "PUGREST.NotFound");
        assert_eq!(
            f.sentence(),
            "No CID found (No CID found that matches the given name)"
        );
        assert!(fault(b"{\"IdentifierList\": {}}").is_none());
        assert_eq!(
            waiting(&json!({"Waiting": {"ListKey": "123", "Message": "Your request is running"}})),
            Some("123".into())
        );
        assert_eq!(
            cids(&json!({"IdentifierList": {"CID": [2244, 2519, 2244]}})),
            vec![2244, 2519]
        );
        assert_eq!(
            cids(
                &json!({"InformationList": {"Information": [{"SID": 1, "CID": [5, 6]}, {"SID": 2, "CID": [6]}]}})
            ),
            vec![5, 6]
        );
    }

    #[test]
    fn descriptions_group_title_and_text_per_record() {
        let v = json!({"InformationList": {"Information": [
            {"CID": 2244, "Title": "Aspirin"},
            {"CID": 2244, "Description": "A salicylate.", "DescriptionSourceName": "ChEBI", "DescriptionURL": "https://x"}]}});
        let d = descriptions(&v);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0]["title"], "Aspirin");
        assert_eq!(d[0]["descriptions"][0]["source"], "ChEBI");
    }
}
