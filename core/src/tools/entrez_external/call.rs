//! One `entrez_external` call, read once into a typed value.
//!
//! As for `entrez_query` ([`crate::tools::entrez_query::call`]), the intake
//! has made the arguments canonical, read into [`ExternalArgs`];
//! [`ExternalCall::of`] turns them into the call that runs. Every default lives here: the namespace and data each
//! PubChem operation assumes, the structure search's mode, threshold and
//! record cap, the ID Converter's detected id type, the OA service's PMCID
//! form, the citation exporter's database and format. The request plans take
//! this value, and `validate` shows it, serialized, as `normalized_arguments`.
//! Parameters an operation does not use are not part of it (the semantic
//! rules warn about them).

use crate::error::Error;
use crate::tools::entrez_external::args::ExternalArgs;
use crate::tools::entrez_external::plan::invalid;
use crate::tools::entrez_external::pubchem::grammar;
use crate::tools::entrez_external::pubchem::PugRequest;
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
    /// Any documented PUG REST request.
    PugRest(PugRestCall),
    /// PMC ID Converter.
    IdConvert(IdConvert),
    /// PMC OA web service.
    OaService(OaService),
    /// PMC literature citation exporter.
    CitationExport(CitationExport),
    /// NCBI's BioC API: full text of PMC Open Access articles in BioC.
    Bioc(Bioc),
    /// An article's sections by any id: PMC's Cloud Service, then efetch, then BioC.
    FullText(FullText),
}

/// Full text by PMID, PMCID or DOI.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FullText {
    /// Always `pmc`.
    pub service: &'static str,
    /// PMIDs, PMCIDs and DOIs, trimmed, in any mix.
    pub ids: Vec<String>,
    /// The sections wanted, by heading (case-insensitive; "methods" and "results" take their
    /// usual variants); empty for all.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
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
    /// `false`: versions=no, the version ids left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub versions: Option<bool>,
    /// `true`: showaiid=yes, the article instance id added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub showaiid: Option<bool>,
    /// json (read into records; this server's default), xml or csv (returned as text).
    pub format: String,
}

/// OA web service requests: one per id, or a listing by dates or resumption token, or (with
/// nothing) the service's identification.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OaService {
    /// Always `pmc`.
    pub service: &'static str,
    /// PMCIDs as sent (`PMC` + digits; a bare number is read as a PMCID's digits).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ids: Vec<String>,
    /// Records updated since.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Records updated until.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// tgz or pdf: only records with that download.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// The next page of a listing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resumption_token: Option<String>,
}

/// BioC API requests, one per id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bioc {
    /// Always `pmc`.
    pub service: &'static str,
    /// PMIDs or PMCIDs.
    pub ids: Vec<String>,
    /// json (read into passages) or xml (returned as text).
    pub format: String,
    /// unicode or ascii.
    pub encoding: String,
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
fn options(a: &ExternalArgs) -> Vec<(String, String)> {
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

fn idtype_name<S: Serializer>(t: &Option<IdType>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(t.as_str()),
        None => s.serialize_none(),
    }
}

impl ExternalCall {
    /// The call the arguments make, every default in place; `None` when no known operation is
    /// named (or a `pug_rest` request does not follow PUG REST's grammar).
    pub fn of(a: &ExternalArgs) -> Option<ExternalCall> {
        let text = |v: &Option<String>, default: &str| v.clone().unwrap_or_else(|| default.into());
        Some(match a.operation.as_deref()? {
            op @ ("compound" | "substance" | "bioassay") => {
                let lookup = lookup(a, op);
                match lookup.domain {
                    Domain::Compound => ExternalCall::Compound(lookup),
                    Domain::Substance => ExternalCall::Substance(lookup),
                    Domain::Assay => ExternalCall::Bioassay(lookup),
                }
            }
            "structure_search" => {
                let search_type = text(&a.search_type, "similarity");
                let namespace = text(&a.namespace, "smiles");
                ExternalCall::StructureSearch(StructureSearch {
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
                    crate::tools::entrez_external::pubchem::read(&a.pug_rest()).ok()?;
                ExternalCall::PugRest(PugRestCall {
                    request,
                    output_chosen,
                })
            }
            "id_convert" => {
                let ids = a.id_list();
                let idtype = match a.idtype.as_deref().and_then(IdType::parse) {
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
                    versions: a.versions,
                    showaiid: a.showaiid,
                    format: text(&a.format, "json"),
                })
            }
            "oa_service" => ExternalCall::OaService(OaService {
                service: "pmc",
                ids: a
                    .id_list()
                    .into_iter()
                    // An id that is no PMCID stays as given; the service call names it.
                    .map(|id| normalize_pmcid(&id).unwrap_or(id))
                    .collect(),
                from: a.from.clone(),
                until: a.until.clone(),
                format: a.format.clone(),
                resumption_token: a.resumption_token.clone(),
            }),
            "bioc" => ExternalCall::Bioc(Bioc {
                service: "pmc",
                ids: a.id_list(),
                format: text(&a.format, "json"),
                encoding: text(&a.encoding, "unicode"),
            }),
            "full_text" => ExternalCall::FullText(FullText {
                service: "pmc",
                ids: a.id_list(),
                sections: a.sections.clone(),
            }),
            "citation_export" => {
                let ids = a.id_list();
                let all_pmcids =
                    !ids.is_empty() && ids.iter().all(|i| IdType::detect(i) == IdType::Pmcid);
                ExternalCall::CitationExport(CitationExport {
                    service: "pmc",
                    database: text(&a.database, if all_pmcids { "pmc" } else { "pubmed" }),
                    format: text(&a.format, "citation"),
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

fn lookup(a: &ExternalArgs, operation: &str) -> Lookup {
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
fn identifier(a: &ExternalArgs, namespace: &str, search: bool) -> Identifier {
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

/// PMC article id kinds, as the ID Converter names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdType {
    /// PMC3531190 (or a bare number when declared).
    Pmcid,
    /// 23193287.
    Pmid,
    /// 10.1093/nar/gks1195.
    Doi,
    /// Author manuscript id, e.g. NIHMS1677310.
    Mid,
}

impl IdType {
    /// The `idtype` value.
    pub fn as_str(self) -> &'static str {
        match self {
            IdType::Pmcid => "pmcid",
            IdType::Pmid => "pmid",
            IdType::Doi => "doi",
            IdType::Mid => "mid",
        }
    }

    /// Reads an `idtype` value.
    pub fn parse(s: &str) -> Option<IdType> {
        Some(match s {
            "pmcid" => IdType::Pmcid,
            "pmid" => IdType::Pmid,
            "doi" => IdType::Doi,
            "mid" => IdType::Mid,
            _ => return None,
        })
    }

    /// The kind an id's shape shows, as the ID Converter's auto-detection would see it.
    pub fn detect(id: &str) -> IdType {
        let upper = id.to_ascii_uppercase();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        if let Some(rest) = upper.strip_prefix("PMC") {
            if digits(rest) {
                return IdType::Pmcid;
            }
        }
        if id.bytes().all(|b| b.is_ascii_digit()) {
            IdType::Pmid
        } else if id.starts_with("10.") && id.contains('/') {
            IdType::Doi
        } else {
            IdType::Mid
        }
    }
}

/// A PMCID in the OA service's form (`PMC` + digits), or an error naming the bad id.
pub fn normalize_pmcid(id: &str) -> Result<String, Error> {
    let upper = id.trim().to_ascii_uppercase();
    let digits = upper.strip_prefix("PMC").unwrap_or(&upper);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(
            invalid(format!("\"{id}\" is not a PMCID (PMC followed by digits)."))
                .suggest("Convert PMIDs and DOIs to PMCIDs first with operation id_convert."),
        );
    }
    Ok(format!("PMC{digits}"))
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
