//! One PMC call, read once into a typed value, every default in place.
//!
//! The ID Converter's detected id type, the OA service's PMCID form, the citation
//! exporter's database and format, BioC's format and encoding. The request plans take this
//! value, and `validate` shows it, serialized, as `normalized_arguments`.

use crate::error::Error;
use crate::tools::entrez_external::pmc::args::PmcArgs;
use crate::tools::entrez_external::shared::service::invalid;
use serde::{Serialize, Serializer};

/// A typed PMC call; serialized, it is `validate`'s `normalized_arguments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "operation", rename_all = "snake_case")]
pub enum PmcCall {
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

impl PmcCall {
    /// The call operation `op` makes of the arguments; `None` when `op` is no PMC operation.
    pub fn of(op: &str, a: &PmcArgs) -> Option<PmcCall> {
        let text = |v: &Option<String>, default: &str| v.clone().unwrap_or_else(|| default.into());
        Some(match op {
            "id_convert" => {
                let ids = a.id_list();
                let idtype = match a.idtype.as_deref().and_then(IdType::parse) {
                    Some(t) => Some(t),
                    None => {
                        let first = ids.first().map(|i| IdType::detect(i));
                        first.filter(|f| ids.iter().all(|i| IdType::detect(i) == *f))
                    }
                };
                PmcCall::IdConvert(IdConvert {
                    service: "pmc",
                    ids,
                    idtype,
                    versions: a.versions,
                    showaiid: a.showaiid,
                    format: text(&a.format, "json"),
                })
            }
            "oa_service" => PmcCall::OaService(OaService {
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
            "bioc" => PmcCall::Bioc(Bioc {
                service: "pmc",
                ids: a.id_list(),
                format: text(&a.format, "json"),
                encoding: text(&a.encoding, "unicode"),
            }),
            "full_text" => PmcCall::FullText(FullText {
                service: "pmc",
                ids: a.id_list(),
                sections: a.sections.clone(),
            }),
            "citation_export" => {
                let ids = a.id_list();
                let all_pmcids =
                    !ids.is_empty() && ids.iter().all(|i| IdType::detect(i) == IdType::Pmcid);
                PmcCall::CitationExport(CitationExport {
                    service: "pmc",
                    database: text(&a.database, if all_pmcids { "pmc" } else { "pubmed" }),
                    format: text(&a.format, "citation"),
                    ids,
                })
            }
            _ => return None,
        })
    }
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

fn idtype_name<S: Serializer>(t: &Option<IdType>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(t.as_str()),
        None => s.serialize_none(),
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
