//! PMC operations: the ID Converter, the OA web service and the citation exporter.
//!
//! All three share the `pmc` pacing bucket (3 per window, the limit NCBI
//! documents for the citation exporter) and NCBI's `tool`/`email`
//! identification. Per-id failures (an id not in PMC, an article outside the
//! Open Access subset, an unknown PMID) are reported beside the ids that
//! worked; only when every id failed does the call become an error, so an
//! assistant never mistakes "nothing found" for an empty success.

use super::call::{CitationExport, IdConvert, OaService};
use super::cite;
use super::client::{excerpt, ExternalClient};
use super::plan::{self, IdType, Service};
use super::render;
use crate::error::{Error, ErrorKind, Result};
use crate::net::HttpReply;
use crate::tools::{ToolContext, ToolOutput};
use quick_xml::events::Event;
use quick_xml::Reader;
use serde_json::{json, Value};

fn http_error(service: &str, reply: &HttpReply, what: &str) -> Error {
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
pub async fn id_convert(ctx: &ToolContext<'_>, request: &IdConvert) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    let (call, idtype) = plan::id_convert(ctx.config, request)?;
    let ids = &request.ids;
    let reply = client.send(&call).await?;
    if reply.status != 200 {
        return Err(http_error("PMC ID Converter", &reply, "the request")
            .suggest("Check that every id is of the declared idtype (pmcid, pmid, doi or mid)."));
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
    let text = render::id_convert(&structured);
    Ok(render::output(structured, text, None))
}

/// What the OA web service said about one article.
#[derive(Debug, Clone, PartialEq)]
pub enum OaAnswer {
    /// The article's record: citation, license and download links.
    Record(Value),
    /// An `<error code="...">` answer.
    Error {
        /// E.g. idIsNotOpenAccess.
        code: String,
        /// The service's sentence.
        message: String,
    },
}

/// Reads an OA web service reply (`<OA>` with `<records>` or `<error>`).
pub fn parse_oa(body: &[u8]) -> std::result::Result<OaAnswer, Error> {
    let text = std::str::from_utf8(body).map_err(|_| unreadable_oa())?;
    let mut reader = Reader::from_str(text);
    let mut record: Option<Value> = None;
    let mut error: Option<(String, String)> = None;
    let mut in_error = false;
    loop {
        let event = reader.read_event().map_err(|_| unreadable_oa())?;
        // An empty <error/> has no text to collect.
        let opens = matches!(event, Event::Start(_));
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let mut attrs = serde_json::Map::new();
                for a in e.attributes().flatten() {
                    let key = a.key.as_ref().to_string();
                    let value = a
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map(|v| v.into_owned())
                        .unwrap_or_default();
                    attrs.insert(key, json!(value));
                }
                match e.name().as_ref() {
                    "record" if record.is_none() => {
                        record = Some(json!({
                            "id": attrs.get("id"),
                            "citation": attrs.get("citation"),
                            "license": attrs.get("license"),
                            "retracted": attrs.get("retracted").and_then(Value::as_str).map(|r| r == "yes"),
                            "links": [],
                        }));
                    }
                    "link" => {
                        if let Some(list) = record.as_mut().and_then(|r| r["links"].as_array_mut())
                        {
                            list.push(json!({"format": attrs.get("format"), "href": attrs.get("href"), "updated": attrs.get("updated")}));
                        }
                    }
                    "error" => {
                        let code = attrs
                            .get("code")
                            .and_then(Value::as_str)
                            .unwrap_or("error")
                            .to_string();
                        error = Some((code, String::new()));
                        in_error = opens;
                    }
                    _ => {}
                }
            }
            Event::Text(t) if in_error => {
                if let Some((_, m)) = error.as_mut() {
                    m.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) if in_error => {
                if let Some((_, m)) = error.as_mut() {
                    let name = r.xml10_content();
                    if let Ok(Some(c)) = r.resolve_char_ref() {
                        m.push(c);
                    } else if let Some(s) = quick_xml::escape::resolve_predefined_entity(&name) {
                        m.push_str(s);
                    }
                }
            }
            Event::End(e) if e.name().as_ref() == "error" => in_error = false,
            Event::Eof => break,
            _ => {}
        }
    }
    if let Some((code, message)) = error {
        return Ok(OaAnswer::Error {
            code,
            message: message.trim().to_string(),
        });
    }
    record.map(OaAnswer::Record).ok_or_else(unreadable_oa)
}

fn unreadable_oa() -> Error {
    Error::new(
        ErrorKind::Upstream,
        "The PMC OA web service sent a reply that is neither a record nor an error.",
    )
    .with_code("pmc_unreadable")
    .suggest("Retry later; the service may be under maintenance.")
}

/// The sentence for an OA error code, saying what it means and what to do.
pub fn oa_error_sentence(id: &str, code: &str, message: &str) -> String {
    match code {
        "idIsNotOpenAccess" => format!("{id} is in PMC but not in the Open Access subset, so PMC offers no package or PDF to download; read it on the PMC website, or fetch what NCBI allows with entrez_query (operation fetch, database pmc)."),
        "idDoesNotExist" => format!("{id} is not a PMC article; check the PMCID, or convert a PMID or DOI with operation id_convert first."),
        _ => format!("{id}: {code}{}", if message.is_empty() { String::new() } else { format!(" ({message})") }),
    }
}

/// oa_service: one request per PMCID.
pub async fn oa_service(ctx: &ToolContext<'_>, request: &OaService) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    let ids: Vec<String> = request
        .ids
        .iter()
        .map(|i| plan::normalize_pmcid(i))
        .collect::<Result<_>>()?;
    let mut records = Vec::new();
    for id in &ids {
        let reply = client.send(&plan::oa_service(ctx.config, id)).await?;
        if reply.status != 200 {
            let e = http_error("PMC OA web service", &reply, id);
            records.push(json!({"id": id, "open_access": false, "links": [], "error": {"code": "http_error", "message": e.message}}));
            continue;
        }
        records.push(match parse_oa(&reply.body)? {
            OaAnswer::Record(mut r) => {
                r["open_access"] = json!(true);
                if r["id"].is_null() {
                    r["id"] = json!(id);
                }
                r
            }
            OaAnswer::Error { code, message } => json!({
                "id": id, "open_access": false, "links": [],
                "error": {"code": code, "message": oa_error_sentence(id, &code, &message), "service_message": message},
            }),
        });
    }
    let available = records.iter().filter(|r| r["open_access"] == true).count();
    if available == 0 {
        let codes: Vec<&str> = records
            .iter()
            .filter_map(|r| r["error"]["code"].as_str())
            .collect();
        let all_same = codes.windows(2).all(|w| w[0] == w[1]);
        let code = match codes.first() {
            Some(&"idIsNotOpenAccess") if all_same => "pmc_not_open_access",
            Some(&"idDoesNotExist") if all_same => "pmc_id_not_found",
            _ => "pmc_oa_unavailable",
        };
        let sentences: Vec<&str> = records
            .iter()
            .filter_map(|r| r["error"]["message"].as_str())
            .collect();
        let kind = if code == "pmc_id_not_found" {
            ErrorKind::NotFound
        } else {
            ErrorKind::Upstream
        };
        let mut e = Error::new(kind, sentences.join(" ")).with_code(code);
        e = match code {
            "pmc_not_open_access" => e
                .suggest("Read the article on pmc.ncbi.nlm.nih.gov, or fetch it with entrez_query (operation fetch, database pmc) where the publisher allows.")
                .suggest("Only articles in the PMC Open Access subset have downloadable packages and PDFs here."),
            "pmc_id_not_found" => e.suggest("Convert PMIDs or DOIs to PMCIDs with operation id_convert first."),
            _ => e.suggest("Retry later."),
        };
        return Err(e.with_details(json!({"records": records})));
    }
    let warnings: Vec<String> = records
        .iter()
        .filter_map(|r| r["error"]["message"].as_str().map(String::from))
        .chain(client.warnings())
        .collect();
    let structured = json!({
        "service": "pmc", "operation": "oa_service", "count": records.len(), "open_access": available,
        "records": records, "warnings": warnings,
    });
    let text = render::oa_service(&structured);
    Ok(render::output(structured, text, None))
}

/// citation_export: one request per id, in the requested format.
pub async fn citation_export(
    ctx: &ToolContext<'_>,
    request: &CitationExport,
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
    let text = render::citations(&structured);
    Ok(render::output(structured, text, None))
}
