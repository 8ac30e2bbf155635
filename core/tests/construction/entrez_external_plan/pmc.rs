//! PMC's requests: the ID Converter, the OA web service, the citation exporter and the Cloud
//! Service, by exact URL with NCBI's identification.

use super::{config, get, read};
use entrez_mcp_core::config::Config;
use entrez_mcp_core::error::Error;
use entrez_mcp_core::error::ErrorKind;
use entrez_mcp_core::net::HttpCall;
use entrez_mcp_core::tools::entrez_external::call::ExternalCall;
use entrez_mcp_core::tools::entrez_external::pmc::call::IdType;
use entrez_mcp_core::tools::entrez_external::pmc::call::PmcCall;
use entrez_mcp_core::tools::entrez_external::pmc::plan as pmc_plan;
use serde_json::{json, Value};

const ID: &str = "tool=entrez-mcp&email=dev%40example.org";

fn convert_plan(cfg: &Config, args: &Value) -> Result<(HttpCall, IdType), Error> {
    match read(args, "id_convert") {
        ExternalCall::Pmc(PmcCall::IdConvert(c)) => pmc_plan::id_convert(cfg, &c),
        other => panic!("not an id_convert: {other:?}"),
    }
}

fn citation_db(args: &Value) -> String {
    match read(args, "citation_export") {
        ExternalCall::Pmc(PmcCall::CitationExport(c)) => c.database,
        other => panic!("not a citation_export: {other:?}"),
    }
}

#[test]
fn pmc_id_converter_sends_one_type_with_format_json_and_identification() {
    let cfg = config();
    let base = "https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/";
    let (call, t) = convert_plan(
        &cfg,
        &json!({"ids": ["23193287", 23193288], "idtype": "pmid"}),
    )
    .unwrap();
    assert_eq!(t, IdType::Pmid);
    assert_eq!(
        get(&call),
        format!("{base}?ids=23193287%2C23193288&idtype=pmid&format=json&{ID}")
    );
    let (call, t) = convert_plan(&cfg, &json!({"ids": ["10.1093/nar/gks1195"]})).unwrap();
    assert_eq!(t, IdType::Doi);
    assert_eq!(
        get(&call),
        format!("{base}?ids=10.1093%2Fnar%2Fgks1195&idtype=doi&format=json&{ID}")
    );
    let (_, t) = convert_plan(&cfg, &json!({"ids": ["PMC3531190", "pmc3245039.1"]})).unwrap();
    assert_eq!(t, IdType::Pmcid);
    let (_, t) = convert_plan(&cfg, &json!({"ids": ["NIHMS1677310"]})).unwrap();
    assert_eq!(t, IdType::Mid);
    let e = convert_plan(&cfg, &json!({"ids": ["PMC3531190", "23193287"]})).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidArguments);
    assert!(e.message.contains("one type per call"), "{}", e.message);
    // Without an email only the tool is sent.
    let (call, _) = convert_plan(
        &Config::defaults(),
        &json!({"ids": ["1"], "idtype": "pmid"}),
    )
    .unwrap();
    assert!(
        call.url.ends_with("&format=json&tool=entrez-mcp"),
        "{}",
        call.url
    );
}

#[test]
fn oa_service_and_citation_exporter_use_their_documented_parameters() {
    let cfg = config();
    let id =
        entrez_mcp_core::tools::entrez_external::pmc::call::normalize_pmcid("5334499").unwrap();
    assert_eq!(id, "PMC5334499");
    assert_eq!(
        get(&pmc_plan::oa_service(&cfg, &id, None)),
        format!("https://www.ncbi.nlm.nih.gov/pmc/utils/oa/oa.fcgi?id=PMC5334499&{ID}")
    );
    assert!(
        entrez_mcp_core::tools::entrez_external::pmc::call::normalize_pmcid("10.1093/x").is_err()
    );
    let ctxp = "https://pmc.ncbi.nlm.nih.gov/api/ctxp/v1/";
    assert_eq!(
        get(&pmc_plan::citation_export(
            &cfg, "pubmed", "ris", "23193287"
        )),
        format!("{ctxp}pubmed/?format=ris&id=23193287&{ID}")
    );
    assert_eq!(
        get(&pmc_plan::citation_export(
            &cfg,
            "pmc",
            "citation",
            &pmc_plan::ctxp_id("pmc", "PMC3531190").unwrap()
        )),
        format!("{ctxp}pmc/?format=citation&id=3531190&{ID}")
    );
    // nbib is PubMed's name for MEDLINE text; BibTeX is built from CSL JSON.
    assert!(get(&pmc_plan::citation_export(&cfg, "pubmed", "nbib", "1"))
        .contains("?format=medline&id=1&"));
    assert!(
        get(&pmc_plan::citation_export(&cfg, "pubmed", "bibtex", "1"))
            .contains("?format=csl&id=1&")
    );
    assert_eq!(citation_db(&json!({"ids": ["PMC1", "pmc2"]})), "pmc");
    assert_eq!(citation_db(&json!({"ids": ["1", "PMC2"]})), "pubmed");
    assert_eq!(
        citation_db(&json!({"ids": ["PMC1"], "database": "pubmed"})),
        "pubmed"
    );
    assert!(pmc_plan::ctxp_id("pubmed", "PMC1").is_err());
}

#[test]
fn cloud_service_requests_are_s3_listings_and_keys_on_the_configured_bucket() {
    // PMC's Cloud Service (pmc.ncbi.nlm.nih.gov/tools/pmcaws): the bucket pmc-oa-opendata,
    // one folder per article version, listed with ListObjectsV2 by prefix and delimiter.
    let cfg = config();
    let bucket = "https://pmc-oa-opendata.s3.amazonaws.com/";
    let listing = pmc_plan::cloud_listing(&cfg, "PMC3531190");
    assert_eq!(
        get(&listing),
        format!("{bucket}?list-type=2&prefix=PMC3531190.&delimiter=%2F")
    );
    assert_eq!(listing.max_bytes, pmc_plan::CLOUD_LISTING_MAX_BYTES);
    let meta = pmc_plan::cloud_object(&cfg, "PMC3531190.2/PMC3531190.2.json", 1000);
    assert_eq!(
        get(&meta),
        format!("{bucket}PMC3531190.2/PMC3531190.2.json")
    );
    assert_eq!(meta.max_bytes, 1000);
    // The bucket's answers are its own: no redirect is followed, no key climbs out.
    assert!(!meta.follow_redirects && !listing.follow_redirects);
    assert_eq!(
        get(&pmc_plan::cloud_object(&cfg, "../PMC1.1//./x.xml", 1000)),
        format!("{bucket}PMC1.1/x.xml")
    );
    // A mirror or stand-in is named by PMC_CLOUD_URL (with or without the last slash).
    let mirror = Config::from_lookup(|k| {
        (k == "PMC_CLOUD_URL").then(|| "http://127.0.0.1:9/pmc-oa-opendata".to_string())
    });
    assert_eq!(
        get(&pmc_plan::cloud_listing(&mirror, "PMC1")),
        "http://127.0.0.1:9/pmc-oa-opendata/?list-type=2&prefix=PMC1.&delimiter=%2F"
    );
    // The metadata's URLs are keys of this bucket, or nothing: never followed elsewhere.
    for (url, key) in [
        (
            "s3://pmc-oa-opendata/PMC1.1/PMC1.1.xml",
            Some("PMC1.1/PMC1.1.xml"),
        ),
        (
            "https://pmc-oa-opendata.s3.amazonaws.com/PMC1.1/PMC1.1.txt",
            Some("PMC1.1/PMC1.1.txt"),
        ),
        (
            "https://s3.amazonaws.com/pmc-oa-opendata/PMC1.1/PMC1.1.json",
            Some("PMC1.1/PMC1.1.json"),
        ),
        ("s3://other-bucket/PMC1.1/PMC1.1.xml", None),
        ("https://elsewhere.example/PMC1.1.xml", None),
        ("s3://pmc-oa-opendata/../PMC1.1.xml", None),
        ("s3://pmc-oa-opendata/PMC1.1//x.xml", None),
        ("s3://pmc-oa-opendata/PMC1.1/x?y=1", None),
    ] {
        assert_eq!(pmc_plan::cloud_key(url).as_deref(), key, "{url}");
    }
    assert_eq!(
        pmc_plan::cloud_https("PMC1.1/PMC1.1.xml"),
        "https://pmc-oa-opendata.s3.amazonaws.com/PMC1.1/PMC1.1.xml"
    );
}
