//! PubChem's requests: lookups, pictures, ListKeys and structure searches, by exact URL and
//! body, and every option where PUG REST documents it.

use super::{config, get, post, read};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::error::ErrorKind;
use entrez_mcp_core::net::HttpCall;
use entrez_mcp_core::tools::entrez_external::call::ExternalCall;
use entrez_mcp_core::tools::entrez_external::pubchem::call::PubChemCall;
use entrez_mcp_core::tools::entrez_external::pubchem::plan as pubchem_plan;
use entrez_mcp_core::tools::entrez_external::pubchem::plan::PugPlan;
use entrez_mcp_core::tools::entrez_external::pubchem::plan::SearchPlan;
use serde_json::{json, Value};

const PUG: &str = "https://pubchem.ncbi.nlm.nih.gov/rest/pug/";
const PROPS: &str = "Title,MolecularFormula,MolecularWeight,ConnectivitySMILES,SMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount";

fn lookup_plan(cfg: &Config, args: &Value, legacy: bool) -> Result<PugPlan, Error> {
    match read(args, "compound") {
        ExternalCall::PubChem(
            PubChemCall::Compound(l) | PubChemCall::Substance(l) | PubChemCall::Bioassay(l),
        ) => pubchem_plan::pubchem_lookup(cfg, &l, legacy),
        other => panic!("not a lookup: {other:?}"),
    }
}

fn search_plan(cfg: &Config, args: &Value) -> Result<SearchPlan, Error> {
    match read(args, "structure_search") {
        ExternalCall::PubChem(PubChemCall::StructureSearch(s)) => {
            pubchem_plan::structure_search(cfg, &s)
        }
        other => panic!("not a search: {other:?}"),
    }
}

fn as_lookup(args: Value) -> entrez_mcp_core::tools::entrez_external::pubchem::call::Lookup {
    match read(&args, "compound") {
        ExternalCall::PubChem(
            PubChemCall::Compound(l) | PubChemCall::Substance(l) | PubChemCall::Bioassay(l),
        ) => l,
        other => panic!("not a lookup: {other:?}"),
    }
}

/// A PUG REST URL's path after `rest/pug/` without its output format, and its query
/// parameters (decoded), to compare a friendly operation's JSON request with a documented URL.
fn pug_parts(url: &str) -> (String, std::collections::BTreeMap<String, String>) {
    let tail = url.split("/rest/pug/").nth(1).unwrap_or(url);
    let (path, query) = tail.split_once('?').unwrap_or((tail, ""));
    let path = path.rsplit_once('/').map_or(path, |(p, _)| p).to_string();
    let params = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (
                entrez_mcp_core::net::percent_decode(k, true),
                entrez_mcp_core::net::percent_decode(v, true),
            )
        })
        .collect();
    (path, params)
}

fn lookup(args: Value) -> HttpCall {
    lookup_plan(&config(), &args, false).unwrap().call
}

fn search(args: Value) -> HttpCall {
    search_plan(&config(), &args).unwrap().call
}

#[test]
fn compound_lookups_put_safe_identifiers_in_the_path() {
    let c = lookup(json!({"operation": "compound", "namespace": "name", "identifier": "aspirin"}));
    assert_eq!(
        get(&c),
        format!("{PUG}compound/name/aspirin/property/{PROPS}/JSON")
    );
    let c =
        lookup(json!({"operation": "compound", "identifier": [2244, "2519"], "data": "synonyms"}));
    assert_eq!(
        get(&c),
        format!("{PUG}compound/cid/2244,2519/synonyms/JSON")
    );
    // PUG REST's own comma list is read as the same two CIDs.
    let p = lookup_plan(
        &config(),
        &json!({"operation": "compound", "identifier": ["2244, 2519", 3672]}),
        false,
    )
    .unwrap();
    assert_eq!(p.identifiers, ["2244", "2519", "3672"]);
    assert_eq!(
        get(&p.call),
        format!("{PUG}compound/cid/2244,2519,3672/property/{PROPS}/JSON")
    );
    let c = lookup(
        json!({"operation": "compound", "namespace": "smiles", "identifier": "CC(=O)OC1=CC=CC=C1C(=O)O", "data": "cids"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/smiles/CC(=O)OC1=CC=CC=C1C(=O)O/cids/JSON")
    );
    // Brackets are legal in SMILES but not in a URL path: escaped, still a GET.
    let c = lookup(
        json!({"operation": "compound", "namespace": "smiles", "identifier": "C[C@@H](N)C(=O)O", "data": "cids"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/smiles/C%5BC@@H%5D(N)C(=O)O/cids/JSON")
    );
    let c = lookup(
        json!({"operation": "compound", "namespace": "inchikey", "identifier": "BSYNRYMUTXBXSQ-UHFFFAOYSA-N", "data": "record"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/inchikey/BSYNRYMUTXBXSQ-UHFFFAOYSA-N/JSON")
    );
    let c = lookup(
        json!({"operation": "compound", "namespace": "formula", "identifier": "C9H8O4", "data": "cids"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/fastformula/C9H8O4/cids/JSON")
    );
    let c = lookup(json!({"operation": "compound", "identifier": 2244, "data": "description"}));
    assert_eq!(get(&c), format!("{PUG}compound/cid/2244/description/JSON"));
    let c = lookup(
        json!({"operation": "compound", "namespace": "listkey", "identifier": "3571000000000000001", "data": "cids"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/listkey/3571000000000000001/cids/JSON")
    );
    // A picture starts with the structured record: the property table.
    let c = lookup(json!({"operation": "compound", "identifier": 2244, "data": "picture"}));
    assert_eq!(
        get(&c),
        format!("{PUG}compound/cid/2244/property/{PROPS}/JSON")
    );
}

#[test]
fn unsafe_structures_and_names_are_posted_as_forms() {
    let call = lookup(
        json!({"operation": "compound", "namespace": "smiles", "identifier": "C/C=C/C", "data": "cids"}),
    );
    let (url, body) = post(&call);
    assert_eq!(url, format!("{PUG}compound/smiles/cids/JSON"));
    assert_eq!(body, "smiles=C%2FC%3DC%2FC");
    for (smiles, encoded) in [
        ("C#N", "C%23N"),
        ("[NH4+]", "%5BNH4%2B%5D"),
        ("F\\C=C\\F", "F%5CC%3DC%5CF"),
        ("c1ccccc1 benzene", "c1ccccc1%20benzene"),
    ] {
        let call = lookup(
            json!({"operation": "compound", "namespace": "smiles", "identifier": smiles, "data": "cids"}),
        );
        let (url, body) = post(&call);
        assert_eq!(url, format!("{PUG}compound/smiles/cids/JSON"));
        assert_eq!(body, format!("smiles={encoded}"));
    }
    let inchi = "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)";
    let call = lookup(json!({"operation": "compound", "namespace": "inchi", "identifier": inchi}));
    let (url, body) = post(&call);
    assert_eq!(url, format!("{PUG}compound/inchi/property/{PROPS}/JSON"));
    assert_eq!(body, "inchi=InChI%3D1S%2FC9H8O4%2Fc1-6%2810%2913-8-5-3-2-4-7%288%299%2811%2912%2Fh2-5H%2C1H3%2C%28H%2C11%2C12%29");
    let call = lookup(
        json!({"operation": "compound", "namespace": "name", "identifier": "acetylsalicylic acid"}),
    );
    let (url, body) = post(&call);
    assert_eq!(url, format!("{PUG}compound/name/property/{PROPS}/JSON"));
    assert_eq!(body, "name=acetylsalicylic%20acid");
    // Short lists stay in the path; a list over 800 characters goes in the body.
    let many: Vec<u64> = (100_000_000..100_000_100).collect();
    let call = lookup(json!({"operation": "compound", "identifier": many, "data": "cids"}));
    let (url, body) = post(&call);
    assert_eq!(url, format!("{PUG}compound/cid/cids/JSON"));
    assert!(body.starts_with("cid=100000000%2C100000001%2C"), "{body}");
}

#[test]
fn legacy_property_names_are_the_pre_2025_ones() {
    let p = lookup_plan(
        &config(),
        &json!({"operation": "compound", "identifier": 2244}),
        true,
    )
    .unwrap();
    assert_eq!(
        get(&p.call),
        format!("{PUG}compound/cid/2244/property/Title,MolecularFormula,MolecularWeight,CanonicalSMILES,IsomericSMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount/JSON")
    );
}

#[test]
fn substances_assays_pictures_and_listkeys() {
    let c = lookup(json!({"operation": "substance", "identifier": 747285}));
    assert_eq!(get(&c), format!("{PUG}substance/sid/747285/JSON"));
    let c = lookup(
        json!({"operation": "substance", "namespace": "sourceid", "source": "DTP/NCI", "identifier": "747285", "data": "cids"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}substance/sourceid/DTP.NCI/747285/cids/JSON")
    );
    let c = lookup(
        json!({"operation": "substance", "namespace": "name", "identifier": "aspirin", "data": "synonyms"}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}substance/name/aspirin/synonyms/JSON")
    );
    let c = lookup(json!({"operation": "bioassay", "identifier": 1000}));
    assert_eq!(get(&c), format!("{PUG}assay/aid/1000/summary/JSON"));
    let c = lookup(
        json!({"operation": "bioassay", "namespace": "aid", "identifier": 1000, "data": "description"}),
    );
    assert_eq!(get(&c), format!("{PUG}assay/aid/1000/description/JSON"));
    let cfg = config();
    let plain = as_lookup(json!({"identifier": 2244, "data": "picture"}));
    let png = pubchem_plan::picture(&cfg, 2244, &plain);
    assert_eq!(get(&png), format!("{PUG}compound/cid/2244/PNG"));
    assert!(!png.url.contains("record"));
    let large = as_lookup(json!({"identifier": 2244, "data": "picture", "image_size": "large"}));
    assert_eq!(
        get(&pubchem_plan::picture(&cfg, 2244, &large)),
        format!("{PUG}compound/cid/2244/PNG?image_size=large")
    );
    assert_eq!(
        get(&pubchem_plan::listkey_poll(&cfg, "1234567", None)),
        format!("{PUG}compound/listkey/1234567/cids/JSON")
    );
}

#[test]
fn structure_searches_use_pug_rest_search_forms_and_options() {
    // max_records is PubChem's MaxRecords, sent when given; fast searches come back as a
    // ListKey with the hit count, which the tool pages through.
    let c = search(
        json!({"search_type": "similarity", "namespace": "smiles", "identifier": "CC(=O)OC1=CC=CC=C1C(=O)O", "threshold": 95, "max_records": 20}),
    );
    assert_eq!(get(&c), format!("{PUG}compound/fastsimilarity_2d/smiles/CC(=O)OC1=CC=CC=C1C(=O)O/cids/JSON?Threshold=95&MaxRecords=20&list_return=listkey"));
    let c = search(json!({"search_type": "similarity", "identifier": "c1ccccc1"}));
    assert_eq!(
        get(&c),
        format!(
            "{PUG}compound/fastsimilarity_2d/smiles/c1ccccc1/cids/JSON?Threshold=90&list_return=listkey"
        )
    );
    let c = search(json!({"search_type": "similarity_3d", "namespace": "cid", "identifier": 2244}));
    assert_eq!(
        get(&c),
        format!("{PUG}compound/fastsimilarity_3d/cid/2244/cids/JSON?list_return=listkey")
    );
    let c = search(
        json!({"search_type": "substructure", "identifier": "C1=CC=CC=C1", "options": {"StripHydrogen": true, "matchisotopes": "yes"}}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/fastsubstructure/smiles/C1=CC=CC=C1/cids/JSON?StripHydrogen=true&MatchIsotopes=true&list_return=listkey")
    );
    let c = search(
        json!({"search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async", "max_records": 500}),
    );
    assert_eq!(
        get(&c),
        format!("{PUG}compound/substructure/smiles/C1=CC=CC=C1/cids/JSON?MaxRecords=500")
    );
    let c = search(
        json!({"search_type": "identity", "identifier": "CC(=O)OC1=CC=CC=C1C(=O)O", "identity_type": "same_connectivity"}),
    );
    assert_eq!(get(&c), format!("{PUG}compound/fastidentity/smiles/CC(=O)OC1=CC=CC=C1C(=O)O/cids/JSON?identity_type=same_connectivity&list_return=listkey"));
    let c =
        search(json!({"search_type": "superstructure", "namespace": "cid", "identifier": 2244}));
    assert_eq!(
        get(&c),
        format!("{PUG}compound/fastsuperstructure/cid/2244/cids/JSON?list_return=listkey")
    );
    let c = search(json!({"search_type": "similarity", "identifier": "C/C=C/C", "mode": "async"}));
    let (url, body) = post(&c);
    assert_eq!(
        url,
        format!("{PUG}compound/similarity/smiles/cids/JSON?Threshold=90")
    );
    assert_eq!(body, "smiles=C%2FC%3DC%2FC");
    let c = search(
        json!({"search_type": "substructure", "namespace": "inchi", "identifier": "InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H"}),
    );
    let (url, body) = post(&c);
    assert_eq!(
        url,
        format!("{PUG}compound/fastsubstructure/inchi/cids/JSON?list_return=listkey")
    );
    assert!(body.starts_with("inchi=InChI%3D1S%2FC6H6%2F"));
    // A page of a search's ListKey.
    assert_eq!(
        get(&pubchem_plan::listkey_poll(
            &config(),
            "99",
            Some((1000, 1000))
        )),
        format!("{PUG}compound/listkey/99/cids/JSON?listkey_start=1000&listkey_count=1000")
    );
}

#[test]
fn identifiers_that_cannot_be_right_are_refused_before_sending() {
    let cfg = config();
    for args in [
        json!({"operation": "compound", "namespace": "cid", "identifier": "aspirin"}),
        json!({"operation": "compound", "namespace": "name", "identifier": ["aspirin", "caffeine"]}),
        json!({"operation": "compound", "namespace": "inchikey", "identifier": "not-a-key"}),
        json!({"operation": "compound", "namespace": "formula", "identifier": "C9 H8"}),
        json!({"operation": "substance", "namespace": "sourceid", "identifier": "1"}),
    ] {
        let e = lookup_plan(&cfg, &args, false).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidArguments, "{args}");
        assert!(!e.message.is_empty());
    }
    assert!(search_plan(
        &cfg,
        &json!({"search_type": "similarity", "namespace": "cid", "identifier": "x"})
    )
    .is_err());
}

/// Every option a friendly PubChem operation accepts reaches the request PUG REST documents it
/// on, as the documentation writes it (tests/fixtures/ncbi-docs/pugrest.json); the friendly
/// operations ask for JSON where the documented URL names another output, and fast
/// searches add list_return=listkey, which their results name.
#[test]
fn friendly_operations_send_each_option_as_pug_rest_documents_it() {
    let cfg = config();
    // (documented entry, its URL, the friendly call)
    let cases: &[(&str, &str, Value)] = &[
        ("pug-045", "compound/name/aspirin/cids/XML?name_type=word",
         json!({"operation": "compound", "namespace": "name", "identifier": "aspirin", "data": "cids", "options": {"name_type": "word"}})),
        ("pug-038", "compound/cid/2244/cids/TXT?cids_type=same_connectivity",
         json!({"operation": "compound", "identifier": 2244, "data": "cids", "options": {"cids_type": "same_connectivity"}})),
        ("pug-032", "substance/sid/123061,123079/cids/XML?cids_type=all",
         json!({"operation": "substance", "identifier": [123061, 123079], "data": "cids", "options": {"cids_type": "all"}})),
        ("pug-123", "compound/fastsubstructure/cid/2244/cids/XML?StripHydrogen=true",
         json!({"operation": "structure_search", "namespace": "cid", "identifier": 2244, "search_type": "substructure", "options": {"StripHydrogen": true}})),
        ("pug-122", "compound/fastidentity/cid/5793/cids/TXT?identity_type=same_connectivity",
         json!({"operation": "structure_search", "namespace": "cid", "identifier": 5793, "search_type": "identity", "identity_type": "same_connectivity"})),
        ("pug-085", "compound/fastsimilarity_2d/smiles/C1=NC2=C(N1)C(=O)N=C(N2)N/cids/XML?Threshold=95&MaxRecords=100",
         json!({"operation": "structure_search", "identifier": "C1=NC2=C(N1)C(=O)N=C(N2)N", "search_type": "similarity", "threshold": 95, "max_records": 100})),
        ("pug-083", "compound/fastsubstructure/smiles/C1=NC2=C(N1)C(=O)N=C(N2)N/cids/XML?MatchIsotopes=true&MaxRecords=100",
         json!({"operation": "structure_search", "identifier": "C1=NC2=C(N1)C(=O)N=C(N2)N", "search_type": "substructure", "max_records": 100, "options": {"MatchIsotopes": true}})),
    ];
    for (entry, documented, args) in cases {
        let call = match read(args, "compound") {
            ExternalCall::PubChem(PubChemCall::StructureSearch(s)) => {
                pubchem_plan::structure_search(&cfg, &s).unwrap().call
            }
            ExternalCall::PubChem(
                PubChemCall::Compound(l) | PubChemCall::Substance(l) | PubChemCall::Bioassay(l),
            ) => pubchem_plan::pubchem_lookup(&cfg, &l, false).unwrap().call,
            other => panic!("{other:?}"),
        };
        let (want_path, want) = pug_parts(&format!("{PUG}{documented}"));
        let (path, mut sent) = pug_parts(get(&call));
        assert!(call.url.contains("/JSON"), "{entry}: {}", call.url);
        assert_eq!(path, want_path, "{entry}");
        if path.contains("/fast") {
            assert_eq!(
                sent.remove("list_return").as_deref(),
                Some("listkey"),
                "{entry}"
            );
        }
        assert_eq!(sent, want, "{entry}: {}", call.url);
    }

    // pug-011: a picture's record_type and image_size go on the PNG, exactly as documented,
    // and not on the property table the lookup starts with.
    let picture = as_lookup(
        json!({"identifier": 2244, "data": "picture", "image_size": "small", "options": {"record_type": "3d"}}),
    );
    let png = pubchem_plan::picture(&cfg, 2244, &picture);
    assert_eq!(
        pug_parts(get(&png)),
        pug_parts(&format!(
            "{PUG}compound/cid/2244/PNG?record_type=3d&image_size=small"
        ))
    );
    let table = pubchem_plan::pubchem_lookup(&cfg, &picture, false)
        .unwrap()
        .call;
    assert!(!table.url.contains('?'), "{}", table.url);
    // With data record, record_type stays on the record request (pug-010 with JSON).
    let record =
        lookup(json!({"identifier": 2244, "data": "record", "options": {"record_type": "3d"}}));
    assert_eq!(
        get(&record),
        format!("{PUG}compound/cid/2244/JSON?record_type=3d")
    );
}
