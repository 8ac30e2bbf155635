//! An `entrez_external` call's arguments as the caller gave them, typed.
//!
//! The low-level reading, as [`crate::tools::entrez_query::args`] is for `entrez_query`:
//! what routes the call (service, operation), the view and `fresh` here, each service's own
//! parameters read by its slice ([`PubChemArgs`], [`PmcArgs`]).
//! [`crate::tools::entrez_external::call::ExternalCall`] is made from it.

use crate::framework::canonical::Canonical;
use crate::framework::view::ViewArgs;
use crate::tools::entrez_external::pmc::args::PmcArgs;
use crate::tools::entrez_external::pubchem::args::PubChemArgs;
use serde_json::Value;

/// `entrez_external`'s arguments as given: strings trimmed, blanks read as absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExternalArgs {
    /// The names of the parameters given, in order.
    pub given: Vec<String>,
    /// pubchem or pmc.
    pub service: Option<String>,
    /// The operation.
    pub operation: Option<String>,
    /// PubChem's parameters.
    pub pubchem: PubChemArgs,
    /// PMC's parameters.
    pub pmc: PmcArgs,
    /// detail, fields and max_characters.
    pub view: ViewArgs,
    /// `fresh`: ask upstream even when the cache holds the answer.
    pub fresh: bool,
}

impl ExternalArgs {
    /// Reads canonical arguments; values of another type than the schema's are left out
    /// (the schema check names them).
    pub fn read(args: &Value) -> ExternalArgs {
        let Some(a) = Canonical::of(args) else {
            return ExternalArgs::default();
        };
        ExternalArgs {
            given: a.names(),
            service: a.text("service"),
            operation: a.text("operation"),
            pubchem: PubChemArgs::read(&a),
            pmc: PmcArgs::read(&a),
            view: ViewArgs::read(&a),
            fresh: a.flag("fresh"),
        }
    }

    /// Whether the caller gave parameter `name`.
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|g| g == name)
    }

    /// The operation, or "" when none is named.
    pub fn op(&self) -> &str {
        self.operation.as_deref().unwrap_or("")
    }
}
