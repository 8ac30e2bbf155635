//! `oa_service`: by id from PMC's Cloud Service ([`cloud`]); as a listing or as its
//! identification from the OA web service's URL (retired by NCBI in August 2026, kept for
//! mirrors; its 404 says so and what to use instead).
//!
//! The old service answers every request with one `<OA>` document: records (each with its
//! citation, license and download links) and, past 1,000 records, a `<resumption>` link
//! whose token fetches the next page; an `<error code="…">` when the request is wrong or
//! the article is not Open Access; and, for the bare base URL, the identification (formats,
//! record counts, earliest and latest update). One reader takes all of them.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::parse::pmc_oa::parse_oa;
use crate::tools::entrez_external::pmc::call::OaService;
use crate::tools::entrez_external::pmc::cloud;
use crate::tools::entrez_external::pmc::plan as pmc_plan;
use crate::tools::entrez_external::pmc::render;
use crate::tools::entrez_external::pmc::reply::http_error;
use crate::tools::entrez_external::shared::client::ExternalClient;
use crate::tools::entrez_external::shared::fit;
use crate::tools::entrez_external::shared::fit::List;
use crate::tools::entrez_external::shared::output::output;
use crate::tools::entrez_external::shared::service::Service;
use crate::validation::codes;
use serde_json::Value;

/// The sentence for an OA error code, saying what it means and what to do.
pub fn oa_error_sentence(id: &str, code: &str, message: &str) -> String {
    match code {
        "idIsNotOpenAccess" => format!("{id} is in PMC but not in the Open Access subset, so PMC offers no package or PDF to download; read it on the PMC website, or fetch what NCBI allows with entrez_query (operation fetch, database pmc)."),
        "notInCloud" => format!("{id} has no folder in PMC's Cloud Service (the Open Access Subset, the Author Manuscript Dataset and the Historical OCR Dataset): it is not in PMC, or its licence does not allow reuse; read it on pmc.ncbi.nlm.nih.gov, or fetch what NCBI allows with entrez_query (operation fetch, database pmc)."),
        "idDoesNotExist" => format!("{id} is not a PMC article; check the PMCID, or convert a PMID or DOI with operation id_convert first."),
        _ => format!("{id}: {code}{}", if message.is_empty() { String::new() } else { format!(" ({message})") }),
    }
}

/// oa_service: by id from PMC's Cloud Service (a listing and a metadata file per PMCID); a
/// listing by dates or token, or the identification, from the OA web service's URL.
pub async fn oa_service(
    ctx: &ToolContext<'_>,
    request: &OaService,
    view: &View,
) -> Result<ToolOutput> {
    if request.ids.is_empty() {
        return listing(ctx, request).await;
    }
    let client = ExternalClient::new(ctx, Service::PmcCloud)?;
    let ids: Vec<String> = request
        .ids
        .iter()
        .map(|i| crate::tools::entrez_external::pmc::call::normalize_pmcid(i))
        .collect::<Result<_>>()?;
    let mut records = Vec::new();
    for id in &ids {
        records.push(match cloud::find(&client, ctx.config, id).await? {
            Some(article) => article.record(),
            None => json!({
                "id": id, "open_access": false, "source": "pmc_cloud", "links": [],
                "error": {"code": "notInCloud", "message": oa_error_sentence(id, "notInCloud", "")},
            }),
        });
    }
    let available = records.iter().filter(|r| r["error"].is_null()).count();
    if available == 0 {
        return Err(none_available(records));
    }
    let warnings: Vec<String> = records
        .iter()
        .filter_map(|r| r["error"]["message"].as_str().map(String::from))
        .chain(request.format.as_ref().map(|f| format!(
            "format {f}: PMC's Cloud Service holds each version's JATS XML and plain text; the {f} files were on the FTP service NCBI retired in August 2026, so the links are to XML and text."
        )))
        .chain(client.warnings())
        .collect();
    let structured = json!({
        "service": "pmc", "operation": "oa_service", "source": "pmc_cloud", "count": records.len(),
        "open_access": records.iter().filter(|r| r["open_access"] == true).count(),
        "records": records, "warnings": warnings,
    });
    let list = List {
        key: "records",
        kind: Kind::Other,
        noun: "records",
        keep: &["id", "open_access", "links"],
        unlisted: &[],
    };
    let extra: Vec<(&str, Value)> = request
        .format
        .iter()
        .map(|f| ("format", json!(f)))
        .collect();
    Ok(fit::listed(
        structured,
        list,
        view,
        render::oa_service,
        None,
        |left| crate::tools::entrez_external::pmc::reply::next_args("oa_service", left, &extra),
    ))
}

fn none_available(records: Vec<Value>) -> Error {
    let codes: Vec<&str> = records
        .iter()
        .filter_map(|r| r["error"]["code"].as_str())
        .collect();
    let all_same = codes.windows(2).all(|w| w[0] == w[1]);
    let code = match codes.first() {
        Some(&("idIsNotOpenAccess" | "notInCloud")) if all_same => "pmc_not_open_access",
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
    let e = Error::new(kind, sentences.join(" ")).with_code(code);
    let e = match code {
        "pmc_not_open_access" => e
            .suggest("Read the article on pmc.ncbi.nlm.nih.gov, or fetch it with entrez_query (operation fetch, database pmc) where the publisher allows.")
            .suggest("Only articles in the PMC Open Access subset have downloadable packages and PDFs here."),
        "pmc_id_not_found" => e.suggest("Convert PMIDs or DOIs to PMCIDs with operation id_convert first."),
        _ => e.suggest("Retry later."),
    };
    e.with_details(json!({"records": records}))
}

/// Whether the OA web service's answer is the retired service's (404, 410, or a page saying so).
fn retired(status: u16, body: &[u8]) -> bool {
    let said = String::from_utf8_lossy(&body[..body.len().min(4096)]).to_ascii_lowercase();
    matches!(status, 404 | 410) || (said.contains("retired") && !said.contains("<records"))
}

fn retired_error(url: &str, status: u16) -> Error {
    Error::new(
        ErrorKind::Unavailable,
        format!("The PMC OA web service at {url} answered HTTP {status}: NCBI retired it (and the FTP service its links pointed to) in August 2026; PMC's articles are now distributed through its Cloud Service, which has no listing by date."),
    )
    .with_code("pmc_oa_retired")
    .with_details(json!({"status": status, "url": url}))
    .suggest("Call oa_service with ids (PMCIDs): it answers from the Cloud Service (versions, licence, flags, links to the JATS XML and text).")
    .suggest("For changes by date, use PMC's file lists in the pmc-oa-opendata bucket, or entrez_query (search, database pmc) with a date range; set PMC_OA_URL to a mirror of the old service if you run one.")
}

/// A listing page (by dates or resumption token), or the identification.
async fn listing(ctx: &ToolContext<'_>, request: &OaService) -> Result<ToolOutput> {
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    let reply = client
        .send(&pmc_plan::oa_listing(ctx.config, request))
        .await?;
    if retired(reply.status, &reply.body) {
        return Err(retired_error(&ctx.config.pmc_oa_url, reply.status));
    }
    if reply.status != 200 {
        return Err(http_error("PMC OA web service", &reply, "the listing")
            .suggest("Dates are YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (Bethesda time); a resumption_token comes from the previous page."));
    }
    let answer = parse_oa(&reply.body)?;
    if let Some((code, message)) = answer.error {
        return Err(Error::new(
            ErrorKind::Upstream,
            format!("The PMC OA web service refused the listing: {code}{}.", if message.is_empty() { String::new() } else { format!(" ({message})") }),
        )
        .with_code("pmc_oa_refused")
        .suggest("Check from/until (YYYY-MM-DD[ HH:MM:SS]) and format (tgz or pdf), or take a fresh resumption_token."));
    }
    let mut warnings = client.warnings();
    let records: Vec<Value> = answer
        .records
        .into_iter()
        .map(|mut r| {
            // A listing holds Open Access records only.
            json::set(&mut r, "open_access", json!(true));
            r
        })
        .collect();
    let answer_records = records;
    let mut structured = json!({
        "service": "pmc", "operation": "oa_service", "count": answer_records.len(),
        "open_access": answer_records.len(), "records": answer_records,
    });
    if let Some(total) = answer.total {
        json::set(&mut structured, "total", json!(total));
    }
    let mut capped = None;
    if let Some(token) = &answer.resumption_token {
        json::set(&mut structured, "resumption_token", json!(token));
        let message = format!(
            "The OA service returns 1,000 records per page{}; the next page is {{\"operation\":\"oa_service\",\"resumption_token\":\"{token}\"}}.",
            answer.total.map(|t| format!(" of {t}")).unwrap_or_default()
        );
        warnings.push(message.clone());
        capped = Some(message);
    }
    if let Some(ident) = answer.identification {
        json::set(&mut structured, "identification", ident);
    }
    json::set(&mut structured, "warnings", json!(warnings));
    let text = render::oa_service(&structured);
    let mut out = output(structured, text, None);
    if let Some(m) = capped {
        out = out.with_warning(codes::RESULTS_CAPPED, "$.resumption_token", m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_a_listing_page_an_identification_and_an_error_read_as_one_reply() {
        // NCBI's sample record reply (OA web service page).
        let record = br#"<OA><responseDate>2019-01-28 10:41:16</responseDate><request id="PMC5334499">https://www.ncbi.nlm.nih.gov/utils/oa/oa.fcgi?id=PMC5334499</request><records returned-count="1" total-count="1"><record id="PMC5334499" citation="World J Radiol. 2017 Feb 28; 9(2):27-33" license="CC BY-NC" retracted="no"><link format="tgz" updated="2017-03-17 13:10:45" href="ftp://ftp.ncbi.nlm.nih.gov/pub/pmc/oa_package/8e/71/PMC5334499.tar.gz"/><link format="pdf" updated="2017-03-03 06:05:17" href="ftp://ftp.ncbi.nlm.nih.gov/pub/pmc/oa_pdf/8e/71/WJR-9-27.PMC5334499.pdf"/></record></records></OA>"#;
        let r = parse_oa(record).unwrap();
        assert_eq!(r.records.len(), 1);
        assert_eq!(r.records[0]["links"].as_array().unwrap().len(), 2);
        assert_eq!(r.total, Some(1));
        assert!(r.resumption_token.is_none() && r.error.is_none());
        // A page with the documented resumption link.
        let page = br#"<OA><records returned-count="1000" total-count="1102623"><record id="PMC1" citation="c" license="CC BY" retracted="no"><link format="tgz" href="ftp://x/1.tar.gz"/></record></records><resumption><link token="1102623!20130101000000!!!a1e8c64fd7952a09" href="https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi?resumptionToken=1102623!20130101000000!!!a1e8c64fd7952a09"/></resumption></OA>"#;
        let p = parse_oa(page).unwrap();
        assert_eq!(
            p.resumption_token.as_deref(),
            Some("1102623!20130101000000!!!a1e8c64fd7952a09")
        );
        assert_eq!(p.total, Some(1102623));
        assert_eq!(p.records[0]["links"].as_array().unwrap().len(), 1);
        // The identification reply (OA web service page, sample).
        let ident = br#"<OA><responseDate>2019-01-28 12:13:23</responseDate><request>https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi</request><repositoryName>PubMed Central Open Access FTP Repository</repositoryName><formats><format>tgz</format><format>pdf</format></formats><records> <count format="tgz">2305124</count> <count format="pdf">554142</count> <earliest>1970-01-01 00:00:00</earliest> <latest>2019-01-28 11:16:33</latest> </records></OA>"#;
        let i = parse_oa(ident).unwrap().identification.unwrap();
        assert_eq!(i["formats"], json!(["tgz", "pdf"]));
        assert_eq!(i["counts"]["tgz"], 2305124);
        assert_eq!(i["latest"], "2019-01-28 11:16:33");
        let e = parse_oa(br#"<OA><error code="idIsNotOpenAccess">identifier 'PMC1' is not Open Access</error></OA>"#).unwrap();
        assert_eq!(e.error.unwrap().0, "idIsNotOpenAccess");
        assert!(parse_oa(b"<html/>").is_err());
    }
}
