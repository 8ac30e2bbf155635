//! `bioc`: the full text of PMC Open Access articles from NCBI's BioC API.
//!
//! The BioC API (NCBI BioNLP, "BioC API for PMC") serves an article of the PMC
//! Open Access subset by PMID or PMCID as a BioC collection: documents made of
//! passages, each with its section (`section_type`: TITLE, ABSTRACT, INTRO,
//! METHODS, RESULTS, DISCUSSION, REF…), its kind (`type`: title, paragraph,
//! table…) and its text. JSON is read into those passages; XML comes back as
//! text. An article outside the subset is answered with a short text saying no
//! result can be found, which becomes a per-id failure, never an empty success.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::budget;
use crate::framework::shape::Kind;
use crate::framework::view::{Detail, View};
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::tools::entrez_external::pmc::call::Bioc;
use crate::tools::entrez_external::pmc::plan as pmc_plan;
use crate::tools::entrez_external::pmc::render;
use crate::tools::entrez_external::shared::client::{excerpt, ExternalClient};
use crate::tools::entrez_external::shared::fit;
use crate::tools::entrez_external::shared::fit::List;
use crate::tools::entrez_external::shared::service::Service;
use crate::validation::codes;
use serde_json::Value;

/// The passages of a BioC JSON reply: one collection, or a list of them (both are served).
pub fn passages(v: &Value) -> Vec<Value> {
    let collections: Vec<&Value> = match v {
        Value::Array(list) => list.iter().collect(),
        other => vec![other],
    };
    let mut out = Vec::new();
    for c in collections {
        for d in c["documents"].as_array().into_iter().flatten() {
            for p in d["passages"].as_array().into_iter().flatten() {
                let infons = &p["infons"];
                out.push(json!({
                    "document": d["id"].clone(),
                    "section": infons["section_type"].clone(),
                    "type": infons["type"].clone(),
                    "offset": p["offset"].clone(),
                    "text": p["text"].as_str().unwrap_or(""),
                }));
            }
        }
    }
    out
}

/// bioc: one request per id.
pub async fn bioc(ctx: &ToolContext<'_>, request: &Bioc, view: &View) -> Result<ToolOutput> {
    // Made a task, it runs in the background from this request: one request per id may outlast the
    // client's patience, and BioC has no asynchronous answer to hold (`tasks::calls`).
    if let Some(apart) = crate::framework::as_task::in_background(ctx) {
        return Err(apart);
    }
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    let mut articles = Vec::new();
    // The passages' text within the budget, with room for the JSON around each passage.
    let limit = budget::room(view.max_characters) * 3 / 4;
    let mut budget = limit;
    let mut capped = false;
    // Ids not fetched because the earlier articles filled the budget: named, with the call.
    let mut unfetched: Vec<String> = Vec::new();
    for (i, id) in request.ids.iter().enumerate() {
        if budget == 0 {
            unfetched = request.ids[i..].to_vec();
            break;
        }
        let reply = client
            .send(&pmc_plan::bioc(ctx.config, request, id))
            .await?;
        let body = String::from_utf8_lossy(&reply.body).into_owned();
        if reply.status != 200 {
            articles.push(json!({"id": id, "ok": false, "error": format!("HTTP {}{}", reply.status, excerpt(&reply.body))}));
            continue;
        }
        if request.format == "xml" {
            let ok = body.contains("<collection");
            articles.push(if ok {
                let shown: String = body.chars().take(budget).collect();
                capped |= shown.len() < body.len();
                budget = budget.saturating_sub(shown.chars().count());
                json!({"id": id, "ok": true, "xml": shown})
            } else {
                json!({"id": id, "ok": false, "error": not_found_sentence(id, &body)})
            });
            continue;
        }
        match crate::json::from_str::<Value>(&body) {
            Ok(v) => {
                let mut list = passages(&v);
                if view.detail == Detail::Brief {
                    list.retain(|p| matches!(p["section"].as_str(), Some("TITLE" | "ABSTRACT")));
                }
                let mut kept = Vec::new();
                for mut p in list.drain(..) {
                    let text = p["text"].as_str().unwrap_or("").to_string();
                    if text.chars().count() > budget {
                        capped = true;
                        if budget > 0 {
                            json::set(
                                &mut p,
                                "text",
                                json!(text.chars().take(budget).collect::<String>()),
                            );
                            kept.push(p);
                        }
                        budget = 0;
                        break;
                    }
                    budget -= text.chars().count();
                    kept.push(p);
                }
                articles.push(json!({"id": id, "ok": true, "passages": kept}));
            }
            Err(_) => articles
                .push(json!({"id": id, "ok": false, "error": not_found_sentence(id, &body)})),
        }
    }
    let found = articles.iter().filter(|a| a["ok"] == true).count();
    if found == 0 {
        let reasons: Vec<String> = articles
            .iter()
            .map(|a| a["error"].as_str().unwrap_or("").to_string())
            .collect();
        return Err(Error::new(ErrorKind::NotFound, reasons.join(" "))
            .with_code("pmc_bioc_not_found")
            .suggest("The BioC API serves articles of the PMC Open Access subset; check with operation oa_service, or read the abstract with entrez_query (operation fetch).")
            .with_details(json!({"articles": articles})));
    }
    let mut warnings: Vec<String> = articles
        .iter()
        .filter(|a| a["ok"] == false)
        .map(|a| a["error"].as_str().unwrap_or("").to_string())
        .collect();
    let cap_message = format!(
        "The articles' text passed {limit} characters (max_characters {}) and was cut there; ask for detail brief (title and abstract), or stage the article with entrez_data (database pmc) to query its sections.",
        view.max_characters
    );
    if capped {
        warnings.push(cap_message.clone());
    }
    warnings.extend(client.warnings());
    let structured = json!({
        "service": "pmc", "operation": "bioc", "format": request.format, "encoding": request.encoding,
        "count": articles.len(), "found": found, "truncated": capped, "articles": articles, "warnings": warnings,
    });
    let list = List {
        key: "articles",
        kind: Kind::Bioc,
        noun: "articles",
        keep: &["id", "ok"],
        unlisted: &unfetched,
    };
    let extra = [
        ("format", json!(request.format)),
        ("encoding", json!(request.encoding)),
    ];
    let mut out = fit::listed(structured, list, view, render::bioc, None, |left| {
        crate::tools::entrez_external::pmc::reply::next_args("bioc", left, &extra)
    });
    if capped {
        out = out.with_warning(codes::RESULTS_CUT, "$.max_characters", cap_message);
    }
    Ok(out)
}

fn not_found_sentence(id: &str, body: &str) -> String {
    let said: String = body
        .split('<')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        "The BioC API has no text for {id}{}: it serves PMC Open Access articles only.",
        if said.is_empty() {
            String::new()
        } else {
            format!(" ({})", said.chars().take(120).collect::<String>())
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passages_come_from_a_collection_or_a_list_of_them() {
        let one = json!({"source": "PMC", "documents": [{"id": "1790863", "passages": [
            {"offset": 0, "infons": {"section_type": "TITLE", "type": "front"}, "text": "A title"},
            {"offset": 8, "infons": {"section_type": "ABSTRACT", "type": "abstract"}, "text": "An abstract."}]}]});
        let p = passages(&one);
        assert_eq!(p.len(), 2);
        assert_eq!(p[1]["section"], "ABSTRACT");
        assert_eq!(p[0]["document"], "1790863");
        assert_eq!(passages(&json!([one])).len(), 2);
        assert!(passages(&json!({"documents": []})).is_empty());
        assert!(
            not_found_sentence("PMC1", "[Error] : No result can be found. <BR><HR>")
                .contains("No result can be found")
        );
    }
}
