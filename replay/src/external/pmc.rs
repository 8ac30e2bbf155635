//! PMC's ID Converter, OA web service and citation exporter, as the replay answers them.

use crate::external::data::{
    CTXP_23193287, NOT_OPEN_ACCESS, OA_NOT_OPEN, OA_NO_SUCH_ID, OA_RECORDS,
};
use crate::external::server::{App, Incoming, Reply};
use serde_json::{json, Value};

fn id_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

/// The kind an id's shape shows, as the ID Converter's auto-detection sees it.
fn detect(id: &str) -> &'static str {
    let upper = id.to_ascii_uppercase();
    if upper.starts_with("PMC") && upper[3..].bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        "pmcid"
    } else if id.bytes().all(|b| b.is_ascii_digit()) {
        "pmid"
    } else if id.starts_with("10.") {
        "doi"
    } else {
        "mid"
    }
}

/// `/tools/idconv/api/v1/articles/?ids=...&idtype=...&format=json`.
pub fn idconv(app: &App, req: &Incoming) -> Reply {
    let p = &req.params;
    let format = p.get("format").unwrap_or("xml");
    if !matches!(format, "json" | "xml" | "csv") {
        return Reply::body(400, "text/plain", format!("Invalid format {format}\n"));
    }
    let request_echo =
        p.0.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";");
    let Some(ids) = p.get("ids").filter(|i| !i.trim().is_empty()) else {
        return Reply::json(
            200,
            &json!({"status": "error", "responseDate": app.data.response_date, "request": request_echo,
                "message": "ids parameter is required"}),
        );
    };
    let ids: Vec<&str> = ids
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .collect();
    if ids.len() > 200 {
        return Reply::json(
            200,
            &json!({"status": "error", "responseDate": app.data.response_date, "request": request_echo,
                "message": "Too many ids: at most 200 per request"}),
        );
    }
    let idtype = p
        .get("idtype")
        .map(String::from)
        .unwrap_or_else(|| detect(ids[0]).to_string());
    if !matches!(idtype.as_str(), "pmcid" | "pmid" | "doi" | "mid") {
        return Reply::body(400, "text/plain", format!("Invalid idtype {idtype}\n"));
    }
    let records: Vec<Value> = ids
        .iter()
        .map(|id| {
            let wanted = if idtype == "pmcid" && !id.to_ascii_uppercase().starts_with("PMC") {
                format!("PMC{id}")
            } else {
                id.to_string()
            };
            let found = app.data.articles.iter().find(|a| {
                let have = id_text(&a[idtype.as_str()]);
                // A versioned PMCID (PMC3531190.1) names the same article.
                have.eq_ignore_ascii_case(&wanted)
                    || (idtype == "pmcid" && wanted.to_ascii_uppercase().starts_with(&format!("{}.", have.to_ascii_uppercase())))
            });
            match found {
                Some(a) => {
                    let mut r = a.clone();
                    r["requested-id"] = json!(id);
                    r
                }
                None => json!({"requested-id": id, "status": "error", "errmsg": "Identifier not found in PMC"}),
            }
        })
        .collect();
    match format {
        "xml" => Reply::body(200, "application/xml", idconv_xml(&records)),
        "csv" => Reply::body(200, "text/csv", idconv_csv(&records)),
        _ => Reply::json(
            200,
            &json!({"status": "ok", "responseDate": app.data.response_date, "request": request_echo, "records": records}),
        ),
    }
}

/// The ID Converter's XML: `<pmcids status="ok"><record requested-id=… pmcid=… pmid=… doi=…/>`.
fn idconv_xml(records: &[Value]) -> String {
    let mut out = String::from("<?xml version=\"1.0\"?>\n<pmcids status=\"ok\">\n");
    for r in records {
        let attr = |k: &str| match id_text(&r[k]) {
            v if v.is_empty() => String::new(),
            v => format!(" {k}=\"{v}\""),
        };
        let status = if r["status"] == "error" {
            " status=\"error\""
        } else {
            ""
        };
        out.push_str(&format!(
            "  <record{}{}{}{}{status}/>\n",
            attr("requested-id"),
            attr("pmcid"),
            attr("pmid"),
            attr("doi")
        ));
    }
    out.push_str("</pmcids>\n");
    out
}

/// The ID Converter's CSV: a header, then one line per requested id.
fn idconv_csv(records: &[Value]) -> String {
    let mut out = String::from("PMCID,PMID,DOI,Version,MID,IsCurrent,IsLive,ReleaseDate,Msg\n");
    for r in records {
        out.push_str(&format!(
            "{},{},{},,,,,,{}\n",
            id_text(&r["pmcid"]),
            id_text(&r["pmid"]),
            id_text(&r["doi"]),
            id_text(&r["errmsg"])
        ));
    }
    out
}

/// The identification reply (the OA web service page's sample, counts illustrative).
const OA_IDENTIFICATION: &str = "<?xml version=\"1.0\"?>\n<OA><responseDate>2026-01-15 10:00:00</responseDate><request>https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi</request><repositoryName>PubMed Central Open Access FTP Repository</repositoryName><formats><format>tgz</format><format>pdf</format></formats><records><count format=\"tgz\">2</count><count format=\"pdf\">1</count><earliest>2013-01-03 12:00:00</earliest><latest>2017-03-17 13:10:45</latest></records></OA>\n";

/// The token the replay's listing pages with: one record per page, so paging shows.
const OA_TOKEN: &str = "2!20130101000000!!!replay";

/// A listing page: the records of [`OA_RECORDS`] one at a time, the first with a resumption link.
fn oa_page(index: usize) -> Reply {
    let records: Vec<&str> = OA_RECORDS
        .iter()
        .map(|(_, xml)| {
            let start = xml.find("<record ").unwrap_or(0);
            let end = xml
                .find("</record>")
                .map(|e| e + "</record>".len())
                .unwrap_or(xml.len());
            &xml[start..end]
        })
        .collect();
    let Some(record) = records.get(index) else {
        return Reply::body(200, "text/xml", "<?xml version=\"1.0\"?>\n<OA><responseDate>2026-01-15 10:00:00</responseDate><error code=\"badResumptionToken\">The value of the resumptionToken argument is invalid or expired.</error></OA>\n");
    };
    let resumption = if index + 1 < records.len() {
        format!("<resumption><link token=\"{OA_TOKEN}\" href=\"https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi?resumptionToken={OA_TOKEN}\"/></resumption>")
    } else {
        String::new()
    };
    Reply::body(
        200,
        "text/xml",
        format!(
            "<?xml version=\"1.0\"?>\n<OA><responseDate>2026-01-15 10:00:00</responseDate><request>https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi</request><records returned-count=\"1\" total-count=\"{}\">{record}</records>{resumption}</OA>\n",
            records.len()
        ),
    )
}

/// `/pmc/utils/oa/oa.fcgi`: by `id`, by `from`/`until` (paged by `resumptionToken`), or bare.
pub fn oa(_app: &App, req: &Incoming) -> Reply {
    let p = &req.params;
    if let Some(token) = p.get("resumptionToken") {
        return oa_page(if token == OA_TOKEN { 1 } else { usize::MAX });
    }
    if p.get("from").is_some() || p.get("until").is_some() {
        return oa_page(0);
    }
    let Some(id) = p.get("id") else {
        return Reply::body(200, "text/xml", OA_IDENTIFICATION);
    };
    let id = id.trim().to_ascii_uppercase();
    if let Some((_, xml)) = OA_RECORDS.iter().find(|(k, _)| *k == id) {
        return Reply::body(200, "text/xml", *xml);
    }
    let template = if NOT_OPEN_ACCESS.contains(&id.as_str()) {
        OA_NOT_OPEN
    } else {
        OA_NO_SUCH_ID
    };
    Reply::body(200, "text/xml", template.replace("{id}", &id))
}

/// `/api/ctxp/v1/{pubmed|pmc}/?format=...&id=...`.
pub fn ctxp(_app: &App, req: &Incoming) -> Reply {
    let db = req
        .path
        .trim_start_matches("/api/ctxp/v1/")
        .trim_end_matches('/');
    if !matches!(db, "pubmed" | "pmc") {
        return Reply::body(404, "text/plain", "Unknown source\n");
    }
    let Some(format) = req.params.get("format") else {
        return Reply::body(
            400,
            "text/plain",
            "The format parameter is required (citation, csl, ris or medline).\n",
        );
    };
    let Some((_, content_type, body)) = CTXP_23193287.iter().find(|(f, _, _)| *f == format) else {
        return Reply::body(400, "text/plain", format!("Unknown format {format}.\n"));
    };
    let Some(id) = req.params.get("id").filter(|i| !i.is_empty()) else {
        return Reply::body(400, "text/plain", "The id parameter is required.\n");
    };
    // The one exported article is PMID 23193287, which is PMC3531190.
    let known = match db {
        "pubmed" => id == "23193287",
        _ => {
            let upper = id.to_ascii_uppercase();
            upper.trim_start_matches("PMC") == "3531190"
        }
    };
    if !known {
        return Reply::body(
            404,
            "text/plain",
            format!("No record found for id {id} in {db}.\n"),
        );
    }
    Reply::body(200, content_type, *body)
}
