//! The module's start-up: every tool called once, before the isolate's first request.
//!
//! On the Workers Free plan a request may spend 10 ms of CPU, and an isolate's first call of
//! a tool cost far more: V8 compiles each wasm function the first time it runs, and the
//! tool's JSON schemas are parsed and compiled (docs/src/workers-plans.md). Start-up is
//! limited apart (1 s on every plan), so the Worker does that work there ([`rehearse`]). A
//! crate of its own, beside the Worker's, so that it is tested natively.

pub mod stand_ins;

use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::config::Config;
use entrez_mcp_core::http::{Endpoint, HttpRequest, Sessions};
use entrez_mcp_core::net::Network;
use entrez_mcp_core::platform::Platform;
use entrez_mcp_core::protocol::Server;
use entrez_mcp_core::staging::{Limits, Staging};
use serde_json::{json, Value};
use stand_ins::{run_now, NoWait, Objects, Steps, Upstream};

/// What the rehearsal did: the calls it made and those that did not answer as expected.
#[derive(Debug, Default, Clone)]
pub struct Rehearsal {
    /// Requests sent through the endpoint.
    pub calls: u32,
    /// The methods or tools whose answer was missing or an error, with the reason.
    pub failed: Vec<String>,
}

/// A search's reply: two PubMed ids.
const ESEARCH: &str = r#"<?xml version="1.0" encoding="UTF-8" ?>
<eSearchResult><Count>2</Count><RetMax>2</RetMax><RetStart>0</RetStart><QueryKey>1</QueryKey><WebEnv>MCID_rehearsal</WebEnv><IdList>
<Id>12091962</Id>
<Id>9997</Id>
</IdList><TranslationSet/><QueryTranslation>"asthma"[MeSH Terms]</QueryTranslation></eSearchResult>
"#;

/// One PubMed record in efetch's XML, with the parts staging turns into rows (authors,
/// MeSH headings, publication types, identifiers, an abstract).
const ARTICLE: &str = r#"<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">12091962</PMID><DateCompleted><Year>1991</Year><Month>01</Month><Day>22</Day></DateCompleted><Article PubModel="Print"><Journal><ISSN IssnType="Print">1043-1578</ISSN><JournalIssue CitedMedium="Print"><Volume>17</Volume><Issue>1</Issue><PubDate><Year>1990</Year><Season>Spring</Season></PubDate></JournalIssue><Title>Social justice (San Francisco, Calif.)</Title><ISOAbbreviation>Soc Justice</ISOAbbreviation></Journal><ArticleTitle>The treatment of AIDS behind the walls of correctional facilities.</ArticleTitle><Pagination><MedlinePgn>113-25</MedlinePgn></Pagination><Abstract><AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">A structured abstract, first part.</AbstractText><AbstractText Label="RESULTS" NlmCategory="RESULTS">Its second part.</AbstractText></Abstract><AuthorList CompleteYN="Y"><Author ValidYN="Y"><LastName>Olivero</LastName><ForeName>J Michael</ForeName><Initials>JM</Initials><AffiliationInfo><Affiliation>A university.</Affiliation></AffiliationInfo></Author></AuthorList><Language>eng</Language><PublicationTypeList><PublicationType UI="D016428">Journal Article</PublicationType><PublicationType UI="D016454">Review</PublicationType></PublicationTypeList></Article><MedlineJournalInfo><Country>United States</Country><MedlineTA>Soc Justice</MedlineTA><NlmUniqueID>9891830</NlmUniqueID></MedlineJournalInfo><MeshHeadingList><MeshHeading><DescriptorName UI="D000163" MajorTopicYN="Y">Acquired Immunodeficiency Syndrome</DescriptorName><QualifierName UI="Q000517" MajorTopicYN="N">prevention &amp; control</QualifierName></MeshHeading><MeshHeading><DescriptorName UI="D006801" MajorTopicYN="N">Humans</DescriptorName></MeshHeading></MeshHeadingList><KeywordList Owner="NOTNLM"><Keyword MajorTopicYN="N">prisons</Keyword></KeywordList></MedlineCitation><PubmedData><History><PubMedPubDate PubStatus="pubmed"><Year>1990</Year><Month>3</Month><Day>1</Day></PubMedPubDate></History><PublicationStatus>ppublish</PublicationStatus><ArticleIdList><ArticleId IdType="pubmed">12091962</ArticleId><ArticleId IdType="doi">10.1000/rehearsal</ArticleId></ArticleIdList></PubmedData></PubmedArticle>"#;

/// A second record with the parts the first lacks, as NCBI's records often carry them: an
/// electronic date and location, several authors (one a collective), a grant, chemicals,
/// comments and corrections (a retraction among them), a reference list, and markup and
/// entities inside the title and abstract. V8 compiles parsing code when it first runs.
const ARTICLE_WITH_MORE: &str = r#"<PubmedArticle><MedlineCitation Status="PubMed-not-MEDLINE" Owner="NLM" IndexingMethod="Automated"><PMID Version="1">9997</PMID><DateRevised><Year>2024</Year><Month>02</Month><Day>03</Day></DateRevised><Article PubModel="Print-Electronic"><Journal><ISSN IssnType="Electronic">1476-4687</ISSN><JournalIssue CitedMedium="Internet"><Volume>612</Volume><Issue>7940</Issue><PubDate><MedlineDate>2022 Dec-2023 Jan</MedlineDate></PubDate></JournalIssue><Title>Nature</Title><ISOAbbreviation>Nature</ISOAbbreviation></Journal><ArticleTitle>A <i>rehearsal</i> of H<sub>2</sub>O and CO<sub>2</sub> in mice.</ArticleTitle><Pagination><StartPage>1</StartPage><EndPage>9</EndPage><MedlinePgn>1-9</MedlinePgn></Pagination><ELocationID EIdType="doi" ValidYN="Y">10.1000/rehearsal.2</ELocationID><Abstract><AbstractText>Text with <b>markup</b>, a <sup>superscript</sup> and an &lt;escaped&gt; &amp; entity &#x3b1;.</AbstractText><CopyrightInformation>Rehearsal.</CopyrightInformation></Abstract><AuthorList CompleteYN="N"><Author ValidYN="Y"><LastName>Zhang</LastName><ForeName>Wei</ForeName><Initials>W</Initials><Identifier Source="ORCID">0000-0000-0000-0000</Identifier><AffiliationInfo><Affiliation>First place.</Affiliation></AffiliationInfo><AffiliationInfo><Affiliation>Second place.</Affiliation></AffiliationInfo></Author><Author ValidYN="Y" EqualContrib="Y"><LastName>Müller</LastName><ForeName>Anna-Lena</ForeName><Initials>AL</Initials></Author><Author ValidYN="Y"><CollectiveName>The Rehearsal Group</CollectiveName></Author></AuthorList><Language>eng</Language><GrantList CompleteYN="Y"><Grant><GrantID>R01 0000</GrantID><Acronym>XX</Acronym><Agency>NIH HHS</Agency><Country>United States</Country></Grant></GrantList><PublicationTypeList><PublicationType UI="D016428">Journal Article</PublicationType><PublicationType UI="D016441">Retracted Publication</PublicationType></PublicationTypeList><ArticleDate DateType="Electronic"><Year>2022</Year><Month>11</Month><Day>30</Day></ArticleDate></Article><MedlineJournalInfo><Country>England</Country><MedlineTA>Nature</MedlineTA><NlmUniqueID>0410462</NlmUniqueID><ISSNLinking>0028-0836</ISSNLinking></MedlineJournalInfo><ChemicalList><Chemical><RegistryNumber>059QF0KO0R</RegistryNumber><NameOfSubstance UI="D014867">Water</NameOfSubstance></Chemical></ChemicalList><CitationSubset>IM</CitationSubset><CommentsCorrectionsList><CommentsCorrections RefType="RetractionIn"><RefSource>Nature. 2024;1:2</RefSource><PMID Version="1">99000001</PMID></CommentsCorrections><CommentsCorrections RefType="ErratumIn"><RefSource>Nature. 2023;3:4</RefSource></CommentsCorrections><CommentsCorrections RefType="CommentIn"><RefSource>Other. 2023;5:6</RefSource><PMID Version="1">99000002</PMID></CommentsCorrections></CommentsCorrectionsList><MeshHeadingList><MeshHeading><DescriptorName UI="D051379" MajorTopicYN="N">Mice</DescriptorName></MeshHeading><MeshHeading><DescriptorName UI="D014867" MajorTopicYN="Y">Water</DescriptorName><QualifierName UI="Q000378" MajorTopicYN="N">metabolism</QualifierName><QualifierName UI="Q000502" MajorTopicYN="Y">physiology</QualifierName></MeshHeading></MeshHeadingList><KeywordList Owner="NOTNLM"><Keyword MajorTopicYN="N">water</Keyword><Keyword MajorTopicYN="N">carbon dioxide</Keyword></KeywordList><CoiStatement>None.</CoiStatement></MedlineCitation><PubmedData><History><PubMedPubDate PubStatus="received"><Year>2022</Year><Month>1</Month><Day>2</Day></PubMedPubDate><PubMedPubDate PubStatus="pubmed"><Year>2022</Year><Month>12</Month><Day>1</Day><Hour>6</Hour><Minute>0</Minute></PubMedPubDate></History><PublicationStatus>ppublish</PublicationStatus><ArticleIdList><ArticleId IdType="pubmed">9997</ArticleId><ArticleId IdType="pmc">PMC0000001</ArticleId><ArticleId IdType="doi">10.1000/rehearsal.2</ArticleId><ArticleId IdType="pii">s0000</ArticleId></ArticleIdList><ReferenceList><Reference><Citation>A cited paper. Journal. 2001;1:1.</Citation><ArticleIdList><ArticleId IdType="pubmed">12091962</ArticleId></ArticleIdList></Reference><Reference><Citation>Another, without ids.</Citation></Reference></ReferenceList></PubmedData></PubmedArticle>"#;

/// A search with many hits, kept as a history set: the budgeted staging's source.
const ESEARCH_HISTORY: &str = r#"<?xml version="1.0" encoding="UTF-8" ?>
<eSearchResult><Count>400</Count><RetMax>0</RetMax><RetStart>0</RetStart><QueryKey>1</QueryKey><WebEnv>MCID_rehearsal_history</WebEnv><IdList></IdList><TranslationSet/><QueryTranslation>"asthma"[MeSH Terms]</QueryTranslation></eSearchResult>
"#;

/// Records the budgeted staging asks for: under the Free plan's budget, a first call and the
/// steps the server then runs by itself.
const BUDGETED_RECORDS: u32 = 200;

/// The budgeted staging's caller key (the calls above have none): a keyed caller's path, its
/// own datasets and the ledger's accounts, is compiled too. It never reaches NCBI.
const REHEARSAL_KEY: &str = "rehearsal-caller-key-0123456789abcdef";

/// Steps of the budgeted staging the rehearsal runs at most (it needs about five).
const BUDGETED_STEPS: usize = 40;

/// How many records the rehearsal stages: enough parsing for V8 to compile the parser's
/// hottest functions optimized (it does so once a function has run long enough), so that an
/// isolate's first staging step does not run them as baseline code (docs/src/workers-plans.md).
const REHEARSED_RECORDS: u64 = 300;

/// The ids the rehearsal stages (the stand-in answers each with the same article).
fn rehearsed_ids() -> Vec<String> {
    (1..=REHEARSED_RECORDS)
        .map(|i| (90_000_000 + i).to_string())
        .collect()
}

/// The calls: (method, tool, params). The staging's `data_access_id` fills `{id}`.
fn calls() -> Vec<(&'static str, &'static str, Value)> {
    let call = |name: &'static str, arguments: Value| {
        (
            "tools/call",
            name,
            json!({"name": name, "arguments": arguments}),
        )
    };
    vec![
        ("tools/list", "", json!({})),
        ("resources/list", "", json!({})),
        call(
            "entrez_query",
            json!({"operation": "search", "database": "pubmed", "term": "asthma[mh]", "retmax": 5}),
        ),
        call(
            "entrez_query",
            json!({"operation": "fetch", "database": "pubmed", "ids": ["12091962"]}),
        ),
        call(
            "entrez_query",
            json!({"operation": "summary", "database": "pubmed", "ids": ["12091962"]}),
        ),
        call(
            "entrez_data",
            json!({"operation": "fetch_and_stage", "database": "pubmed", "ids": rehearsed_ids()}),
        ),
        call(
            "entrez_data",
            json!({"operation": "schema", "data_access_id": "{id}"}),
        ),
        call(
            "entrez_data",
            json!({"operation": "query", "data_access_id": "{id}", "sql": "SELECT pmid FROM article"}),
        ),
        call("entrez_data", json!({"operation": "list_datasets"})),
        // The view's page of rows (a page of the main table, and its count; the stand-ins
        // keep no rows, so no column to sort by).
        call(
            "entrez_data_page",
            json!({"data_access_id": "{id}", "limit": 25}),
        ),
        // Charts: a dataset's (its query answers no rows here: the empty chart) and a term's
        // counts by year (bars, labels, the PNG's compression), so a first chart draws with
        // compiled code.
        call(
            "entrez_data",
            json!({"operation": "chart", "data_access_id": "{id}", "chart": "per_year"}),
        ),
        call(
            "entrez_query",
            json!({"operation": "count_by_year", "database": "pubmed", "term": "asthma[mh]", "mindate": "2013", "maxdate": "2024"}),
        ),
        // A bibliography of PMIDs: the record model and a style, so an isolate's first one runs
        // compiled code. (An export reads a dataset's rows, which these stand-ins do not keep.)
        call(
            "entrez_data",
            json!({"operation": "bibliography", "ids": ["12091962", "9997"], "style": "apa"}),
        ),
        call(
            "entrez_external",
            json!({"service": "pubchem", "operation": "compound", "namespace": "cid", "identifier": 2244}),
        ),
        call("entrez_capabilities", json!({})),
        call("entrez_tool_info", json!({"name": "entrez_query"})),
        call("system_api_key_status", json!({})),
        call(
            "validate",
            json!({"tool": "entrez_query", "arguments": {"operation": "search", "term": "asthma[mh]"}}),
        ),
    ]
}

/// A server like the Worker's on `platform`, with stand-ins for everything outside the isolate.
fn rehearsal_endpoint(
    platform: Box<dyn Platform>,
    esearch: &str,
    allowance: Allowance,
    steps: Steps,
) -> Option<Endpoint> {
    let articles = format!("{ARTICLE}\n{ARTICLE_WITH_MORE}");
    let network = Network {
        transport: Box::new(Upstream::new(&articles, esearch.as_bytes().to_vec())),
        pacer: Box::new(NoWait),
        cache: None,
    };
    let staging =
        Staging::new(Objects::default(), Limits::default()).with_scheduler(Box::new(steps));
    let mut config = Config::defaults();
    config.allowance = allowance;
    let server = Server::new(config, platform)
        .ok()?
        .with_network(network)
        .with_staging(staging)
        .ok()?;
    Some(Endpoint::new(
        server,
        Sessions::new(b"rehearsal-session-key".to_vec(), 60, false),
    ))
}

/// One stateless (2026-07-28) `POST /mcp`, as a client sends it without a key of its own, or
/// with `key` (`X-NCBI-API-Key`: its datasets are then its own, counted on the ledger).
pub fn request(method: &str, name: &str, body: Vec<u8>, key: Option<&str>) -> HttpRequest {
    let mut request = HttpRequest {
        method: "POST".into(),
        path: "/mcp".into(),
        headers: vec![
            ("host".into(), "localhost".into()),
            ("content-type".into(), "application/json".into()),
            (
                "accept".into(),
                "application/json, text/event-stream".into(),
            ),
            ("mcp-protocol-version".into(), "2026-07-28".into()),
            ("mcp-method".into(), method.into()),
            ("mcp-name".into(), name.into()),
        ],
        body,
        client_ip: Some("127.0.0.1".into()),
    };
    if let Some(key) = key {
        request.headers.push(("x-ncbi-api-key".into(), key.into()));
    }
    request
}

/// Runs every call once on `platform` (the Worker's) and says how it went. Never panics: a
/// call that fails is named in [`Rehearsal::failed`], and the isolate's requests then do that
/// work themselves.
///
/// It sends a typical call of every tool, and the lists a client asks for, through the same
/// `Endpoint` the Worker serves, to stand-ins of NCBI, PubChem and the Durable Objects that
/// answer at once from memory ([`stand_ins`]), and throws the answers away. What stays in the
/// isolate is what its requests would otherwise pay for: compiled code, parsed and compiled
/// schemas, hash seeds. Nothing leaves it: no request is sent, nothing is stored.
pub fn rehearse(platform: impl Fn() -> Box<dyn Platform>) -> Rehearsal {
    let mut report = Rehearsal::default();
    let endpoint = rehearsal_endpoint(platform(), ESEARCH, Allowance::default(), Steps::default());
    let Some(endpoint) = endpoint else {
        report.failed.push("server: could not be built".into());
        return report;
    };
    let mut dataset = String::new();
    for (i, (method, name, mut params)) in calls().into_iter().enumerate() {
        if let Some(id) = params.pointer_mut("/arguments/data_access_id") {
            *id = json!(dataset);
        }
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        });
        let body = json!({"jsonrpc": "2.0", "id": i, "method": method, "params": params});
        let body = serde_json::to_vec(&body).unwrap_or_default();
        report.calls += 1;
        let label = if name.is_empty() { method } else { name };
        let Some(reply) = run_now(endpoint.handle(request(method, name, body, None))) else {
            report.failed.push(format!("{label}: did not finish"));
            continue;
        };
        let reply: Value = serde_json::from_slice(&reply.body).unwrap_or(Value::Null);
        let result = &reply["result"];
        if result.is_null() || result["isError"] == json!(true) {
            let why = match result["content"][0]["text"].as_str() {
                Some(text) => text.to_string(),
                None => reply.to_string(),
            };
            let why = why.chars().take(300).collect::<String>();
            report.failed.push(format!("{label}: {why}"));
            continue;
        }
        if let Some(id) = result["structuredContent"]["data_access_id"].as_str() {
            dataset = id.to_string();
        }
    }
    budgeted_staging(platform(), &mut report);
    report
}

/// A staging as the Workers Free plan runs it (`ENTREZ_CPU_BUDGET_MS=10`,
/// `ENTREZ_SUBREQUESTS=50`): a search's history set staged by a first call that stops at its
/// budget and by the steps the server then schedules, each run here at once, for a caller with
/// a key of its own. That is the code a Free-plan isolate's first staging runs and the default
/// staging above does not: the budget's planning, batches by `retstart`, the dataset left
/// loading, taken up and finished, and a keyed caller's accounts.
fn budgeted_staging(platform: Box<dyn Platform>, report: &mut Rehearsal) {
    let label = "entrez_data (budgeted)";
    let steps = Steps::default();
    report.calls += 1;
    let Some(endpoint) = rehearsal_endpoint(
        platform,
        ESEARCH_HISTORY,
        Allowance::FREE_PLAN,
        steps.clone(),
    ) else {
        report
            .failed
            .push(format!("{label}: server could not be built"));
        return;
    };
    let params = json!({
        "name": "entrez_data",
        "arguments": {"operation": "fetch_and_stage", "database": "pubmed",
            "term": "asthma[mh]", "max_records": BUDGETED_RECORDS},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        },
    });
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "tools/call", "params": params});
    let body = serde_json::to_vec(&body).unwrap_or_default();
    let reply = run_now(endpoint.handle(request(
        "tools/call",
        "entrez_data",
        body,
        Some(REHEARSAL_KEY),
    )));
    let reply: Value = reply
        .and_then(|r| serde_json::from_slice(&r.body).ok())
        .unwrap_or(Value::Null);
    if reply["result"]["structuredContent"]["data_access_id"]
        .as_str()
        .is_none()
    {
        let why: String = reply.to_string().chars().take(300).collect();
        report.failed.push(format!("{label}: {why}"));
        return;
    }
    let mut ran = 0;
    while let Some(id) = steps.next() {
        ran += 1;
        if ran > BUDGETED_STEPS {
            report
                .failed
                .push(format!("{label}: more than {BUDGETED_STEPS} steps"));
            return;
        }
        match run_now(endpoint.server.run_step(&id)) {
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                report
                    .failed
                    .push(format!("{label}: step {ran}: {}", e.message));
                return;
            }
            None => {
                report
                    .failed
                    .push(format!("{label}: step {ran} did not finish"));
                return;
            }
        }
    }
    if ran == 0 {
        report.failed.push(format!(
            "{label}: no step ran: the budget did not stop the first call"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock that stands still and counting "random" bytes: natively there is no `Date.now`.
    struct Still;

    impl Platform for Still {
        fn now_unix_ms(&self) -> u64 {
            1_790_000_000_000
        }

        fn fill_random(&self, buf: &mut [u8]) {
            for (i, b) in buf.iter_mut().enumerate() {
                *b = i as u8;
            }
        }
    }

    #[test]
    fn every_call_of_the_rehearsal_answers() {
        let report = rehearse(|| Box::new(Still));
        assert_eq!(report.calls as usize, calls().len() + 1);
        assert!(report.failed.is_empty(), "{:#?}", report.failed);
    }

    #[test]
    fn the_rehearsal_calls_every_tool() {
        let called: std::collections::BTreeSet<&str> = calls()
            .iter()
            .map(|(_, name, _)| *name)
            .filter(|n| !n.is_empty())
            .collect();
        for spec in entrez_mcp_core::tools::CATALOG.tools {
            assert!(called.contains(spec.name), "{} is not rehearsed", spec.name);
        }
    }
}
