//! PMC request building: the ID Converter, the OA web service and the citation exporter,
//! each a GET with query parameters and NCBI's `tool`/`email` identification.

use crate::config::Config;
use crate::error::Error;
use crate::net::{form_encode, HttpCall};
use crate::tools::entrez_external::pmc::call::{Bioc, IdConvert, IdType, OaService};
use crate::tools::entrez_external::shared::service::get_call;
use crate::tools::entrez_external::shared::service::invalid;

/// Timeout for one PMC service request.
pub const PMC_TIMEOUT_MS: u64 = 30_000;

fn identification(config: &Config, pairs: &mut Vec<(String, String)>) {
    pairs.push(("tool".into(), config.tool.clone()));
    if let Some(email) = &config.email {
        pairs.push(("email".into(), email.clone()));
    }
}

fn query_url(base: &str, pairs: &[(String, String)]) -> String {
    format!("{base}?{}", form_encode(pairs))
}

/// One ID Converter request for up to 200 ids of one type.
pub fn id_convert(config: &Config, call: &IdConvert) -> Result<(HttpCall, IdType), Error> {
    let ids = &call.ids;
    let idtype = match call.idtype {
        Some(t) => t,
        None => {
            let first = IdType::detect(ids.first().map(String::as_str).unwrap_or_default());
            let other = ids
                .iter()
                .find(|i| IdType::detect(i) != first)
                .map(String::as_str)
                .unwrap_or_default();
            return Err(invalid(format!(
                "The ID Converter takes ids of one type per call, but \"{}\" looks like a {} and \"{other}\" like a {}.",
                ids.first().map(String::as_str).unwrap_or_default(),
                first.as_str(),
                IdType::detect(other).as_str()
            ))
            .suggest("Split the ids by type (pmcid, pmid, doi, mid) and make one call per type, or set idtype."));
        }
    };
    let mut pairs = vec![
        ("ids".to_string(), ids.join(",")),
        ("idtype".to_string(), idtype.as_str().to_string()),
    ];
    // versions=no and showaiid=yes are the documented values that change the reply.
    match call.versions {
        Some(false) => pairs.push(("versions".into(), "no".into())),
        Some(true) => pairs.push(("versions".into(), "yes".into())),
        None => {}
    }
    if let Some(show) = call.showaiid {
        pairs.push(("showaiid".into(), if show { "yes" } else { "no" }.into()));
    }
    pairs.push(("format".to_string(), call.format.clone()));
    identification(config, &mut pairs);
    Ok((
        get_call(query_url(&config.pmc_idconv_url, &pairs), PMC_TIMEOUT_MS),
        idtype,
    ))
}

/// One OA web service request: `oa.fcgi?id=PMC...` (with `format` when a download kind is named).
pub fn oa_service(config: &Config, pmcid: &str, format: Option<&str>) -> HttpCall {
    let mut pairs = vec![("id".to_string(), pmcid.to_string())];
    if let Some(f) = format {
        pairs.push(("format".into(), f.to_string()));
    }
    identification(config, &mut pairs);
    get_call(query_url(&config.pmc_oa_url, &pairs), PMC_TIMEOUT_MS)
}

/// An OA listing: records updated between `from` and `until` (optionally of one `format`), or
/// the page a `resumptionToken` names; with none of them, the service's identification.
pub fn oa_listing(config: &Config, call: &OaService) -> HttpCall {
    let mut pairs: Vec<(String, String)> = Vec::new();
    match &call.resumption_token {
        Some(token) => pairs.push(("resumptionToken".into(), token.clone())),
        None => {
            for (k, v) in [
                ("from", &call.from),
                ("until", &call.until),
                ("format", &call.format),
            ] {
                if let Some(v) = v {
                    pairs.push((k.into(), v.clone()));
                }
            }
        }
    }
    if pairs.is_empty() {
        return get_call(config.pmc_oa_url.clone(), PMC_TIMEOUT_MS);
    }
    identification(config, &mut pairs);
    get_call(query_url(&config.pmc_oa_url, &pairs), PMC_TIMEOUT_MS)
}

/// One BioC API request: `<base>/BioC_<format>/<id>/<encoding>`.
pub fn bioc(config: &Config, call: &Bioc, id: &str) -> HttpCall {
    let base = config.pmc_bioc_url.trim_end_matches('/');
    get_call(
        format!(
            "{base}/BioC_{}/{}/{}",
            call.format,
            crate::tools::entrez_external::shared::service::path_segment(id),
            call.encoding
        ),
        PMC_TIMEOUT_MS,
    )
}

/// The `format` sent for a requested export format: nbib is MEDLINE text, BibTeX is built from CSL JSON.
pub fn ctxp_format(requested: &str) -> &'static str {
    match requested {
        "csl" | "bibtex" => "csl",
        "ris" => "ris",
        "medline" | "nbib" => "medline",
        _ => "citation",
    }
}

/// The id as the citation exporter takes it: digits (PMC's prefix dropped for the pmc database).
pub fn ctxp_id(database: &str, id: &str) -> Result<String, Error> {
    let trimmed = id.trim();
    let digits = if database == "pmc" {
        let upper = trimmed.to_ascii_uppercase();
        upper.strip_prefix("PMC").unwrap_or(&upper).to_string()
    } else {
        trimmed.to_string()
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(format!(
            "\"{id}\" is not a {} id.",
            if database == "pmc" { "PMCID" } else { "PMID" }
        ))
        .suggest("Use PMIDs with database pubmed and PMCIDs with database pmc; convert DOIs with id_convert first."));
    }
    Ok(digits)
}

/// One citation exporter request: `<base>/<database>/?format=...&id=...`.
pub fn citation_export(config: &Config, database: &str, format: &str, id: &str) -> HttpCall {
    let mut pairs = vec![
        ("format".to_string(), ctxp_format(format).to_string()),
        ("id".to_string(), id.to_string()),
    ];
    identification(config, &mut pairs);
    let base = format!("{}/{database}/", config.pmc_ctxp_url.trim_end_matches('/'));
    get_call(query_url(&base, &pairs), PMC_TIMEOUT_MS)
}

/// The bucket PMC's Cloud Service keeps its article datasets in.
pub const CLOUD_BUCKET: &str = "pmc-oa-opendata";
/// The most bytes a bucket listing may take (one article's version folders: a few hundred).
pub const CLOUD_LISTING_MAX_BYTES: u64 = 256 * 1024;
/// The most bytes one version's metadata JSON may take.
pub const CLOUD_METADATA_MAX_BYTES: u64 = 256 * 1024;
/// The most bytes one article's JATS XML may take.
pub const CLOUD_ARTICLE_MAX_BYTES: u64 = 8 * 1024 * 1024;

/// A call to the bucket: its body capped, and no redirect followed (an answer from
/// elsewhere is never the bucket's).
fn capped(mut call: HttpCall, max_bytes: u64) -> HttpCall {
    call.max_bytes = max_bytes;
    call.follow_redirects = false;
    call
}

/// The versions of one article: the bucket's folders `PMC<digits>.<version>/`, listed with
/// S3's ListObjectsV2 (`list-type=2`), the PMCID and a dot as prefix, `/` as delimiter.
pub fn cloud_listing(config: &Config, pmcid: &str) -> HttpCall {
    let pairs = vec![
        ("list-type".to_string(), "2".to_string()),
        ("prefix".to_string(), format!("{pmcid}.")),
        ("delimiter".to_string(), "/".to_string()),
    ];
    capped(
        get_call(query_url(&config.pmc_cloud_url, &pairs), PMC_TIMEOUT_MS),
        CLOUD_LISTING_MAX_BYTES,
    )
}

/// One object of the bucket by key (e.g. `PMC176545.1/PMC176545.1.json`), at the
/// configured bucket URL.
pub fn cloud_object(config: &Config, key: &str, max_bytes: u64) -> HttpCall {
    // No empty, "." or ".." segment: a key never climbs out of the bucket's URL.
    let path: Vec<String> = key
        .split('/')
        .filter(|s| !matches!(*s, "" | "." | ".."))
        .map(crate::tools::entrez_external::shared::service::path_segment)
        .collect();
    capped(
        get_call(
            format!("{}{}", config.pmc_cloud_url, path.join("/")),
            PMC_TIMEOUT_MS,
        ),
        max_bytes,
    )
}

/// The key a metadata URL names, when it names an object of PMC's bucket: `s3://pmc-oa-opendata/<key>`
/// or `https://pmc-oa-opendata.s3.amazonaws.com/<key>` (or the path-style
/// `https://s3.amazonaws.com/pmc-oa-opendata/<key>`). Any other URL, or a key that could climb
/// out of the bucket, gives `None`: it is never followed.
pub fn cloud_key(url: &str) -> Option<String> {
    let url = url.trim();
    let key = url
        .strip_prefix(&format!("s3://{CLOUD_BUCKET}/"))
        .or_else(|| url.strip_prefix(&format!("https://{CLOUD_BUCKET}.s3.amazonaws.com/")))
        .or_else(|| {
            url.strip_prefix(&format!(
                "https://{CLOUD_BUCKET}.s3.us-east-1.amazonaws.com/"
            ))
        })
        .or_else(|| url.strip_prefix(&format!("https://s3.amazonaws.com/{CLOUD_BUCKET}/")))?;
    let safe = !key.is_empty()
        && key.split('/').all(|seg| {
            !seg.is_empty()
                && seg != "."
                && seg != ".."
                && seg
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        });
    safe.then(|| key.to_string())
}

/// The public HTTPS link of a bucket key (what a caller can open; never the configured
/// stand-in's address).
pub fn cloud_https(key: &str) -> String {
    format!("https://{CLOUD_BUCKET}.s3.amazonaws.com/{key}")
}
