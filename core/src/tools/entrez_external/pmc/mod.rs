//! PMC operations: the ID Converter and the citation exporter (the OA web service is in
//! [`crate::tools::entrez_external::pmc::oa`], the BioC API in [`crate::tools::entrez_external::pmc::bioc`]).
//!
//! All three share the `pmc` pacing bucket (3 per window, the limit NCBI
//! documents for the citation exporter) and NCBI's `tool`/`email`
//! identification. Per-id failures (an id not in PMC, an article outside the
//! Open Access subset, an unknown PMID) are reported beside the ids that
//! worked; only when every id failed does the call become an error, so an
//! assistant never mistakes "nothing found" for an empty success.

pub mod bioc;
pub mod cite;
pub mod cloud;
pub mod fulltext;
pub mod ids;
pub mod oa;
pub mod plan;
pub mod sections;

use crate::error::{Error, ErrorKind, Result};
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::net::HttpReply;
use crate::tools::entrez_external::call::IdType;
use crate::tools::entrez_external::call::{CitationExport, IdConvert};
use crate::tools::entrez_external::client::{excerpt, ExternalClient};
use crate::tools::entrez_external::fit;
use crate::tools::entrez_external::fit::List;
use crate::tools::entrez_external::plan::Service;
use crate::tools::entrez_external::render;
use serde_json::Value;

pub(super) fn http_error(service: &str, reply: &HttpReply, what: &str) -> Error {
    Error::new(
        ErrorKind::Upstream,
        format!(
            "The {service} rejected {what} with HTTP {}{}.",
            reply.status,
            excerpt(&reply.body)
        ),
    )
    .with_code("pmc_http_error")
    .with_details(json!({"status": reply.status}))
}

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
        return Ok(render::output(structured, text, None));
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
        |left| fit::pmc_ids("id_convert", left, &extra),
    ))
}

/// citation_export: one request per id, in the requested format.
pub async fn citation_export(
    ctx: &ToolContext<'_>,
    request: &CitationExport,
    view: &View,
) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    let database = request.database.clone();
    let format = request.format.clone();
    let ids = &request.ids;
    let mut citations = Vec::new();
    for id in ids {
        let numeric = plan::ctxp_id(&database, id)?;
        let reply = client
            .send(&plan::citation_export(
                ctx.config, &database, &format, &numeric,
            ))
            .await?;
        citations.push(cite::read(id, &format, &reply));
    }
    let ok = citations.iter().filter(|c| c["ok"] == true).count();
    if ok == 0 {
        let reasons: Vec<String> = citations
            .iter()
            .map(|c| {
                format!(
                    "{}: {}",
                    c["id"].as_str().unwrap_or(""),
                    c["error"].as_str().unwrap_or("")
                )
            })
            .collect();
        return Err(Error::new(
            ErrorKind::NotFound,
            format!("The citation exporter returned no citation ({}).", reasons.join("; ")),
        )
        .with_code("pmc_citation_not_found")
        .suggest(format!(
            "Check that the ids are {} (database {database}); PMIDs go with database pubmed, PMCIDs with database pmc.",
            if database == "pmc" { "PMCIDs" } else { "PMIDs" }
        ))
        .with_details(json!({"citations": citations})));
    }
    let warnings: Vec<String> = citations
        .iter()
        .filter(|c| c["ok"] == false)
        .map(|c| format!("{}: {}", c["id"].as_str().unwrap_or(""), c["error"].as_str().unwrap_or("")))
        .chain(client.warnings())
        .chain((format == "bibtex").then(|| "BibTeX is built by this server from the exporter's CSL JSON; the exporter itself offers citation, csl, ris and medline.".to_string()))
        .collect();
    let structured = json!({
        "service": "pmc", "operation": "citation_export", "database": database, "format": format,
        "count": citations.len(), "exported": ok, "citations": citations, "warnings": warnings,
    });
    let list = List {
        key: "citations",
        kind: Kind::Other,
        noun: "citations",
        keep: &["id", "ok"],
        unlisted: &[],
    };
    let extra = [("database", json!(database)), ("format", json!(format))];
    Ok(fit::listed(
        structured,
        list,
        view,
        render::citations,
        None,
        |left| fit::pmc_ids("citation_export", left, &extra),
    ))
}
