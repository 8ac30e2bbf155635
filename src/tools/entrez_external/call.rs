//! One `entrez_external` call, read once into a typed value.
//!
//! As for `entrez_query` ([`crate::tools::entrez_query::call`]), the intake
//! has made the arguments canonical; [`ExternalCall::read`] turns them into
//! the call that runs. Every default lives here: the namespace and data each
//! PubChem operation assumes, the structure search's mode, threshold and
//! record cap, the ID Converter's detected id type, the OA service's PMCID
//! form, the citation exporter's database and format. The request plans take
//! this value, and `validate` shows it, serialized, as `normalized_arguments`.
//! Parameters an operation does not use are not part of it (the semantic
//! rules warn about them).

use super::plan::{normalize_pmcid, Data, Domain, IdType, DEFAULT_MAX_RECORDS, DEFAULT_THRESHOLD};
use crate::tools::canonical::Canonical;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// A typed `entrez_external` call; serialized, it is `validate`'s `normalized_arguments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum ExternalCall {
    /// PubChem compound lookup.
    Compound(Lookup),
    /// PubChem substance lookup.
    Substance(Lookup),
    /// PubChem bioassay lookup.
    Bioassay(Lookup),
    /// PubChem structure search.
    StructureSearch(StructureSearch),
    /// PMC ID Converter.
    IdConvert(IdConvert),
    /// PMC OA web service.
    OaService(OaService),
    /// PMC literature citation exporter.
    CitationExport(CitationExport),
}

/// One identifier, or a list (CIDs, SIDs, AIDs).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Identifier {
    /// A name, structure, key or formula.
    One(String),
    /// Numeric ids (or several values where one is expected, which the plan refuses).
    Many(Vec<String>),
}

impl Identifier {
    /// The values, in order.
    pub fn values(&self) -> Vec<String> {
        match self {
            Identifier::One(v) => vec![v.clone()],
            Identifier::Many(list) => list.clone(),
        }
    }
}

/// A compound, substance or bioassay lookup.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Lookup {
    /// Always `pubchem`.
    pub service: &'static str,
    /// The PubChem record domain.
    #[serde(skip)]
    pub domain: Domain,
    /// The input namespace.
    pub namespace: String,
    /// What is looked up.
    pub identifier: Identifier,
    /// The depositor, for namespace sourceid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// What is asked for.
    #[serde(serialize_with = "data_name")]
    pub data: Data,
    /// PNG size, for data picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_size: Option<String>,
}

/// An identity, substructure, superstructure or similarity search.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StructureSearch {
    /// Always `pubchem`.
    pub service: &'static str,
    /// identity, substructure, superstructure or similarity.
    pub search_type: String,
    /// smiles, inchi, smarts or cid.
    pub namespace: String,
    /// The query structure or CID.
    pub identifier: Identifier,
    /// fast (synchronous) or async (ListKey, polled).
    pub mode: String,
    /// Tanimoto percent, for similarity searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threshold: Option<u64>,
    /// Most hits asked for (PubChem's MaxRecords).
    pub max_records: u64,
    /// Which identity, for identity searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity_type: Option<String>,
}

/// One ID Converter request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IdConvert {
    /// Always `pmc`.
    pub service: &'static str,
    /// The ids, trimmed.
    pub ids: Vec<String>,
    /// Declared, or detected when every id has the same shape; `None` for a mix (refused).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "idtype_name"
    )]
    pub idtype: Option<IdType>,
}

/// OA web service requests, one per id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OaService {
    /// Always `pmc`.
    pub service: &'static str,
    /// PMCIDs as sent (`PMC` + digits; a bare number is read as a PMCID's digits).
    pub ids: Vec<String>,
}

/// Citation exporter requests, one per id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationExport {
    /// Always `pmc`.
    pub service: &'static str,
    /// The ids, trimmed.
    pub ids: Vec<String>,
    /// pubmed or pmc: given, or pmc when every id is a PMCID.
    pub database: String,
    /// The export format asked for.
    pub format: String,
}

fn data_name<S: Serializer>(data: &Data, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(data.as_str())
}

fn idtype_name<S: Serializer>(t: &Option<IdType>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(t.as_str()),
        None => s.serialize_none(),
    }
}

impl ExternalCall {
    /// Reads canonical arguments (after the intake and the schema); `None` when no known operation is named.
    pub fn read(args: &Value) -> Option<ExternalCall> {
        let a = Canonical::of(args)?;
        let (text, int) = (|name: &str| a.text(name), |name: &str| a.int(name));
        let operation = text("operation")?;
        Some(match operation.as_str() {
            "compound" | "substance" | "bioassay" => {
                let lookup = lookup(a, &operation);
                match lookup.domain {
                    Domain::Compound => ExternalCall::Compound(lookup),
                    Domain::Substance => ExternalCall::Substance(lookup),
                    Domain::Assay => ExternalCall::Bioassay(lookup),
                }
            }
            "structure_search" => {
                let search_type = text("search_type").unwrap_or_else(|| "similarity".into());
                let namespace = text("namespace").unwrap_or_else(|| "smiles".into());
                ExternalCall::StructureSearch(StructureSearch {
                    service: "pubchem",
                    identifier: identifier(a, &namespace, true),
                    namespace,
                    mode: text("mode").unwrap_or_else(|| "fast".into()),
                    threshold: (search_type == "similarity")
                        .then(|| int("threshold").unwrap_or(DEFAULT_THRESHOLD)),
                    max_records: int("max_records").unwrap_or(DEFAULT_MAX_RECORDS),
                    identity_type: text("identity_type").filter(|_| search_type == "identity"),
                    search_type,
                })
            }
            "id_convert" => {
                let ids = a.list("ids");
                let idtype = match text("idtype").as_deref().and_then(IdType::parse) {
                    Some(t) => Some(t),
                    None => {
                        let first = ids.first().map(|i| IdType::detect(i));
                        first.filter(|f| ids.iter().all(|i| IdType::detect(i) == *f))
                    }
                };
                ExternalCall::IdConvert(IdConvert {
                    service: "pmc",
                    ids,
                    idtype,
                })
            }
            "oa_service" => ExternalCall::OaService(OaService {
                service: "pmc",
                ids: a
                    .list("ids")
                    .into_iter()
                    // An id that is no PMCID stays as given; the service call names it.
                    .map(|id| normalize_pmcid(&id).unwrap_or(id))
                    .collect(),
            }),
            "citation_export" => {
                let ids = a.list("ids");
                let all_pmcids =
                    !ids.is_empty() && ids.iter().all(|i| IdType::detect(i) == IdType::Pmcid);
                ExternalCall::CitationExport(CitationExport {
                    service: "pmc",
                    database: text("database")
                        .unwrap_or_else(|| if all_pmcids { "pmc" } else { "pubmed" }.into()),
                    format: text("format").unwrap_or_else(|| "citation".into()),
                    ids,
                })
            }
            _ => return None,
        })
    }

    /// The call as JSON: `validate`'s `normalized_arguments`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

fn lookup(a: Canonical<'_>, operation: &str) -> Lookup {
    let text = |name: &str| a.text(name);
    let (domain, default_data, default_ns) = match operation {
        "substance" => (Domain::Substance, Data::Record, "sid"),
        "bioassay" => (Domain::Assay, Data::Summary, "aid"),
        _ => (Domain::Compound, Data::Properties, "cid"),
    };
    let namespace = text("namespace").unwrap_or_else(|| default_ns.into());
    let data = text("data")
        .as_deref()
        .and_then(Data::parse)
        .unwrap_or(default_data);
    Lookup {
        service: "pubchem",
        domain,
        identifier: identifier(a, &namespace, false),
        source: text("source").filter(|_| namespace == "sourceid"),
        namespace,
        data,
        image_size: text("image_size").filter(|_| data == Data::Picture),
    }
}

/// The identifier as the plan sends it: numeric ids split at commas (PUG REST's own list form).
fn identifier(a: Canonical<'_>, namespace: &str, search: bool) -> Identifier {
    let mut values = a.list("identifier");
    if matches!(namespace, "cid" | "sid" | "aid") {
        values = values
            .iter()
            .flat_map(|v| v.split(','))
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .collect();
        if !(search && values.len() == 1) {
            return Identifier::Many(values);
        }
    }
    match <[String; 1]>::try_from(values) {
        Ok([one]) => Identifier::One(one),
        Err(values) => Identifier::Many(values),
    }
}
