//! A PubChem call's arguments as the caller gave them, typed.
//!
//! Every parameter as given, nothing defaulted, so the semantic rules can name what an
//! operation ignores and where each identifier sits (`$.identifier[2]`). PUG REST option
//! values stay JSON scalars: their type is the option's (a number, a flag, a word), which
//! only the option table knows.

use crate::framework::canonical::Canonical;
use crate::tools::entrez_external::pubchem::read::Given;
use serde_json::Value;

/// PubChem's parameters as given: strings trimmed, blanks read as absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PubChemArgs {
    /// The input namespace.
    pub namespace: Option<String>,
    /// Each identifier with its JSONPath, trimmed (numbers as digits, blanks kept).
    pub identifier: Vec<(String, String)>,
    /// The depositor, for namespace sourceid.
    pub source: Option<String>,
    /// pug_rest: the organism, for taxonomy-keyed domains.
    pub organism: Option<String>,
    /// What is asked for (a friendly lookup's data, or pug_rest's operation).
    pub data: Option<String>,
    /// The PNG size.
    pub image_size: Option<String>,
    /// Property names, each list item (or the one string) as given.
    pub properties: Vec<String>,
    /// The options, by the name given, with their values.
    pub options: Vec<(String, Value)>,
    /// pug_rest: the domain.
    pub domain: Option<String>,
    /// pug_rest: the output format.
    pub output: Option<String>,
    /// pug_rest: the whole request as a URL path.
    pub path: Option<String>,
    /// structure_search: identity, substructure, superstructure or similarity.
    pub search_type: Option<String>,
    /// structure_search: fast or async.
    pub mode: Option<String>,
    /// structure_search: Tanimoto percent (a fraction is named, not rounded).
    pub threshold: Option<f64>,
    /// structure_search: PubChem's MaxRecords.
    pub max_records: Option<u64>,
    /// structure_search: which identity.
    pub identity_type: Option<String>,
}

impl PubChemArgs {
    /// Reads PubChem's parameters from canonical arguments; values of another type than the
    /// schema's are left out (the schema check names them).
    pub fn read(a: &Canonical) -> PubChemArgs {
        PubChemArgs {
            namespace: a.text("namespace"),
            identifier: identifier(a.get("identifier")),
            source: a.text("source"),
            organism: a.text("organism"),
            data: a.text("data"),
            image_size: a.text("image_size"),
            properties: match a.get("properties") {
                Some(Value::String(s)) => vec![s.clone()],
                _ => a
                    .indexed("properties")
                    .into_iter()
                    .map(|(_, p)| p)
                    .collect(),
            },
            options: a
                .get("options")
                .and_then(Value::as_object)
                .map(|o| o.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
                .unwrap_or_default(),
            domain: a.text("domain"),
            output: a.text("output"),
            path: a.text("path"),
            search_type: a.text("search_type"),
            mode: a.text("mode"),
            threshold: a.get("threshold").and_then(Value::as_f64),
            max_records: a.int("max_records"),
            identity_type: a.text("identity_type"),
        }
    }

    /// The identifiers' text, blanks left out.
    pub fn identifier_values(&self) -> Vec<String> {
        self.identifier
            .iter()
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
            .collect()
    }

    /// What a `pug_rest` request is read from.
    pub fn pug_rest(&self) -> Given<'_> {
        Given {
            path: self.path.as_deref(),
            domain: self.domain.as_deref(),
            namespace: self.namespace.as_deref(),
            identifiers: self.identifier.iter().map(|(_, v)| v.clone()).collect(),
            source: self.source.as_deref(),
            organism: self.organism.as_deref(),
            data: self.data.as_deref(),
            output: self.output.as_deref(),
            options: &self.options,
        }
    }

    /// Whether a given parameter says nothing (an empty list or object).
    pub fn says_nothing(&self, key: &str) -> bool {
        match key {
            "options" => self.options.is_empty(),
            "properties" => self.properties.is_empty(),
            "identifier" => self.identifier.is_empty(),
            _ => false,
        }
    }
}

/// Each identifier with its JSONPath: a list's items, or the one value.
fn identifier(value: Option<&Value>) -> Vec<(String, String)> {
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    match value {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| text(v).map(|t| (format!("$.identifier[{i}]"), t)))
            .collect(),
        Some(v) => text(v)
            .map(|t| vec![("$.identifier".to_string(), t)])
            .unwrap_or_default(),
        None => Vec::new(),
    }
}
