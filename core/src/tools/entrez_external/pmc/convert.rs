//! The ID Converter: PMCIDs, PMIDs, DOIs and manuscript ids of the same articles.
//!
//! Per-id failures (an id not in PMC) are reported beside the ids that worked; only when
//! every id failed does the call become an error, so an assistant never mistakes "nothing
//! found" for an empty success.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::tools::entrez_external::pmc::call::{IdConvert, IdType};
use crate::tools::entrez_external::pmc::plan;
use crate::tools::entrez_external::pmc::render;
use crate::tools::entrez_external::pmc::reply::{http_error, next_args};
use crate::tools::entrez_external::shared::client::{excerpt, ExternalClient};
use crate::tools::entrez_external::shared::fit;
use crate::tools::entrez_external::shared::fit::List;
use crate::tools::entrez_external::shared::output::output;
use crate::tools::entrez_external::shared::service::Service;
use serde_json::Value;

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// ID Converter `records`, one entry per requested id, errors included.
pub fn idconv_records(v: &Value, requested: &[String], idtype: IdType) -> Vec<Value> {
    let mut out: Vec<Value> = v["records"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, r)| {
            let requested_id = text_of(&r["requested-id"])
                .or_else(|| text_of(&r[idtype.as_str()]))
                .or_else(|| requested.get(i).cloned())
                .unwrap_or_default();
            let failed = r["status"].as_str() == Some("error");
            let versions: Vec<Value> = r["versions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|ver| json!({
                    "pmcid": text_of(&ver["pmcid"]),
                    "mid": text_of(&ver["mid"]),
                    "current": matches!(&ver["current"], Value::Bool(true)) || ver["current"].as_str() == Some("true"),
                }))
                .collect();
            json!({
                "requested_id": requested_id,
                "status": if failed { "error" } else { "ok" },
                "pmcid": text_of(&r["pmcid"]),
                "pmid": text_of(&r["pmid"]),
                "doi": text_of(&r["doi"]),
                "mid": text_of(&r["mid"]),
                "versions": versions,
                "error": if failed {
                    json!(text_of(&r["errmsg"]).or_else(|| text_of(&r["message"])).unwrap_or_else(|| "error".into()))
                } else {
                    Value::Null
                },
            })
        })
        .collect();
    // An id the service silently dropped is as much a failure as one it reported.
    for id in requested {
        let seen = out.iter().any(|r| {
            r["requested_id"]
                .as_str()
                .is_some_and(|x| x.eq_ignore_ascii_case(id))
        });
        if !seen {
            out.push(json!({"requested_id": id, "status": "error", "pmcid": null, "pmid": null, "doi": null,
                "mid": null, "versions": [], "error": "The ID Converter returned no record for this id."}));
        }
    }
    out
}

/// id_convert.
pub async fn id_convert(
    ctx: &ToolContext<'_>,
    request: &IdConvert,
    view: &View,
) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    let (call, idtype) = plan::id_convert(ctx.config, request)?;
    let ids = &request.ids;
    let reply = client.send(&call).await?;
    if reply.status != 200 {
        return Err(http_error("PMC ID Converter", &reply, "the request")
            .suggest("Check that every id is of the declared idtype (pmcid, pmid, doi or mid)."));
    }
    if request.format != "json" {
        // XML and CSV come back as the service wrote them.
        let text = String::from_utf8_lossy(&reply.body).into_owned();
        let structured = json!({
            "service": "pmc", "operation": "id_convert", "idtype": idtype.as_str(),
            "format": request.format, "count": ids.len(), "converted": 0, "records": [],
            "text": text, "warnings": client.warnings(),
        });
        return Ok(output(structured, text, None));
    }
    let v: Value = serde_json::from_slice(&reply.body).map_err(|_| {
        Error::new(
            ErrorKind::Upstream,
            format!(
                "The PMC ID Converter sent a reply that is not JSON{}.",
                excerpt(&reply.body)
            ),
        )
        .with_code("pmc_unreadable")
    })?;
    if v["status"].as_str() == Some("error") {
        let said = text_of(&v["message"])
            .or_else(|| text_of(&v["errmsg"]))
            .unwrap_or_else(|| "no reason given".into());
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("The PMC ID Converter refused the request: {said}."),
        )
        .with_code("pmc_idconv_error")
        .suggest(
            "Send up to 200 ids of one type per call, with idtype set to pmcid, pmid, doi or mid.",
        ));
    }
    let records = idconv_records(&v, ids, idtype);
    let converted = records.iter().filter(|r| r["status"] == "ok").count();
    if converted == 0 {
        let reasons: Vec<String> = records
            .iter()
            .take(5)
            .map(|r| {
                format!(
                    "{}: {}",
                    r["requested_id"].as_str().unwrap_or(""),
                    r["error"].as_str().unwrap_or("")
                )
            })
            .collect();
        return Err(Error::new(
            ErrorKind::NotFound,
            format!("None of the {} id(s) was found in PMC ({}).", records.len(), reasons.join("; ")),
        )
        .with_code("pmc_id_not_found")
        .suggest("The ID Converter only knows articles with a copy in PMC; a PubMed article without one has no PMCID. Check PubMed with entrez_query (operation summary) instead.")
        .suggest("Check that the ids match idtype; PMCIDs keep their PMC prefix unless idtype is pmcid.")
        .with_details(json!({"records": records})));
    }
    let warnings: Vec<String> = records
        .iter()
        .filter(|r| r["status"] == "error")
        .map(|r| {
            format!(
                "{}: {}",
                r["requested_id"].as_str().unwrap_or(""),
                r["error"].as_str().unwrap_or("")
            )
        })
        .chain(client.warnings())
        .collect();
    let structured = json!({
        "service": "pmc", "operation": "id_convert", "idtype": idtype.as_str(),
        "count": records.len(), "converted": converted, "records": records, "warnings": warnings,
    });
    let list = List {
        key: "records",
        kind: Kind::Other,
        noun: "records",
        keep: &["requested_id", "status"],
        unlisted: &[],
    };
    let mut extra = vec![("idtype", json!(idtype.as_str()))];
    extra.extend(request.versions.map(|v| ("versions", json!(v))));
    extra.extend(request.showaiid.map(|v| ("showaiid", json!(v))));
    Ok(fit::listed(
        structured,
        list,
        view,
        render::id_convert,
        None,
        |left| next_args("id_convert", left, &extra),
    ))
}
