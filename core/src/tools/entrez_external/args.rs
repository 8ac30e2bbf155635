//! An `entrez_external` call's arguments as the caller gave them, typed.
//!
//! The low-level reading, as [`crate::tools::entrez_query::args`] is for `entrez_query`:
//! every parameter as given, nothing defaulted, so the semantic rules can name
//! what an operation ignores and where each identifier sits (`$.identifier[2]`).
//! [`crate::tools::entrez_external::call::ExternalCall`] is made from it. PUG REST option values stay JSON
//! scalars: their type is the option's (a number, a flag, a word), which only the
//! option table knows.

use crate::framework::canonical::Canonical;
use crate::framework::view::ViewArgs;
use crate::tools::entrez_external::pubchem::Given;
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
    /// PubChem: the input namespace.
    pub namespace: Option<String>,
    /// PubChem: each identifier with its JSONPath, trimmed (numbers as digits, blanks kept).
    pub identifier: Vec<(String, String)>,
    /// PubChem: the depositor, for namespace sourceid.
    pub source: Option<String>,
    /// pug_rest: the organism, for taxonomy-keyed domains.
    pub organism: Option<String>,
    /// PubChem: what is asked for (a friendly lookup's data, or pug_rest's operation).
    pub data: Option<String>,
    /// PubChem: the PNG size.
    pub image_size: Option<String>,
    /// PubChem: property names, each list item (or the one string) as given.
    pub properties: Vec<String>,
    /// PubChem: the options, by the name given, with their values.
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
    /// PMC: the ids, each with its index (numbers as digits; blanks kept, to be named).
    pub ids: Vec<(usize, String)>,
    /// id_convert: the declared id type.
    pub idtype: Option<String>,
    /// id_convert: whether version ids are wanted.
    pub versions: Option<bool>,
    /// id_convert: whether the article instance id is wanted.
    pub showaiid: Option<bool>,
    /// PMC: the reply format.
    pub format: Option<String>,
    /// oa_service: listing start date.
    pub from: Option<String>,
    /// oa_service: listing end date.
    pub until: Option<String>,
    /// oa_service: the next page of a listing.
    pub resumption_token: Option<String>,
    /// citation_export: pubmed or pmc.
    pub database: Option<String>,
    /// bioc: unicode or ascii.
    pub encoding: Option<String>,
    /// full_text: the sections wanted, by heading (each item as given, trimmed).
    pub sections: Vec<String>,
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
        let bool_of = |name: &str| a.get(name).and_then(Value::as_bool);
        ExternalArgs {
            given: a.names(),
            service: a.text("service"),
            operation: a.text("operation"),
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
            ids: a.indexed("ids"),
            idtype: a.text("idtype"),
            versions: bool_of("versions"),
            showaiid: bool_of("showaiid"),
            format: a.text("format"),
            from: a.text("from"),
            until: a.text("until"),
            resumption_token: a.text("resumption_token"),
            database: a.text("database"),
            encoding: a.text("encoding"),
            sections: match a.get("sections") {
                Some(Value::String(s)) => vec![s.trim().to_string()],
                _ => a
                    .indexed("sections")
                    .into_iter()
                    .map(|(_, p)| p.trim().to_string())
                    .collect(),
            }
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect(),
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

    /// The ids' text, trimmed, blanks left out: what is sent.
    pub fn id_list(&self) -> Vec<String> {
        self.ids
            .iter()
            .map(|(_, id)| id.trim())
            .filter(|id| !id.is_empty())
            .map(String::from)
            .collect()
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
