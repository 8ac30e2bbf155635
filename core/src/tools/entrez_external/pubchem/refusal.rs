//! PubChem's refusals as errors: a `Fault` in PubChem's own words with a next step that fits
//! what was asked, and a reply that is not the JSON asked for.

use crate::error::{Error, ErrorKind};
use crate::json;
use crate::net::HttpReply;
use crate::tools::entrez_external::pubchem::call::Data;
use crate::tools::entrez_external::shared::client::excerpt;
use crate::tools::entrez_external::shared::fault::Fault;

/// What was asked, for error messages that fit the request.
pub struct Ask<'a> {
    /// The record kind (compound, substance, …).
    pub what: &'a str,
    /// The namespace as the call named it.
    pub namespace: String,
    /// The identifiers, joined.
    pub identifier: String,
    /// What a lookup asked for.
    pub data: Option<Data>,
    /// Whether it was a search (a timeout then suggests narrowing it).
    pub search: bool,
}

/// The error for a reply that is not a success, in PubChem's own words where it gave them.
pub fn fault_error(status: u16, fault: Option<&Fault>, body: &[u8], ask: &Ask<'_>) -> Error {
    let code = fault.map(|f| f.code.as_str()).unwrap_or(match status {
        404 => "PUGREST.NotFound",
        400 => "PUGREST.BadRequest",
        501 => "PUGREST.Unimplemented",
        504 => "PUGREST.Timeout",
        _ => "PUGREST.Unknown",
    });
    let said = match fault {
        Some(f) => format!(": {}", f.sentence()),
        None => excerpt(body),
    };
    let who = format!("{} \"{}\"", ask.namespace, ask.identifier);
    let structural = ["smiles", "inchi", "smarts"]
        .iter()
        .any(|n| ask.namespace.ends_with(n));
    let e = match code {
        "PUGREST.NotFound" => {
            let e = Error::new(
                ErrorKind::NotFound,
                format!("PubChem found no {} for {who}{said}.", ask.what),
            )
            .with_code("pubchem_not_found");
            match ask.namespace.as_str() {
                "name" => e.suggest("Check the spelling: PubChem matches names and synonyms exactly. Try the common name, a CAS number, or the InChIKey (namespace inchikey)."),
                "smiles" | "inchi" => e.suggest("PubChem has no record of exactly this structure; look for close ones with operation structure_search and search_type similarity."),
                "formula" => e.suggest("Check the formula's capitalisation (e.g. C9H8O4); no compound in PubChem has this one."),
                "listkey" => e.suggest("ListKeys expire after a while; run the search again."),
                _ => e.suggest(format!("Check the number, or find the record by name first (namespace name) to get its {}.", ask.namespace.to_ascii_uppercase())),
            }
        }
        "PUGREST.BadRequest" => {
            let e = Error::new(
                ErrorKind::Upstream,
                format!("PubChem rejected the request for {who}{said}."),
            )
            .with_code("pubchem_bad_request");
            if structural {
                e.suggest("Check the structure's syntax: balanced brackets and ring closures, valid element symbols, e.g. CC(=O)OC1=CC=CC=C1C(=O)O for aspirin.")
            } else {
                e.suggest("Check that the namespace fits the identifier: a name under name, a number under cid/sid/aid, a structure under smiles or inchi.")
            }
        }
        "PUGREST.Timeout" => {
            let e = Error::new(
                ErrorKind::Upstream,
                format!("PubChem gave up on the request for {who} because it took too long{said}."),
            )
            .with_code("pubchem_timeout");
            if ask.search {
                e.suggest("Use mode async: PubChem then runs the search in the background and this tool collects it for up to 60 s.")
                    .suggest("Narrow the search: raise threshold, lower max_records, or give a larger substructure.")
            } else {
                e.suggest("Ask for fewer identifiers per call.")
            }
        }
        "PUGREST.Unimplemented" => Error::new(
            ErrorKind::Upstream,
            format!(
                "PubChem does not offer {} for {} lookups by {}{said}.",
                ask.data.map(Data::as_str).unwrap_or("this"),
                ask.what,
                ask.namespace
            ),
        )
        .with_code("pubchem_unsupported")
        .suggest("Ask for record, synonyms or cids instead, or look the record up by CID."),
        "PUGREST.MethodNotAllowed" => Error::internal(format!(
            "PubChem refused the HTTP method this server used{said}; this is a server bug."
        ))
        .with_code("pubchem_method_not_allowed")
        .suggest("Report this with the arguments you used."),
        _ => Error::new(
            ErrorKind::Upstream,
            format!("PubChem answered HTTP {status} for {who}{said}."),
        )
        .with_code("pubchem_error")
        .suggest("Retry later; if it persists, check the identifier on pubchem.ncbi.nlm.nih.gov."),
    };
    match fault {
        Some(f) => e.with_details(json!({"status": status, "fault": {"code": f.code, "message": f.message, "details": f.details}})),
        None => e.with_details(json!({"status": status})),
    }
}

/// PubChem answered with something other than the JSON asked for.
pub fn unreadable(reply: &HttpReply) -> Error {
    Error::new(
        ErrorKind::Upstream,
        format!(
            "PubChem sent a reply that is not JSON{}.",
            excerpt(&reply.body)
        ),
    )
    .with_code("pubchem_unreadable")
    .suggest("Retry in a moment; PubChem may be under maintenance.")
}
