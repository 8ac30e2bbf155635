//! PUG REST request building: `<base>/<domain>/<namespace>/<identifiers>/<operation>/<output>`.
//!
//! Identifiers that carry characters a URL path cannot hold safely (`/`,
//! `#`, `?`, `%`, `\`, `+`, `,`, spaces, non-ASCII) move to a form body
//! (`smiles=...`), as PubChem's documentation asks; everything else stays
//! readable in the path. Long id lists are POSTed too. Structure searches
//! use the synchronous `fast*` searches by default and the asynchronous
//! forms (which answer with a ListKey to poll) on request.

use crate::config::Config;
use crate::error::Error;
use crate::net::HttpCall;
use crate::tools::entrez_external::pubchem::call::{Data, Domain, Lookup, StructureSearch};
use crate::tools::entrez_external::pubchem::grammar;
use crate::tools::entrez_external::pubchem::options;
use crate::tools::entrez_external::pubchem::options::Scope;
use crate::tools::entrez_external::pubchem::request::PugRequest;
use crate::tools::entrez_external::shared::service::invalid;
use crate::tools::entrez_external::shared::service::MAX_REPLY_BYTES;

/// Timeout for one PUG REST request; PubChem itself stops synchronous work at 30 s.
pub const PUBCHEM_TIMEOUT_MS: u64 = 35_000;

/// CIDs one structure search shows per page of its ListKey.
pub const SEARCH_PAGE: u64 = 1_000;

/// The properties a chemist asks for first, under PubChem's current names.
pub const COMPOUND_PROPERTIES: &str = "Title,MolecularFormula,MolecularWeight,ConnectivitySMILES,SMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount";
/// The same list under the names PubChem used until 2025 (CanonicalSMILES, IsomericSMILES).
pub const LEGACY_COMPOUND_PROPERTIES: &str = "Title,MolecularFormula,MolecularWeight,CanonicalSMILES,IsomericSMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount";

/// One PUG REST request, with what is needed to read its answer.
#[derive(Debug, Clone)]
pub struct PugPlan {
    /// The HTTP call.
    pub call: HttpCall,
    /// Which domain was asked.
    pub domain: Domain,
    /// The namespace as the caller named it.
    pub namespace: String,
    /// The identifiers as sent.
    pub identifiers: Vec<String>,
    /// What was asked for.
    pub data: Data,
    /// The request, for collecting an asynchronous answer by its ListKey.
    pub request: PugRequest,
}

/// A structure search request.
#[derive(Debug, Clone)]
pub struct SearchPlan {
    /// The HTTP call.
    pub call: HttpCall,
    /// identity, substructure, superstructure, similarity or similarity_3d.
    pub search_type: String,
    /// fast (synchronous) or async (ListKey, polled).
    pub mode: String,
    /// smiles, inchi, smarts or cid.
    pub namespace: String,
    /// The query structure or CID.
    pub query: String,
    /// Similarity threshold, for 2-D similarity searches.
    pub threshold: Option<u64>,
    /// The caller's MaxRecords, when given.
    pub max_records: Option<u64>,
    /// Whether the hits come back as a ListKey to page through (fast searches).
    pub paged: bool,
}

pub use crate::tools::entrez_external::pubchem::request::needs_post;

pub use crate::tools::entrez_external::shared::service::path_segment;

pub use crate::tools::entrez_external::pubchem::request::POST_LIST_CHARS;

pub use crate::tools::entrez_external::pubchem::request::POST_TEXT_CHARS;

/// A request for `domain`/`namespace` (a documented row) asking `operation` in JSON.
fn request(
    domain: &'static str,
    namespace: &str,
    second: Option<&'static str>,
    identifiers: Vec<String>,
    operation: &str,
    list: Vec<String>,
) -> Result<PugRequest, Error> {
    let ns = grammar::namespace(domain, namespace).ok_or_else(|| {
        invalid(format!(
            "Namespace {namespace} is not offered for {domain}."
        ))
    })?;
    let op = grammar::operation(domain, operation)
        .ok_or_else(|| invalid(format!("PubChem offers no {operation} for {domain}.")))?;
    Ok(PugRequest {
        domain,
        namespace: Some(ns),
        second,
        source: None,
        identifiers,
        organism: None,
        operation: op,
        operation_list: list,
        operation_sid: false,
        output: "JSON".into(),
        options: Vec::new(),
    })
}

/// The call for a request, under this server's PubChem limits.
pub fn call_of(config: &Config, request: &PugRequest) -> HttpCall {
    request.to_call(
        &config.pubchem_base_url,
        PUBCHEM_TIMEOUT_MS,
        MAX_REPLY_BYTES,
    )
}

fn digits_only(ids: &[String], what: &str) -> Result<(), Error> {
    match ids.iter().find(|i| !i.bytes().all(|b| b.is_ascii_digit())) {
        Some(bad) => Err(invalid(format!(
            "\"{bad}\" is not a {what}: {what}s are positive integers."
        ))
        .suggest(format!(
            "Look the record up by name first (namespace name) to get its {what}."
        ))),
        None => Ok(()),
    }
}

fn single<'a>(ids: &'a [String], namespace: &str) -> Result<&'a str, Error> {
    match ids {
        [one] => Ok(one.as_str()),
        _ => Err(invalid(format!(
            "Namespace {namespace} takes exactly one identifier; {} were given.",
            ids.len()
        ))
        .suggest("Call once per identifier, or use CIDs (namespace cid), which accept up to 100 at once.")),
    }
}

/// The operation and its list for what a lookup wants (`property` with the property names).
pub fn operation_of(
    data: Data,
    properties: &[String],
    legacy: bool,
) -> (&'static str, Vec<String>) {
    let names = |list: &str| list.split(',').map(String::from).collect::<Vec<_>>();
    match data {
        Data::Record => ("", Vec::new()),
        Data::Properties | Data::Picture if !properties.is_empty() => {
            ("property", properties.to_vec())
        }
        Data::Properties | Data::Picture if legacy => {
            ("property", names(LEGACY_COMPOUND_PROPERTIES))
        }
        Data::Properties | Data::Picture => ("property", names(COMPOUND_PROPERTIES)),
        Data::Synonyms => ("synonyms", Vec::new()),
        Data::Description => ("description", Vec::new()),
        Data::Summary => ("summary", Vec::new()),
        Data::Cids => ("cids", Vec::new()),
    }
}

/// A compound, substance or bioassay lookup.
pub fn pubchem_lookup(config: &Config, lookup: &Lookup, legacy: bool) -> Result<PugPlan, Error> {
    let request = lookup_request(lookup, legacy)?;
    Ok(PugPlan {
        call: call_of(config, &request),
        domain: lookup.domain,
        namespace: lookup.namespace.clone(),
        identifiers: lookup.identifier.values(),
        data: lookup.data,
        request,
    })
}

/// The PUG REST request of a lookup (for `data: picture`, the property table it starts with;
/// [`picture_request`] is the PNG).
pub fn lookup_request(lookup: &Lookup, legacy: bool) -> Result<PugRequest, Error> {
    let (domain, data) = (lookup.domain, lookup.data);
    let namespace = lookup.namespace.clone();
    let ids = lookup.identifier.values();
    if ids.is_empty() {
        return Err(invalid("identifier is empty."));
    }
    let d = domain.path();
    let (op, list) = operation_of(data, &lookup.properties, legacy);
    let mut req = match namespace.as_str() {
        "cid" | "sid" | "aid" => {
            digits_only(&ids, &namespace.to_ascii_uppercase())?;
            request(d, &namespace, None, ids.clone(), op, list)?
        }
        "name" | "smiles" | "inchi" | "listkey" => {
            let value = single(&ids, &namespace)?;
            if namespace == "listkey" {
                digits_only(std::slice::from_ref(&value.to_string()), "ListKey")?;
            }
            request(d, &namespace, None, vec![value.to_string()], op, list)?
        }
        "inchikey" => {
            let key = single(&ids, "inchikey")?;
            if !is_inchikey(key) {
                return Err(invalid(format!("\"{key}\" is not an InChIKey (27 characters: 14 letters, hyphen, 10 letters, hyphen, 1 letter)."))
                    .suggest("Send the structure itself with namespace inchi or smiles instead."));
            }
            request(d, "inchikey", None, vec![key.to_string()], op, list)?
        }
        "formula" => {
            let formula = single(&ids, "formula")?;
            if !formula.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return Err(invalid(format!(
                    "\"{formula}\" is not a molecular formula such as C9H8O4."
                )));
            }
            // fastformula answers synchronously; plain formula would return a ListKey.
            request(d, "fastformula", None, vec![formula.to_string()], op, list)?
        }
        "sourceid" => {
            let id = single(&ids, "sourceid")?;
            let source = lookup.source.as_deref().ok_or_else(|| {
                invalid("Namespace sourceid needs source, the depositor's name (e.g. DTP/NCI).")
            })?;
            let mut r = request(d, "sourceid", None, vec![id.to_string()], op, list)?;
            r.source = Some(source.to_string());
            r
        }
        other => {
            return Err(invalid(format!(
                "Namespace {other} is not offered for {}.",
                lookup.domain.path()
            )))
        }
    };
    // A picture's own options (record_type, image_size) go on the PNG request, not the table.
    req.options = lookup
        .options
        .iter()
        .filter(|(name, _)| data != Data::Picture || !shapes_picture(name))
        .cloned()
        .collect();
    Ok(req)
}

/// Whether `s` has the shape of an InChIKey.
pub fn is_inchikey(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 3
        && parts[0].len() == 14
        && parts[1].len() == 10
        && parts[2].len() == 1
        && parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_uppercase()))
}

/// Whether PUG REST option `name` shapes a PNG picture (PubChem documents `record_type` for
/// full records and pictures, `image_size` for pictures) rather than a property table.
pub fn shapes_picture(name: &str) -> bool {
    matches!(
        options::option(name).map(|o| o.scope),
        Some(Scope::Record | Scope::Picture)
    )
}

/// The depiction of one compound a `data: picture` lookup asks for: `/compound/cid/{cid}/PNG`
/// with the lookup's picture options (`record_type`) and its `image_size`, as PUG REST
/// documents them (`compound/cid/2244/PNG?record_type=3d&image_size=small`).
pub fn picture_request(cid: u64, lookup: &Lookup) -> PugRequest {
    let mut r = record_request("compound", "cid", &cid.to_string());
    r.output = "PNG".into();
    for (name, value) in lookup.options.iter().filter(|(n, _)| shapes_picture(n)) {
        r.set_option(name, value.clone());
    }
    if let Some(size) = &lookup.image_size {
        r.set_option("image_size", size.clone());
    }
    r
}

/// [`picture_request`] as the call this server sends.
pub fn picture(config: &Config, cid: u64, lookup: &Lookup) -> HttpCall {
    call_of(config, &picture_request(cid, lookup))
}

fn record_request(domain: &'static str, namespace: &str, id: &str) -> PugRequest {
    // Rows that the grammar's own tests hold present: compound and substance records.
    request(
        domain,
        namespace,
        None,
        vec![id.to_string()],
        "",
        Vec::new(),
    )
    .expect("documented record namespaces")
}

/// Collecting what a request stored under a ListKey: `/<domain>/listkey/{key}/<operation>/JSON`,
/// optionally one page of it (`listkey_start`, `listkey_count`).
pub fn listkey_call(
    config: &Config,
    original: &PugRequest,
    listkey: &str,
    page: Option<(u64, u64)>,
) -> HttpCall {
    let domain = match original.domain {
        "substance" => "substance",
        "assay" => "assay",
        _ => "compound",
    };
    let (op, list) = (original.operation.name, original.operation_list.clone());
    let mut r = request(domain, "listkey", None, vec![listkey.to_string()], op, list)
        .unwrap_or_else(|_| {
            request(
                "compound",
                "listkey",
                None,
                vec![listkey.to_string()],
                "cids",
                Vec::new(),
            )
            .expect("compound listkey cids is documented")
        });
    if let Some((start, count)) = page {
        r.options = vec![
            ("listkey_start".into(), start.to_string()),
            ("listkey_count".into(), count.to_string()),
        ];
    }
    call_of(config, &r)
}

/// Collecting the CIDs of a search: `/compound/listkey/{key}/cids/JSON`, one page of them when asked.
pub fn listkey_poll(config: &Config, listkey: &str, page: Option<(u64, u64)>) -> HttpCall {
    let cids = request("compound", "listkey", None, Vec::new(), "cids", Vec::new())
        .expect("compound listkey cids is documented");
    listkey_call(config, &cids, listkey, page)
}

/// An identity, substructure, superstructure or similarity search.
///
/// Fast searches ask PubChem for a ListKey (`list_return=listkey`) so the result can say how
/// many compounds matched and page through them, instead of cutting the list at a cap nobody
/// asked for; MaxRecords is sent only when the caller sets max_records.
pub fn structure_search(config: &Config, search: &StructureSearch) -> Result<SearchPlan, Error> {
    let (request, query) = search_request(search)?;
    Ok(SearchPlan {
        call: call_of(config, &request),
        search_type: search.search_type.clone(),
        mode: search.mode.clone(),
        namespace: search.namespace.clone(),
        query,
        threshold: search.threshold,
        max_records: search.max_records,
        paged: search.mode == "fast",
    })
}

/// The PUG REST request of a structure search, and its one query.
pub fn search_request(search: &StructureSearch) -> Result<(PugRequest, String), Error> {
    let search_type = search.search_type.clone();
    let mode = search.mode.clone();
    let namespace = search.namespace.clone();
    let ids = search.identifier.values();
    let query = single(&ids, &namespace)?.to_string();
    let searcher = match (mode.as_str(), search_type.as_str()) {
        ("fast", "similarity") => "fastsimilarity_2d".to_string(),
        ("fast", t) => format!("fast{t}"),
        (_, t) => t.to_string(),
    };
    if namespace == "cid" {
        digits_only(std::slice::from_ref(&query), "CID")?;
    }
    let row = grammar::namespace("compound", &searcher)
        .ok_or_else(|| invalid(format!("PubChem has no {mode} {search_type} search.")))?;
    let second = row
        .second
        .iter()
        .find(|s| **s == namespace)
        .copied()
        .ok_or_else(|| {
            invalid(format!(
                "A {search_type} search takes smiles, inchi, smarts or cid, not {namespace}."
            ))
        })?;
    let mut r = request(
        "compound",
        &searcher,
        Some(second),
        vec![query.clone()],
        "cids",
        Vec::new(),
    )?;
    let threshold = search.threshold;
    if let Some(t) = threshold {
        r.options.push(("Threshold".into(), t.to_string()));
    }
    if let Some(m) = search.max_records {
        r.options.push(("MaxRecords".into(), m.to_string()));
    }
    if let Some(kind) = &search.identity_type {
        r.options.push(("identity_type".into(), kind.clone()));
    }
    for (k, v) in &search.options {
        r.set_option(k, v.clone());
    }
    if mode == "fast" {
        r.set_option("list_return", "listkey");
    }
    Ok((r, query))
}
