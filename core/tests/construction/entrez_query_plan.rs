//! Request construction for every entrez_query operation: exact method, URL and parameters.

use entrez_mcp_core::entrez::EutilsRequest;
use entrez_mcp_core::net::Method;
use entrez_mcp_core::secret::ApiKey;
use entrez_mcp_core::tools::entrez_query::args::QueryArgs;
use entrez_mcp_core::tools::entrez_query::call::QueryCall;
use entrez_mcp_core::tools::entrez_query::plan;
use entrez_mcp_core::tools::entrez_query::plan::Format;
use serde_json::{json, Value};

/// The one request an operation's canonical arguments plan (global_query aside).
fn planned(args: Value) -> EutilsRequest {
    match QueryCall::of(&QueryArgs::read(&args)).expect("an operation") {
        QueryCall::Info(c) => plan::info(&c),
        QueryCall::Search(c) => plan::search(&c),
        QueryCall::Summary(c) => plan::summary(&c),
        QueryCall::Fetch(c) => plan::fetch(&c),
        QueryCall::Link(c) => plan::link(&c),
        QueryCall::Post(c) => plan::post(&c),
        QueryCall::Spell(c) => plan::spell(&c),
        QueryCall::CitationMatch(c) => plan::citation_match(&c),
        QueryCall::GlobalQuery(_) => panic!("global_query plans one request per database"),
        QueryCall::CountByYear(_) => panic!("count_by_year plans one request per year"),
        QueryCall::CheckReferences(_) => panic!("check_references plans its requests as it goes"),
        QueryCall::Citations(_) => panic!("citations plans its requests in core::citations"),
    }
}

fn fetch_format_of(args: Value) -> Format {
    match QueryCall::of(&QueryArgs::read(&args)) {
        Some(QueryCall::Fetch(c)) => c.format,
        other => panic!("not a fetch: {other:?}"),
    }
}

fn global(args: Value) -> Vec<(String, EutilsRequest)> {
    match QueryCall::of(&QueryArgs::read(&args)) {
        Some(QueryCall::GlobalQuery(c)) => plan::global_query(&c),
        other => panic!("not a global_query: {other:?}"),
    }
}

const BASE: &str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils/";

fn url(req: &EutilsRequest) -> String {
    let call = req.build(BASE, "entrez-mcp", Some("dev@example.org"), None);
    assert_eq!(call.method, Method::Get);
    call.url
}

const ID: &str = "&tool=entrez-mcp&email=dev%40example.org";

#[test]
fn search_carries_every_option_in_order() {
    let req = planned(json!({"operation": "search", "database": "PubMed",
        "term": "asthma[mh] AND child*", "field": "title", "sort": "pub_date",
        "datetype": "pdat", "mindate": "2020/01", "maxdate": "2024", "retstart": 40,
        "retmax": 10, "usehistory": true}));
    assert_eq!(
        url(&req),
        format!("{BASE}esearch.fcgi?db=pubmed&term=asthma%5Bmh%5D%20AND%20child%2A&field=title&sort=pub_date&datetype=pdat&mindate=2020%2F01&maxdate=2024&retstart=40&retmax=10&usehistory=y{ID}")
    );
    let minimal = planned(json!({"operation": "search", "term": "p53"}));
    assert_eq!(
        url(&minimal),
        format!("{BASE}esearch.fcgi?db=pubmed&term=p53&retstart=0&retmax=20{ID}")
    );
    let acc = planned(
        json!({"operation": "search", "database": "protein", "term": "BRCA1", "idtype": "acc", "reldate": 30}),
    );
    assert_eq!(url(&acc), format!("{BASE}esearch.fcgi?db=protein&term=BRCA1&reldate=30&retstart=0&retmax=20&idtype=acc{ID}"));
}

#[test]
fn summary_uses_json_or_docsum_2_0_and_history() {
    let s = planned(json!({"operation": "summary", "ids": ["19304878", 2014248]}));
    assert_eq!(
        url(&s),
        format!("{BASE}esummary.fcgi?db=pubmed&id=19304878%2C2014248&retmode=json{ID}")
    );
    let x = planned(
        json!({"operation": "summary", "database": "gene", "ids": ["672"], "retmode": "xml"}),
    );
    assert_eq!(
        url(&x),
        format!("{BASE}esummary.fcgi?db=gene&id=672&version=2.0{ID}")
    );
    let h =
        planned(json!({"operation": "summary", "webenv": "MCID_abc", "query_key": 1, "retmax": 5}));
    assert_eq!(
        url(&h),
        format!(
            "{BASE}esummary.fcgi?db=pubmed&WebEnv=MCID_abc&query_key=1&retmax=5&retmode=json{ID}"
        )
    );
}

#[test]
fn fetch_picks_the_richest_parsed_format_per_database() {
    let cases = [
        ("pubmed", None, None, Some(None), "xml", Format::PubmedXml),
        (
            "pubmed",
            Some("medline"),
            None,
            Some(Some("medline")),
            "text",
            Format::Medline,
        ),
        ("pmc", None, None, Some(None), "xml", Format::PmcXml),
        (
            "nuccore",
            None,
            None,
            Some(Some("gb")),
            "xml",
            Format::GbseqXml,
        ),
        (
            "protein",
            None,
            None,
            Some(Some("gp")),
            "xml",
            Format::GbseqXml,
        ),
        (
            "protein",
            Some("fasta"),
            None,
            Some(Some("fasta")),
            "xml",
            Format::TinyseqXml,
        ),
        (
            "nuccore",
            Some("fasta"),
            Some("text"),
            Some(Some("fasta")),
            "text",
            Format::Fasta,
        ),
        (
            "nuccore",
            Some("gb"),
            Some("text"),
            Some(Some("gb")),
            "text",
            Format::FlatFile,
        ),
        (
            "protein",
            Some("ipg"),
            None,
            Some(Some("ipg")),
            "xml",
            Format::IpgXml,
        ),
        (
            "taxonomy",
            None,
            None,
            Some(None),
            "xml",
            Format::TaxonomyXml,
        ),
        ("gene", None, None, Some(None), "xml", Format::GenericXml),
        (
            "gene",
            Some("gene_table"),
            None,
            Some(Some("gene_table")),
            "text",
            Format::Raw,
        ),
    ];
    for (db, rettype, retmode, want_type, want_mode, want_format) in cases {
        let (t, m, f) = plan::fetch_format(db, rettype, retmode);
        assert_eq!(Some(t.as_deref()), want_type, "{db} {rettype:?}");
        assert_eq!(m, want_mode, "{db} {rettype:?}");
        assert_eq!(f, want_format, "{db} {rettype:?}");
    }
    let args = json!({"operation": "fetch", "database": "protein", "ids": ["NP_000537.3"]});
    assert_eq!(fetch_format_of(args.clone()), Format::GbseqXml);
    let req = planned(args);
    assert_eq!(
        url(&req),
        format!("{BASE}efetch.fcgi?db=protein&id=NP_000537.3&rettype=gp&retmode=xml{ID}")
    );
    let h = planned(json!({"operation": "fetch", "webenv": "W", "query_key": 2, "retmax": 5000}));
    assert_eq!(
        url(&h),
        format!("{BASE}efetch.fcgi?db=pubmed&WebEnv=W&query_key=2&retmode=xml&retmax=500{ID}")
    );
}

#[test]
fn link_commands_shape_the_request() {
    let n = planned(json!({"operation": "link", "ids": ["19304878"], "cmd": "neighbor_score"}));
    assert_eq!(
        url(&n),
        format!("{BASE}elink.fcgi?dbfrom=pubmed&db=pubmed&cmd=neighbor_score&id=19304878{ID}")
    );
    let p = planned(
        json!({"operation": "link", "ids": ["19304878"], "cmd": "prlinks", "database": "pmc"}),
    );
    assert_eq!(
        url(&p),
        format!("{BASE}elink.fcgi?dbfrom=pubmed&db=pmc&cmd=prlinks&id=19304878{ID}")
    );
    let g = planned(
        json!({"operation": "link", "dbfrom": "gene", "database": "nuccore", "ids": ["672"], "linkname": "gene_nuccore_refseqrna"}),
    );
    assert_eq!(url(&g), format!("{BASE}elink.fcgi?dbfrom=gene&db=nuccore&cmd=neighbor&linkname=gene_nuccore_refseqrna&id=672{ID}"));
}

#[test]
fn post_spell_info_and_citation_match() {
    assert_eq!(
        url(&planned(json!({"operation": "post", "ids": ["1", "2"]}))),
        format!("{BASE}epost.fcgi?db=pubmed&id=1%2C2{ID}")
    );
    assert_eq!(
        url(&planned(json!({"operation": "spell", "term": "asthmaa"}))),
        format!("{BASE}espell.fcgi?db=pubmed&term=asthmaa{ID}")
    );
    assert_eq!(
        url(&planned(json!({"operation": "info"}))),
        format!("{BASE}einfo.fcgi?tool=entrez-mcp&email=dev%40example.org")
    );
    assert_eq!(
        url(&planned(json!({"operation": "info", "database": "PubMed"}))),
        format!("{BASE}einfo.fcgi?db=pubmed&version=2.0{ID}")
    );
    let c = planned(json!({"operation": "citation_match", "citations": [
        {"journal": "proc natl acad sci u s a", "year": 1991, "volume": 88, "first_page": 3248, "author": "mann bj", "key": "Art1"},
        {"journal": "science", "year": "1987", "volume": "235", "first_page": "182", "author": "palmenberg ac"}
    ]}));
    assert_eq!(
        url(&c),
        format!("{BASE}ecitmatch.cgi?db=pubmed&retmode=xml&bdata=proc%20natl%20acad%20sci%20u%20s%20a%7C1991%7C88%7C3248%7Cmann%20bj%7CArt1%7C%0Dscience%7C1987%7C235%7C182%7Cpalmenberg%20ac%7Ccit2%7C{ID}")
    );
}

#[test]
fn global_query_is_a_count_search_per_database() {
    let plans = global(
        json!({"operation": "global_query", "term": "BRCA1", "databases": ["PubMed", "gene"]}),
    );
    let urls: Vec<(String, String)> = plans.iter().map(|(db, r)| (db.clone(), url(r))).collect();
    assert_eq!(
        urls,
        vec![
            (
                "pubmed".to_string(),
                format!("{BASE}esearch.fcgi?db=pubmed&term=BRCA1&rettype=count{ID}")
            ),
            (
                "gene".to_string(),
                format!("{BASE}esearch.fcgi?db=gene&term=BRCA1&rettype=count{ID}")
            ),
        ]
    );
    assert_eq!(
        global(json!({"operation": "global_query", "term": "x"})).len(),
        entrez_mcp_core::entrez::databases::GLOBAL_QUERY.len()
    );
}

#[test]
fn count_by_year_is_a_count_search_per_year() {
    let call = match QueryCall::of(&QueryArgs::read(&json!(
        {"operation": "count_by_year", "term": "crispr[tiab]", "mindate": "2019", "maxdate": "2021"}
    ))) {
        Some(QueryCall::CountByYear(c)) => c,
        other => panic!("{other:?}"),
    };
    let urls: Vec<(u32, String)> = plan::count_by_year(&call)
        .iter()
        .map(|(y, r)| (*y, url(r)))
        .collect();
    let want = |y: u32| {
        (
            y,
            format!("{BASE}esearch.fcgi?db=pubmed&term=%28crispr%5Btiab%5D%29%20AND%20{y}%5Bpdat%5D&rettype=count{ID}"),
        )
    };
    assert_eq!(urls, vec![want(2019), want(2020), want(2021)]);
    // Years only; anything else plans nothing (validation refuses it first).
    let call = match QueryCall::of(&QueryArgs::read(&json!(
        {"operation": "count_by_year", "term": "x", "mindate": "2019/01", "maxdate": "2021"}
    ))) {
        Some(QueryCall::CountByYear(c)) => c,
        other => panic!("{other:?}"),
    };
    assert!(plan::count_by_year(&call).is_empty());
}

#[test]
fn api_key_goes_on_the_wire_only() {
    let req = planned(json!({"operation": "search", "term": "x"}));
    let call = req.build(BASE, "entrez-mcp", None, Some(&ApiKey::new("abcdef0123")));
    assert!(call.url.ends_with("&tool=entrez-mcp&api_key=abcdef0123"));
    assert!(!format!("{call:?}").contains("abcdef0123"));
}

#[test]
fn link_checks_send_the_database_when_given() {
    // NBK25499's ELink example: all links from two protein GIs to PubMed.
    let a = planned(
        json!({"operation": "link", "dbfrom": "protein", "database": "pubmed",
        "cmd": "acheck", "ids": ["15718680", "157427902"]}),
    );
    assert_eq!(
        url(&a),
        format!("{BASE}elink.fcgi?dbfrom=protein&db=pubmed&cmd=acheck&id=15718680%2C157427902{ID}")
    );
    let plain = planned(
        json!({"operation": "link", "dbfrom": "protein", "cmd": "acheck", "ids": ["15718680"]}),
    );
    assert!(!url(&plain).contains("&db="), "{}", url(&plain));
}

#[test]
fn fetch_sends_a_sequence_region_as_documented() {
    // NBK25499's example: the plus strand of bases 1-100 of a nucleotide record, as FASTA.
    let r = planned(
        json!({"operation": "fetch", "database": "nuccore", "ids": ["21614549"],
        "rettype": "fasta", "retmode": "text", "seq_start": 1, "seq_stop": 100, "strand": 1}),
    );
    assert_eq!(
        url(&r),
        format!("{BASE}efetch.fcgi?db=nuccore&id=21614549&rettype=fasta&retmode=text&seq_start=1&seq_stop=100&strand=1{ID}")
    );
    let c = planned(
        json!({"operation": "fetch", "database": "protein", "ids": ["NP_000537.3"],
        "complexity": 1}),
    );
    assert!(
        url(&c).contains("&retmode=xml&complexity=1&"),
        "{}",
        url(&c)
    );
    // PubMed has no sequence: the region is not sent.
    let p = planned(
        json!({"operation": "fetch", "database": "pubmed", "ids": ["19304878"], "seq_start": 5}),
    );
    assert!(!url(&p).contains("seq_start"), "{}", url(&p));
}

#[test]
fn search_joins_an_existing_history_with_webenv_alone() {
    let r = planned(
        json!({"operation": "search", "term": "#1 AND asthma", "webenv": "MCID_1", "usehistory": true}),
    );
    assert_eq!(
        url(&r),
        format!("{BASE}esearch.fcgi?db=pubmed&term=%231%20AND%20asthma&WebEnv=MCID_1&retstart=0&retmax=20&usehistory=y{ID}")
    );
}

#[test]
fn post_adds_ids_to_an_existing_history_with_webenv() {
    let r = planned(
        json!({"operation": "post", "database": "pubmed", "ids": ["11237011", "12466850"], "webenv": "MCID_1"}),
    );
    assert_eq!(
        url(&r),
        format!("{BASE}epost.fcgi?db=pubmed&id=11237011%2C12466850&WebEnv=MCID_1{ID}")
    );
}

#[test]
fn einfo_and_esummary_send_the_version_and_reply_form_asked_for() {
    // NBK25499, EInfo: einfo.fcgi?db=protein&version=2.0, and JSON by retmode.
    let v2 = planned(json!({"operation": "info", "database": "protein", "version": "2.0"}));
    assert_eq!(
        url(&v2),
        format!("{BASE}einfo.fcgi?db=protein&version=2.0{ID}")
    );
    let v1 = planned(json!({"operation": "info", "database": "protein", "version": "1.0"}));
    assert_eq!(url(&v1), format!("{BASE}einfo.fcgi?db=protein{ID}"));
    let json = planned(json!({"operation": "info", "database": "pubmed", "retmode": "json"}));
    assert_eq!(
        url(&json),
        format!("{BASE}einfo.fcgi?db=pubmed&retmode=json{ID}")
    );
    let all = planned(json!({"operation": "info", "retmode": "json"}));
    assert_eq!(url(&all), format!("{BASE}einfo.fcgi?retmode=json{ID}"));
    let docsum1 = planned(
        json!({"operation": "summary", "database": "protein", "ids": ["15718680"], "retmode": "xml", "version": "1.0"}),
    );
    assert_eq!(
        url(&docsum1),
        format!("{BASE}esummary.fcgi?db=protein&id=15718680{ID}")
    );
}

#[test]
fn esearch_sends_its_rettype_and_json() {
    let count = planned(
        json!({"operation": "search", "term": "asthma", "rettype": "count", "retmode": "json"}),
    );
    assert_eq!(
        url(&count),
        format!("{BASE}esearch.fcgi?db=pubmed&term=asthma&retstart=0&retmax=20&rettype=count&retmode=json{ID}")
    );
}

#[test]
fn elink_sends_each_id_apart_with_by_id_and_every_documented_option() {
    // NBK25499, ELink: ...&id=15718680&id=157427902&id=119703751 gives one link set per id.
    let by_id = planned(
        json!({"operation": "link", "dbfrom": "protein", "database": "gene", "ids": ["15718680", "157427902"], "by_id": true}),
    );
    assert_eq!(
        url(&by_id),
        format!(
            "{BASE}elink.fcgi?dbfrom=protein&db=gene&cmd=neighbor&id=15718680&id=157427902{ID}"
        )
    );
    assert_eq!(by_id.id_count(), 2);
    // ...&cmd=llinkslib&id=16210666&holding=CTgov
    let holding = planned(
        json!({"operation": "link", "cmd": "llinkslib", "ids": ["16210666"], "holding": "CTgov"}),
    );
    assert_eq!(
        url(&holding),
        format!("{BASE}elink.fcgi?dbfrom=pubmed&cmd=llinkslib&holding=CTgov&id=16210666{ID}")
    );
    // ...&cmd=prlinks&retmode=ref: the redirect is the answer, so it is not followed.
    let reference = planned(
        json!({"operation": "link", "cmd": "prlinks", "ids": ["19880848"], "retmode": "ref"}),
    );
    assert_eq!(
        url(&reference),
        format!("{BASE}elink.fcgi?dbfrom=pubmed&cmd=prlinks&id=19880848&retmode=ref{ID}")
    );
    assert!(!reference.follow_redirects);
    let call = reference.build(BASE, "t", None, None);
    assert!(!call.follow_redirects);
    let json = planned(
        json!({"operation": "link", "dbfrom": "nuccore", "database": "protein", "ids": ["34577062"], "idtype": "acc", "retmode": "json"}),
    );
    assert_eq!(
        url(&json),
        format!("{BASE}elink.fcgi?dbfrom=nuccore&db=protein&cmd=neighbor&idtype=acc&id=34577062&retmode=json{ID}")
    );
    assert!(json.follow_redirects);
}

#[test]
fn ecitmatch_names_xml_as_the_caller_did() {
    let citation = json!({"journal": "science", "year": "1987", "volume": "235", "first_page": "182", "author": "palmenberg ac", "key": "Art2"});
    let as_rettype =
        planned(json!({"operation": "citation_match", "rettype": "xml", "citations": [citation]}));
    assert_eq!(as_rettype.get("rettype"), Some("xml"));
    assert_eq!(as_rettype.get("retmode"), None);
    let default = planned(json!({"operation": "citation_match", "citations": [citation]}));
    assert_eq!(default.get("retmode"), Some("xml"));
    assert_eq!(default.get("rettype"), None);
}

#[test]
fn fetch_sends_asn1_as_named() {
    // EFetch's Table 1: text ASN.1 is retmode=text with no rettype (sequence databases),
    // and gene's and snp's default asn.1; the binary form is retmode=asn.1.
    let text = planned(
        json!({"operation": "fetch", "database": "nuccore", "ids": ["21614549"], "retmode": "text"}),
    );
    assert_eq!(
        url(&text),
        format!("{BASE}efetch.fcgi?db=nuccore&id=21614549&retmode=text{ID}")
    );
    let binary = planned(
        json!({"operation": "fetch", "database": "protein", "ids": ["NP_000537.3"], "retmode": "asn.1"}),
    );
    assert_eq!(
        url(&binary),
        format!("{BASE}efetch.fcgi?db=protein&id=NP_000537.3&retmode=asn.1{ID}")
    );
    let gene = planned(
        json!({"operation": "fetch", "database": "gene", "ids": ["2"], "retmode": "asn.1"}),
    );
    assert_eq!(
        url(&gene),
        format!("{BASE}efetch.fcgi?db=gene&id=2&retmode=asn.1{ID}")
    );
}

#[test]
fn the_cache_policy_reads_the_requests_the_plans_build() {
    use entrez_mcp_core::net::cache::policy::rule_for;
    let kind = |args: Value| {
        let call = planned(args).build(BASE, "entrez-mcp", None, Some(&ApiKey::new("K")));
        rule_for(&call).map(|r| (r.kind, r.ttl_s))
    };
    let never = |k: &'static str| Some((k, 0));
    let cases = [
        (
            json!({"operation": "search", "term": "asthma"}),
            Some(("search", 600)),
        ),
        (
            json!({"operation": "search", "term": "asthma", "usehistory": true}),
            never("history"),
        ),
        (
            json!({"operation": "fetch", "ids": ["1", "2"]}),
            Some(("records_by_id", 21_600)),
        ),
        (
            json!({"operation": "fetch", "webenv": "MCID_1", "query_key": 1}),
            never("history"),
        ),
        (
            json!({"operation": "summary", "ids": ["1"]}),
            Some(("records_by_id", 21_600)),
        ),
        (
            json!({"operation": "link", "ids": ["1"]}),
            Some(("links_by_id", 7_200)),
        ),
        // neighbor_history answers with a new WebEnv of the caller's own.
        (
            json!({"operation": "link", "ids": ["1"], "cmd": "neighbor_history"}),
            never("history"),
        ),
        (json!({"operation": "post", "ids": ["1"]}), never("epost")),
        (json!({"operation": "info"}), Some(("einfo", 86_400))),
        (
            json!({"operation": "spell", "term": "asthmaa"}),
            Some(("espell", 86_400)),
        ),
        (
            json!({"operation": "citation_match", "citations": [{"journal": "science", "year": "1987", "volume": "235", "first_page": "182", "author": "palmenberg ac", "key": "Art1"}]}),
            Some(("citation_match", 86_400)),
        ),
    ];
    for (args, want) in cases {
        assert_eq!(kind(args.clone()), want, "{args}");
    }
    // Hundreds of ids go as a POST; the ids in its body count as much.
    let many: Vec<String> = (1..=400).map(|i| (10_000_000 + i).to_string()).collect();
    let call =
        planned(json!({"operation": "fetch", "ids": many})).build(BASE, "entrez-mcp", None, None);
    assert_eq!(call.method, Method::Post);
    assert_eq!(rule_for(&call).map(|r| r.kind), Some("records_by_id"));
}
