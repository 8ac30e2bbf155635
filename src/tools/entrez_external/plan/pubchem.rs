//! PUG REST request building: `<base>/<domain>/<namespace>/<identifiers>/<operation>/<output>`.
//!
//! Identifiers that carry characters a URL path cannot hold safely (`/`,
//! `#`, `?`, `%`, `\`, `+`, `,`, spaces, non-ASCII) move to a form body
//! (`smiles=...`), as PubChem's documentation asks; everything else stays
//! readable in the path. Long id lists are POSTed too. Structure searches
//! use the synchronous `fast*` searches by default and the asynchronous
//! forms (which answer with a ListKey to poll) on request.

use super::{form_call, get_call, invalid, join, PUBCHEM_TIMEOUT_MS};
use crate::config::Config;
use crate::error::Error;
use crate::net::{form_encode, percent_encode, HttpCall};
use crate::tools::entrez_external::call::{Lookup, StructureSearch};

/// Joined id lists longer than this are POSTed.
pub const POST_LIST_CHARS: usize = 800;
/// Structure text longer than this is POSTed whatever it contains.
pub const POST_TEXT_CHARS: usize = 400;
/// Default cap on structure-search hits (PubChem's `MaxRecords`).
pub const DEFAULT_MAX_RECORDS: u64 = 100;
/// Default similarity threshold (PubChem's own default, Tanimoto percent).
pub const DEFAULT_THRESHOLD: u64 = 90;

/// The properties a chemist asks for first, under PubChem's current names.
pub const COMPOUND_PROPERTIES: &str = "Title,MolecularFormula,MolecularWeight,ConnectivitySMILES,SMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount";
/// The same list under the names PubChem used until 2025 (CanonicalSMILES, IsomericSMILES).
pub const LEGACY_COMPOUND_PROPERTIES: &str = "Title,MolecularFormula,MolecularWeight,CanonicalSMILES,IsomericSMILES,InChI,InChIKey,IUPACName,XLogP,TPSA,HBondDonorCount,HBondAcceptorCount";

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
    /// The operation and output path (`property/.../JSON`), reused to collect a ListKey.
    pub tail: String,
}

/// A structure search request.
#[derive(Debug, Clone)]
pub struct SearchPlan {
    /// The HTTP call.
    pub call: HttpCall,
    /// identity, substructure, superstructure or similarity.
    pub search_type: String,
    /// fast (synchronous) or async (ListKey, polled).
    pub mode: String,
    /// smiles, inchi, smarts or cid.
    pub namespace: String,
    /// The query structure or CID.
    pub query: String,
    /// Similarity threshold, for similarity searches.
    pub threshold: Option<u64>,
    /// Most hits asked for.
    pub max_records: u64,
}

/// Whether a structure, name or other text must travel in a form body.
pub fn needs_post(text: &str) -> bool {
    text.len() > POST_TEXT_CHARS
        || text.chars().any(|c| {
            matches!(c, '/' | '#' | '?' | '%' | '\\' | '+' | ',')
                || c.is_whitespace()
                || !c.is_ascii()
                || c.is_ascii_control()
        })
}

/// Encodes one path segment, leaving readable the characters SMILES writes most (`()=@:*`) and
/// the comma PUG REST separates id lists with (text containing a comma is POSTed instead).
pub fn path_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_alphanumeric()
            || matches!(
                c,
                '-' | '.' | '_' | '~' | '(' | ')' | '=' | '@' | ':' | '*' | ','
            )
        {
            out.push(c);
        } else {
            out.push_str(&percent_encode(c.encode_utf8(&mut [0; 4])));
        }
    }
    out
}

/// Builds a PUG REST call: the input in the path, or with `post` in a form body.
///
/// `input` is the namespace path (e.g. `compound/smiles`), `key` the form
/// field name, `value` the identifier(s), `tail` the operation and output.
fn pug_call(
    base: &str,
    input: &str,
    key: &str,
    value: &str,
    tail: &str,
    options: &[(String, String)],
    post: bool,
) -> HttpCall {
    let query = if options.is_empty() {
        String::new()
    } else {
        format!("?{}", form_encode(options))
    };
    if post {
        let url = join(base, &format!("{input}/{tail}{query}"));
        form_call(
            url,
            &[(key.to_string(), value.to_string())],
            PUBCHEM_TIMEOUT_MS,
        )
    } else {
        let url = join(
            base,
            &format!("{input}/{}/{tail}{query}", path_segment(value)),
        );
        get_call(url, PUBCHEM_TIMEOUT_MS)
    }
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

/// The PUG REST tail (`<operation>/<output>`) for what a lookup wants.
pub fn operation_tail(domain: Domain, data: Data, legacy_properties: bool) -> String {
    match (domain, data) {
        (_, Data::Record) => "JSON".into(),
        (Domain::Compound, Data::Properties | Data::Picture) => format!(
            "property/{}/JSON",
            if legacy_properties {
                LEGACY_COMPOUND_PROPERTIES
            } else {
                COMPOUND_PROPERTIES
            }
        ),
        (_, Data::Synonyms) => "synonyms/JSON".into(),
        (_, Data::Description) => "description/JSON".into(),
        (_, Data::Summary) => "summary/JSON".into(),
        (_, Data::Cids) => "cids/JSON".into(),
        // The schema never pairs properties with substances or assays.
        (_, Data::Properties | Data::Picture) => "JSON".into(),
    }
}

/// A compound, substance or bioassay lookup.
pub fn pubchem_lookup(config: &Config, lookup: &Lookup, legacy: bool) -> Result<PugPlan, Error> {
    let base = &config.pubchem_base_url;
    let (domain, data) = (lookup.domain, lookup.data);
    let operation = match domain {
        Domain::Compound => "compound",
        Domain::Substance => "substance",
        Domain::Assay => "bioassay",
    };
    let namespace = lookup.namespace.clone();
    let ids = lookup.identifier.values();
    if ids.is_empty() {
        return Err(invalid("identifier is empty."));
    }
    let tail = operation_tail(domain, data, legacy);
    let d = domain.path();
    let call = match namespace.as_str() {
        "cid" | "sid" | "aid" => {
            digits_only(&ids, &namespace.to_ascii_uppercase())?;
            let joined = ids.join(",");
            let long = joined.len() > POST_LIST_CHARS;
            pug_call(
                base,
                &format!("{d}/{namespace}"),
                &namespace,
                &joined,
                &tail,
                &[],
                long,
            )
        }
        "name" | "smiles" | "inchi" => {
            let value = single(&ids, &namespace)?;
            pug_call(
                base,
                &format!("{d}/{namespace}"),
                &namespace,
                value,
                &tail,
                &[],
                needs_post(value),
            )
        }
        "inchikey" => {
            let key = single(&ids, "inchikey")?;
            if !is_inchikey(key) {
                return Err(invalid(format!("\"{key}\" is not an InChIKey (27 characters: 14 letters, hyphen, 10 letters, hyphen, 1 letter)."))
                    .suggest("Send the structure itself with namespace inchi or smiles instead."));
            }
            get_call(
                join(base, &format!("{d}/inchikey/{key}/{tail}")),
                PUBCHEM_TIMEOUT_MS,
            )
        }
        "formula" => {
            let formula = single(&ids, "formula")?;
            if !formula.bytes().all(|b| b.is_ascii_alphanumeric()) {
                return Err(invalid(format!(
                    "\"{formula}\" is not a molecular formula such as C9H8O4."
                )));
            }
            // fastformula answers synchronously; plain formula would return a ListKey.
            get_call(
                join(base, &format!("{d}/fastformula/{formula}/{tail}")),
                PUBCHEM_TIMEOUT_MS,
            )
        }
        "listkey" => {
            let key = single(&ids, "listkey")?;
            digits_only(std::slice::from_ref(&key.to_string()), "ListKey")?;
            get_call(
                join(base, &format!("{d}/listkey/{key}/{tail}")),
                PUBCHEM_TIMEOUT_MS,
            )
        }
        "sourceid" => {
            let id = single(&ids, "sourceid")?;
            let source = lookup.source.as_deref().ok_or_else(|| {
                invalid("Namespace sourceid needs source, the depositor's name (e.g. DTP/NCI).")
            })?;
            // Both are path segments with no form-body alternative; PubChem's convention writes a "/" inside them as ".".
            let source = source.replace('/', ".");
            let id = id.replace('/', ".");
            get_call(
                join(
                    base,
                    &format!(
                        "{d}/sourceid/{}/{}/{tail}",
                        path_segment(&source),
                        path_segment(&id)
                    ),
                ),
                PUBCHEM_TIMEOUT_MS,
            )
        }
        other => {
            return Err(invalid(format!(
                "Namespace {other} is not offered for {operation}."
            )))
        }
    };
    Ok(PugPlan {
        call,
        domain,
        namespace,
        identifiers: ids,
        data,
        tail,
    })
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

/// The 2D depiction of one compound: `/compound/cid/{cid}/PNG`.
pub fn picture(config: &Config, cid: u64, image_size: Option<&str>) -> HttpCall {
    let mut url = join(&config.pubchem_base_url, &format!("compound/cid/{cid}/PNG"));
    if let Some(size) = image_size {
        url.push_str(&format!("?image_size={}", percent_encode(size)));
    }
    get_call(url, PUBCHEM_TIMEOUT_MS)
}

/// Collecting what an asynchronous request stored under a ListKey: `/<domain>/listkey/{key}/<tail>`.
pub fn listkey_call(config: &Config, domain: Domain, listkey: &str, tail: &str) -> HttpCall {
    get_call(
        join(
            &config.pubchem_base_url,
            &format!("{}/listkey/{}/{tail}", domain.path(), path_segment(listkey)),
        ),
        PUBCHEM_TIMEOUT_MS,
    )
}

/// Collecting the CIDs of an asynchronous search: `/compound/listkey/{key}/cids/JSON`.
pub fn listkey_poll(config: &Config, listkey: &str) -> HttpCall {
    listkey_call(config, Domain::Compound, listkey, "cids/JSON")
}

/// An identity, substructure, superstructure or similarity search.
pub fn structure_search(config: &Config, search: &StructureSearch) -> Result<SearchPlan, Error> {
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
    let max_records = search.max_records;
    let threshold = search.threshold;
    let mut options: Vec<(String, String)> = Vec::new();
    if let Some(t) = threshold {
        options.push(("Threshold".into(), t.to_string()));
    }
    options.push(("MaxRecords".into(), max_records.to_string()));
    if let Some(kind) = &search.identity_type {
        options.push(("identity_type".into(), kind.clone()));
    }
    if namespace == "cid" {
        digits_only(std::slice::from_ref(&query), "CID")?;
    }
    let call = pug_call(
        &config.pubchem_base_url,
        &format!("compound/{searcher}/{namespace}"),
        &namespace,
        &query,
        "cids/JSON",
        &options,
        needs_post(&query),
    );
    Ok(SearchPlan {
        call,
        search_type,
        mode,
        namespace,
        query,
        threshold,
        max_records,
    })
}
