//! `full_text`: an article's sections by PMID, PMCID or DOI.
//!
//! Ids other than PMCIDs go to the ID Converter, one request per id type. Each article is
//! then read from PMC's Cloud Service (its newest version's JATS), else from efetch
//! `db=pmc`, else from the BioC API; when none has its body, the answer is its abstract
//! (PMC's front matter, or PubMed's) with the reason in plain words. Every article says
//! its source, licence and retraction flag; [`sections`] makes, filters and cuts the text.

use crate::entrez::request::{EutilsRequest, Utility};
use crate::error::{Error, ErrorKind, Result};
use crate::framework::shape::Kind;
use crate::framework::view::{Detail, View};
use crate::framework::{budget, ToolContext, ToolOutput};
use crate::json;
use crate::parse::pmc::{parse_pmc, PmcArticle};
use crate::tools::entrez_external::pmc::call::{normalize_pmcid, FullText, IdConvert, IdType};
use crate::tools::entrez_external::pmc::ids::kind;
use crate::tools::entrez_external::pmc::{bioc, cloud, plan as pmc_plan, sections};
use crate::tools::entrez_external::shared::client::{ExternalClient, EXTERNAL_RETRY};
use crate::tools::entrez_external::shared::fit::{self, List};
use crate::tools::entrez_external::shared::service::Service;
use serde_json::Value;

/// One requested id, resolved as far as the ID Converter could.
#[derive(Debug, Clone, Default)]
struct Target {
    id: String,
    pmcid: Option<String>,
    pmid: Option<String>,
    doi: Option<String>,
    /// Why no PMCID: the converter's message.
    unresolved: Option<String>,
    /// The release date the ID Converter gives for an article not yet live (an embargo).
    embargo: Option<String>,
}

/// The release date of a record the ID Converter marks as not live (`live`/`release-date`,
/// on the record or its versions, as its CSV's IsLive and ReleaseDate columns say).
fn embargo_of(r: &Value) -> Option<String> {
    let not_live = |v: &Value| matches!(v, Value::Bool(false)) || v.as_str() == Some("false");
    std::iter::once(r)
        .chain(r["versions"].as_array().into_iter().flatten())
        .find(|v| not_live(&v["live"]))
        .map(|v| text(&v["release-date"]).unwrap_or_else(|| "a later date".into()))
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Resolves the ids: PMCIDs as they are, the rest with one ID Converter request per id type.
async fn resolve(ctx: &ToolContext<'_>, ids: &[String]) -> Result<Vec<Target>> {
    let mut targets: Vec<Target> = ids
        .iter()
        .map(|id| Target {
            id: id.clone(),
            pmcid: (kind(id) == Some(IdType::Pmcid))
                .then(|| normalize_pmcid(id.split('.').next().unwrap_or(id)).ok())
                .flatten(),
            pmid: (kind(id) == Some(IdType::Pmid)).then(|| id.clone()),
            doi: (kind(id) == Some(IdType::Doi)).then(|| id.clone()),
            unresolved: None,
            embargo: None,
        })
        .collect();
    let client = ExternalClient::new(ctx, Service::Pmc)?;
    for idtype in [IdType::Pmcid, IdType::Pmid, IdType::Doi] {
        let group: Vec<String> = targets
            .iter()
            .filter(|t| kind(&t.id) == Some(idtype))
            .map(|t| {
                t.pmcid
                    .clone()
                    .filter(|_| idtype == IdType::Pmcid)
                    .unwrap_or_else(|| t.id.clone())
            })
            .collect();
        if group.is_empty() {
            continue;
        }
        let request = IdConvert {
            service: "pmc",
            ids: group,
            idtype: Some(idtype),
            versions: None,
            showaiid: None,
            format: "json".into(),
        };
        let (call, _) = pmc_plan::id_convert(ctx.config, &request)?;
        let reply = client.send(&call).await?;
        let v: Value = if reply.status == 200 {
            serde_json::from_slice(&reply.body).unwrap_or(Value::Null)
        } else {
            Value::Null
        };
        for t in targets.iter_mut().filter(|t| kind(&t.id) == Some(idtype)) {
            let sent = t
                .pmcid
                .clone()
                .filter(|_| idtype == IdType::Pmcid)
                .unwrap_or_else(|| t.id.clone());
            let record = v["records"].as_array().into_iter().flatten().find(|r| {
                text(&r["requested-id"]).is_some_and(|x| x.eq_ignore_ascii_case(&sent))
                    || text(&r[idtype.as_str()]).is_some_and(|x| x.eq_ignore_ascii_case(&sent))
            });
            if idtype == IdType::Pmcid {
                // A PMCID is read as given; the converter only adds its PMID and DOI.
                if let Some(r) = record.filter(|r| r["status"].as_str() != Some("error")) {
                    t.pmid = text(&r["pmid"]);
                    t.doi = text(&r["doi"]);
                    t.embargo = embargo_of(r);
                }
                continue;
            }
            match record {
                Some(r) if r["status"].as_str() != Some("error") => {
                    // Only a well-formed PMCID goes into the bucket's paths.
                    t.pmcid = text(&r["pmcid"]).and_then(|p| normalize_pmcid(&p).ok());
                    t.embargo = embargo_of(r);
                    t.pmid = t.pmid.take().or_else(|| text(&r["pmid"]));
                    t.doi = t.doi.take().or_else(|| text(&r["doi"]));
                    if t.pmcid.is_none() {
                        t.unresolved = Some("it has no copy in PMC".into());
                    }
                }
                Some(r) => {
                    t.unresolved = Some(
                        text(&r["errmsg"])
                            .unwrap_or_else(|| "the ID Converter knows no PMC copy of it".into()),
                    )
                }
                None => {
                    t.unresolved = Some(if reply.status == 200 {
                        "the ID Converter returned no record for it".into()
                    } else {
                        format!("the ID Converter answered HTTP {}", reply.status)
                    })
                }
            }
        }
    }
    Ok(targets)
}

/// The first article of a JATS or `pmc-articleset` body.
fn jats(body: &[u8]) -> Option<PmcArticle> {
    parse_pmc(body).ok()?.into_iter().next()
}

fn has_body(a: &PmcArticle) -> bool {
    a.sections
        .iter()
        .any(|s| !s.back && !s.text.trim().is_empty())
}

/// Full text from BioC passages: one section per run of passages of one section type.
fn from_bioc(v: &Value, target: &Target) -> Option<PmcArticle> {
    let mut a = PmcArticle {
        pmcid: target.pmcid.clone(),
        pmid: target.pmid.clone(),
        doi: target.doi.clone(),
        ..PmcArticle::default()
    };
    for p in bioc::passages(v) {
        let kind = p["section"].as_str().unwrap_or("").to_string();
        let ptype = p["type"].as_str().unwrap_or("");
        let body = p["text"].as_str().unwrap_or("").to_string();
        match kind.as_str() {
            "TITLE" if a.title.is_empty() => a.title = body,
            "ABSTRACT" if !ptype.starts_with("title") => {
                let ab = a.abstract_text.get_or_insert_with(String::new);
                if !ab.is_empty() {
                    ab.push('\n');
                }
                ab.push_str(&body);
            }
            "REF" | "TITLE" | "ABSTRACT" | "" => {}
            _ if ptype.starts_with("title") => {}
            _ => {
                let heading = bioc_heading(&kind);
                let same = a
                    .sections
                    .last()
                    .is_some_and(|s| s.title.as_deref() == Some(heading));
                if !same {
                    a.sections.push(crate::parse::pmc::Section {
                        position: a.sections.len(),
                        level: 1,
                        title: Some(heading.to_string()),
                        back: matches!(
                            kind.as_str(),
                            "ACK_FUND" | "APPENDIX" | "AUTH_CONT" | "COMP_INT"
                        ),
                        ..Default::default()
                    });
                }
                if let Some(s) = a.sections.last_mut() {
                    if !s.text.is_empty() {
                        s.text.push_str("\n\n");
                    }
                    s.text.push_str(&body);
                }
            }
        }
    }
    has_body(&a).then_some(a)
}

fn bioc_heading(section_type: &str) -> &'static str {
    match section_type {
        "INTRO" => "Introduction",
        "METHODS" => "Methods",
        "RESULTS" => "Results",
        "DISCUSS" => "Discussion",
        "CONCL" => "Conclusions",
        "CASE" => "Case report",
        "TABLE" => "Tables",
        "FIG" => "Figures",
        "SUPPL" => "Supplementary material",
        "ACK_FUND" => "Acknowledgments and funding",
        "APPENDIX" => "Appendix",
        "AUTH_CONT" => "Author contributions",
        "COMP_INT" => "Competing interests",
        _ => "Other",
    }
}

/// One article: the cloud, then efetch, then BioC, then the abstract and why.
async fn one(
    ctx: &ToolContext<'_>,
    cloud_client: &ExternalClient<'_>,
    t: &Target,
    notes: &mut Vec<String>,
) -> Result<Value> {
    let mut meta: Option<cloud::CloudArticle> = None;
    let mut front: Option<PmcArticle> = None;
    let mut reason = t
        .unresolved
        .clone()
        .map(|r| format!("not in PMC: {r}; PubMed has at most its abstract"));
    if let Some(pmcid) = &t.pmcid {
        // 1. PMC's Cloud Service.
        match cloud::find(cloud_client, ctx.config, pmcid).await {
            Ok(Some(found)) => {
                let reply = cloud_client
                    .send(&pmc_plan::cloud_object(
                        ctx.config,
                        &found.xml_key,
                        pmc_plan::CLOUD_ARTICLE_MAX_BYTES,
                    ))
                    .await;
                match reply {
                    Ok(r) if r.status == 200 => {
                        // The metadata's link must give the article asked for, as efetch's must.
                        let asked = |a: &PmcArticle| {
                            a.pmcid
                                .as_deref()
                                .and_then(|p| normalize_pmcid(p).ok())
                                .as_deref()
                                == Some(pmcid.as_str())
                        };
                        if let Some(a) = jats(&r.body).filter(has_body).filter(asked) {
                            return Ok(finish(a, t, "pmc_cloud", Some(&found), None));
                        }
                        notes.push(format!(
                            "{pmcid}: the Cloud Service's JATS could not be read; trying efetch."
                        ));
                    }
                    Ok(r) => notes.push(format!(
                        "{pmcid}: the Cloud Service answered HTTP {} for its JATS; trying efetch.",
                        r.status
                    )),
                    Err(e) => notes.push(format!("{pmcid}: {}; trying efetch.", e.message)),
                }
                meta = Some(found);
            }
            Ok(None) => {}
            Err(e) => notes.push(format!(
                "{pmcid}: PMC's Cloud Service failed ({}); trying efetch.",
                e.message
            )),
        }
        // 2. efetch db=pmc.
        let digits = pmcid.trim_start_matches("PMC");
        let request = EutilsRequest::new(Utility::Fetch)
            .param("db", "pmc")
            .param("id", digits)
            .param("retmode", "xml");
        match ctx.entrez()?.send(&request).await {
            Ok(r) => {
                // Only the article asked for (a reply about another is no answer).
                if let Some(a) =
                    jats(&r.body).filter(|a| a.pmcid.as_deref() == Some(pmcid.as_str()))
                {
                    if has_body(&a) {
                        return Ok(finish(a, t, "efetch_pmc", meta.as_ref(), None));
                    }
                    front = Some(a);
                }
            }
            Err(e) => notes.push(format!("{pmcid}: efetch db=pmc failed ({}).", e.message)),
        }
        // 3. BioC.
        let bioc_call = crate::tools::entrez_external::pmc::call::Bioc {
            service: "pmc",
            ids: vec![pmcid.clone()],
            format: "json".into(),
            encoding: "unicode".into(),
        };
        let client = ExternalClient::new(ctx, Service::Pmc)?;
        if let Ok(r) = client
            .send(&pmc_plan::bioc(ctx.config, &bioc_call, pmcid))
            .await
        {
            if r.status == 200 {
                if let Some(a) = serde_json::from_slice::<Value>(&r.body)
                    .ok()
                    .and_then(|v| from_bioc(&v, t))
                {
                    return Ok(finish(a, t, "bioc", meta.as_ref(), None));
                }
            }
        }
        reason = Some(if let Some(date) = &t.embargo {
            format!("it is in PMC but embargoed: the ID Converter says it is not live until {date}; until then NCBI gives its abstract and front matter only")
        } else if meta.is_some() {
            "PMC's Cloud Service lists it, but its text could not be read from the Cloud Service, efetch or BioC".into()
        } else {
            "it is in PMC but not open: it is not in PMC's Open Access Subset or Author Manuscript Dataset (or is still embargoed), so NCBI gives its abstract and front matter only".into()
        });
    }
    // 4. The abstract: PMC's front matter, or PubMed's record.
    if front.is_none() {
        if let Some(pmid) = &t.pmid {
            let request = EutilsRequest::new(Utility::Fetch)
                .param("db", "pubmed")
                .param("id", pmid)
                .param("retmode", "xml");
            if let Ok(r) = ctx.entrez()?.send(&request).await {
                if let Ok(list) = crate::parse::pubmed::parse_pubmed(&r.body) {
                    if let Some(p) = list.into_iter().next() {
                        front = Some(PmcArticle {
                            pmid: Some(p.pmid.clone()),
                            title: p.title.clone(),
                            abstract_text: p.abstract_text.clone(),
                            journal: p.journal.clone(),
                            year: p.year,
                            ..PmcArticle::default()
                        });
                    }
                }
            }
        }
    }
    let a = front.unwrap_or_default();
    let source = if a.abstract_text.is_some() || !a.title.is_empty() {
        if a.pmcid.is_some() {
            "efetch_pmc"
        } else {
            "pubmed_abstract"
        }
    } else {
        "none"
    };
    Ok(finish(
        a,
        t,
        source,
        meta.as_ref(),
        reason.or_else(|| Some("no full text could be found".into())),
    ))
}

/// The article's value with its id, source, licence and flags.
fn finish(
    a: PmcArticle,
    t: &Target,
    source: &str,
    meta: Option<&cloud::CloudArticle>,
    reason: Option<String>,
) -> Value {
    let mut v = sections::article_value(&a);
    let set = |v: &mut Value, k: &str, x: Value| json::set(v, k, x);
    set(&mut v, "id", json!(t.id));
    set(&mut v, "source", json!(source));
    set(&mut v, "full_text", json!(reason.is_none()));
    set(&mut v, "reason", json!(reason));
    for (k, have) in [("pmcid", &t.pmcid), ("pmid", &t.pmid), ("doi", &t.doi)] {
        if v[k].is_null() {
            set(&mut v, k, json!(have));
        }
    }
    if let Some(m) = meta {
        set(&mut v, "version", json!(m.version));
        if let Some(l) = m.license() {
            set(&mut v, "license", json!(l));
        }
        // An unsaid flag is not "not retracted": the article's own type decides then.
        let retracted = m
            .retracted()
            .unwrap_or(a.article_type.as_deref() == Some("retraction"));
        set(&mut v, "retracted", json!(retracted));
    } else {
        set(
            &mut v,
            "retracted",
            json!(a.article_type.as_deref() == Some("retraction")),
        );
    }
    v
}

/// Requests one article takes on the cloud path (listing, metadata, JATS).
const PER_ARTICLE: u64 = 3;
/// Requests a call takes whatever its articles: the ID Converter (one per id type) and
/// PubMed's flags.
const PER_CALL: u64 = 4;

/// How many articles one call may read within its subrequests (the Workers Free plan allows
/// 50), each request counted with its retries; at least one.
pub fn articles_within(allowance: &crate::allowance::Allowance) -> usize {
    let article = crate::allowance::Need::default().requests(
        PER_CALL,
        PER_ARTICLE,
        EXTERNAL_RETRY.max_attempts,
    );
    allowance.fits(&article).max(1) as usize
}

/// full_text: every id resolved, each article read and cut to the budget.
pub async fn full_text(
    ctx: &ToolContext<'_>,
    request: &FullText,
    view: &View,
) -> Result<ToolOutput> {
    let targets = resolve(ctx, &request.ids).await?;
    let cloud_client = ExternalClient::new(ctx, Service::PmcCloud)?;
    let mut notes = Vec::new();
    let mut articles = Vec::new();
    let room = budget::room(view.max_characters);
    let fits = articles_within(&ctx.allowance());
    let unlisted: Vec<String> = targets.iter().skip(fits).map(|t| t.id.clone()).collect();
    if !unlisted.is_empty() {
        notes.push(format!(
            "ENTREZ_SUBREQUESTS ({}) lets one call read {fits} article(s) ({PER_ARTICLE} requests each from the Cloud Service, each tried up to {} times); {} more are left for the next call.",
            ctx.allowance().subrequests,
            EXTERNAL_RETRY.max_attempts,
            unlisted.len()
        ));
    }
    for t in targets.iter().take(fits) {
        let mut a = one(ctx, &cloud_client, t, &mut notes).await?;
        sections::filter(&mut a, &request.sections);
        if view.detail == Detail::Brief {
            sections::brief(&mut a);
        }
        sections::trim(&mut a, room, &t.id);
        articles.push(a);
    }
    flag_integrity(ctx, &mut articles, &mut notes).await;
    let with_text = articles.iter().filter(|a| a["full_text"] == true).count();
    if articles.iter().all(|a| a["source"] == "none") {
        let reasons: Vec<String> = articles
            .iter()
            .map(|a| {
                format!(
                    "{}: {}",
                    a["id"].as_str().unwrap_or(""),
                    a["reason"].as_str().unwrap_or("")
                )
            })
            .collect();
        return Err(Error::new(
            ErrorKind::NotFound,
            format!("No article was found ({}).", reasons.join("; ")),
        )
        .with_code("pmc_full_text_not_found")
        .suggest(
            "Check the ids: PMIDs, PMCIDs (PMC + digits) or DOIs; search PubMed with entrez_query.",
        )
        .with_details(json!({"articles": articles})));
    }
    let warnings: Vec<String> = articles
        .iter()
        .filter_map(|a| {
            a["reason"].as_str().map(|r| {
                format!(
                    "{}: no full text, {r}; its abstract is given.",
                    a["id"].as_str().unwrap_or("")
                )
            })
        })
        .chain(notes)
        .chain(cloud_client.warnings())
        .collect();
    let structured = json!({
        "service": "pmc", "operation": "full_text", "count": articles.len(), "full_text": with_text,
        "articles": articles, "warnings": warnings,
    });
    let list = List {
        key: "articles",
        kind: Kind::Other,
        noun: "articles",
        keep: &["id", "source", "full_text", "license", "retracted"],
        unlisted: &unlisted,
    };
    let extra: Vec<(&str, Value)> = if request.sections.is_empty() {
        Vec::new()
    } else {
        vec![("sections", json!(request.sections))]
    };
    Ok(fit::listed(structured, list, view, render, None, |left| {
        crate::tools::entrez_external::pmc::reply::next_args("full_text", left, &extra)
    }))
}

/// PubMed's integrity flags (retracted, expression of concern, corrected) for every article
/// with a PMID, from one efetch `db=pubmed`; `retracted` is true when PubMed or the Cloud
/// Service's metadata says so.
async fn flag_integrity(ctx: &ToolContext<'_>, articles: &mut [Value], notes: &mut Vec<String>) {
    let pmids: Vec<String> = articles
        .iter()
        .filter_map(|a| a["pmid"].as_str().map(String::from))
        .collect();
    if pmids.is_empty() {
        return;
    }
    let request = EutilsRequest::new(Utility::Fetch)
        .param("db", "pubmed")
        .param("id", pmids.join(","))
        .param("retmode", "xml");
    let parsed = match ctx.entrez() {
        Ok(client) => match client.send(&request).await {
            Ok(r) => crate::parse::pubmed::parse_pubmed(&r.body).ok(),
            Err(_) => None,
        },
        Err(_) => None,
    };
    let Some(records) = parsed else {
        notes.push("PubMed's retraction and correction flags could not be read; retracted comes from PMC's metadata only.".into());
        return;
    };
    for a in articles.iter_mut() {
        let Some(r) = records
            .iter()
            .find(|r| a["pmid"].as_str() == Some(r.pmid.as_str()))
        else {
            continue;
        };
        let flags: Vec<&str> = r.integrity.flags.iter().map(|f| f.name()).collect();
        let retracted = r.integrity.retracted() || a["retracted"] == true;
        json::set(
            a,
            "integrity",
            json!({"flags": flags, "headline": r.integrity.headline()}),
        );
        json::set(a, "retracted", json!(retracted));
    }
}

/// The text block: each article's text, then the warnings.
pub fn render(r: &Value) -> String {
    let mut out = format!(
        "{} of {} article(s) with full text:",
        r["full_text"], r["count"]
    );
    for a in r["articles"].as_array().into_iter().flatten() {
        out.push_str("\n\n");
        out.push_str(&sections::text(a));
    }
    for w in r["warnings"].as_array().into_iter().flatten() {
        out.push_str(&format!("\nwarning: {}", w.as_str().unwrap_or("")));
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_free_plans_fifty_subrequests_read_four_articles_a_call() {
        // 50 / 3 attempts = 16 requests; 4 for the call, 3 an article.
        let within = |subrequests| {
            super::articles_within(&crate::allowance::Allowance {
                subrequests,
                ..Default::default()
            })
        };
        assert_eq!(within(50), 4);
        assert_eq!(within(10_000), 1_109);
        assert_eq!(within(1), 1);
    }
}
