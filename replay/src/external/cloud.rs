//! PMC's Cloud Service bucket (`pmc-oa-opendata`), as the replay answers it, path-style
//! under `/pmc-oa-opendata/`: S3 ListObjectsV2 listings (`list-type=2`, `prefix`,
//! `delimiter`) and the objects of each article version's folder (metadata JSON, JATS XML,
//! plain text). Written from PMC's and AWS's documentation; no recording exists
//! (tests/fixtures/external/PROVENANCE.md).

use crate::external::server::Incoming;
use crate::external::server::Reply;
use serde_json::Value;

const ARTICLES: &str = include_str!("../../../tests/fixtures/external/pmc/cloud/articles.json");
const JATS: &[(&str, &str)] = &[
    (
        "PMC3531190.xml",
        include_str!("../../../tests/fixtures/external/pmc/cloud/PMC3531190.xml"),
    ),
    (
        "PMC5334499.xml",
        include_str!("../../../tests/fixtures/external/pmc/cloud/PMC5334499.xml"),
    ),
    (
        "recorded:efetch_pmc.xml",
        include_str!("../../../tests/fixtures/ncbi/eutils/efetch_pmc.xml"),
    ),
];
/// Where the bucket is served, path-style.
pub const ROOT: &str = "/pmc-oa-opendata/";

fn versions() -> Vec<Value> {
    serde_json::from_str::<Value>(ARTICLES)
        .ok()
        .and_then(|v| v["versions"].as_array().cloned())
        .unwrap_or_default()
}

fn folder(v: &Value) -> String {
    format!("{}.{}", v["pmcid"].as_str().unwrap_or(""), v["version"])
}

fn s3_error(status: u16, code: &str, message: &str) -> Reply {
    Reply::body(
        status,
        "application/xml",
        format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>{code}</Code><Message>{message}</Message></Error>"),
    )
}

/// The JATS `<article>` of a fixture (a recorded `pmc-articleset` is unwrapped).
fn article_xml(name: &str) -> Option<String> {
    let text = JATS.iter().find(|(n, _)| *n == name)?.1;
    if !text.contains("<pmc-articleset") {
        return Some(text.to_string());
    }
    let start = text.find("<article ")?;
    let end = text.rfind("</article>")? + "</article>".len();
    Some(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}",
        &text[start..end]
    ))
}

/// `GET /pmc-oa-opendata/?list-type=2&prefix=…&delimiter=/`, or an object by key.
pub fn handle(req: &Incoming) -> Reply {
    let key = req.path.strip_prefix(ROOT).unwrap_or("");
    if key.is_empty() {
        return listing(req);
    }
    let all = versions();
    for v in &all {
        let f = folder(v);
        if key == format!("{f}/{f}.json") {
            let mut meta = v.clone();
            if let Some(m) = meta.as_object_mut() {
                m.remove("jats");
            }
            return Reply::body(200, "application/json", meta.to_string());
        }
        if key == format!("{f}/{f}.xml") {
            if let Some(xml) = v["jats"].as_str().and_then(article_xml) {
                return Reply::body(200, "application/xml", xml);
            }
        }
        if key == format!("{f}/{f}.txt") {
            return Reply::body(
                200,
                "text/plain",
                format!(
                    "{}\n\nPlain text of {f}, written for the replay.\n",
                    v["citation"].as_str().unwrap_or("")
                ),
            );
        }
    }
    s3_error(404, "NoSuchKey", "The specified key does not exist.")
}

fn listing(req: &Incoming) -> Reply {
    let p = &req.params;
    if p.get("list-type") != Some("2") {
        return s3_error(
            400,
            "InvalidArgument",
            "This replay bucket lists with list-type=2 only.",
        );
    }
    let prefix = p.get("prefix").unwrap_or("");
    let delimited = p.get("delimiter") == Some("/");
    let mut contents = String::new();
    let mut prefixes: Vec<String> = Vec::new();
    for v in versions() {
        let f = folder(&v);
        for ext in ["json", "xml", "txt"] {
            let key = format!("{f}/{f}.{ext}");
            if !key.starts_with(prefix) {
                continue;
            }
            if delimited {
                let rest = &key[prefix.len()..];
                if let Some(i) = rest.find('/') {
                    let rolled = format!("{prefix}{}", &rest[..=i]);
                    if !prefixes.contains(&rolled) {
                        prefixes.push(rolled);
                    }
                    continue;
                }
            }
            contents.push_str(&format!("<Contents><Key>{key}</Key><Size>1</Size><StorageClass>STANDARD</StorageClass></Contents>"));
        }
    }
    let common: String = prefixes
        .iter()
        .map(|p| format!("<CommonPrefixes><Prefix>{p}</Prefix></CommonPrefixes>"))
        .collect();
    let count = contents.matches("<Contents>").count() + prefixes.len();
    Reply::body(
        200,
        "application/xml",
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>pmc-oa-opendata</Name><Prefix>{prefix}</Prefix><KeyCount>{count}</KeyCount><MaxKeys>1000</MaxKeys>{}<IsTruncated>false</IsTruncated>{contents}{common}</ListBucketResult>",
            if delimited { "<Delimiter>/</Delimiter>" } else { "" }
        ),
    )
}
