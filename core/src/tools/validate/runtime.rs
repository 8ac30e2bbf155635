//! The opt-in `runtime` level: do the records a call names exist?
//!
//! One cheap upstream lookup per checked call, within a fixed budget: the
//! ids of an `entrez_query` `summary`, `fetch`, `link` or `post` are sent
//! to esummary (JSON, which reports each missing uid by name), through the
//! same paced, retried client every other NCBI request uses. An id NCBI
//! says it has no summary for is an error. If the lookup cannot finish in
//! the budget, or NCBI cannot be reached, the answer is a warning that says
//! the ids were not checked: never a guess either way.
//!
//! Only numeric UIDs are looked up (PMIDs, PMC numbers, Gene and Taxonomy
//! ids, GIs): esummary answers accessions with the GI they resolve to, so a
//! missing accession could not be told apart from one NCBI renamed.

use crate::framework::ToolContext;
use crate::json;
use crate::parse;
use crate::tools::entrez_query::args::QueryArgs;
use crate::tools::entrez_query::call::{QueryCall, Records, ReplyMode, Summary};
use crate::tools::entrez_query::plan;
use crate::validation::{codes, item_path, Report};
use futures_util::future::{select, Either};
use serde_json::Value;
use std::collections::HashSet;
use std::pin::pin;

/// Wall-clock budget of the runtime level for one call, in milliseconds.
pub const BUDGET_MS: u64 = 1_000;
/// Most ids one call has checked (esummary JSON takes at most 500).
pub const MAX_IDS: usize = 200;
/// The `entrez_query` operations whose ids are checked.
pub const OPERATIONS: &[&str] = &["summary", "fetch", "link", "post"];

/// What the capability says about this level.
pub fn describe() -> Value {
    json!({
        "budgetMs": BUDGET_MS,
        "maxIds": MAX_IDS,
        "checks": "entrez_query summary/fetch/link/post: numeric ids exist (esummary)",
        "cacheable": false,
        "contactsUpstream": true,
    })
}

/// Adds runtime findings for one call that passed the semantic level.
pub async fn check(ctx: &ToolContext<'_>, args: &QueryArgs, report: &mut Report) {
    let Some(call) = QueryCall::of(args) else {
        return;
    };
    let pubmed = "pubmed".to_string();
    let (database, ids) = match &call {
        // The PMIDs PubMed holds, as for a summary.
        QueryCall::Citations(c) => (&pubmed, &c.ids[..]),
        QueryCall::Summary(c) => (&c.database, c.records.ids()),
        QueryCall::Fetch(c) => (&c.database, c.records.ids()),
        QueryCall::Link(c) => (&c.dbfrom, c.records.ids()),
        QueryCall::Post(c) => (&c.database, &c.ids[..]),
        QueryCall::Info(_)
        | QueryCall::Search(_)
        | QueryCall::GlobalQuery(_)
        | QueryCall::CountByYear(_)
        | QueryCall::Spell(_)
        | QueryCall::CitationMatch(_)
        // Checking the references is the operation itself.
        | QueryCall::CheckReferences(_) => return,
    };
    let mut seen = HashSet::new();
    let numeric: Vec<(usize, String)> = ids
        .iter()
        .cloned()
        .enumerate()
        .filter(|(_, id)| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        .filter(|(_, id)| seen.insert(id.clone()))
        .collect();
    if numeric.is_empty() {
        return;
    }
    if numeric.len() > MAX_IDS {
        report.warn(
            codes::RUNTIME_PARTIAL,
            "$.ids",
            format!(
                "Only the first {MAX_IDS} of {} distinct ids were checked upstream.",
                numeric.len()
            ),
        );
    }
    let checked: Vec<(usize, String)> = numeric.into_iter().take(MAX_IDS).collect();
    let request = plan::summary(&Summary {
        database: database.clone(),
        records: Records::Ids {
            ids: checked.iter().map(|(_, id)| id.clone()).collect(),
        },
        retmode: ReplyMode::Json,
        version: None,
        max_records: MAX_IDS,
        view: Default::default(),
    });
    let (client, network) = match (ctx.entrez(), ctx.network) {
        (Ok(c), Some(n)) => (c, n),
        _ => {
            report.warn(
                codes::RUNTIME_UNAVAILABLE,
                "$.ids",
                "The ids were not checked: this server has no outbound network.",
            );
            return;
        }
    };
    let lookup = pin!(client.send(&request));
    let budget = pin!(network.transport.sleep(BUDGET_MS));
    let reply = match select(lookup, budget).await {
        Either::Left((Ok(reply), _)) => reply,
        Either::Left((Err(e), _)) => {
            report.warn(
                codes::RUNTIME_UNAVAILABLE,
                "$.ids",
                format!(
                    "The ids were not checked: NCBI esummary failed ({}).",
                    e.message
                ),
            );
            return;
        }
        Either::Right(_) => {
            report.warn(
                codes::RUNTIME_BUDGET_EXCEEDED,
                "$.ids",
                format!(
                    "The ids were not checked: NCBI did not answer within the {BUDGET_MS} ms runtime budget."
                ),
            );
            report.suggest("Retry the runtime check later, or rely on the semantic level.");
            return;
        }
    };
    let parsed = match parse::esummary::parse_esummary_json(&reply.body) {
        Ok(p) => p,
        Err(e) => {
            report.warn(
                codes::RUNTIME_UNAVAILABLE,
                "$.ids",
                format!(
                    "The ids were not checked: NCBI's esummary answer was unreadable ({}).",
                    e.message
                ),
            );
            return;
        }
    };
    let found: HashSet<&str> = parsed.docs.iter().map(|d| d.uid.as_str()).collect();
    if parsed.docs.is_empty() && parsed.errors.iter().any(|e| e.uid.is_none()) {
        // An error for the whole request (say, a database esummary refuses) proves nothing about the ids.
        let message = parsed
            .errors
            .iter()
            .map(|e| e.message.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        report.warn(
            codes::RUNTIME_UNAVAILABLE,
            "$.ids",
            format!("The ids were not checked: NCBI esummary answered {message:?}."),
        );
        return;
    }
    let mut missing = 0;
    for (index, id) in &checked {
        if found.contains(id.as_str()) {
            continue;
        }
        let why = parsed
            .errors
            .iter()
            .find(|e| e.uid.as_deref() == Some(id.as_str()))
            .map_or("not in its answer", |e| e.message.as_str());
        report.error(
            codes::ID_NOT_FOUND,
            item_path("ids", *index),
            format!("{database} has no record {id} (NCBI esummary: {why})."),
        );
        missing += 1;
    }
    if missing > 0 {
        report.suggest(format!(
            "Remove the {missing} id(s) {database} does not have, or check that they belong to {database}."
        ));
    }
}
