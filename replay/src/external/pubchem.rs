//! PUG REST as the replay answers it: `/rest/pug/<domain>/<namespace>/<id>/<operation>/<output>`.
//!
//! The path is split on `/` before any decoding, exactly as PubChem's own
//! parser sees it: an identifier that needed a form body but came in the
//! path lands in the wrong segment and gets PubChem's BadRequest fault.

use crate::external::form::decode;
use crate::external::pug_formats;
use crate::external::server::{App, Incoming, Pending, Reply};
use serde_json::{json, Map, Value};

const COMPOUND_INPUTS: &[&str] = &[
    "cid",
    "name",
    "smiles",
    "inchi",
    "inchikey",
    "fastformula",
    "listkey",
];
const SEARCHES: &[&str] = &[
    "fastidentity",
    "fastsimilarity_2d",
    "fastsimilarity_3d",
    "fastsubstructure",
    "fastsuperstructure",
    "identity",
    "similarity",
    "substructure",
    "superstructure",
];
const KNOWN_PROPERTIES: &[&str] = &[
    "Title",
    "MolecularFormula",
    "MolecularWeight",
    "ConnectivitySMILES",
    "SMILES",
    "CanonicalSMILES",
    "IsomericSMILES",
    "InChI",
    "InChIKey",
    "IUPACName",
    "XLogP",
    "TPSA",
    "HBondDonorCount",
    "HBondAcceptorCount",
];

/// A Fault reply from the templates, with the message adjusted when given.
fn fault(app: &App, code: &str, message: Option<&str>) -> Reply {
    let t = &app.data.faults[code];
    let status = t["status"].as_u64().unwrap_or(400) as u16;
    let mut f = t["Fault"].clone();
    if let Some(m) = message {
        f["Message"] = json!(m);
        f["Details"] = json!([]);
    }
    Reply::json(status, &json!({ "Fault": f }))
}

fn not_found(app: &App, what: &str) -> Reply {
    fault(app, "PUGREST.NotFound", Some(&format!("No {what} found")))
}

/// A minimal check standing in for PubChem's structure standardizer: brackets and parentheses
/// balance, and every ring-closure digit outside brackets is closed again.
fn plausible_smiles(s: &str) -> bool {
    let mut depth: i32 = 0;
    let mut bracket = false;
    // One bit per ring label 0-9: set while a ring is open. %nn labels are not tracked here.
    let mut rings: u16 = 0;
    let mut percent = 0;
    for c in s.chars() {
        match c {
            '(' if !bracket => depth += 1,
            ')' if !bracket => depth -= 1,
            '[' if !bracket => bracket = true,
            ']' if bracket => bracket = false,
            '[' | ']' => return false,
            '%' if !bracket => percent = 2,
            '0'..='9' if !bracket && percent > 0 => percent -= 1,
            '0'..='9' if !bracket => rings ^= 1 << (c as u32 - '0' as u32),
            c if c.is_ascii_whitespace() => return false,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    depth == 0 && !bracket && rings == 0 && !s.is_empty()
}

/// Answers one PUG REST request, faults in the format it asked for.
pub fn handle(app: &App, req: &Incoming) -> Reply {
    let output = pug_formats::output_of(&req.path).to_string();
    pug_formats::fault_as(answer(app, req), &output)
}

fn answer(app: &App, req: &Incoming) -> Reply {
    let rest = req.path.trim_start_matches("/rest/pug/");
    let segs: Vec<String> = rest.split('/').map(|s| decode(s, false)).collect();
    let seg = |i: usize| segs.get(i).map(String::as_str).unwrap_or("");
    match seg(0) {
        "compound" if SEARCHES.contains(&seg(1)) => search(app, req, &segs),
        "compound" if COMPOUND_INPUTS.contains(&seg(1)) => compound(app, req, &segs),
        "substance" => substance(app, req, &segs),
        "assay" => assay(app, &segs),
        _ => fault(
            app,
            "PUGREST.BadRequest",
            Some("Unrecognized input domain or namespace"),
        ),
    }
}

/// The identifier (from the form body for POST) and the operation segments after it.
fn split_input<'a>(
    req: &'a Incoming,
    segs: &'a [String],
    at: usize,
    key: &str,
) -> (String, &'a [String]) {
    match req.form.get(key) {
        Some(v) if req.post => (v.to_string(), &segs[at.min(segs.len())..]),
        _ => (
            segs.get(at).cloned().unwrap_or_default(),
            &segs[(at + 1).min(segs.len())..],
        ),
    }
}

fn compound(app: &App, req: &Incoming, segs: &[String]) -> Reply {
    let ns = segs[1].as_str();
    let key = if ns == "fastformula" { "formula" } else { ns };
    let (id, tail) = split_input(req, segs, 2, key);
    if id.is_empty() {
        return fault(app, "PUGREST.BadRequest", Some("No input identifier"));
    }
    let cids: Vec<u64> = match ns {
        "cid" => {
            let parsed: Result<Vec<u64>, _> =
                id.split(',').map(|c| c.trim().parse::<u64>()).collect();
            match parsed {
                Ok(list) => list
                    .into_iter()
                    .filter(|c| app.data.compounds.contains_key(c))
                    .collect(),
                Err(_) => return fault(app, "PUGREST.BadRequest", Some("Invalid CID")),
            }
        }
        "name" => app
            .data
            .names
            .get(&id.to_ascii_lowercase())
            .copied()
            .into_iter()
            .collect(),
        "smiles" | "inchi" => {
            if ns == "smiles" && !plausible_smiles(&id) {
                return fault(app, "PUGREST.BadRequest", None);
            }
            if ns == "inchi" && !id.starts_with("InChI=") {
                return fault(app, "PUGREST.BadRequest", None);
            }
            app.data.cid_of_structure(&id).into_iter().collect()
        }
        "inchikey" => app.data.cid_of_inchikey(&id).into_iter().collect(),
        "fastformula" => app.data.formulas.get(&id).cloned().unwrap_or_default(),
        _ => {
            let pending = app.lock().listkeys.get(&id).cloned();
            match pending {
                None => return fault(app, "PUGREST.NotFound", Some("Invalid or expired ListKey")),
                Some(p) if p.waits_left > 0 => {
                    if let Some(p) = app.lock().listkeys.get_mut(&id) {
                        p.waits_left -= 1;
                    }
                    if tail.last().map(String::as_str) == Some("XML") {
                        return waiting_xml(&id);
                    }
                    return waiting(&id);
                }
                Some(p) => {
                    // listkey_start / listkey_count page a stored list (PUG REST, Pagination).
                    let start: usize = req
                        .params
                        .get("listkey_start")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0);
                    let count: usize = req
                        .params
                        .get("listkey_count")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(usize::MAX);
                    p.cids.into_iter().skip(start).take(count).collect()
                }
            }
        }
    };
    if cids.is_empty() {
        return not_found(app, "CID");
    }
    let tail: Vec<&str> = tail.iter().map(String::as_str).collect();
    match tail.as_slice() {
        ["JSON"] => Reply::json(200, &records(app, &cids)),
        ["property", list, "JSON"] => properties(app, &cids, list),
        ["property", list, out @ ("CSV" | "TXT")] => {
            let table = properties(app, &cids, list);
            let Ok(v) = serde_json::from_slice::<Value>(&table.body) else {
                return table;
            };
            let Some(rows) = v["PropertyTable"]["Properties"].as_array() else {
                return table;
            };
            let names: Vec<&str> = list.split(',').map(str::trim).collect();
            match (*out, names.as_slice()) {
                ("CSV", _) => pug_formats::properties_csv(rows, &names),
                ("TXT", [one]) => pug_formats::lines(rows.iter().map(|r| match &r[*one] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })),
                _ => fault(
                    app,
                    "PUGREST.BadRequest",
                    Some("TXT output holds one property"),
                ),
            }
        }
        ["cids", "TXT"] => pug_formats::lines(cids.iter().map(u64::to_string)),
        ["cids", "XML"] => pug_formats::cids_xml(&cids),
        ["synonyms", "JSON"] => {
            let info: Vec<Value> = cids
                .iter()
                .map(|c| json!({"CID": c, "Synonym": app.data.compounds[c]["synonyms"]}))
                .collect();
            Reply::json(200, &json!({"InformationList": {"Information": info}}))
        }
        ["description", "JSON"] => {
            let mut info = Vec::new();
            for c in &cids {
                let entry = &app.data.compounds[c];
                info.push(json!({"CID": c, "Title": entry["properties"]["Title"]}));
                for d in entry["descriptions"].as_array().into_iter().flatten() {
                    let mut d = d.clone();
                    d["CID"] = json!(c);
                    info.push(d);
                }
            }
            Reply::json(200, &json!({"InformationList": {"Information": info}}))
        }
        ["cids", "JSON"] => Reply::json(200, &json!({"IdentifierList": {"CID": cids}})),
        ["PNG"] => Reply::body(200, "image/png", crate::external::data::PNG.to_vec()),
        _ if tail.contains(&"PNG") => fault(
            app,
            "PUGREST.BadRequest",
            Some("PNG is an output format of its own: use /compound/cid/<cid>/PNG"),
        ),
        _ => fault(app, "PUGREST.BadRequest", Some("Invalid operation")),
    }
}

fn waiting(listkey: &str) -> Reply {
    Reply::json(
        202,
        &json!({"Waiting": {"ListKey": listkey, "Message": "Your request is running"}}),
    )
}

/// `PC_Compounds`: the fixture for 2244, a minimal record from the property table otherwise.
fn records(app: &App, cids: &[u64]) -> Value {
    let list: Vec<Value> = cids
        .iter()
        .map(|c| {
            if *c == 2244 {
                return app.data.record_2244["PC_Compounds"][0].clone();
            }
            let p = &app.data.compounds[c]["properties"];
            let prop = |label: &str, name: Option<&str>, value: Value| {
                let mut urn = json!({"label": label});
                if let Some(n) = name {
                    urn["name"] = json!(n);
                }
                json!({"urn": urn, "value": value})
            };
            json!({"id": {"id": {"cid": c}}, "charge": 0, "props": [
                prop("IUPAC Name", Some("Preferred"), json!({"sval": p["IUPACName"]})),
                prop("InChI", Some("Standard"), json!({"sval": p["InChI"]})),
                prop("InChIKey", Some("Standard"), json!({"sval": p["InChIKey"]})),
                prop("Molecular Formula", None, json!({"sval": p["MolecularFormula"]})),
                prop("Molecular Weight", None, json!({"sval": p["MolecularWeight"]})),
                prop("SMILES", Some("Absolute"), json!({"sval": p["SMILES"]})),
                prop("SMILES", Some("Connectivity"), json!({"sval": p["ConnectivitySMILES"]})),
            ]})
        })
        .collect();
    json!({ "PC_Compounds": list })
}

fn properties(app: &App, cids: &[u64], list: &str) -> Reply {
    let names: Vec<&str> = list.split(',').map(str::trim).collect();
    let legacy = app.lock().legacy_smiles;
    for n in &names {
        let renamed = matches!(*n, "ConnectivitySMILES" | "SMILES");
        if !KNOWN_PROPERTIES.contains(n) || (legacy && renamed) {
            return fault(app, "PUGREST.InvalidProperty", None);
        }
    }
    let rows: Vec<Value> = cids
        .iter()
        .map(|c| {
            let p = &app.data.compounds[c]["properties"];
            let mut row = Map::new();
            row.insert("CID".into(), json!(c));
            for n in &names {
                let source = match *n {
                    "CanonicalSMILES" => "ConnectivitySMILES",
                    "IsomericSMILES" => "SMILES",
                    other => other,
                };
                if let Some(v) = p.get(source) {
                    row.insert(n.to_string(), v.clone());
                }
            }
            Value::Object(row)
        })
        .collect();
    Reply::json(200, &json!({"PropertyTable": {"Properties": rows}}))
}

fn search(app: &App, req: &Incoming, segs: &[String]) -> Reply {
    let searcher = segs[1].as_str();
    let ns = segs.get(2).map(String::as_str).unwrap_or("");
    if !matches!(ns, "smiles" | "inchi" | "smarts" | "cid") {
        return fault(
            app,
            "PUGREST.BadRequest",
            Some("Invalid structure search namespace"),
        );
    }
    let (query, tail) = split_input(req, segs, 3, ns);
    let output = match tail
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["cids", out @ ("JSON" | "XML" | "TXT")] => out.to_string(),
        _ => {
            return fault(
                app,
                "PUGREST.BadRequest",
                Some("Structure searches here answer cids in JSON, XML or TXT"),
            )
        }
    };
    if matches!(ns, "smiles" | "smarts") && !plausible_smiles(&query) {
        return fault(app, "PUGREST.BadRequest", None);
    }
    let kind = searcher.trim_start_matches("fast").trim_end_matches("_2d");
    let key = app.data.search_key(ns, &query);
    let threshold: u64 = req
        .params
        .get("Threshold")
        .and_then(|t| t.parse().ok())
        .unwrap_or(90);
    let max: usize = req
        .params
        .get("MaxRecords")
        .and_then(|t| t.parse().ok())
        .unwrap_or(2_000_000);
    let cids: Vec<u64> = app.data.searches[kind][&key]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|hit| kind != "similarity" || hit[1].as_u64().unwrap_or(0) >= threshold)
        .filter_map(|hit| hit[0].as_u64())
        .take(max)
        .collect();
    let as_listkey = req.params.get("list_return") == Some("listkey");
    if searcher.starts_with("fast") && !as_listkey {
        if cids.is_empty() {
            return not_found(app, "hits");
        }
        return match output.as_str() {
            "XML" => pug_formats::cids_xml(&cids),
            "TXT" => pug_formats::lines(cids.iter().map(u64::to_string)),
            _ => Reply::json(200, &json!({"IdentifierList": {"CID": cids}})),
        };
    }
    if as_listkey {
        // The hits stored under a ListKey, answered with its size (PUG REST, list_return).
        let mut s = app.lock();
        let key = s.next_listkey.to_string();
        s.next_listkey += 1;
        let size = cids.len();
        s.listkeys.insert(
            key.clone(),
            Pending {
                cids,
                waits_left: 0,
            },
        );
        return Reply::json(
            200,
            &json!({"IdentifierList": {"ListKey": key, "Size": size}}),
        );
    }
    let mut s = app.lock();
    let key = s.next_listkey.to_string();
    s.next_listkey += 1;
    let waits_left = s.async_waits;
    s.listkeys.insert(key.clone(), Pending { cids, waits_left });
    if output == "XML" {
        return waiting_xml(&key);
    }
    waiting(&key)
}

fn waiting_xml(listkey: &str) -> Reply {
    Reply::body(
        202,
        "application/xml",
        format!("<?xml version=\"1.0\"?>\n<Waiting xmlns=\"http://pubchem.ncbi.nlm.nih.gov/pug_rest\">\n  <ListKey>{listkey}</ListKey>\n  <Message>Your request is running</Message>\n</Waiting>\n"),
    )
}

fn substance(app: &App, req: &Incoming, segs: &[String]) -> Reply {
    let ns = segs.get(1).map(String::as_str).unwrap_or("");
    let (sids, tail): (Vec<u64>, &[String]) = match ns {
        "sid" => {
            let (id, tail) = split_input(req, segs, 2, "sid");
            match id
                .split(',')
                .map(|s| s.trim().parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(list) => (list, tail),
                Err(_) => return fault(app, "PUGREST.BadRequest", Some("Invalid SID")),
            }
        }
        "sourceid" => {
            // PubChem writes a "/" in source names as "."; DTP/NCI is DTP.NCI.
            let source = segs.get(2).cloned().unwrap_or_default().replace('.', "/");
            let id = segs.get(3).cloned().unwrap_or_default();
            let found = app.data.substances.iter().find(|(_, s)| {
                s["source"]["db"]["name"].as_str() == Some(source.as_str())
                    && s["source"]["db"]["source_id"]["str"].as_str() == Some(id.as_str())
            });
            (
                found.map(|(sid, _)| *sid).into_iter().collect(),
                &segs[4.min(segs.len())..],
            )
        }
        "name" => {
            let (name, tail) = split_input(req, segs, 2, "name");
            let lower = name.to_ascii_lowercase();
            let found: Vec<u64> = app
                .data
                .substances
                .iter()
                .filter(|(_, s)| {
                    s["synonyms"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .any(|n| n.as_str().is_some_and(|n| n.eq_ignore_ascii_case(&lower)))
                })
                .map(|(sid, _)| *sid)
                .collect();
            (found, tail)
        }
        _ => {
            return fault(
                app,
                "PUGREST.BadRequest",
                Some("Unrecognized substance namespace"),
            )
        }
    };
    let sids: Vec<u64> = sids
        .into_iter()
        .filter(|s| app.data.substances.contains_key(s))
        .collect();
    if sids.is_empty() {
        return not_found(app, "SID");
    }
    let entries: Vec<&Value> = sids.iter().map(|s| &app.data.substances[s]).collect();
    let tail: Vec<&str> = tail.iter().map(String::as_str).collect();
    match tail.as_slice() {
        ["JSON"] => Reply::json(200, &json!({"PC_Substances": entries})),
        ["synonyms", "JSON"] => {
            let info: Vec<Value> = entries
                .iter()
                .map(|e| json!({"SID": e["sid"]["id"], "Synonym": e["synonyms"]}))
                .collect();
            Reply::json(200, &json!({"InformationList": {"Information": info}}))
        }
        ["cids", "JSON"] => {
            let info: Vec<Value> = entries
                .iter()
                .map(|e| {
                    let cids: Vec<Value> = e["compound"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|c| c["id"]["type"] == 1)
                        .map(|c| c["id"]["id"]["cid"].clone())
                        .collect();
                    json!({"SID": e["sid"]["id"], "CID": cids})
                })
                .collect();
            Reply::json(200, &json!({"InformationList": {"Information": info}}))
        }
        ["description", "JSON"] => {
            let info: Vec<Value> = entries
                .iter()
                .map(|e| json!({"SID": e["sid"]["id"], "Title": e["synonyms"][0]}))
                .collect();
            Reply::json(200, &json!({"InformationList": {"Information": info}}))
        }
        _ => fault(app, "PUGREST.BadRequest", Some("Invalid operation")),
    }
}

fn assay(app: &App, segs: &[String]) -> Reply {
    let seg = |i: usize| segs.get(i).map(String::as_str).unwrap_or("");
    if seg(1) != "aid" {
        return fault(
            app,
            "PUGREST.BadRequest",
            Some("Unrecognized assay namespace"),
        );
    }
    if seg(2) != "1000" {
        return not_found(app, "AID");
    }
    match (seg(3), seg(4)) {
        ("summary", "JSON") => Reply::json(200, &app.data.assay_1000["summary"]),
        ("description", "JSON") => Reply::json(200, &app.data.assay_1000["description"]),
        ("JSON", "") => fault(
            app,
            "PUGREST.Unimplemented",
            Some("Full assay records are not served by this replay"),
        ),
        _ => fault(app, "PUGREST.BadRequest", Some("Invalid operation")),
    }
}
