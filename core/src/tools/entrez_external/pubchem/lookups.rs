//! PubChem operations: compound, substance and bioassay lookups, structure search, pictures.
//!
//! Each operation builds its request with [`pubchem_plan`], sends it through an
//! [`ExternalClient`] in the `pubchem` bucket, reads the reply with [`pug`],
//! and never lets a PUG REST `Fault` pass as data: every fault becomes an
//! error with PubChem's own words and a next step that fits what was asked.
//! Asynchronous answers (`Waiting` with a ListKey) are polled within
//! [`listkey::POLL_DEADLINE_MS`].

use crate::error::{Error, ErrorKind, Result};
use crate::framework::content::Content;
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::net::{HttpCall, HttpReply};
use crate::tools::entrez_external::pubchem::call::Data;
use crate::tools::entrez_external::pubchem::call::Domain;
use crate::tools::entrez_external::pubchem::call::{Lookup, StructureSearch};
use crate::tools::entrez_external::pubchem::listkey;
use crate::tools::entrez_external::pubchem::plan as pubchem_plan;
use crate::tools::entrez_external::pubchem::plan::PugPlan;
use crate::tools::entrez_external::pubchem::pug;
use crate::tools::entrez_external::pubchem::refusal::{fault_error, unreadable, Ask};
use crate::tools::entrez_external::pubchem::render;
use crate::tools::entrez_external::shared::client::ExternalClient;
use crate::tools::entrez_external::shared::fault;
use crate::tools::entrez_external::shared::fit;
use crate::tools::entrez_external::shared::fit::List;
use crate::tools::entrez_external::shared::output::output;
use crate::tools::entrez_external::shared::service::Service;
use crate::validation::codes;
use serde_json::Value;

/// Synonyms kept per record (aspirin alone has hundreds).
pub const MAX_SYNONYMS: usize = 50;
/// CIDs kept in one result.
pub const MAX_CIDS: usize = 1_000;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The JSON of a final reply, polling a ListKey while PubChem says it is still working.
async fn json_reply(
    ctx: &ToolContext<'_>,
    client: &ExternalClient<'_>,
    reply: HttpReply,
    ask: &Ask<'_>,
    poll: impl Fn(&str) -> HttpCall,
) -> Result<(Value, Option<String>, u32)> {
    let later = |key: &str| {
        format!("Collect the result later with operation compound, namespace listkey, identifier \"{key}\" and data cids; or narrow the query (raise threshold, lower max_records, or give a larger substructure).")
    };
    let (reply, listkey, polls) = listkey::collect(ctx, client, reply, poll, later).await?;
    if !matches!(reply.status, 200 | 202) {
        let f = fault::fault(&reply.body);
        return Err(fault_error(reply.status, f.as_ref(), &reply.body, ask));
    }
    let v: Value = serde_json::from_slice(&reply.body).map_err(|_| unreadable(&reply))?;
    if v.get("Fault").is_some() {
        let f = fault::fault(&reply.body);
        return Err(fault_error(reply.status, f.as_ref(), &reply.body, ask));
    }
    Ok((v, listkey, polls))
}

fn cap_synonyms(list: Vec<Value>) -> (Vec<Value>, bool) {
    let mut truncated = false;
    let out = list
        .into_iter()
        .map(|mut s| {
            let all = s["synonyms"].as_array().cloned().unwrap_or_default();
            json::set(&mut s, "synonym_count", json!(all.len()));
            if all.len() > MAX_SYNONYMS {
                truncated = true;
                json::set(&mut s, "synonyms", json!(all[..MAX_SYNONYMS]));
            }
            s
        })
        .collect();
    (out, truncated)
}

/// compound, substance and bioassay lookups.
pub async fn lookup(ctx: &ToolContext<'_>, request: &Lookup, view: &View) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::PubChem)?;
    let mut plan: PugPlan = pubchem_plan::pubchem_lookup(ctx.config, request, false)?;
    let mut warnings: Vec<String> = Vec::new();
    let mut reply = client.submit(&plan.call).await?;
    let wants_properties = matches!(plan.data, Data::Properties | Data::Picture);
    let mut legacy = false;
    if wants_properties && request.properties.is_empty() && reply.status == 400 {
        let rejected_names = fault::fault(&reply.body)
            .is_some_and(|f| f.sentence().to_ascii_lowercase().contains("propert"));
        if rejected_names {
            // A PubChem that predates the 2025 SMILES renaming only knows the old names.
            plan = pubchem_plan::pubchem_lookup(ctx.config, request, true)?;
            reply = client.send(&plan.call).await?;
            legacy = true;
            warnings.push("PubChem rejected the current property names; the legacy names CanonicalSMILES and IsomericSMILES were used instead.".into());
        }
    }
    let what = match plan.domain {
        Domain::Compound => "compound",
        Domain::Substance => "substance",
        Domain::Assay => "bioassay",
    };
    let ask = Ask {
        what,
        namespace: plan.namespace.clone(),
        identifier: plan.identifiers.join(","),
        data: Some(plan.data),
        search: false,
    };
    let (v, listkey, _) = json_reply(ctx, &client, reply, &ask, |key| {
        pubchem_plan::listkey_call(ctx.config, &plan.request, key, None)
    })
    .await?;
    let operation = what;
    let mut structured = json!({
        "service": "pubchem",
        "operation": operation,
        "namespace": plan.namespace,
        "identifiers": plan.identifiers,
        "data": plan.data.as_str(),
    });
    if let Some(k) = listkey {
        json::set(&mut structured, "listkey", json!(k));
    }
    // Cuts this server makes to the result: warnings in the result and, coded, in call_warnings.
    let mut capped: Vec<String> = Vec::new();
    let count = match (plan.domain, plan.data) {
        (Domain::Compound, Data::Properties | Data::Picture) => {
            let list = pug::properties(&v);
            json::set(&mut structured, "legacy_property_names", json!(legacy));
            put(&mut structured, "compounds", list)
        }
        (Domain::Compound, Data::Record) => {
            put(&mut structured, "compounds", pug::compound_records(&v))
        }
        (Domain::Substance, Data::Record) => {
            put(&mut structured, "substances", pug::substance_records(&v))
        }
        (Domain::Assay, Data::Summary) => put(&mut structured, "assays", pug::assay_summaries(&v)),
        (Domain::Assay, _) => put(&mut structured, "assays", pug::assay_descriptions(&v)),
        (_, Data::Synonyms) => {
            let (list, truncated) = cap_synonyms(pug::synonyms(&v));
            if truncated {
                capped.push(format!(
                    "Only the first {MAX_SYNONYMS} synonyms of each record are listed; synonym_count gives the total, and pug_rest with data synonyms and output TXT returns them all."
                ));
            }
            put(&mut structured, "synonyms", list)
        }
        (_, Data::Description) => put(&mut structured, "descriptions", pug::descriptions(&v)),
        (_, _) => {
            let all = pug::cids(&v);
            let total = all.len();
            let kept: Vec<u64> = all.into_iter().take(MAX_CIDS).collect();
            json::set(&mut structured, "total", json!(total));
            json::set(&mut structured, "truncated", json!(total > kept.len()));
            if total > kept.len() {
                capped.push(format!(
                    "{total} CIDs matched; the first {MAX_CIDS} are listed. Page through all of them with pug_rest and options list_return listkey, then namespace listkey with listkey_start and listkey_count."
                ));
            }
            json::set(&mut structured, "cids", json!(kept));
            kept.len()
        }
    };
    json::set(&mut structured, "count", json!(count));
    let mut picture: Option<Vec<u8>> = None;
    if plan.data == Data::Picture {
        let first = structured["compounds"][0]["cid"].as_u64();
        match first {
            Some(cid) => match fetch_picture(ctx, &client, cid, request).await {
                Ok((bytes, call)) => {
                    structured["picture"] = json!({
                        "cid": cid, "mime_type": "image/png", "byte_length": bytes.len(),
                        "source_url": call.url,
                    });
                    if count > 1 {
                        warnings.push(format!(
                            "The picture shows the first compound only (CID {cid})."
                        ));
                    }
                    picture = Some(bytes);
                }
                Err(e) => warnings.push(format!(
                    "The structure picture could not be fetched: {}",
                    e.message
                )),
            },
            None => warnings.push("No CID came back, so no picture could be fetched.".into()),
        }
    }
    warnings.extend(capped.iter().cloned());
    finish(&client, &mut structured, warnings);
    let hint = render::lookup_hint(&structured);
    let listed = [
        "compounds",
        "substances",
        "assays",
        "synonyms",
        "descriptions",
    ]
    .into_iter()
    .find(|k| structured.get(*k).is_some());
    let mut out = match listed {
        Some(key) => {
            let list = List {
                key,
                kind: if key == "compounds" {
                    Kind::Compound
                } else {
                    Kind::Other
                },
                noun: key,
                keep: match key {
                    "compounds" => &["cid"],
                    "substances" => &["sid"],
                    "assays" => &["aid"],
                    "synonyms" => &["cid", "sid", "synonyms"],
                    _ => &["cid", "sid", "descriptions"],
                },
                unlisted: &[],
            };
            // The records left out, asked for again by their own ids.
            let namespace = match plan.domain {
                Domain::Compound => "cid",
                Domain::Substance => "sid",
                Domain::Assay => "aid",
            };
            let (data, properties) = (plan.data.as_str(), &request.properties);
            fit::listed(
                structured,
                list,
                view,
                render::pubchem_lookup,
                hint,
                |left| {
                    let mut a = serde_json::Map::new();
                    a.insert("service".into(), json!("pubchem"));
                    a.insert("operation".into(), json!(operation));
                    a.insert("namespace".into(), json!(namespace));
                    a.insert("identifier".into(), json!(left));
                    a.insert("data".into(), json!(data));
                    if !properties.is_empty() {
                        a.insert("properties".into(), json!(properties));
                    }
                    a
                },
            )
        }
        None => {
            let text = render::pubchem_lookup(&structured);
            output(structured, text, hint)
        }
    };
    for message in capped {
        out = out.with_warning(codes::RESULTS_CAPPED, "$.data", message);
    }
    if let Some(bytes) = picture {
        out = out.with_content(Content::image(&bytes, "image/png"));
    }
    Ok(out)
}

fn put(structured: &mut Value, key: &str, list: Vec<Value>) -> usize {
    let n = list.len();
    structured[key] = json!(list);
    n
}

/// Adds warnings and the throttling report.
fn finish(client: &ExternalClient<'_>, structured: &mut Value, mut warnings: Vec<String>) {
    warnings.extend(client.warnings());
    json::set(structured, "warnings", json!(warnings));
    if let Some(t) = client.notes().worst_throttling {
        json::set(structured, "throttling", t.to_value());
    }
}

async fn fetch_picture(
    ctx: &ToolContext<'_>,
    client: &ExternalClient<'_>,
    cid: u64,
    lookup: &Lookup,
) -> Result<(Vec<u8>, HttpCall)> {
    let call = pubchem_plan::picture(ctx.config, cid, lookup);
    let reply = client.send(&call).await?;
    if reply.status != 200 {
        let ask = Ask {
            what: "picture",
            namespace: "cid".into(),
            identifier: cid.to_string(),
            data: Some(Data::Picture),
            search: false,
        };
        let f = fault::fault(&reply.body);
        return Err(fault_error(reply.status, f.as_ref(), &reply.body, &ask));
    }
    if !reply.body.starts_with(PNG_SIGNATURE) {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("PubChem's picture of CID {cid} is not a PNG image."),
        )
        .with_code("pubchem_unreadable"));
    }
    Ok((reply.body, call))
}

/// identity, substructure, superstructure and similarity searches.
///
/// A fast search answers with a ListKey and the number of hits (`list_return=listkey`); the
/// first [`pubchem_plan::SEARCH_PAGE`] CIDs are then collected from it, and the result gives the
/// total and the call for the next page. An asynchronous search is polled, and its whole
/// list counted.
pub async fn structure_search(
    ctx: &ToolContext<'_>,
    request: &StructureSearch,
) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::PubChem)?;
    let plan = pubchem_plan::structure_search(ctx.config, request)?;
    let ask = Ask {
        what: "compound",
        namespace: plan.namespace.clone(),
        identifier: plan.query.clone(),
        data: None,
        search: true,
    };
    let reply = client.submit(&plan.call).await?;
    let mut warnings: Vec<String> = Vec::new();
    let outcome = json_reply(ctx, &client, reply, &ask, |key| {
        pubchem_plan::listkey_poll(ctx.config, key, None)
    })
    .await;
    let (mut v, mut listkey, polls) = match outcome {
        Ok(found) => found,
        // For a search by structure, "nothing found" is an answer, not a failure.
        Err(e) if e.code == "pubchem_not_found" && plan.namespace != "cid" => {
            warnings.push("No compound matched.".into());
            (json!({}), None, 0)
        }
        Err(e) => return Err(e),
    };
    // A fast search's ListKey: count, then collect the first page.
    let mut total: Option<u64> = None;
    if plan.paged {
        if let Some((key, size)) = pug::listkey_of(&v) {
            total = Some(size);
            listkey = Some(key.clone());
            v = if size == 0 {
                warnings.push("No compound matched.".into());
                json!({})
            } else {
                let page = pubchem_plan::listkey_poll(
                    ctx.config,
                    &key,
                    Some((0, pubchem_plan::SEARCH_PAGE)),
                );
                let reply = client.send(&page).await?;
                json_reply(ctx, &client, reply, &ask, |k| {
                    pubchem_plan::listkey_poll(ctx.config, k, None)
                })
                .await?
                .0
            };
        }
    }
    let mut cids = pug::cids(&v);
    let total = total.unwrap_or(cids.len() as u64);
    let mut capped = None;
    if cids.len() > pubchem_plan::SEARCH_PAGE as usize {
        cids.truncate(pubchem_plan::SEARCH_PAGE as usize);
    }
    if total > cids.len() as u64 {
        let next = match &listkey {
            Some(k) => format!(
                "page through them with {{\"operation\":\"compound\",\"namespace\":\"listkey\",\"identifier\":\"{k}\",\"data\":\"cids\",\"options\":{{\"listkey_start\":{},\"listkey_count\":{}}}}}",
                cids.len(),
                pubchem_plan::SEARCH_PAGE
            ),
            None => "narrow the search".to_string(),
        };
        capped = Some(format!(
            "{total} compounds matched; the first {} are listed: {next}.",
            cids.len()
        ));
    }
    if let Some(m) = plan.max_records.filter(|m| total >= *m) {
        warnings.push(format!(
            "PubChem stopped at max_records ({m}), as asked; there may be more hits. Leave max_records out to count them all."
        ));
    }
    if let Some(c) = &capped {
        warnings.push(c.clone());
    }
    let mut structured = json!({
        "service": "pubchem",
        "operation": "structure_search",
        "search_type": plan.search_type,
        "mode": plan.mode,
        "namespace": plan.namespace,
        "query": plan.query,
        "count": cids.len(),
        "total": total,
        "truncated": total > cids.len() as u64,
        "cids": cids,
        "polls": polls,
    });
    if let Some(m) = plan.max_records {
        json::set(&mut structured, "max_records", json!(m));
    }
    if let Some(t) = plan.threshold {
        json::set(&mut structured, "threshold", json!(t));
    }
    if let Some(k) = listkey {
        json::set(&mut structured, "listkey", json!(k));
    }
    finish(&client, &mut structured, warnings);
    let text = render::structure_search(&structured);
    let hint = render::search_hint(&structured);
    let mut out = output(structured, text, hint);
    if let Some(message) = capped {
        out = out.with_warning(codes::RESULTS_CAPPED, "$.identifier", message);
    }
    Ok(out)
}
