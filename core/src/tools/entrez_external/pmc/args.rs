//! A PMC call's arguments as the caller gave them, typed: every parameter as given, nothing
//! defaulted, so the semantic rules can name what an operation ignores and which id is bad.

use crate::framework::canonical::Canonical;
use serde_json::Value;

/// PMC's parameters as given: strings trimmed, blanks read as absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PmcArgs {
    /// The ids, each with its index (numbers as digits; blanks kept, to be named).
    pub ids: Vec<(usize, String)>,
    /// id_convert: the declared id type.
    pub idtype: Option<String>,
    /// id_convert: whether version ids are wanted.
    pub versions: Option<bool>,
    /// id_convert: whether the article instance id is wanted.
    pub showaiid: Option<bool>,
    /// The reply format.
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
}

impl PmcArgs {
    /// Reads PMC's parameters from canonical arguments; values of another type than the
    /// schema's are left out (the schema check names them).
    pub fn read(a: &Canonical) -> PmcArgs {
        let bool_of = |name: &str| a.get(name).and_then(Value::as_bool);
        PmcArgs {
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
        }
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

    /// Whether a given parameter says nothing (an empty list).
    pub fn says_nothing(&self, key: &str) -> bool {
        key == "ids" && self.ids.is_empty()
    }
}
