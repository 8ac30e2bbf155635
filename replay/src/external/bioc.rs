//! NCBI's BioC API for PMC, as the replay answers it:
//! `/research/bionlp/RESTful/pmcoa.cgi/BioC_<json|xml>/<PMID or PMCID>/<unicode|ascii>`.
//!
//! One article is served (PMC3531190, PMID 23193287), from a hand-written BioC collection;
//! any other id gets the short "No result can be found" text the API answers for articles
//! outside the Open Access subset.

use crate::external::server::{Incoming, Reply};
use serde_json::Value;

const PMC3531190: &str = include_str!("../../../tests/fixtures/external/pmc/bioc/PMC3531190.json");

const NO_RESULT: &str = "[Error] : No result can be found. <BR><HR><B> - Please check the ID, or the article may not be in the PMC Open Access subset.</B>";

/// Answers one BioC request.
pub fn handle(req: &Incoming) -> Reply {
    let rest = req
        .path
        .trim_start_matches("/research/bionlp/RESTful/pmcoa.cgi/");
    let parts: Vec<&str> = rest.split('/').collect();
    let (format, id, encoding) = match parts.as_slice() {
        [format, id, encoding] => (*format, *id, *encoding),
        _ => return Reply::body(404, "text/plain", "Not Found\n"),
    };
    if !matches!(encoding, "unicode" | "ascii") || !matches!(format, "BioC_json" | "BioC_xml") {
        return Reply::body(200, "text/html", NO_RESULT);
    }
    let known = matches!(
        id.to_ascii_uppercase().as_str(),
        "PMC3531190" | "3531190" | "23193287"
    );
    if !known {
        return Reply::body(200, "text/html", NO_RESULT);
    }
    if format == "BioC_json" {
        return Reply::body(200, "application/json", PMC3531190);
    }
    Reply::body(200, "application/xml", as_xml(PMC3531190))
}

/// The same collection in BioC XML.
fn as_xml(json: &str) -> String {
    let v: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE collection SYSTEM \"BioC.dtd\">\n<collection><source>PMC</source><date>20260115</date><key>pmc.key</key>\n");
    for d in v[0]["documents"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "<document><id>{}</id>\n",
            d["id"].as_str().unwrap_or("")
        ));
        for p in d["passages"].as_array().into_iter().flatten() {
            out.push_str("<passage>");
            for (k, val) in p["infons"].as_object().into_iter().flatten() {
                out.push_str(&format!(
                    "<infon key=\"{k}\">{}</infon>",
                    escape(val.as_str().unwrap_or(""))
                ));
            }
            out.push_str(&format!(
                "<offset>{}</offset><text>{}</text></passage>\n",
                p["offset"],
                escape(p["text"].as_str().unwrap_or(""))
            ));
        }
        out.push_str("</document>\n");
    }
    out.push_str("</collection>\n");
    out
}
