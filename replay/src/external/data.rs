//! The hand-written fixtures (tests/fixtures/external/), embedded at build time and indexed.
//!
//! See tests/fixtures/external/PROVENANCE.md: every file follows a format
//! documented by PubChem or PMC, and none is a recording of a live reply.

use serde_json::Value;
use std::collections::HashMap;

const COMPOUNDS: &str = include_str!("../../../tests/fixtures/external/pubchem/compounds.json");
const RECORD_2244: &str =
    include_str!("../../../tests/fixtures/external/pubchem/compound_2244_record.json");
const SUBSTANCES: &str = include_str!("../../../tests/fixtures/external/pubchem/substances.json");
const ASSAY_1000: &str = include_str!("../../../tests/fixtures/external/pubchem/assay_1000.json");
const SEARCHES: &str = include_str!("../../../tests/fixtures/external/pubchem/searches.json");
const FAULTS: &str = include_str!("../../../tests/fixtures/external/pubchem/faults.json");
/// The PNG served for every compound picture.
pub const PNG: &[u8] = include_bytes!("../../../tests/fixtures/external/pubchem/cid_2d.png");
const IDCONV: &str = include_str!("../../../tests/fixtures/external/pmc/idconv.json");
/// OA web service records, by PMCID.
pub const OA_RECORDS: &[(&str, &str)] = &[
    (
        "PMC5334499",
        include_str!("../../../tests/fixtures/external/pmc/oa/PMC5334499.xml"),
    ),
    (
        "PMC3531190",
        include_str!("../../../tests/fixtures/external/pmc/oa/PMC3531190.xml"),
    ),
];
/// The OA error for an article outside the Open Access subset; `{id}` is replaced.
pub const OA_NOT_OPEN: &str =
    include_str!("../../../tests/fixtures/external/pmc/oa/idIsNotOpenAccess.xml");
/// The OA error for an unknown id; `{id}` is replaced.
pub const OA_NO_SUCH_ID: &str =
    include_str!("../../../tests/fixtures/external/pmc/oa/idDoesNotExist.xml");
/// PMCIDs that exist in the table but are not Open Access.
pub const NOT_OPEN_ACCESS: &[&str] = &["PMC9999991"];
/// Citation exporter answers for PMID 23193287, by format: (content type, body).
pub const CTXP_23193287: &[(&str, &str, &str)] = &[
    (
        "citation",
        "application/json",
        include_str!("../../../tests/fixtures/external/pmc/ctxp/23193287.citation.json"),
    ),
    (
        "csl",
        "application/json",
        include_str!("../../../tests/fixtures/external/pmc/ctxp/23193287.csl.json"),
    ),
    (
        "ris",
        "application/x-research-info-systems",
        include_str!("../../../tests/fixtures/external/pmc/ctxp/23193287.ris"),
    ),
    (
        "medline",
        "text/plain; charset=utf-8",
        include_str!("../../../tests/fixtures/external/pmc/ctxp/23193287.medline"),
    ),
];

/// Everything the replay answers from.
pub struct Data {
    /// CID → its entry (properties, synonyms, descriptions).
    pub compounds: HashMap<u64, Value>,
    /// Lower-cased name → CID.
    pub names: HashMap<String, u64>,
    /// Formula → CIDs.
    pub formulas: HashMap<String, Vec<u64>>,
    /// The full record of CID 2244.
    pub record_2244: Value,
    /// PC_Substances entries by SID.
    pub substances: HashMap<u64, Value>,
    /// Bioassay 1000: `summary` and `description` bodies.
    pub assay_1000: Value,
    /// Search kind → query SMILES → [(CID, score)].
    pub searches: Value,
    /// Fault templates by code.
    pub faults: Value,
    /// ID Converter article table.
    pub articles: Vec<Value>,
    /// The ID Converter's responseDate.
    pub response_date: String,
}

fn parse(name: &str, text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("fixture {name} is not JSON: {e}"))
}

impl Data {
    /// Parses and indexes the embedded fixtures.
    pub fn load() -> Data {
        let c = parse("compounds.json", COMPOUNDS);
        let compounds = c["compounds"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.parse().ok()?, v.clone())))
            .collect();
        let names = c["names"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(k, v)| Some((k.to_ascii_lowercase(), v.as_u64()?)))
            .collect();
        let formulas = c["formulas"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_u64)
                        .collect(),
                )
            })
            .collect();
        let s = parse("substances.json", SUBSTANCES);
        let substances = s["PC_Substances"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| Some((x["sid"]["id"].as_u64()?, x.clone())))
            .collect();
        let idconv = parse("idconv.json", IDCONV);
        Data {
            compounds,
            names,
            formulas,
            record_2244: parse("compound_2244_record.json", RECORD_2244),
            substances,
            assay_1000: parse("assay_1000.json", ASSAY_1000),
            searches: parse("searches.json", SEARCHES),
            faults: parse("faults.json", FAULTS),
            articles: idconv["records"].as_array().cloned().unwrap_or_default(),
            response_date: idconv["responseDate"].as_str().unwrap_or("").to_string(),
        }
    }

    /// The CID whose SMILES (either form) or InChI is `structure`.
    pub fn cid_of_structure(&self, structure: &str) -> Option<u64> {
        self.compounds.iter().find_map(|(cid, c)| {
            let p = &c["properties"];
            [&p["SMILES"], &p["ConnectivitySMILES"], &p["InChI"]]
                .iter()
                .any(|v| v.as_str() == Some(structure))
                .then_some(*cid)
        })
    }

    /// The CID with this InChIKey.
    pub fn cid_of_inchikey(&self, key: &str) -> Option<u64> {
        self.compounds.iter().find_map(|(cid, c)| {
            (c["properties"]["InChIKey"].as_str() == Some(key)).then_some(*cid)
        })
    }

    /// The SMILES a search for `structure` is keyed by (a CID or InChI is mapped to it).
    pub fn search_key(&self, namespace: &str, query: &str) -> String {
        let cid = match namespace {
            "cid" => query.parse().ok(),
            "inchi" => self.cid_of_structure(query),
            _ => None,
        };
        match cid.and_then(|c| self.compounds.get(&c)) {
            Some(c) => c["properties"]["SMILES"]
                .as_str()
                .unwrap_or(query)
                .to_string(),
            None => query.to_string(),
        }
    }
}
