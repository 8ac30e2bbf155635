//! One PubChem call, read once into a typed value, every default in place.
//!
//! The namespace and data each lookup assumes, the structure search's mode, threshold and
//! record cap; a `pug_rest` request as PubChem documents it. The request plans take this
//! value, and `validate` shows it, serialized, as `normalized_arguments`. Parameters an
//! operation does not use are not part of it (the semantic rules warn about them).

use crate::tools::entrez_external::pubchem::args::PubChemArgs;
use crate::tools::entrez_external::pubchem::grammar;
use crate::tools::entrez_external::pubchem::request::PugRequest;
use serde::{Serialize, Serializer};

/// A typed PubChem call; serialized, it is `validate`'s `normalized_arguments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum PubChemCall {
    /// PubChem compound lookup.
    Compound(Lookup),
    /// PubChem substance lookup.
    Substance(Lookup),
    /// PubChem bioassay lookup.
    Bioassay(Lookup),
    /// PubChem structure search.
    StructureSearch(StructureSearch),
    /// Any documented PUG REST request.
    PugRest(PugRestCall),
}

impl PubChemCall {
    /// The call operation `op` makes of the arguments; `None` when `op` is no PubChem
    /// operation (or a `pug_rest` request does not follow PUG REST's grammar).
    pub fn of(op: &str, a: &PubChemArgs) -> Option<PubChemCall> {
        let text = |v: &Option<String>, default: &str| v.clone().unwrap_or_else(|| default.into());
        Some(match op {
            op @ ("compound" | "substance" | "bioassay") => {
                let lookup = lookup(a, op);
                match lookup.domain {
                    Domain::Compound => PubChemCall::Compound(lookup),
                    Domain::Substance => PubChemCall::Substance(lookup),
                    Domain::Assay => PubChemCall::Bioassay(lookup),
                }
            }
            "structure_search" => {
                let search_type = text(&a.search_type, "similarity");
                let namespace = text(&a.namespace, "smiles");
                PubChemCall::StructureSearch(StructureSearch {
                    service: "pubchem",
                    identifier: identifier(a, &namespace, true),
                    namespace,
                    mode: text(&a.mode, "fast"),
                    threshold: (search_type == "similarity").then(|| {
                        a.threshold
                            .filter(|t| t.fract() == 0.0 && *t >= 0.0)
                            .map_or(DEFAULT_THRESHOLD, |t| t as u64)
                    }),
                    max_records: a.max_records,
                    identity_type: a
                        .identity_type
                        .clone()
                        .filter(|_| search_type == "identity"),
                    options: options(a),
                    search_type,
                })
            }
            "pug_rest" => {
                let (request, output_chosen) =
                    crate::tools::entrez_external::pubchem::read::read(&a.pug_rest()).ok()?;
                PubChemCall::PugRest(PugRestCall {
                    request,
                    output_chosen,
                })
            }
            _ => return None,
        })
    }
}

/// A `pug_rest` call: the documented request, and whether the server picked its output.
#[derive(Debug, Clone, PartialEq)]
pub struct PugRestCall {
    /// The request as PubChem documents it.
    pub request: PugRequest,
    /// No output was named, so JSON is asked for (and the result says so).
    pub output_chosen: bool,
}

impl Serialize for PugRestCall {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The enum's tag writes `operation`; the request writes everything else.
        let mut v = self.request.to_value();
        if let Some(map) = v.as_object_mut() {
            map.remove("operation");
        }
        v.serialize(s)
    }
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
    /// data properties: the property names asked for (empty: this server's common set).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<String>,
    /// PUG REST options, under PubChem's spelling, values as sent.
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "options_object"
    )]
    pub options: Vec<(String, String)>,
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
    /// PubChem's MaxRecords, when the caller set it; otherwise every hit is counted and paged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_records: Option<u64>,
    /// Which identity, for identity searches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity_type: Option<String>,
    /// Further PUG REST search options (StripHydrogen, MatchIsotopes, Stereo, …).
    #[serde(
        skip_serializing_if = "Vec::is_empty",
        serialize_with = "options_object"
    )]
    pub options: Vec<(String, String)>,
}

fn options_object<S: Serializer>(options: &[(String, String)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(options.len()))?;
    for (k, v) in options {
        map.serialize_entry(
            k,
            &crate::tools::entrez_external::pubchem::request::typed(k, v),
        )?;
    }
    map.end()
}

/// The options as PUG REST options (unknown names and bad values are the semantic check's to
/// name; here they are left out).
fn options(a: &PubChemArgs) -> Vec<(String, String)> {
    a.options
        .iter()
        .filter_map(|(k, v)| {
            let spec = crate::tools::entrez_external::pubchem::options::option(k)?;
            let value =
                crate::tools::entrez_external::pubchem::options::option_value(spec.kind, v).ok()?;
            Some((spec.name.to_string(), value))
        })
        .collect()
}

fn data_name<S: Serializer>(data: &Data, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(data.as_str())
}

fn lookup(a: &PubChemArgs, operation: &str) -> Lookup {
    let (domain, default_data, default_ns) = match operation {
        "substance" => (Domain::Substance, Data::Record, "sid"),
        "bioassay" => (Domain::Assay, Data::Summary, "aid"),
        _ => (Domain::Compound, Data::Properties, "cid"),
    };
    let namespace = a.namespace.clone().unwrap_or_else(|| default_ns.into());
    let data = a
        .data
        .as_deref()
        .and_then(Data::parse)
        .unwrap_or(default_data);
    Lookup {
        service: "pubchem",
        domain,
        identifier: identifier(a, &namespace, false),
        source: a.source.clone().filter(|_| namespace == "sourceid"),
        namespace,
        data,
        image_size: a.image_size.clone().filter(|_| data == Data::Picture),
        properties: a
            .properties
            .iter()
            .flat_map(|p| p.split(','))
            .filter_map(|p| grammar::canonical_list_item(grammar::PROPERTIES, p))
            .map(String::from)
            .filter(|_| matches!(data, Data::Properties | Data::Picture))
            .collect(),
        options: options(a),
    }
}

/// The identifier as the plan sends it: numeric ids split at commas (PUG REST's own list form).
fn identifier(a: &PubChemArgs, namespace: &str, search: bool) -> Identifier {
    let mut values = a.identifier_values();
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

/// Default similarity threshold (PubChem's own default, Tanimoto percent).
pub const DEFAULT_THRESHOLD: u64 = 90;

/// A PUG REST record domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    /// `compound`.
    Compound,
    /// `substance`.
    Substance,
    /// `assay`.
    Assay,
}

impl Domain {
    /// The path segment.
    pub fn path(self) -> &'static str {
        match self {
            Domain::Compound => "compound",
            Domain::Substance => "substance",
            Domain::Assay => "assay",
        }
    }
}

/// What a lookup asks PUG REST for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Data {
    /// The full record (`/JSON`).
    Record,
    /// The compound property table.
    Properties,
    /// Synonyms.
    Synonyms,
    /// Title and description text.
    Description,
    /// An assay's summary.
    Summary,
    /// Linked CIDs.
    Cids,
    /// Properties plus the 2D structure PNG.
    Picture,
}

impl Data {
    /// Reads the `data` argument.
    pub fn parse(s: &str) -> Option<Data> {
        Some(match s {
            "record" => Data::Record,
            "properties" => Data::Properties,
            "synonyms" => Data::Synonyms,
            "description" => Data::Description,
            "summary" => Data::Summary,
            "cids" => Data::Cids,
            "picture" => Data::Picture,
            _ => return None,
        })
    }

    /// The argument value.
    pub fn as_str(self) -> &'static str {
        match self {
            Data::Record => "record",
            Data::Properties => "properties",
            Data::Synonyms => "synonyms",
            Data::Description => "description",
            Data::Summary => "summary",
            Data::Cids => "cids",
            Data::Picture => "picture",
        }
    }
}
