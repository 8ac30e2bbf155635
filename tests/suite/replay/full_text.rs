//! entrez_external `full_text` end to end: the ID Converter, PMC's Cloud Service, efetch and
//! BioC stand-ins (external-replay and ncbi-replay, in process). Expected values are read
//! by the test from the fixtures the stand-ins serve, never from the server's answer.

use crate::common::external_replay::ExternalReplay;
use crate::common::replay::Replay;
use crate::common::*;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::protocol::Server;
use serde_json::{json, Value};

const JATS: &str = include_str!("../../fixtures/external/pmc/cloud/PMC3531190.xml");
const RECORDED_PMC: &str = include_str!("../../fixtures/ncbi/eutils/efetch_pmc.xml");
const PUBMED1: &str = include_str!("../../fixtures/ncbi/eutils/pubmed1.xml");

fn server(ncbi: &Replay, external: &ExternalReplay) -> Server {
    server_with(ncbi, external, None)
}

/// With `subrequests`, the upstream requests one call may make (`ENTREZ_SUBREQUESTS`).
fn server_with(ncbi: &Replay, external: &ExternalReplay, subrequests: Option<u64>) -> Server {
    let eutils = ncbi.eutils_base();
    let env: Vec<(String, Option<String>)> = ["PMC_IDCONV_URL", "PMC_CLOUD_URL", "PMC_BIOC_URL"]
        .iter()
        .map(|k| (k.to_string(), external.env(k)))
        .collect();
    let mut config = Config::from_lookup(move |k| match k {
        "NCBI_EMAIL" => Some("tests@example.org".into()),
        "EUTILS_BASE_URL" => Some(eutils.clone()),
        _ => env
            .iter()
            .find(|(name, _)| name == k)
            .and_then(|(_, v)| v.clone()),
    });
    if let Some(n) = subrequests {
        config.allowance.subrequests = n;
    }
    // Without a store: what a call may spend is the server's setting, not the store's.
    crate::common::live_server(config)
}

fn full_text(s: &Server, extra: Value) -> Value {
    let mut args = json!({"service": "pmc", "operation": "full_text"});
    for (k, v) in extra.as_object().unwrap() {
        args[k] = v.clone();
    }
    // call_tool checks the result against the outputSchema.
    let r = call_tool(s, "entrez_external", args.clone());
    assert_eq!(r["isError"], false, "{args} → {r}");
    r
}

/// The texts of every `<tag>…</tag>` in `xml`, tags inside stripped, whitespace collapsed.
fn texts(xml: &str, tag: &str) -> Vec<String> {
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        if !after.starts_with(['>', ' ']) {
            rest = after;
            continue;
        }
        let start = after.find('>').unwrap() + 1;
        let end = after.find(&close).unwrap();
        let mut plain = String::new();
        let mut inside = false;
        for c in after[start..end].chars() {
            match c {
                '<' => inside = true,
                '>' => inside = false,
                c if !inside => plain.push(c),
                _ => {}
            }
        }
        out.push(decode(
            &plain.split_whitespace().collect::<Vec<_>>().join(" "),
        ));
        rest = &after[end..];
    }
    out
}

/// XML's character references and the five named entities.
fn decode(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find(';').unwrap() + i;
        let name = &rest[i + 1..end];
        out.push(match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            n if n.starts_with("#x") => {
                char::from_u32(u32::from_str_radix(&n[2..], 16).unwrap()).unwrap()
            }
            n => char::from_u32(n[1..].parse().unwrap()).unwrap(),
        });
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn between<'a>(xml: &'a str, from: &str, to: &str) -> &'a str {
    let i = xml.find(from).unwrap();
    let j = xml[i..].find(to).unwrap() + i;
    &xml[i..j]
}

#[test]
fn a_pmid_a_pmcid_and_a_doi_come_back_as_sectioned_full_text_from_the_cloud() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let body = between(JATS, "<body>", "</body>");
    // The headings in document order, as the fixture has them (section titles, not captions).
    let headings: Vec<String> = texts(body, "title")
        .into_iter()
        .filter(|t| t != "Illustrative hazard ratios")
        .collect();
    let r = full_text(
        &s,
        json!({"ids": ["23193287", "PMC5334499", "10.1093/nar/gks1195"]}),
    );
    let sc = &r["structuredContent"];
    assert_eq!(sc["count"], 3);
    let a = &sc["articles"][0];
    assert_eq!(a["source"], "pmc_cloud");
    assert_eq!(a["pmcid"], "PMC3531190");
    assert_eq!(a["full_text"], true);
    assert_eq!(a["license"], "CC BY-NC");
    assert_eq!(a["retracted"], false);
    let got: Vec<&str> = a["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["heading"].as_str().unwrap())
        .collect();
    assert_eq!(got, headings);
    // Heading paths: a subsection under its parent.
    assert!(a["sections"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["path"] == format!("{} > {}", headings[1], headings[2])));
    // The abstract, the table's rows and the captions, as the fixture writes them.
    assert_eq!(
        a["abstract"],
        texts(between(JATS, "<abstract>", "</abstract>"), "p")[0]
    );
    let table = a["floats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "table")
        .unwrap();
    let rows: Vec<String> = texts(between(JATS, "<table>", "</table>"), "tr")
        .iter()
        .zip(between(JATS, "<table>", "</table>").split("</tr>"))
        .map(|(_, tr)| {
            let mut cells = texts(tr, "th");
            cells.extend(texts(tr, "td"));
            cells.join(" | ")
        })
        .collect();
    assert_eq!(table["rows"], json!(rows));
    assert_eq!(
        table["label"],
        texts(between(JATS, "<table-wrap", "</table-wrap>"), "label")[0]
    );
    // Back matter: acknowledgements and the funding statement.
    let back: Vec<&str> = a["back"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert!(back.contains(&texts(JATS, "ack")[0].as_str()), "{back:?}");
    assert!(back.contains(&texts(JATS, "funding-statement")[0].as_str()));
    // The PMCID, from the cloud stand-in's own JATS; its metadata marks it retracted.
    let b = &sc["articles"][1];
    assert_eq!(b["source"], "pmc_cloud");
    let jats = include_str!("../../fixtures/external/pmc/cloud/PMC5334499.xml");
    assert_eq!(
        b["sections"][0]["text"],
        texts(between(jats, "<body>", "</body>"), "p")[0]
    );
    assert_eq!(b["retracted"], true);
    // The DOI: the same article as the PMID.
    let c = &sc["articles"][2];
    assert_eq!(c["pmcid"], "PMC3531190");
    assert_eq!(c["source"], "pmc_cloud");
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(text.contains(&format!("## {} > {}", headings[1], headings[2])));
}

#[test]
fn sections_filter_by_heading_and_a_budget_cut_names_the_rest() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let r = full_text(&s, json!({"ids": ["PMC3531190"], "sections": ["methods"]}));
    let a = &r["structuredContent"]["articles"][0];
    let paths: Vec<&str> = a["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    // Every section under the fixture's methods heading, and nothing else.
    let methods = texts(
        between(JATS, "sec-type=\"materials|methods\"", "</sec>"),
        "title",
    )[0]
    .clone();
    assert!(!paths.is_empty());
    assert!(paths.iter().all(|p| p.starts_with(&methods)), "{paths:?}");
    assert!(a["abstract"].is_null());
    assert!(a["sections_left_out"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == "Results"));
    // The smallest budget: the article is cut, and the cut names the parts and the call.
    let r = full_text(&s, json!({"ids": ["PMC3531190"], "max_characters": 2000}));
    let a = &r["structuredContent"]["articles"][0];
    assert_eq!(a["cut"], true, "{a}");
    let left = a["parts_left_out"].as_array().unwrap();
    assert!(!left.is_empty());
    assert_eq!(a["next_call"]["arguments"]["ids"], json!(["PMC3531190"]));
    assert!(!a["next_call"]["arguments"]["sections"]
        .as_array()
        .unwrap()
        .is_empty());
    assert!(r["content"][0]["text"].as_str().unwrap().chars().count() <= 2000);
}

#[test]
fn an_article_without_open_full_text_answers_its_abstract_and_says_why() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    // A PMID with no PMC copy (the ID Converter's table has none), recorded in PubMed.
    let article = PUBMED1
        .split("<PubmedArticle>")
        .find(|a| a.contains("<PMID Version=\"1\">9997</PMID>"))
        .unwrap();
    let abstract_text = texts(article, "AbstractText")[0].clone();
    let r = full_text(&s, json!({"ids": ["9997"]}));
    let a = &r["structuredContent"]["articles"][0];
    assert_eq!(a["full_text"], false);
    assert_eq!(a["source"], "pubmed_abstract");
    assert_eq!(a["abstract"], abstract_text);
    assert!(a["reason"].as_str().unwrap().contains("not in PMC"));
    // In PMC but not in the bucket, and no other source has its body: not open.
    let r = full_text(&s, json!({"ids": ["PMC9999991"]}));
    let a = &r["structuredContent"]["articles"][0];
    assert_eq!(a["full_text"], false);
    assert!(a["reason"].as_str().unwrap().contains("not open"), "{a}");
}

#[test]
fn detail_brief_gives_headings_and_sizes_and_fields_pick_the_keys() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let r = full_text(&s, json!({"ids": ["PMC3531190"], "detail": "brief"}));
    let a = &r["structuredContent"]["articles"][0];
    let intro = texts(between(JATS, "<sec id=\"s1\">", "</sec>"), "p")[0].clone();
    let first = &a["sections"][0];
    assert!(first.get("text").is_none(), "{first}");
    assert_eq!(first["characters"], intro.chars().count());
    let r = full_text(&s, json!({"ids": ["PMC3531190"], "fields": ["title"]}));
    let a = &r["structuredContent"]["articles"][0];
    assert_eq!(a["title"], texts(JATS, "article-title")[0]);
    assert!(a.get("sections").is_none(), "{a}");
    assert_eq!(a["source"], "pmc_cloud");
}

#[test]
fn pubmeds_retraction_flag_reaches_every_article() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    // The documented integrity fixture's retracted record (RetractionIn), not in PMC.
    let fixture = include_str!("../../fixtures/ncbi/documented/pubmed_integrity.xml");
    let record = fixture
        .split("<PubmedArticle>")
        .find(|a| a.contains("<PMID Version=\"1\">9500320</PMID>"))
        .unwrap();
    assert!(record.contains("RefType=\"RetractionIn\""));
    let r = full_text(&s, json!({"ids": ["9500320", "PMC3531190"]}));
    let articles = &r["structuredContent"]["articles"];
    assert_eq!(articles[0]["retracted"], true, "{}", articles[0]);
    assert!(articles[0]["integrity"]["flags"]
        .as_array()
        .unwrap()
        .contains(&json!("retracted")));
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("RETRACTED"));
    // The cloud article: PMC's metadata says not retracted, and so does PubMed.
    assert_eq!(articles[1]["retracted"], false);
}

#[test]
fn the_free_plans_subrequests_read_a_few_articles_and_name_the_rest() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    // The Workers Free plan: 50 subrequests a call.
    let s = server_with(&ncbi, &external, Some(50));
    let ids = [
        "PMC3531190",
        "PMC8435807",
        "PMC5334499",
        "23193287",
        "10.1093/nar/gks1195",
        "9997",
    ];
    let r = full_text(&s, json!({"ids": ids}));
    let sc = &r["structuredContent"];
    let read = sc["articles"].as_array().unwrap().len();
    assert!(read < ids.len(), "{read}");
    let budget = &sc["budget"];
    let next = &budget["next_call"]["arguments"];
    assert_eq!(next["operation"], "full_text");
    assert_eq!(next["ids"], json!(ids[read..]), "{budget}");
    let before = external.stats()["log"].as_array().unwrap().len();
    assert!(before <= 50, "{before} requests to the PMC stand-in");
}

#[test]
fn when_the_cloud_has_no_jats_efetch_gives_the_text() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    // PMC8435807's folder is listed, its XML answers 404: efetch db=pmc (the recording) steps in.
    let r = full_text(&s, json!({"ids": ["PMC8435807"]}));
    let a = &r["structuredContent"]["articles"][0];
    assert_eq!(a["source"], "efetch_pmc", "{a}");
    assert_eq!(a["full_text"], true);
    let recorded = texts(between(RECORDED_PMC, "<body>", "</body>"), "p");
    assert_eq!(a["sections"][0]["text"], recorded[0]);
    assert_eq!(a["version"], 1);
    assert!(r["structuredContent"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("404")));
}

#[test]
fn an_embargoed_article_says_until_when() {
    let (ncbi, external) = (Replay::start(), ExternalReplay::start());
    let s = server(&ncbi, &external);
    let table: Value =
        serde_json::from_str(include_str!("../../fixtures/external/pmc/idconv.json")).unwrap();
    let row = table["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["live"] == "false")
        .unwrap();
    let pmid = row["pmid"].to_string();
    let r = full_text(&s, json!({"ids": [pmid]}));
    let a = &r["structuredContent"]["articles"][0];
    assert_eq!(a["full_text"], false);
    let reason = a["reason"].as_str().unwrap();
    assert!(reason.contains("embargoed"), "{reason}");
    assert!(reason.contains(row["release-date"].as_str().unwrap()));
}
