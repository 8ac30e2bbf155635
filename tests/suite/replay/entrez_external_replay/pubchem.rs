//! PubChem through the dispatcher against the stand-in: lookups, pictures, structure
//! searches and any PUG REST request.

use super::*;

#[test]
fn compound_properties_by_name_with_both_smiles() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "aspirin"}),
        ),
    );
    let sc = &r["structuredContent"];
    assert_eq!(r["isError"], false, "{r}");
    assert_eq!(sc["count"], 1);
    let c = &sc["compounds"][0];
    assert_eq!(c["cid"], 2244);
    assert_eq!(c["molecular_formula"], "C9H8O4");
    assert_eq!(c["molecular_weight"], 180.16);
    assert_eq!(c["connectivity_smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(c["smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(c["inchikey"], "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
    assert_eq!(c["iupac_name"], "2-acetyloxybenzoic acid");
    assert_eq!(c["xlogp"], 1.2);
    assert_eq!(c["tpsa"], 63.6);
    assert_eq!(
        (
            c["hbond_donor_count"].as_u64(),
            c["hbond_acceptor_count"].as_u64()
        ),
        (Some(1), Some(4))
    );
    assert_eq!(sc["legacy_property_names"], false);
    assert_eq!(sc["throttling"]["worst"], "Green");
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("CID 2244 — Aspirin")
            && text.contains("InChIKey: BSYNRYMUTXBXSQ-UHFFFAOYSA-N"),
        "{text}"
    );
}

#[test]
fn picture_is_png_image_content_beside_the_record() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "caffeine", "data": "picture", "image_size": "large"}),
        ),
    );
    assert_eq!(r["isError"], false, "{r}");
    let sc = &r["structuredContent"];
    assert_eq!(sc["compounds"][0]["cid"], 2519);
    assert_eq!(sc["picture"]["cid"], 2519);
    assert_eq!(sc["picture"]["mime_type"], "image/png");
    let image = r["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["type"] == "image")
        .unwrap_or_else(|| panic!("no image block: {r}"));
    assert_eq!(image["mimeType"], "image/png");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap())
        .unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(sc["picture"]["byte_length"], bytes.len());
    let paths: Vec<String> = log(&replay)
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    assert!(
        paths.contains(&"/rest/pug/compound/cid/2519/PNG".to_string()),
        "{paths:?}"
    );
    // A picture's record_type reaches the PNG (PUG REST's own example
    // compound/cid/2244/PNG?record_type=3d&image_size=small), not the property table.
    let r = call(
        &s,
        pubchem(
            "compound",
            json!({"identifier": 2244, "data": "picture", "image_size": "small", "options": {"record_type": "3d"}}),
        ),
    );
    assert_eq!(r["isError"], false, "{r}");
    let sent = log(&replay);
    assert!(
        sent.iter()
            .any(|l| l["path"] == "/rest/pug/compound/cid/2244/PNG"
                && l["query"] == "record_type=3d&image_size=small"),
        "{sent:?}"
    );
    assert!(
        !sent
            .iter()
            .any(|l| l["path"].as_str().unwrap().contains("/property/")
                && l["query"].as_str().unwrap_or("").contains("record_type")),
        "{sent:?}"
    );
    assert!(paths
        .iter()
        .all(|p| !(p.contains("/record/") && p.contains("PNG"))));
}

#[test]
fn structures_with_url_unsafe_characters_are_posted() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sc = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "smiles", "identifier": "C/C=C/C"}),
        ),
    );
    assert_eq!(sc["compounds"][0]["cid"], 62695);
    assert_eq!(sc["compounds"][0]["smiles"], "C/C=C/C");
    assert_eq!(sc["compounds"][0]["connectivity_smiles"], "CC=CC");
    let inchi = "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)";
    let sc = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "inchi", "identifier": inchi, "data": "cids"}),
        ),
    );
    assert_eq!(sc["cids"], json!([2244]));
    let sc = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "acetylsalicylic acid", "data": "cids"}),
        ),
    );
    assert_eq!(sc["cids"], json!([2244]));
    let posts: Vec<Value> = log(&replay)
        .into_iter()
        .filter(|l| l["method"] == "POST")
        .collect();
    assert_eq!(posts.len(), 3, "{posts:?}");
    assert_eq!(posts[0]["body"], "smiles=C%2FC%3DC%2FC");
    assert_eq!(posts[0]["path"], format!("/rest/pug/compound/smiles/property/{}/JSON",
        "Title,MolecularFormula,MolecularWeight,ConnectivitySMILES,SMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount"));
    assert!(posts[1]["body"]
        .as_str()
        .unwrap()
        .starts_with("inchi=InChI%3D1S%2F"));
    assert_eq!(posts[2]["body"], "name=acetylsalicylic%20acid");
}

#[test]
fn record_synonyms_description_cids_inchikey_and_formula() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let rec = ok(
        &s,
        pubchem(
            "compound",
            json!({"identifier": 2244, "data": "record", "detail": "full"}),
        ),
    );
    let c = &rec["compounds"][0];
    assert_eq!(c["cid"], 2244);
    assert_eq!(c["atom_count"], 13);
    assert_eq!(c["iupac_name"], "2-acetyloxybenzoic acid");
    assert_eq!(c["connectivity_smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(c["properties"]["Log P (XLogP3)"], 1.2);
    let syn = ok(
        &s,
        pubchem(
            "compound",
            json!({"identifier": [2244, 2519], "data": "synonyms"}),
        ),
    );
    assert_eq!(syn["count"], 2);
    assert_eq!(syn["synonyms"][0]["synonyms"][0], "aspirin");
    assert_eq!(syn["synonyms"][1]["cid"], 2519);
    let d = ok(
        &s,
        pubchem(
            "compound",
            json!({"identifier": 2244, "data": "description"}),
        ),
    );
    assert_eq!(d["descriptions"][0]["title"], "Aspirin");
    assert!(d["descriptions"][0]["descriptions"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("Aspirin is"));
    let k = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "inchikey", "identifier": "RYYVLZVUVIJVGH-UHFFFAOYSA-N"}),
        ),
    );
    assert_eq!(k["compounds"][0]["title"], "Caffeine");
    let f = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "formula", "identifier": "C9H8O4", "data": "cids"}),
        ),
    );
    assert_eq!(f["cids"], json!([2244]));
    assert_eq!(f["total"], 1);
}

#[test]
fn a_pubchem_that_only_knows_the_old_smiles_names_still_answers() {
    let replay = ExternalReplay::start();
    replay.control("POST", "/__replay/legacy_smiles", r#"{"on": true}"#);
    let s = server(&replay);
    let sc = ok(&s, pubchem("compound", json!({"identifier": 2244})));
    assert_eq!(sc["legacy_property_names"], true);
    assert_eq!(sc["compounds"][0]["smiles"], "CC(=O)OC1=CC=CC=C1C(=O)O");
    assert_eq!(
        sc["compounds"][0]["connectivity_smiles"],
        "CC(=O)OC1=CC=CC=C1C(=O)O"
    );
    assert!(
        sc["warnings"][0]
            .as_str()
            .unwrap()
            .contains("CanonicalSMILES"),
        "{sc}"
    );
}

#[test]
fn substances_and_bioassays() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sub = ok(&s, pubchem("substance", json!({"identifier": 747285})));
    assert_eq!(sub["substances"][0]["sid"], 747285);
    assert_eq!(sub["substances"][0]["source_name"], "DTP/NCI");
    assert_eq!(
        sub["substances"][0]["compounds"][1],
        json!({"cid": 2244, "type": "standardized"})
    );
    let by_source = ok(
        &s,
        pubchem(
            "substance",
            json!({"namespace": "sourceid", "source": "DTP/NCI", "identifier": "747285", "data": "cids"}),
        ),
    );
    assert_eq!(by_source["cids"], json!([2244]));
    let syn = ok(
        &s,
        pubchem(
            "substance",
            json!({"namespace": "name", "identifier": "caffeine", "data": "synonyms"}),
        ),
    );
    assert_eq!(syn["synonyms"][0]["sid"], 4594);
    let summary = ok(&s, pubchem("bioassay", json!({"identifier": 1000})));
    let a = &summary["assays"][0];
    assert_eq!(a["aid"], 1000);
    assert_eq!(a["cid_count_active"], 7);
    assert_eq!(a["targets"][0]["name"], "Example enzyme");
    let desc = ok(
        &s,
        pubchem(
            "bioassay",
            json!({"namespace": "aid", "identifier": 1000, "data": "description"}),
        ),
    );
    assert_eq!(desc["assays"][0]["result_columns"][1]["name"], "IC50");
    let e = err(&s, pubchem("bioassay", json!({"identifier": 999})));
    assert_eq!(e["code"], "pubchem_not_found");
}

#[test]
fn structure_searches_fast_and_async() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sim = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "CC(=O)OC1=CC=CC=C1C(=O)O", "threshold": 95}),
        ),
    );
    assert_eq!(sim["cids"], json!([2244, 338, 5161]));
    assert_eq!(sim["threshold"], 95);
    assert_eq!(sim["mode"], "fast");
    assert_eq!(sim["polls"], 0);
    // Counted through a ListKey, then collected a page at a time: nothing cut without a word.
    assert_eq!(sim["total"], 3);
    assert_eq!(sim["truncated"], false);
    let searched: Vec<String> = log(&replay)
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string() + "?" + l["query"].as_str().unwrap_or(""))
        .collect();
    assert!(
        searched.iter().any(|p| p.contains("/cids/JSON?")
            && p.contains("list_return=listkey")
            && p.contains("Threshold=95")),
        "{searched:?}"
    );
    assert!(
        searched.iter().any(|p| p.contains("/compound/listkey/")
            && p.contains("listkey_start=0")
            && p.contains("listkey_count=1000")),
        "{searched:?}"
    );
    let sub = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async", "max_records": 5}),
        ),
    );
    assert_eq!(sub["count"], 5);
    // The replay keeps a new search "running" for the first poll, so it is collected on the second.
    assert_eq!(sub["polls"], 2);
    assert!(
        sub["listkey"].as_str().is_some_and(|k| !k.is_empty()),
        "{sub}"
    );
    assert!(sub["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("max_records")));
    let by_cid = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "identity", "namespace": "cid", "identifier": 2244}),
        ),
    );
    assert_eq!(by_cid["cids"], json!([2244]));
    let none = ok(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "substructure", "identifier": "CCCCCCCCCCCCCCCCCCCCCCCCCCCCCC"}),
        ),
    );
    assert_eq!(none["count"], 0);
    assert_eq!(none["warnings"][0], "No compound matched.");
    let listkey = sub["listkey"].as_str().unwrap();
    let later = ok(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "listkey", "identifier": listkey, "data": "cids"}),
        ),
    );
    assert_eq!(later["count"], 5);
    let paths: Vec<String> = log(&replay)
        .iter()
        .map(|l| l["path"].as_str().unwrap().to_string())
        .collect();
    assert!(paths
        .iter()
        .any(|p| p == &format!("/rest/pug/compound/listkey/{listkey}/cids/JSON")));
}

#[test]
fn pug_rest_answers_in_the_format_asked_for_and_faults_in_it_too() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let json_table = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "cid", "identifier": [2244, 2519], "data": "property/MolecularFormula,XLogP", "output": "JSON"}),
        ),
    );
    assert_eq!(
        json_table["data"]["PropertyTable"]["Properties"][0]["CID"],
        2244
    );
    assert_eq!(json_table["method"], "GET");
    let csv = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"path": "compound/cid/2244,2519/property/MolecularFormula,XLogP/CSV"}),
        ),
    );
    let text = csv["text"].as_str().unwrap();
    assert!(
        text.starts_with("\"CID\",\"MolecularFormula\",\"XLogP\""),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3, "{text}");
    assert_eq!(csv["request"]["data"], "property/MolecularFormula,XLogP");
    let txt = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "name", "identifier": "aspirin", "data": "cids", "output": "TXT"}),
        ),
    );
    assert_eq!(txt["text"], "2244\n");
    let png = call(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "cid", "identifier": 2244, "output": "PNG", "options": {"image_size": "small"}}),
        ),
    );
    assert_eq!(png["isError"], false, "{png}");
    assert!(png["content"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["type"] == "image"));
    assert!(log(&replay).iter().any(
        |l| l["path"] == "/rest/pug/compound/cid/2244/PNG" && l["query"] == "image_size=small"
    ));
    // options beside a path go out with it, in its query string.
    let by_path = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"path": "compound/cid/2244/PNG", "options": {"record_type": "3d", "image_size": "small"}}),
        ),
    );
    assert_eq!(
        by_path["request"]["options"],
        json!({"record_type": "3d", "image_size": "small"})
    );
    assert!(log(&replay).iter().any(|l| {
        let mut query: Vec<&str> = l["query"].as_str().unwrap_or("").split('&').collect();
        query.sort_unstable();
        l["path"] == "/rest/pug/compound/cid/2244/PNG"
            && query == ["image_size=small", "record_type=3d"]
    }));
    // An XML request meets an XML fault, read into PubChem's own words.
    let missing = err(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "name", "identifier": "notachemicalname", "data": "cids", "output": "XML"}),
        ),
    );
    assert_eq!(missing["code"], "pubchem_not_found", "{missing}");
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .contains("No CID found"),
        "{missing}"
    );
    // An asynchronous search is polled and collected in the output asked for.
    let pending = ok(
        &s,
        pubchem(
            "pug_rest",
            json!({"domain": "compound", "namespace": "substructure/smiles", "identifier": "C1=CC=CC=C1", "data": "cids", "output": "XML"}),
        ),
    );
    assert!(pending["polls"].as_u64().unwrap() >= 1, "{pending}");
    assert!(
        pending["text"].as_str().unwrap().contains("<CID>"),
        "{pending}"
    );
    let listkey = pending["listkey"].as_str().unwrap();
    assert!(log(&replay)
        .iter()
        .any(|l| l["path"] == format!("/rest/pug/compound/listkey/{listkey}/cids/XML")));
}
