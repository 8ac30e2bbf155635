//! PMC's Cloud Service: the `pmc-oa-opendata` bucket, where PMC has distributed its article
//! datasets since the OA web service and the FTP service were retired (August 2026).
//!
//! One folder per article version (`PMC176545.1/`), found by listing the bucket with the
//! PMCID and a dot as prefix; in it the version's metadata JSON (ids, citation, licence,
//! open-access/manuscript/retracted flags, the URLs of its JATS XML and plain text) and the
//! files themselves. URLs the metadata names are mapped onto the configured bucket
//! ([`pmc_plan::cloud_key`]); any other URL is not followed.

use crate::error::{Error, ErrorKind, Result};
use crate::json;
use crate::parse::s3_list::parse_listing;
use crate::tools::entrez_external::pmc::plan as pmc_plan;
use crate::tools::entrez_external::shared::client::{excerpt, ExternalClient};
use serde_json::Value;

/// One article as the Cloud Service holds it: its newest version and that version's metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct CloudArticle {
    /// `PMC` + digits.
    pub pmcid: String,
    /// The newest version.
    pub version: u32,
    /// Every version listed, ascending.
    pub versions: Vec<u32>,
    /// The newest version's metadata, as the bucket has it (`null` when it could not be read).
    pub meta: Value,
    /// The bucket key of the JATS XML.
    pub xml_key: String,
    /// The bucket key of the plain text.
    pub text_key: String,
}

fn flag(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" => Some(true),
            "false" | "no" | "n" | "0" => Some(false),
            _ => None,
        },
        Value::Number(n) => n.as_u64().map(|n| n != 0),
        _ => None,
    }
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The versions a listing's folders name for `pmcid`, ascending (`PMC1.2/` → 2).
pub fn versions_of(prefixes: &[String], pmcid: &str) -> Vec<u32> {
    let mut out: Vec<u32> = prefixes
        .iter()
        .filter_map(|p| {
            let rest = p.strip_prefix(pmcid)?.strip_prefix('.')?;
            rest.trim_end_matches('/').parse().ok()
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

impl CloudArticle {
    /// Whether the metadata marks the article as in the Open Access Subset (true when unsaid:
    /// everything in the bucket is distributed for reuse under its licence).
    pub fn open_access(&self) -> bool {
        flag(&self.meta["is_pmc_openaccess"]).unwrap_or(true)
    }

    /// The metadata's retraction flag.
    pub fn retracted(&self) -> Option<bool> {
        flag(&self.meta["is_retracted"])
    }

    /// The licence code (e.g. `CC BY`).
    pub fn license(&self) -> Option<String> {
        text(&self.meta["license_code"]).or_else(|| text(&self.meta["license"]))
    }

    /// The PMID the metadata names.
    pub fn pmid(&self) -> Option<String> {
        text(&self.meta["pmid"])
    }

    /// The DOI the metadata names.
    pub fn doi(&self) -> Option<String> {
        text(&self.meta["doi"])
    }

    /// The `oa_service` record: versions, licence, flags and HTTPS links.
    pub fn record(&self) -> Value {
        let key = |k: &str| format!("{0}.{1}/{0}.{1}.{k}", self.pmcid, self.version);
        json!({
            "id": self.pmcid,
            "open_access": self.open_access(),
            "source": "pmc_cloud",
            "version": self.version,
            "versions": self.versions,
            "pmid": self.pmid(),
            "doi": self.doi(),
            "mid": text(&self.meta["mid"]),
            "citation": text(&self.meta["citation"]),
            "license": self.license(),
            "retracted": self.retracted(),
            "manuscript": flag(&self.meta["is_manuscript"]),
            "historical_ocr": flag(&self.meta["is_historical_ocr"]),
            "links": [
                {"format": "xml", "href": pmc_plan::cloud_https(&self.xml_key)},
                {"format": "txt", "href": pmc_plan::cloud_https(&self.text_key)},
                {"format": "json", "href": pmc_plan::cloud_https(&key("json"))},
            ],
        })
    }
}

fn cloud_error(what: &str, status: u16, body: &[u8]) -> Error {
    Error::new(
        ErrorKind::Upstream,
        format!(
            "PMC's Cloud Service answered {what} with HTTP {status}{}.",
            excerpt(body)
        ),
    )
    .with_code("pmc_cloud_error")
    .with_details(json!({"status": status}))
    .suggest("Retry later; the bucket is pmc-oa-opendata on AWS (us-east-1), set PMC_CLOUD_URL for a mirror.")
}

/// The article's newest version in the bucket, with its metadata; `None` when the bucket has
/// no folder for it (not in PMC's article datasets).
pub async fn find(
    client: &ExternalClient<'_>,
    config: &crate::config::Config,
    pmcid: &str,
) -> Result<Option<CloudArticle>> {
    let reply = client.send(&pmc_plan::cloud_listing(config, pmcid)).await?;
    if reply.status != 200 {
        return Err(cloud_error("the listing", reply.status, &reply.body));
    }
    let listing = parse_listing(&reply.body)?;
    let versions = versions_of(&listing.prefixes, pmcid);
    let Some(&version) = versions.last() else {
        return Ok(None);
    };
    let folder = format!("{pmcid}.{version}");
    let meta_key = format!("{folder}/{folder}.json");
    let reply = client
        .send(&pmc_plan::cloud_object(
            config,
            &meta_key,
            pmc_plan::CLOUD_METADATA_MAX_BYTES,
        ))
        .await?;
    let meta = if reply.status == 200 {
        serde_json::from_slice(&reply.body).unwrap_or(Value::Null)
    } else {
        Value::Null
    };
    // The metadata's URLs when they name this bucket; the folder's own names otherwise.
    let key_of = |field: &str, ext: &str| {
        text(&meta[field])
            .and_then(|u| pmc_plan::cloud_key(&u))
            .unwrap_or_else(|| format!("{folder}/{folder}.{ext}"))
    };
    Ok(Some(CloudArticle {
        pmcid: pmcid.to_string(),
        version,
        xml_key: key_of("xml_url", "xml"),
        text_key: key_of("text_url", "txt"),
        versions,
        meta,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_come_from_the_article_folders_only() {
        let prefixes = vec![
            "PMC12.2/".to_string(),
            "PMC12.1/".to_string(),
            "PMC12.x/".to_string(),
            "PMC123.1/".to_string(),
        ];
        assert_eq!(versions_of(&prefixes, "PMC12"), vec![1, 2]);
        assert!(versions_of(&prefixes, "PMC9").is_empty());
    }
}
