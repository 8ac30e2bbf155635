//! The literature citation exporter: one request per id, its replies read, BibTeX from CSL JSON.
//!
//! The exporter (ctxp) documents four formats: `citation` (JSON with AMA,
//! APA, MLA and NLM strings), `csl` (CSL JSON), `ris` and `medline` (the
//! tagged text PubMed saves as `.nbib`). BibTeX is not among them, so it is
//! written here from the CSL JSON, which carries every field BibTeX needs.

use crate::error::{Error, ErrorKind, Result};
use crate::framework::shape::Kind;
use crate::framework::view::View;
use crate::framework::ToolContext;
use crate::framework::ToolOutput;
use crate::json;
use crate::net::HttpReply;
use crate::tools::entrez_external::pmc::call::CitationExport;
use crate::tools::entrez_external::pmc::plan;
use crate::tools::entrez_external::pmc::render;
use crate::tools::entrez_external::pmc::reply::next_args;
use crate::tools::entrez_external::shared::client::{excerpt, ExternalClient};
use crate::tools::entrez_external::shared::fit;
use crate::tools::entrez_external::shared::fit::List;
use crate::tools::entrez_external::shared::service::Service;
use serde_json::Value;

/// One id's entry in a citation_export result, success or failure.
pub fn read(id: &str, format: &str, reply: &HttpReply) -> Value {
    let fail = |message: String| json!({"id": id, "ok": false, "error": message});
    if reply.status != 200 {
        let reason = match reply.status {
            404 => "not found by the citation exporter".to_string(),
            400 => "the citation exporter rejected this id or format".to_string(),
            s => format!("the citation exporter answered HTTP {s}"),
        };
        return fail(format!("{reason}{}", excerpt(&reply.body)));
    }
    let content_type = reply.header("content-type").unwrap_or("").to_string();
    let body = String::from_utf8_lossy(&reply.body).into_owned();
    let json_body: Option<Value> = matches!(format, "citation" | "csl" | "bibtex")
        .then(|| crate::json::from_str(&body).ok())
        .flatten();
    if let Some(v) = &json_body {
        if v["status"].as_str() == Some("error") || v.get("error").is_some_and(|e| !e.is_null()) {
            let said = v["message"]
                .as_str()
                .or(v["error"].as_str())
                .unwrap_or("error");
            return fail(format!("the citation exporter reported: {said}"));
        }
    }
    match format {
        "citation" => match json_body {
            Some(v) => {
                let styles: serde_json::Map<String, Value> = ["ama", "apa", "mla", "nlm"]
                    .iter()
                    .filter_map(|k| v[*k]["orig"].as_str().map(|s| (k.to_string(), json!(s))))
                    .collect();
                let text = styles
                    .get("nlm")
                    .or(styles.values().next())
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                json!({"id": id, "ok": true, "content_type": content_type, "text": text, "styles": styles})
            }
            None => fail("the citation exporter sent citation text that is not JSON".into()),
        },
        "csl" | "bibtex" => match json_body {
            Some(v) => {
                let items: Vec<Value> = match v {
                    Value::Array(a) => a,
                    other => vec![other],
                };
                if format == "bibtex" {
                    let text = items
                        .iter()
                        .map(|i| csl_to_bibtex(i, id))
                        .collect::<Vec<_>>()
                        .join("\n");
                    json!({"id": id, "ok": true, "content_type": "application/x-bibtex", "text": text, "csl": items})
                } else {
                    let text = items
                        .iter()
                        .map(Value::to_string)
                        .collect::<Vec<_>>()
                        .join("\n");
                    json!({"id": id, "ok": true, "content_type": content_type, "text": text, "csl": items})
                }
            }
            None => fail("the citation exporter sent CSL that is not JSON".into()),
        },
        _ => {
            if body.trim().is_empty() {
                return fail("the citation exporter sent an empty citation".into());
            }
            json!({"id": id, "ok": true, "content_type": content_type, "text": body.trim_end()})
        }
    }
}

/// Escapes the characters BibTeX treats specially and drops unbalanced braces.
fn bib_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' | '%' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(c);
            }
            '{' | '}' | '\\' => {}
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            c => out.push(c),
        }
    }
    out
}

fn field(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// One BibTeX entry from one CSL JSON item.
pub fn csl_to_bibtex(item: &Value, fallback_id: &str) -> String {
    let entry = match item["type"].as_str().unwrap_or("") {
        "article-journal" | "article" | "article-magazine" | "article-newspaper" => "article",
        "book" => "book",
        "chapter" => "incollection",
        "paper-conference" => "inproceedings",
        "thesis" => "phdthesis",
        "report" => "techreport",
        _ => "misc",
    };
    let authors: Vec<String> = item["author"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| {
            match (
                field(&a["family"]),
                field(&a["given"]),
                field(&a["literal"]),
            ) {
                (Some(f), Some(g), _) => Some(format!("{f}, {g}")),
                (Some(f), None, _) => Some(f),
                (None, _, Some(l)) => Some(format!("{{{l}}}")),
                _ => None,
            }
        })
        .collect();
    let year = item["issued"]["date-parts"][0][0]
        .as_u64()
        .map(|y| y.to_string())
        .or_else(|| {
            item["issued"]["date-parts"][0][0]
                .as_str()
                .map(String::from)
        });
    let first_family: String = item["author"][0]["family"]
        .as_str()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_alphabetic)
        .collect();
    let key = match (first_family.is_empty(), &year) {
        (false, Some(y)) => format!("{first_family}{y}"),
        _ => {
            let digits: String = fallback_id
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .collect();
            format!("ref{digits}")
        }
    };
    let mut fields: Vec<(&str, String)> = Vec::new();
    if !authors.is_empty() {
        fields.push((
            "author",
            authors
                .iter()
                .map(|a| bib_escape_keep_braces(a))
                .collect::<Vec<_>>()
                .join(" and "),
        ));
    }
    let text = |k: &str| field(&item[k]).map(|s| bib_escape(&s));
    if let Some(t) = text("title") {
        fields.push(("title", t));
    }
    let container = if entry == "article" {
        "journal"
    } else {
        "booktitle"
    };
    if let Some(j) = text("container-title") {
        fields.push((container, j));
    }
    if let Some(y) = year {
        fields.push(("year", y));
    }
    for (csl, bib) in [
        ("volume", "volume"),
        ("issue", "number"),
        ("publisher", "publisher"),
    ] {
        if let Some(x) = text(csl) {
            fields.push((bib, x));
        }
    }
    if let Some(p) = text("page") {
        fields.push(("pages", p.replace('-', "--")));
    }
    for (csl, bib) in [
        ("DOI", "doi"),
        ("PMID", "pmid"),
        ("PMCID", "pmcid"),
        ("URL", "url"),
    ] {
        if let Some(x) = field(&item[csl]) {
            fields.push((bib, x));
        }
    }
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("  {k} = {{{v}}}"))
        .collect();
    format!("@{entry}{{{key},\n{}\n}}\n", body.join(",\n"))
}

/// Escapes like [`bib_escape`] but keeps the braces this module added around literal names.
fn bib_escape_keep_braces(s: &str) -> String {
    match s.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
        Some(inner) => format!("{{{}}}", bib_escape(inner)),
        None => bib_escape(s),
    }
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
        citations.push(read(id, &format, &reply));
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
        |left| next_args("citation_export", left, &extra),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csl_becomes_a_bibtex_article() {
        let item = json!({"type": "article-journal", "title": "Genes & drugs: 100% of cases",
            "author": [{"family": "Smith", "given": "Jane"}, {"literal": "NCBI Resource Coordinators"}],
            "container-title": "Nucleic Acids Res", "issued": {"date-parts": [[2013, 1]]},
            "volume": "41", "issue": "D1", "page": "D8-D20", "DOI": "10.1093/nar/gks1195", "PMID": "23193287"});
        let bib = csl_to_bibtex(&item, "23193287");
        assert!(bib.starts_with("@article{Smith2013,\n"), "{bib}");
        assert!(
            bib.contains("  author = {Smith, Jane and {NCBI Resource Coordinators}}"),
            "{bib}"
        );
        assert!(
            bib.contains("  title = {Genes \\& drugs: 100\\% of cases}"),
            "{bib}"
        );
        assert!(bib.contains("  journal = {Nucleic Acids Res}"));
        assert!(bib.contains("  pages = {D8--D20}"));
        assert!(bib.contains("  number = {D1}"));
        assert!(bib.contains("  doi = {10.1093/nar/gks1195}"));
        assert!(bib.trim_end().ends_with('}'));
    }

    #[test]
    fn failures_name_the_reason() {
        let reply = HttpReply {
            status: 404,
            headers: vec![],
            body: b"not found".to_vec(),
        };
        let v = read("99999999", "ris", &reply);
        assert_eq!(v["ok"], false);
        assert!(v["error"].as_str().unwrap().contains("not found"));
        let ok = HttpReply {
            status: 200,
            headers: vec![],
            body: br#"{"nlm": {"orig": "A. B. C."}, "apa": {"orig": "X"}}"#.to_vec(),
        };
        let v = read("1", "citation", &ok);
        assert_eq!(v["text"], "A. B. C.");
        assert_eq!(v["styles"]["apa"], "X");
    }
}
