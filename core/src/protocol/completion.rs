//! `completion/complete`: suggestions for prompt arguments and the dataset template.
//!
//! Database names come from NCBI's own EInfo list, formats from EFetch's
//! Table 1 for the database already chosen, dataset ids from the caller's own
//! datasets (nobody else's). Suggestions match the typed prefix, case-insensitively.

use crate::entrez::databases::UNLISTED;
use crate::entrez::formats;
use crate::error::{Error, ErrorKind, Result};
use crate::framework::ToolContext;
use crate::json;
use crate::protocol::prompts;
use crate::protocol::resources;
use crate::staging::owner_of;
use crate::validation::databases::{canonical, entrez_databases, FETCH_ONLY};
use serde_json::{Map, Value};

/// Most values in one answer, as the specification allows.
pub const MAX_VALUES: usize = 100;

/// Organisms offered for `organism`; anything else may still be typed.
pub const ORGANISMS: &[&str] = &[
    "Homo sapiens",
    "Mus musculus",
    "Rattus norvegicus",
    "Danio rerio",
    "Drosophila melanogaster",
    "Caenorhabditis elegans",
    "Saccharomyces cerevisiae",
    "Arabidopsis thaliana",
    "Escherichia coli",
    "Gallus gallus",
    "Bos taurus",
    "Sus scrofa",
    "Macaca mulatta",
    "Xenopus laevis",
    "SARS-CoV-2",
];

/// What is being completed, read from the request.
#[derive(Debug, PartialEq)]
pub enum Target<'a> {
    /// An argument of a prompt.
    Prompt {
        /// The prompt.
        prompt: &'a str,
        /// The argument.
        argument: &'a str,
    },
    /// A variable of a resource template.
    Resource {
        /// The template or URI.
        uri: &'a str,
        /// The variable.
        argument: &'a str,
    },
}

/// Reads `ref`, `argument.name`, `argument.value` and `context.arguments`.
pub fn read(params: &Map<String, Value>) -> Result<(Target<'_>, &str, Map<String, Value>)> {
    let bad = |m: &str| Error::new(ErrorKind::InvalidParams, format!("completion/complete {m}"));
    let reference = params.get("ref").ok_or_else(|| bad("needs params.ref"))?;
    let argument = params
        .get("argument")
        .ok_or_else(|| bad("needs params.argument"))?;
    let name = argument["name"]
        .as_str()
        .ok_or_else(|| bad("needs params.argument.name as a string"))?;
    let value = argument["value"].as_str().unwrap_or("");
    let target = match (reference["type"].as_str(), reference["name"].as_str(), reference["uri"].as_str()) {
        (Some("ref/prompt"), Some(prompt), _) => Target::Prompt { prompt, argument: name },
        (Some("ref/resource"), _, Some(uri)) => Target::Resource { uri, argument: name },
        _ => return Err(bad("needs params.ref as {\"type\": \"ref/prompt\", \"name\"} or {\"type\": \"ref/resource\", \"uri\"}")),
    };
    let context = params
        .get("context")
        .and_then(|c| c.get("arguments"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Ok((target, value, context))
}

/// `completion/complete`.
pub async fn complete(ctx: &ToolContext<'_>, params: &Map<String, Value>) -> Result<Value> {
    let (target, typed, context) = read(params)?;
    let argument = match target {
        Target::Prompt { prompt, argument } => {
            let Some(p) = prompts::find(prompt, ctx.staging.is_some()) else {
                return Err(Error::new(
                    ErrorKind::InvalidParams,
                    format!("Unknown prompt: {prompt}."),
                )
                .with_code("unknown_prompt"));
            };
            if !p.arguments.iter().any(|a| a.name == argument) {
                return Err(Error::new(
                    ErrorKind::InvalidParams,
                    format!("Prompt {prompt} has no argument {argument}."),
                ));
            }
            argument
        }
        Target::Resource { uri, argument } => {
            return match resources::complete(ctx, uri, argument).await {
                Some(values) => Ok(answer(values?, typed)),
                None => Err(Error::new(
                    ErrorKind::InvalidParams,
                    format!("No resource template {uri} with a variable {argument} is completed here."),
                )
                .suggest("resources/templates/list names the templates; the dataset schema's data_access_id is completed.")),
            }
        }
    };
    let candidates: Vec<String> = match argument {
        "database" => entrez_databases()
            .iter()
            .map(String::as_str)
            .chain(UNLISTED.iter().copied())
            .chain(FETCH_ONLY.iter().copied())
            .map(str::to_string)
            .collect(),
        "rettype" => {
            let db = context
                .get("database")
                .and_then(Value::as_str)
                .unwrap_or("");
            formats::rows_for(canonical(db))
                .map(|r| r.rettype.to_string())
                .filter(|t| !t.is_empty())
                .collect()
        }
        "organism" => ORGANISMS.iter().map(|s| s.to_string()).collect(),
        "data_access_id" => match ctx.staging {
            Some(staging) => {
                let now = ctx.platform.now_unix_ms();
                let owner = owner_of(ctx.request);
                let live = staging.live_datasets(&owner.key, now).await?;
                live.into_iter().map(|d| d.id).collect()
            }
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    Ok(answer(candidates, typed))
}

/// The `completion` result: candidates starting with `typed`, at most [`MAX_VALUES`].
pub fn answer(candidates: Vec<String>, typed: &str) -> Value {
    let typed = typed.to_lowercase();
    let mut seen = std::collections::HashSet::new();
    let matching: Vec<String> = candidates
        .into_iter()
        .filter(|c| c.to_lowercase().starts_with(&typed))
        .filter(|c| seen.insert(c.clone()))
        .collect();
    let total = matching.len();
    let values: Vec<String> = matching.into_iter().take(MAX_VALUES).collect();
    json!({ "completion": { "values": values, "total": total, "hasMore": total > MAX_VALUES } })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn requests_are_read_into_targets() {
        let p = params(json!({
            "ref": {"type": "ref/prompt", "name": "fetch_records"},
            "argument": {"name": "rettype", "value": "fa"},
            "context": {"arguments": {"database": "nuccore"}},
        }));
        let (target, typed, context) = read(&p).unwrap();
        assert_eq!(
            target,
            Target::Prompt {
                prompt: "fetch_records",
                argument: "rettype"
            }
        );
        assert_eq!(
            (typed, context["database"].as_str()),
            ("fa", Some("nuccore"))
        );
        let p = params(
            json!({"ref": {"type": "ref/resource", "uri": "entrez-dataset://{data_access_id}/schema"}, "argument": {"name": "data_access_id", "value": ""}}),
        );
        assert!(matches!(read(&p).unwrap().0, Target::Resource { .. }));
        let e = read(&params(
            json!({"ref": {"type": "ref/other"}, "argument": {"name": "x"}}),
        ))
        .unwrap_err();
        assert_eq!(e.kind.rpc_code(), Some(-32602));
    }

    #[test]
    fn answers_filter_by_prefix_dedupe_and_cap() {
        let got = answer(
            vec![
                "pubmed".into(),
                "protein".into(),
                "pmc".into(),
                "pubmed".into(),
            ],
            "PU",
        );
        assert_eq!(got["completion"]["values"], json!(["pubmed"]));
        assert_eq!(got["completion"]["total"], 1);
        let many: Vec<String> = (0..150).map(|i| format!("id{i:03}")).collect();
        let got = answer(many, "id");
        assert_eq!(
            got["completion"]["values"].as_array().unwrap().len(),
            MAX_VALUES
        );
        assert_eq!(
            (
                got["completion"]["total"].as_u64(),
                got["completion"]["hasMore"].as_bool()
            ),
            (Some(150), Some(true))
        );
    }

    #[test]
    fn formats_follow_the_chosen_database() {
        let rettypes_of = |db: &str| -> Vec<String> {
            formats::rows_for(canonical(db))
                .map(|r| r.rettype.to_string())
                .filter(|t| !t.is_empty())
                .collect()
        };
        assert!(rettypes_of("nuccore").contains(&"fasta".to_string()));
        assert!(!rettypes_of("pubmed").contains(&"fasta".to_string()));
        assert!(rettypes_of("pubmed").contains(&"medline".to_string()));
    }
}
