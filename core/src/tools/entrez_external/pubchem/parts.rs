//! A `pug_rest` request's parts before they are checked, and what is wrong with them: what
//! both readings ([`crate::tools::entrez_external::pubchem::read`] of fields, `path` of a
//! URL path) produce.

use serde_json::Value;

/// What is wrong with one part of a `pug_rest` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    /// The domain is not one PubChem documents.
    Domain,
    /// The namespace is not one of the domain's (or is missing, or extra).
    Namespace,
    /// Identifiers missing, extra, or of the wrong shape for the namespace.
    Identifier,
    /// The operation (`data`) is not one of the domain's, or its list names undocumented items.
    Operation,
    /// The output format is not documented for the operation.
    Output,
    /// An option PubChem does not document.
    UnknownOption,
    /// A documented option with a value of the wrong type.
    OptionValue,
    /// A `path` that does not follow the grammar.
    Path,
    /// The same option set twice with different values (in the path and in `options`).
    Conflict,
}

/// One problem, at a JSONPath of the call, with what to do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// JSONPath in the arguments.
    pub path: String,
    /// One sentence naming the value and what is documented.
    pub message: String,
}

pub(crate) fn problem(kind: ProblemKind, path: &str, message: impl Into<String>) -> Problem {
    Problem {
        kind,
        path: path.to_string(),
        message: message.into(),
    }
}

/// The parts of a request before they are checked, as either reading found them.
#[derive(Debug, Default)]
pub(crate) struct Parts {
    pub(crate) domain: String,
    pub(crate) namespace: Vec<String>,
    pub(crate) identifiers: Vec<String>,
    pub(crate) source: Option<String>,
    pub(crate) organism: Option<String>,
    pub(crate) data: Option<String>,
    pub(crate) output: Option<String>,
    /// Each option with the JSONPath it was given at (`$.path` or `$.options.<name>`).
    pub(crate) options: Vec<(String, Value, String)>,
    /// Where the other parts came from, for problem paths: `$.path` or the field.
    pub(crate) from_path: bool,
}
