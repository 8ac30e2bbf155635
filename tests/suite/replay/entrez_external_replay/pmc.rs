//! PMC's services through the dispatcher against the stand-in: the ID Converter, the OA
//! web service and Cloud Service, the citation exporter, BioC and full text.

use super::*;

#[test]
fn fields_keep_what_each_result_requires_and_detail_is_named_where_it_does_nothing() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sc = ok(
        &s,
        pmc(
            "id_convert",
            json!({"ids": ["23193287"], "fields": ["doi"], "detail": "brief"}),
        ),
    );
    let record = sc["records"][0].as_object().unwrap();
    let keys: Vec<&String> = record.keys().collect();
    assert_eq!(keys, ["doi", "requested_id", "status"]);
    let ignored: Vec<&Value> = sc["call_warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "ignored_parameter")
        .collect();
    assert_eq!(ignored.len(), 1, "{sc}");
    assert_eq!(ignored[0]["path"], "$.detail");
    let bioc = ok(
        &s,
        pmc(
            "bioc",
            json!({"ids": ["PMC3531190"], "fields": ["passages"]}),
        ),
    );
    assert_eq!(bioc["articles"][0]["ok"], true);
    assert_eq!(bioc["articles"][0]["id"], "PMC3531190");
}

#[test]
fn id_converter_reports_each_id() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let sc = ok(&s, pmc("id_convert", json!({"ids": ["23193287", "1"]})));
    assert_eq!(sc["idtype"], "pmid");
    assert_eq!(
        (sc["count"].as_u64(), sc["converted"].as_u64()),
        (Some(2), Some(1))
    );
    let good = &sc["records"][0];
    assert_eq!(good["pmcid"], "PMC3531190");
    assert_eq!(good["pmid"], "23193287");
    assert_eq!(good["doi"], "10.1093/nar/gks1195");
    assert_eq!(
        good["versions"][0],
        json!({"pmcid": "PMC3531190.1", "mid": null, "current": true})
    );
    let bad = &sc["records"][1];
    assert_eq!(bad["status"], "error");
    assert_eq!(bad["error"], "Identifier not found in PMC");
    assert_eq!(sc["warnings"][0], "1: Identifier not found in PMC");
    let doi = ok(
        &s,
        pmc("id_convert", json!({"ids": ["10.1093/nar/gks1195"]})),
    );
    assert_eq!(doi["records"][0]["pmcid"], "PMC3531190");
    let e = err(&s, pmc("id_convert", json!({"ids": ["PMC1", "PMC2"]})));
    assert_eq!(e["code"], "pmc_id_not_found");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("PMC1: Identifier not found in PMC"));
    let e = err(
        &s,
        pmc("id_convert", json!({"ids": ["PMC3531190", "23193287"]})),
    );
    assert_eq!(e["code"], "mixed_id_types");
    let stats = replay.stats();
    assert_eq!(stats["missing_tool"], 0);
    assert!(log(&replay)
        .iter()
        .all(|l| l["query"].as_str().unwrap().contains("format=json")));
}

/// The stand-in bucket's metadata table (tests/fixtures/external/pmc/cloud/articles.json),
/// read by the test itself: the expected values come from the fixture, not the server.
fn cloud_versions(pmcid: &str) -> Vec<Value> {
    let table: Value = serde_json::from_str(include_str!(
        "../../../fixtures/external/pmc/cloud/articles.json"
    ))
    .unwrap();
    table["versions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["pmcid"] == pmcid)
        .cloned()
        .collect()
}

#[test]
fn oa_service_answers_from_the_cloud_service_and_explains_absent_articles() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let versions = cloud_versions("PMC3531190");
    let newest = versions.last().unwrap();
    let sc = ok(&s, pmc("oa_service", json!({"ids": ["PMC3531190"]})));
    assert_eq!(sc["source"], "pmc_cloud");
    let r = &sc["records"][0];
    assert_eq!(r["open_access"], newest["is_pmc_openaccess"]);
    assert_eq!(r["license"], newest["license_code"]);
    assert_eq!(r["retracted"], newest["is_retracted"]);
    assert_eq!(r["citation"], newest["citation"]);
    assert_eq!(r["version"], newest["version"]);
    let listed: Vec<Value> = versions.iter().map(|v| v["version"].clone()).collect();
    assert_eq!(r["versions"], json!(listed));
    // The metadata's s3:// URL, as a public HTTPS link to the same key.
    let xml = newest["xml_url"].as_str().unwrap();
    let key = xml.strip_prefix("s3://pmc-oa-opendata/").unwrap();
    assert_eq!(r["links"][0]["format"], "xml");
    assert_eq!(
        r["links"][0]["href"],
        format!("https://pmc-oa-opendata.s3.amazonaws.com/{key}")
    );
    // A metadata URL outside the bucket (or climbing out of it) is not followed: the
    // folder's own key is linked instead, and the retraction flag is the metadata's.
    let odd = &cloud_versions("PMC5334499")[0];
    assert!(!odd["xml_url"].as_str().unwrap().contains("pmc-oa-opendata"));
    let sc = ok(&s, pmc("oa_service", json!({"ids": ["5334499"]})));
    let r = &sc["records"][0];
    assert_eq!(r["retracted"], odd["is_retracted"]);
    for l in r["links"].as_array().unwrap() {
        assert!(l["href"]
            .as_str()
            .unwrap()
            .starts_with("https://pmc-oa-opendata.s3.amazonaws.com/PMC5334499.1/"));
    }
    // The requests: one listing by prefix and delimiter, one metadata file; nothing elsewhere.
    let log = log(&replay);
    let cloud: Vec<&Value> = log.iter().filter(|l| l["service"] == "cloud").collect();
    assert!(cloud.iter().any(|l| l["query"]
        .as_str()
        .unwrap()
        .contains("list-type=2&prefix=PMC5334499.&delimiter=%2F")));
    assert!(log
        .iter()
        .all(|l| !l["path"].as_str().unwrap().contains("elsewhere")));
    // An article the bucket has no folder for.
    assert!(cloud_versions("PMC9999991").is_empty());
    let mixed = ok(
        &s,
        pmc("oa_service", json!({"ids": ["PMC3531190", "PMC9999991"]})),
    );
    assert_eq!(mixed["records"][1]["error"]["code"], "notInCloud");
    let e = err(&s, pmc("oa_service", json!({"ids": ["PMC9999991"]})));
    assert_eq!(e["code"], "pmc_not_open_access");
    assert!(e["message"].as_str().unwrap().contains("Cloud Service"));
}

#[test]
fn the_retired_oa_service_says_what_happened_and_what_to_use() {
    let replay = ExternalReplay::start();
    let a = replay.addr.clone();
    // The retired service answers 404 (the stand-in's unknown path stands for it).
    let config = Config::from_lookup(move |k| {
        (k == "PMC_OA_URL").then(|| format!("http://{a}/pmc/utils/oa/retired.fcgi"))
    });
    let s = crate::common::live_server(config);
    let e = err(&s, pmc("oa_service", json!({"from": "2026-09-01"})));
    assert_eq!(e["code"], "pmc_oa_retired");
    assert!(e["message"].as_str().unwrap().contains("August 2026"));
    assert!(e["suggestions"][0].as_str().unwrap().contains("ids"));
}

#[test]
fn citation_export_in_every_format() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let ris = call(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "ris"}),
        ),
    );
    let text = ris["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("TY  - JOUR") && text.contains("ER  -"),
        "{text}"
    );
    assert_eq!(ris["structuredContent"]["database"], "pubmed");
    let nbib = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "nbib"}),
        ),
    );
    assert!(nbib["citations"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("PMID- 23193287"));
    let csl = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287"], "format": "csl"}),
        ),
    );
    assert_eq!(csl["citations"][0]["csl"][0]["DOI"], "10.1093/nar/gks1195");
    let cit = ok(&s, pmc("citation_export", json!({"ids": ["PMC3531190"]})));
    assert_eq!(cit["database"], "pmc");
    assert_eq!(cit["format"], "citation");
    assert!(cit["citations"][0]["styles"]["apa"]
        .as_str()
        .unwrap()
        .contains("(2013)"));
    let bib = ok(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["23193287", "99999999"], "format": "bibtex"}),
        ),
    );
    assert_eq!(bib["exported"], 1);
    let entry = bib["citations"][0]["text"].as_str().unwrap();
    assert!(
        entry.starts_with("@article{ref23193287,") && entry.contains("doi = {10.1093/nar/gks1195}"),
        "{entry}"
    );
    assert!(bib["warnings"][0]
        .as_str()
        .unwrap()
        .starts_with("99999999: not found"));
    let e = err(
        &s,
        pmc(
            "citation_export",
            json!({"ids": ["99999999"], "database": "pubmed"}),
        ),
    );
    assert_eq!(e["code"], "pmc_citation_not_found");
    // Every exporter request named its format and id the documented way.
    for l in log(&replay) {
        let q = l["query"].as_str().unwrap();
        assert!(q.starts_with("format=") && q.contains("&id="), "{q}");
    }
}

#[test]
fn pmc_429s_are_retried() {
    let replay = ExternalReplay::start();
    replay.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "idconv", "status": 429, "count": 1}"#,
    );
    let s = server(&replay);
    let sc = ok(&s, pmc("id_convert", json!({"ids": ["23193287"]})));
    assert_eq!(sc["converted"], 1);
    assert!(
        sc["warnings"][0]
            .as_str()
            .unwrap()
            .contains("retried after HTTP 429"),
        "{sc}"
    );
}

#[test]
fn pmc_services_pace_in_their_own_bucket() {
    use scripted::*;
    let clock = Arc::new(Clock::default());
    let script = Arc::new(Script {
        clock,
        reply: Box::new(|_| {
            json_reply(
                200,
                None,
                json!({"status": "ok", "records": [{"requested-id": "1", "pmcid": "PMC1", "pmid": "1"}]}),
            )
        }),
        sent: Default::default(),
    });
    let pacer = Arc::new(CountingPacer::default());
    let s = scripted::server(script, pacer.clone());
    ok(&s, pmc("id_convert", json!({"ids": ["1"]})));
    assert_eq!(*pacer.0.lock().unwrap(), vec!["pmc".to_string()]);
}

#[test]
fn pmc_listings_formats_and_full_text() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    // The OA service's identification, then a date listing paged by its resumption token.
    let ident = ok(&s, pmc("oa_service", json!({})));
    assert_eq!(ident["identification"]["formats"], json!(["tgz", "pdf"]));
    let first = call(
        &s,
        pmc(
            "oa_service",
            json!({"from": "2013-01-01", "until": "2017-12-31"}),
        ),
    );
    assert_eq!(first["isError"], false, "{first}");
    let sc = &first["structuredContent"];
    assert_eq!(sc["count"], 1);
    assert_eq!(sc["total"], 2);
    let token = sc["resumption_token"].as_str().unwrap().to_string();
    assert!(
        sc["call_warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "results_capped"),
        "{sc}"
    );
    assert!(log(&replay).iter().any(|l| l["query"]
        .as_str()
        .unwrap_or("")
        .contains("from=2013-01-01&until=2017-12-31")));
    let second = ok(&s, pmc("oa_service", json!({"resumption_token": token})));
    assert_eq!(second["count"], 1);
    assert!(second.get("resumption_token").is_none(), "{second}");
    assert_ne!(second["records"][0]["id"], sc["records"][0]["id"]);
    // The ID Converter's own XML, as the service writes it.
    let xml = ok(
        &s,
        pmc(
            "id_convert",
            json!({"ids": ["PMC3531190"], "idtype": "pmcid", "format": "xml", "versions": false}),
        ),
    );
    assert!(
        xml["text"].as_str().unwrap().contains("pmid=\"23193287\""),
        "{xml}"
    );
    assert!(log(&replay).iter().any(|l| l["query"]
        .as_str()
        .unwrap_or("")
        .contains("versions=no&format=xml")));
    // BioC: passages by section, XML as text, and an article outside the OA subset named.
    let bioc = ok(
        &s,
        pmc("bioc", json!({"ids": ["PMC3531190", "PMC9999991"]})),
    );
    assert_eq!(bioc["found"], 1);
    let passages = bioc["articles"][0]["passages"].as_array().unwrap();
    assert_eq!(passages[1]["section"], "ABSTRACT");
    assert!(bioc["warnings"][0].as_str().unwrap().contains("PMC9999991"));
    assert!(log(&replay)
        .iter()
        .any(|l| l["path"] == "/research/bionlp/RESTful/pmcoa.cgi/BioC_json/PMC3531190/unicode"));
    let as_xml = ok(
        &s,
        pmc(
            "bioc",
            json!({"ids": ["23193287"], "format": "xml", "encoding": "ascii"}),
        ),
    );
    assert!(as_xml["articles"][0]["xml"]
        .as_str()
        .unwrap()
        .contains("<collection>"));
    let none = err(&s, pmc("bioc", json!({"ids": ["PMC9999991"]})));
    assert_eq!(none["code"], "pmc_bioc_not_found");
}
