//! One `entrez_external` call, read once into a typed value: the service's own call.
//!
//! As for `entrez_query` ([`crate::tools::entrez_query::call`]), the intake has made the
//! arguments canonical, read into [`ExternalArgs`]; [`ExternalCall::of`] hands them to the
//! slice whose operation is named ([`PubChemCall`], [`PmcCall`]), where every default lives.
//! Serialized, the call is `validate`'s `normalized_arguments`.

use crate::tools::entrez_external::args::ExternalArgs;
use crate::tools::entrez_external::pmc::call::PmcCall;
use crate::tools::entrez_external::pubchem::call::PubChemCall;
use serde::Serialize;
use serde_json::Value;

/// A typed `entrez_external` call; serialized, it is `validate`'s `normalized_arguments`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ExternalCall {
    /// compound, substance, bioassay, structure_search or pug_rest.
    PubChem(PubChemCall),
    /// id_convert, oa_service, citation_export, bioc or full_text.
    Pmc(PmcCall),
}

impl ExternalCall {
    /// The call the arguments make, every default in place; `None` when no known operation is
    /// named (or a `pug_rest` request does not follow PUG REST's grammar).
    pub fn of(a: &ExternalArgs) -> Option<ExternalCall> {
        let op = a.operation.as_deref()?;
        match PubChemCall::of(op, &a.pubchem) {
            Some(call) => Some(ExternalCall::PubChem(call)),
            None => PmcCall::of(op, &a.pmc).map(ExternalCall::Pmc),
        }
    }

    /// The call as JSON: `validate`'s `normalized_arguments`.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
