//! entrez_data end to end against the NCBI replay server: every layout staged
//! from recorded replies with row counts and values checked against the
//! parsers, searches and history sets, repeated records, concurrent staging,
//! and 10,000 synthetic PubMed records in paced batches.

use crate::common::data::*;
use crate::common::replay::Replay;
use entrez_mcp_core::allowance::Allowance;
use entrez_mcp_core::staging::Limits;
use serde_json::{json, Value};
use std::collections::HashMap;

fn stage(s: &entrez_mcp_core::protocol::Server, args: Value) -> Value {
    let mut args = args;
    args["operation"] = json!("fetch_and_stage");
    ok(s, args)
}

/// Every example query of a dataset's schema runs: the layout's three, and natively the
/// full-text index's where the layout has one (PMC).
fn examples_run(s: &entrez_mcp_core::protocol::Server, id: &str) -> Value {
    let schema = ok(s, json!({"operation": "schema", "data_access_id": id}));
    let examples = schema["example_queries"].as_array().unwrap();
    let layout = entrez_mcp_core::staging::layouts::named(schema["layout"].as_str().unwrap());
    let indexed = entrez_mcp_core::staging::layouts::full_text_index(layout.unwrap()).is_some();
    assert_eq!(examples.len(), 3 + usize::from(indexed), "{schema}");
    for e in examples {
        let r = sql(s, id, e["sql"].as_str().unwrap());
        assert!(!r["columns"].as_array().unwrap().is_empty(), "{e}");
    }
    schema
}

#[test]
fn pubmed_rows_match_the_parsed_recordings() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let articles = recorded_articles();
    let mut ids: Vec<String> = articles.iter().map(|a| a.pmid.clone()).collect();
    ids.push(ids[0].clone());
    let r = data(&s, json!({"operation": "fetch_and_stage", "ids": ids}));
    let st = &r["structuredContent"];
    assert_eq!(r["isError"], false, "{r}");
    let id = st["data_access_id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 32);
    assert_eq!(st["status"], "complete");
    assert_eq!(st["layout"], "pubmed");
    assert_eq!(st["records"], 8);
    assert_eq!(st["available"], 8);
    assert_eq!(st["truncated"], false);
    assert_eq!(st["resource_uri"], format!("entrez-dataset://{id}/schema"));
    let link = &r["content"][1];
    assert_eq!(link["type"], "resource_link");
    assert_eq!(link["uri"], format!("entrez-dataset://{id}/schema"));
    assert!(r["content"][0]["text"].as_str().unwrap().contains(&id));

    let authors = sql(&s, &id, "SELECT pmid, COUNT(*) FROM author GROUP BY pmid");
    let by_pmid: HashMap<String, u64> = authors["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r[0].to_string(), r[1].as_u64().unwrap()))
        .collect();
    for a in &articles {
        assert_eq!(
            by_pmid.get(&a.pmid).copied().unwrap_or(0),
            a.authors.len() as u64,
            "authors of {}",
            a.pmid
        );
        let row = sql(&s, &id, &format!("SELECT title, year, doi, journal, (SELECT COUNT(*) FROM mesh WHERE pmid = a.pmid AND qualifier_position <= 1), (SELECT COUNT(*) FROM publication_type WHERE pmid = a.pmid), (SELECT COUNT(*) FROM affiliation WHERE pmid = a.pmid) FROM article a WHERE pmid = {}", a.pmid));
        let v = &row["rows"][0];
        assert_eq!(v[0], a.title, "{}", a.pmid);
        assert_eq!(v[1], json!(a.year));
        assert_eq!(v[2], json!(a.doi));
        assert_eq!(v[3], json!(a.journal));
        assert_eq!(v[4], a.mesh.len(), "mesh headings of {}", a.pmid);
        assert_eq!(v[5], a.publication_types.len());
        let affs: usize = a.authors.iter().map(|x| x.affiliations.len()).sum();
        assert_eq!(v[6], affs);
    }
    let first = &articles[0];
    let au = sql(
        &s,
        &id,
        &format!(
            "SELECT last_name, fore_name FROM author WHERE pmid = {} ORDER BY position",
            first.pmid
        ),
    );
    assert_eq!(au["rows"][0][0], json!(first.authors[0].last_name));
    let schema = examples_run(&s, &id);
    let tables: Vec<&str> = schema["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tables,
        [
            "article",
            "abstract_section",
            "author",
            "affiliation",
            "mesh",
            "keyword",
            "publication_type",
            "correction"
        ]
    );
    let author = &schema["tables"][2];
    assert_eq!(author["primary_key"], json!(["pmid", "position"]));
    assert_eq!(
        author["foreign_keys"][0],
        json!({"columns": ["pmid"], "table": "article", "references": ["pmid"]})
    );
    assert_eq!(
        author["indexes"][0]["columns"],
        json!(["last_name", "fore_name"])
    );
    assert_eq!(author["columns"][0]["primary_key"], 1);
    assert!(author["columns"][2]["description"]
        .as_str()
        .unwrap()
        .contains("Family"));
    assert_eq!(schema["tables"][0]["row_count"], 8);
}

#[test]
fn history_sets_and_searches_are_paged_and_never_duplicate() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let search = stage(
        &s,
        json!({"term": "replay-synthetic[all]", "max_records": 1200}),
    );
    assert_eq!(search["records"], 1200);
    assert_eq!(search["available"], 20000);
    assert_eq!(search["truncated"], true);
    assert_eq!(search["batches"], 3);
    assert!(search["source"]
        .as_str()
        .unwrap()
        .contains("replay-synthetic"));
    assert!(search["warnings"][0].as_str().unwrap().contains("20000"));
    let id = search["data_access_id"].as_str().unwrap();
    assert_eq!(
        scalar(&s, id, "SELECT MAX(pmid) - MIN(pmid) + 1 FROM article"),
        1200
    );

    // This recorded WebEnv answers every page with the same two articles: the
    // second page adds nothing, so staging stops instead of looping, without duplicates.
    let hist = stage(
        &s,
        json!({"webenv": "MCID_6927d6e7fee3e90f880ec190", "query_key": 1, "max_records": 5000}),
    );
    assert_eq!(hist["status"], "complete");
    assert_eq!(hist["records"], 2);
    assert_eq!(hist["available"], Value::Null);
    let hid = hist["data_access_id"].as_str().unwrap();
    assert_eq!(
        scalar(&s, hid, "SELECT COUNT(*) FROM author"),
        scalar(
            &s,
            hid,
            "SELECT COUNT(DISTINCT pmid || '-' || position) FROM author"
        )
    );
    // The synthetic WebEnv pages for real: 700 records in two requests.
    let synthetic = stage(
        &s,
        json!({"webenv": "MCID_replay_synthetic_0000000001", "query_key": 1, "max_records": 700}),
    );
    assert_eq!(synthetic["records"], 700);
    assert_eq!(synthetic["batches"], 2);
    // An unknown WebEnv is NCBI's error, and the dataset says it failed.
    let lost = err(
        &s,
        json!({"operation": "fetch_and_stage", "webenv": "MCID_nope", "query_key": 1}),
    );
    assert_eq!(lost["details"]["status"], "failed", "{lost}");
    let lost_id = lost["details"]["data_access_id"].as_str().unwrap();
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    let entry = listed["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["data_access_id"] == lost_id)
        .unwrap()
        .clone();
    assert_eq!(entry["status"], "failed");
    assert!(
        entry["reason"].as_str().unwrap().contains("query"),
        "{entry}"
    );
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": lost_id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    assert_eq!(q["status"], "failed");
    assert!(q["warnings"][0].as_str().unwrap().contains("incomplete"));
    let none = err(
        &s,
        json!({"operation": "fetch_and_stage", "term": "abcxyz"}),
    );
    assert_eq!(none["code"], "no_records", "{none}");
}

#[test]
fn pmc_taxonomy_sequences_and_generic_summaries() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());

    let pmc = stage(&s, json!({"database": "pmc", "ids": ["PMC1234"]}));
    let parsed = entrez_mcp_core::parse::pmc::parse_pmc(&fixture("efetch_pmc.xml")).unwrap();
    assert_eq!(pmc["layout"], "pmc");
    assert_eq!(pmc["records"], parsed.len());
    let pid = pmc["data_access_id"].as_str().unwrap();
    assert_eq!(
        scalar(&s, pid, "SELECT COUNT(*) FROM section"),
        parsed[0].sections.len() as i64
    );
    assert_eq!(
        scalar(&s, pid, "SELECT COUNT(*) FROM author"),
        parsed[0].authors.len() as i64
    );
    examples_run(&s, pid);

    let tax = stage(&s, json!({"database": "taxonomy", "ids": ["9685", "9606"]}));
    let taxa = entrez_mcp_core::parse::taxonomy::parse_taxonomy(&fixture("taxonomy.xml")).unwrap();
    let tid = tax["data_access_id"].as_str().unwrap();
    assert_eq!(tax["records"], taxa.len());
    let lineage: usize = taxa.iter().map(|t| t.lineage_ex.len()).sum();
    assert_eq!(
        scalar(&s, tid, "SELECT COUNT(*) FROM taxon_lineage"),
        lineage as i64
    );
    let t0 = &taxa[0];
    let row = sql(
        &s,
        tid,
        &format!(
            "SELECT name, rank, parent_taxid FROM taxon WHERE taxid = {}",
            t0.taxid
        ),
    );
    assert_eq!(
        row["rows"][0],
        json!([t0.scientific_name, t0.rank, t0.parent_taxid])
    );
    examples_run(&s, tid);

    let prot = stage(
        &s,
        json!({"database": "protein", "ids": ["CAA35997"], "include_sequence": true}),
    );
    let gb = entrez_mcp_core::parse::gbseq::parse_gbseq(&fixture("protein.xml")).unwrap();
    let prid = prot["data_access_id"].as_str().unwrap();
    assert_eq!(prot["layout"], "sequence");
    assert_eq!(
        scalar(&s, prid, "SELECT COUNT(*) FROM feature"),
        gb[0].features.len() as i64
    );
    let q: usize = gb[0].features.iter().map(|f| f.qualifiers.len()).sum();
    assert_eq!(
        scalar(&s, prid, "SELECT COUNT(*) FROM feature_qualifier"),
        q as i64
    );
    assert_eq!(
        scalar(&s, prid, "SELECT length(sequence) FROM sequence"),
        gb[0].length as i64
    );
    examples_run(&s, prid);
    let nuc = stage(&s, json!({"database": "nuccore", "ids": ["NC_005816"]}));
    let nid = nuc["data_access_id"].as_str().unwrap();
    assert_eq!(
        scalar(
            &s,
            nid,
            "SELECT COUNT(*) FROM sequence WHERE sequence IS NULL"
        ),
        1
    );

    let generic = stage(&s, json!({"database": "structure", "ids": ["1", "2"]}));
    assert_eq!(generic["layout"], "generic");
    let gid = generic["data_access_id"].as_str().unwrap();
    let docs =
        entrez_mcp_core::parse::esummary::parse_esummary_xml(&fixture("esummary5.xml")).unwrap();
    assert_eq!(generic["records"], docs.docs.len());
    let uid = &docs.docs[0].uid;
    let title = sql(
        &s,
        gid,
        &format!("SELECT title, json_extract(json, '$.PdbDescr') FROM record WHERE uid = '{uid}'"),
    );
    assert!(title["rows"][0][0].is_string(), "{title}");
    assert!(scalar(&s, gid, "SELECT COUNT(*) FROM record_field") > 0);
    examples_run(&s, gid);

    let list = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(list["owner_scope"], "local");
    assert_eq!(list["datasets"].as_array().unwrap().len(), 5);
}

#[test]
fn two_datasets_stage_concurrently() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let call = |args: Value| {
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
               "params": {"name": "entrez_data", "arguments": args}})
        .to_string()
    };
    let a = call(
        json!({"operation": "fetch_and_stage", "ids": (90_000_001..=90_000_600).collect::<Vec<u64>>()}),
    );
    let b = call(
        json!({"operation": "fetch_and_stage", "ids": (90_050_001..=90_050_700).collect::<Vec<u64>>()}),
    );
    let ctx = entrez_mcp_core::caller::RequestContext::default();
    let (ra, rb) = crate::common::block_on(async {
        tokio::join!(
            s.handle_bytes(a.as_bytes(), &ctx),
            s.handle_bytes(b.as_bytes(), &ctx)
        )
    });
    let ra = ra.unwrap()["result"]["structuredContent"].clone();
    let rb = rb.unwrap()["result"]["structuredContent"].clone();
    assert_eq!(ra["records"], 600, "{ra}");
    assert_eq!(rb["records"], 700, "{rb}");
    assert_ne!(ra["data_access_id"], rb["data_access_id"]);
    let ida = ra["data_access_id"].as_str().unwrap();
    let idb = rb["data_access_id"].as_str().unwrap();
    assert_eq!(scalar(&s, ida, "SELECT MIN(pmid) FROM article"), 90_000_001);
    assert_eq!(scalar(&s, idb, "SELECT MIN(pmid) FROM article"), 90_050_001);
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    assert!(
        stats["posts"].as_u64().unwrap() >= 4,
        "600 and 700 ids go as POSTs: {stats}"
    );
}

#[test]
fn ten_thousand_synthetic_pubmed_records_end_to_end() {
    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let ids: Vec<u64> = (90_000_001..=90_010_000).collect();
    let started = std::time::Instant::now();
    let st = stage(&s, json!({"ids": ids, "max_records": 10000}));
    let elapsed = started.elapsed();
    assert_eq!(st["records"], 10_000, "{st}");
    assert_eq!(st["batches"], 20);
    assert_eq!(st["status"], "complete");
    let id = st["data_access_id"].as_str().unwrap();
    // Clones cycle through the recorded articles, so their rows repeat with them.
    let templates = recorded_articles();
    let per_cycle: usize = templates.iter().map(|a| a.authors.len()).sum();
    let cycles = 10_000 / templates.len();
    assert_eq!(
        scalar(&s, id, "SELECT COUNT(*) FROM author"),
        (per_cycle * cycles) as i64
    );
    assert_eq!(
        scalar(&s, id, "SELECT COUNT(DISTINCT title) FROM article"),
        templates.len() as i64
    );
    assert_eq!(
        scalar(
            &s,
            id,
            "SELECT COUNT(*) FROM article WHERE pmid BETWEEN 90000001 AND 90010000"
        ),
        10_000
    );
    let mesh = sql(&s, id, "SELECT descriptor, COUNT(DISTINCT pmid) AS n FROM mesh GROUP BY descriptor ORDER BY n DESC LIMIT 5");
    assert_eq!(mesh["row_count"], 5);
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    assert_eq!(stats["posts"], 20, "{stats}");
    eprintln!("staged 10,000 synthetic records in {elapsed:?}; replay stats {stats}");
}

#[test]
fn each_batch_is_reported_when_the_client_asks_for_progress() {
    use entrez_mcp_core::mcp::progress::Notifier;
    use std::sync::Mutex;

    #[derive(Default)]
    struct Collect(Mutex<Vec<Value>>);
    impl Notifier for Collect {
        fn notify(&self, n: Value) {
            self.0.lock().unwrap().push(n);
        }
    }

    let replay = Replay::start();
    let (s, _, _) = server(Some(&replay), Limits::default());
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "entrez_data", "_meta": {"progressToken": 77},
        "arguments": {"operation": "fetch_and_stage", "term": "replay-synthetic[all]", "max_records": 1200}}});
    let sink = Collect::default();
    let ctx = entrez_mcp_core::caller::RequestContext::default();
    let reply =
        crate::common::block_on(s.handle_bytes_notifying(call.to_string().as_bytes(), &ctx, &sink))
            .unwrap();
    assert_eq!(
        reply["result"]["structuredContent"]["records"], 1200,
        "{reply}"
    );
    let events = sink.0.lock().unwrap();
    let progress: Vec<(f64, f64)> = events
        .iter()
        .map(|e| {
            (
                e["params"]["progress"].as_f64().unwrap(),
                e["params"]["total"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(progress, vec![(1.0, 3.0), (2.0, 3.0), (3.0, 3.0)]);
    assert!(events.iter().all(|e| e["params"]["progressToken"] == 77));
    assert!(events[2]["params"]["message"]
        .as_str()
        .unwrap()
        .contains("1200 records"));
}

/// Continues a partial dataset until it is complete; returns the calls it took.
fn continue_until_complete(s: &entrez_mcp_core::protocol::Server, first: &Value) -> usize {
    let id = first["data_access_id"].as_str().unwrap();
    let mut calls = 1;
    let mut last = first.clone();
    while last["status"] == "partial" {
        assert_eq!(last["next_call"]["data_access_id"], id, "{last}");
        assert!(last["remaining"].as_u64().unwrap() > 0, "{last}");
        assert!(
            last["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains("ENTREZ_CPU_BUDGET_MS")),
            "the cap is said: {last}"
        );
        last = ok(s, last["next_call"].clone());
        calls += 1;
        assert!(calls < 100, "no end: {last}");
    }
    assert_eq!(last["status"], "complete", "{last}");
    assert_eq!(last["remaining"], 0);
    assert_eq!(last["next_call"], Value::Null);
    calls
}

#[test]
fn a_free_plan_budget_stages_across_calls_without_gaps_or_repeats() {
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    // A search: the first call searches once; the rest page its history set onwards.
    let first = stage(
        &s,
        json!({"term": "replay-synthetic[all]", "max_records": 1000}),
    );
    assert_eq!(first["status"], "partial", "{first}");
    let staged_first = first["records"].as_u64().unwrap();
    assert!(staged_first > 0 && staged_first < 500, "{first}");
    assert_eq!(first["remaining"], 1000 - staged_first);
    let id = first["data_access_id"].as_str().unwrap().to_string();
    // A partial dataset answers queries meanwhile, and says it is partial.
    let q = ok(
        &s,
        json!({"operation": "query", "data_access_id": id, "sql": "SELECT COUNT(*) FROM article"}),
    );
    assert_eq!(q["status"], "partial");
    assert!(
        q["warnings"][0].as_str().unwrap().contains("partial"),
        "{q}"
    );
    let calls = continue_until_complete(&s, &first);
    assert!(calls >= 3, "1,000 records cannot fit a few calls: {calls}");
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        1000
    );
    assert_eq!(
        scalar(&s, &id, "SELECT MAX(pmid) - MIN(pmid) + 1 FROM article"),
        1000
    );
    let searches = replay.stats();
    // Ids: the ones not yet fetched are kept between calls.
    let ids: Vec<u64> = (90_000_001..=90_000_700).collect();
    let first = stage(&s, json!({"ids": ids}));
    assert_eq!(first["status"], "partial", "{first}");
    let id = first["data_access_id"].as_str().unwrap().to_string();
    continue_until_complete(&s, &first);
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        700
    );
    assert_eq!(
        scalar(
            &s,
            &id,
            "SELECT COUNT(*) FROM article WHERE pmid BETWEEN 90000001 AND 90000700"
        ),
        700
    );
    // A complete dataset has nothing to continue; a malformed id is refused by the schema.
    let done = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(done["code"], "dataset_complete", "{done}");
    let both = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id, "term": "x"}),
    );
    assert_ne!(
        both["code"], "dataset_complete",
        "a source and an id together are ambiguous: {both}"
    );
    let stats = replay.stats();
    assert_eq!(stats["rate_limited"], 0, "{stats}");
    eprintln!("free-plan staging: {calls} calls for 1,000 records; replay {searches} then {stats}");
}

#[test]
fn only_the_owner_continues_a_partial_dataset() {
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    let alice = session("alice");
    let ids: Vec<u64> = (90_000_001..=90_000_400).collect();
    let first = ok_as(
        &s,
        json!({"operation": "fetch_and_stage", "ids": ids}),
        &alice,
    );
    assert_eq!(first["status"], "partial", "{first}");
    let id = first["data_access_id"].as_str().unwrap();
    let stranger = err_as(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
        &session("mallory"),
    );
    assert_eq!(stranger["code"], "dataset_not_found", "{stranger}");
    // What the dataset's first call set stays: other settings are ignored, and said to be.
    let next = ok_as(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id, "database": "gene", "max_records": 5}),
        &alice,
    );
    assert!(
        next["records"].as_u64() > first["records"].as_u64(),
        "{next}"
    );
    assert_eq!(next["database"], "pubmed");
    assert!(
        next["warnings"][0]
            .as_str()
            .unwrap()
            .starts_with("database, max_records ignored"),
        "{next}"
    );
}

#[test]
fn a_passing_fault_leaves_a_partial_dataset_that_continues_without_gaps() {
    let replay = Replay::start();
    let (s, _, _) = server_spending(Some(&replay), Limits::default(), Allowance::FREE_PLAN);
    let ids: Vec<u64> = (90_000_001..=90_000_300).collect();
    let first = stage(&s, json!({"ids": ids}));
    assert_eq!(first["status"], "partial", "{first}");
    let id = first["data_access_id"].as_str().unwrap().to_string();
    // NCBI answers 503 to every attempt of the next request.
    replay.control("POST", "/__replay/fail", r#"{"status": 503, "count": 4}"#);
    let paused = err(
        &s,
        json!({"operation": "fetch_and_stage", "data_access_id": id}),
    );
    assert_eq!(paused["details"]["status"], "partial", "{paused}");
    assert_eq!(
        paused["details"]["records_staged"], first["records"],
        "{paused}"
    );
    let listed = ok(&s, json!({"operation": "list_datasets"}));
    assert_eq!(listed["datasets"][0]["status"], "partial", "{listed}");
    continue_until_complete(
        &s,
        &ok(
            &s,
            json!({"operation": "fetch_and_stage", "data_access_id": id}),
        ),
    );
    assert_eq!(
        scalar(&s, &id, "SELECT COUNT(DISTINCT pmid) FROM article"),
        300
    );
    assert_eq!(
        scalar(&s, &id, "SELECT MAX(pmid) - MIN(pmid) + 1 FROM article"),
        300
    );
}
