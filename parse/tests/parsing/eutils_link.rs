//! ELink parsers against recorded NCBI replies for each cmd, XML and JSON.
//!
//! neighbor_score and neighbor_history have no recording; their documents are
//! written inline from the elink DTD's documented shape.

use entrez_mcp_parse::elink::{parse_elink_json, parse_elink_xml, ElinkResult, LinkSetDb};

macro_rules! fixture {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/ncbi/",
            $path
        ))
    };
}

fn parse(bytes: &[u8]) -> ElinkResult {
    let r = parse_elink_xml(bytes).unwrap();
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    r
}

fn db<'a>(r: &'a ElinkResult, linkname: &str) -> &'a LinkSetDb {
    r.linksets[0]
        .linksetdbs
        .iter()
        .find(|d| d.linkname == linkname)
        .unwrap_or_else(|| panic!("no {linkname}"))
}

fn ids(d: &LinkSetDb) -> Vec<&str> {
    d.links.iter().map(|l| l.id.as_str()).collect()
}

#[test]
fn elink1_neighbor_link_names_and_ids() {
    let r = parse(fixture!("eutils/elink1.xml"));
    assert_eq!(r.linksets.len(), 1);
    let set = &r.linksets[0];
    assert_eq!(set.dbfrom, "pubmed");
    assert_eq!(set.ids, ["9298984"]);
    let names: Vec<&str> = set.linksetdbs.iter().map(|d| d.linkname.as_str()).collect();
    assert_eq!(
        names,
        [
            "pubmed_pubmed",
            "pubmed_pubmed_citedin",
            "pubmed_pubmed_combined",
            "pubmed_pubmed_five",
            "pubmed_pubmed_refs",
            "pubmed_pubmed_reviews",
            "pubmed_pubmed_reviews_five"
        ]
    );
    let similar = db(&r, "pubmed_pubmed");
    assert_eq!(similar.dbto, "pubmed");
    assert_eq!(similar.links.len(), 101);
    assert_eq!(&ids(similar)[..3], ["9298984", "8794856", "9700164"]);
    assert_eq!(ids(similar).last(), Some(&"17333235"));
    assert!(similar.links.iter().all(|l| l.score.is_none()));
    assert_eq!(
        &ids(db(&r, "pubmed_pubmed_citedin"))[..2],
        ["38830800", "38188366"]
    );
    assert_eq!(db(&r, "pubmed_pubmed_refs").links.len(), 56);
    assert_eq!(ids(db(&r, "pubmed_pubmed_reviews")), ["9298984"]);
}

#[test]
fn elink2_nucleotide_to_protein() {
    let r = parse(fixture!("eutils/elink2.xml"));
    let set = &r.linksets[0];
    assert_eq!(set.dbfrom, "nuccore");
    assert_eq!(set.ids, ["48819", "7140345"]);
    assert_eq!(set.linksetdbs.len(), 1);
    assert_eq!(set.linksetdbs[0].dbto, "protein");
    assert_eq!(set.linksetdbs[0].linkname, "nuccore_protein");
    assert_eq!(ids(&set.linksetdbs[0]), ["48820"]);
}

#[test]
fn elink3_date_limited_neighbors() {
    let r = parse(fixture!("eutils/elink3.xml"));
    assert_eq!(r.linksets[0].ids, ["11812492", "11774222"]);
    let similar = db(&r, "pubmed_pubmed");
    assert_eq!(similar.links.len(), 284);
    assert_eq!(similar.links[0].id, "39386366");
    assert_eq!(similar.links.last().unwrap().id, "9274032");
    assert_eq!(
        ids(db(&r, "pubmed_pubmed_citedin")),
        ["18508935", "15780005", "15024419"]
    );
    assert_eq!(db(&r, "pubmed_pubmed_reviews").links.len(), 282);
}

#[test]
fn elink4_term_limited_neighbors() {
    let r = parse(fixture!("eutils/elink4.xml"));
    assert_eq!(r.linksets[0].ids, ["12242737"]);
    let similar = db(&r, "pubmed_pubmed");
    assert_eq!(similar.links.len(), 156);
    assert_eq!(&ids(similar)[..2], ["38997184", "37474462"]);
    assert_eq!(ids(similar).last(), Some(&"13808134"));
    assert_eq!(db(&r, "pubmed_pubmed_citedin").links.len(), 6);
}

#[test]
fn elink5_prlinks_url_and_provider() {
    let r = parse(fixture!("eutils/elink5.xml"));
    let set = &r.linksets[0];
    assert!(set.linksetdbs.is_empty());
    assert_eq!(set.id_url_list.len(), 1);
    let u = &set.id_url_list[0];
    assert_eq!(u.id, "10611131");
    assert_eq!(u.urls.len(), 1);
    let o = &u.urls[0];
    assert_eq!(
        o.url,
        "https://academic.oup.com/brain/article-lookup/doi/10.1093/brain/123.1.171"
    );
    assert_eq!(o.provider_name, "Silverchair Information Systems");
    assert_eq!(o.provider_abbr, "silverchair");
    assert_eq!(o.provider_id.as_deref(), Some("7898"));
    assert_eq!(o.category, ["Full Text Sources"]);
    assert_eq!(o.attribute, ["subscription/membership/fee required"]);
    assert_eq!(o.link_name, None);
}

#[test]
fn elink6_llinks_several_providers_per_id() {
    let r = parse(fixture!("eutils/elink6.xml"));
    let list = &r.linksets[0].id_url_list;
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].id, "12085856");
    assert_eq!(
        list[0].urls[0].url,
        "https://medlineplus.gov/coronaryarterybypasssurgery.html"
    );
    assert_eq!(
        list[0].urls[0].link_name.as_deref(),
        Some("Coronary Artery Bypass Surgery")
    );
    assert_eq!(list[0].urls[0].provider_abbr, "MEDPLUS");
    assert_eq!(list[1].id, "12085853");
    assert_eq!(list[1].urls.len(), 2);
    let second = &list[1].urls[1];
    // The provider's own Id (10405) must not be taken for the resource's URL or the source id.
    assert_eq!(
        second.url,
        "https://medlineplus.gov/exerciseandphysicalfitness.html"
    );
    assert_eq!(
        second.provider_name,
        "MedlinePlus Consumer Health Information"
    );
    assert_eq!(second.provider_abbr, "medlineplus2");
    assert_eq!(second.provider_id.as_deref(), Some("10405"));
    assert_eq!(second.category, ["Medical"]);
    assert_eq!(second.attribute, ["free resource"]);
}

#[test]
fn elink7_acheck_link_info_per_id() {
    let r = parse(fixture!("eutils/elink7.xml"));
    let checks = &r.linksets[0].id_check_list;
    assert_eq!(checks.len(), 2);
    assert_eq!(checks[0].id, "12169658");
    assert_eq!(checks[1].id, "11748140");
    assert_eq!(checks[0].link_info.len() + checks[1].link_info.len(), 31);
    let first = &checks[0].link_info[0];
    assert_eq!(first.dbto, "books");
    assert_eq!(first.linkname, "pubmed_books_refs");
    assert_eq!(first.menu_tag.as_deref(), Some("Cited in Books"));
    assert_eq!(first.html_tag.as_deref(), Some("Cited in Books"));
    assert_eq!(first.priority, Some(185));
    let linkout = checks[0].link_info.last().unwrap();
    assert_eq!(
        (linkout.dbto.as_str(), linkout.linkname.as_str()),
        ("LinkOut", "ExternalLink")
    );
    assert_eq!(linkout.priority, Some(255));
    assert!(!checks[1]
        .link_info
        .iter()
        .any(|l| l.linkname == "pubmed_cdd"));
}

#[test]
fn elink8_ncheck_has_neighbor() {
    let r = parse(fixture!("eutils/elink8.xml"));
    let checks = &r.linksets[0].id_check_list;
    assert_eq!(checks.len(), 1);
    assert_eq!(checks[0].id, "12068369");
    assert_eq!(checks[0].has_neighbor, Some(true));
    assert_eq!(checks[0].has_linkout, None);
}

#[test]
fn neighbor_score_keeps_scores() {
    let body = b"<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>9298984</Id></IdList>\
<LinkSetDb><DbTo>pubmed</DbTo><LinkName>pubmed_pubmed</LinkName>\
<Link><Id>9298984</Id><Score>2147483647</Score></Link>\
<Link><Id>8794856</Id><Score>65294286</Score></Link></LinkSetDb></LinkSet></eLinkResult>";
    let r = parse(body);
    let links = &r.linksets[0].linksetdbs[0].links;
    assert_eq!(links[0].score, Some(2_147_483_647));
    assert_eq!(links[1].id, "8794856");
    assert_eq!(links[1].score, Some(65_294_286));
}

#[test]
fn neighbor_history_keeps_webenv_and_query_keys() {
    let body = b"<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><IdList><Id>9298984</Id></IdList>\
<LinkSetDbHistory><DbTo>pubmed</DbTo><LinkName>pubmed_pubmed</LinkName><QueryKey>1</QueryKey></LinkSetDbHistory>\
<LinkSetDbHistory><DbTo>pubmed</DbTo><LinkName>pubmed_pubmed_citedin</LinkName><QueryKey>2</QueryKey></LinkSetDbHistory>\
<WebEnv>MCID_0123abcd</WebEnv></LinkSet></eLinkResult>";
    let r = parse(body);
    let set = &r.linksets[0];
    assert_eq!(set.webenv.as_deref(), Some("MCID_0123abcd"));
    assert_eq!(set.history.len(), 2);
    assert_eq!(set.history[1].linkname, "pubmed_pubmed_citedin");
    assert_eq!(set.history[1].query_key, "2");
}

#[test]
fn linkset_error_is_collected_not_fatal() {
    let body = b"<eLinkResult><LinkSet><DbFrom>pubmed</DbFrom><ERROR>Invalid linkname: pubmed_nothing</ERROR></LinkSet></eLinkResult>";
    let r = parse_elink_xml(body).unwrap();
    assert_eq!(r.errors, ["Invalid linkname: pubmed_nothing"]);
    assert_eq!(r.linksets[0].dbfrom, "pubmed");
}

#[test]
fn elink_json_gene_to_nuccore() {
    let r = parse_elink_json(fixture!("json/elink_gene_nuccore.json")).unwrap();
    assert!(r.errors.is_empty());
    let set = &r.linksets[0];
    assert_eq!(set.dbfrom, "gene");
    assert_eq!(set.ids, ["118502329"]);
    assert_eq!(set.linksetdbs.len(), 3);
    assert_eq!(set.linksetdbs[0].linkname, "gene_nuccore");
    assert_eq!(set.linksetdbs[0].dbto, "nuccore");
    assert_eq!(ids(&set.linksetdbs[0]), ["1899688395", "1896832511"]);
    assert_eq!(set.linksetdbs[1].linkname, "gene_nuccore_pos");
    assert_eq!(ids(&set.linksetdbs[1]), ["1896832511"]);
    assert_eq!(ids(&set.linksetdbs[2]), ["1899688395"]);
}

#[test]
fn elink_json_scores_history_and_linkout() {
    let body = br#"{"header":{"type":"elink","version":"0.3"},"linksets":[
      {"dbfrom":"pubmed","ids":["9298984"],
       "linksetdbs":[{"dbto":"pubmed","linkname":"pubmed_pubmed","links":[{"id":"9298984","score":"2147483647"},{"id":"8794856","score":65294286}]}],
       "linksetdbhistories":[{"dbto":"pubmed","linkname":"pubmed_pubmed_citedin","querykey":"1"}],
       "webenv":"MCID_abc"},
      {"dbfrom":"pubmed","idurllist":[{"id":"10611131","objurls":[{"url":{"value":"https://example.org/a"},"categories":["Full Text Sources"],"attributes":["free resource"],"provider":{"name":"Example Provider","nameabbr":"EX","id":"1"}}]}]},
      {"dbfrom":"pubmed","idchecklist":{"ids":[{"value":"12068369","hasneighbor":"Y"}]}}]}"#;
    let r = parse_elink_json(body).unwrap();
    let links = &r.linksets[0].linksetdbs[0].links;
    assert_eq!(links[0].score, Some(2_147_483_647));
    assert_eq!(links[1].score, Some(65_294_286));
    assert_eq!(r.linksets[0].history[0].query_key, "1");
    assert_eq!(r.linksets[0].webenv.as_deref(), Some("MCID_abc"));
    let o = &r.linksets[1].id_url_list[0].urls[0];
    assert_eq!(o.url, "https://example.org/a");
    assert_eq!(o.provider_abbr, "EX");
    assert_eq!(o.category, ["Full Text Sources"]);
    let c = &r.linksets[2].id_check_list[0];
    assert_eq!((c.id.as_str(), c.has_neighbor), ("12068369", Some(true)));
}
