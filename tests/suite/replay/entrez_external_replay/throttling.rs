//! PubChem's faults, throttling, pacing and polling: against the stand-in and scripted
//! transports.

use super::*;

#[test]
fn faults_become_errors_with_pubchems_words_and_a_next_step() {
    let replay = ExternalReplay::start();
    let s = server(&replay);
    let e = err(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "name", "identifier": "notachemical"}),
        ),
    );
    assert_eq!(e["code"], "pubchem_not_found");
    assert!(
        e["message"].as_str().unwrap().contains("No CID found"),
        "{e}"
    );
    assert_eq!(e["details"]["fault"]["code"], "PUGREST.NotFound");
    assert!(e["suggestions"][0].as_str().unwrap().contains("spelling"));
    // A ring that never closes only warns at validation (the sanity check is not a parser),
    // so PubChem's own refusal is what the caller sees.
    let e = err(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "C1CC"}),
        ),
    );
    assert_eq!(e["code"], "pubchem_bad_request");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("Unable to standardize"),
        "{e}"
    );
    let e = err(&s, pubchem("compound", json!({"identifier": 99999999})));
    assert_eq!(e["code"], "pubchem_not_found");
    // Arguments the schema refuses never reach PubChem.
    let before = replay.stats()["total"].as_u64().unwrap();
    let e = err(
        &s,
        pubchem(
            "compound",
            json!({"namespace": "smiles", "identifier": ["C", "CC"]}),
        ),
    );
    assert_eq!(e["code"], "invalid_arguments");
    // So do structures the semantic check knows no reader accepts.
    let e = err(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "similarity", "identifier": "CC(C"}),
        ),
    );
    assert_eq!(e["code"], "invalid_structure");
    assert_eq!(replay.stats()["total"].as_u64().unwrap(), before);
}

#[test]
fn a_503_with_black_throttling_is_backed_off_and_retried() {
    let replay = ExternalReplay::start();
    replay.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "pubchem", "status": 503, "count": 1, "level": "Black"}"#,
    );
    let s = server(&replay);
    let started = std::time::Instant::now();
    let sc = ok(&s, pubchem("compound", json!({"identifier": 2244})));
    assert!(
        started.elapsed().as_millis() >= 2_000,
        "Black waits at least 2 s"
    );
    assert_eq!(sc["compounds"][0]["cid"], 2244);
    assert_eq!(sc["throttling"]["worst"], "Black");
    let warnings = sc["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("retried after HTTP 503")),
        "{warnings:?}"
    );
    assert!(
        warnings
            .iter()
            .any(|w| w.as_str().unwrap().contains("Request Count status: Black")),
        "{warnings:?}"
    );
    assert_eq!(replay.stats()["requests"]["pubchem"], 2);
}

#[test]
fn persistent_throttling_becomes_a_clear_rate_limited_error() {
    let replay = ExternalReplay::start();
    replay.control(
        "POST",
        "/__replay/fail",
        r#"{"service": "pubchem", "status": 503, "count": 10, "level": "Black"}"#,
    );
    let s = server(&replay);
    let e = err(&s, pubchem("compound", json!({"identifier": 2244})));
    assert_eq!(e["code"], "pubchem_throttled");
    let m = e["message"].as_str().unwrap();
    assert!(
        m.contains("HTTP 503 after 3 attempt(s)")
            && m.contains("Too many requests or server too busy"),
        "{m}"
    );
    assert!(m.contains("Request Count status: Black"), "{m}");
    assert_eq!(
        e["details"]["throttling"]["request_count"]["level"],
        "Black"
    );
    assert!(e["suggestions"][0]
        .as_str()
        .unwrap()
        .contains("Wait about a minute"));
}

#[test]
fn a_yellow_status_slows_pacing_and_says_so() {
    let replay = ExternalReplay::start();
    replay.control("POST", "/__replay/throttle", r#"{"level": "Yellow"}"#);
    let s = server(&replay);
    let sc = ok(
        &s,
        pubchem("compound", json!({"identifier": 2244, "data": "picture"})),
    );
    assert_eq!(sc["throttling"]["worst"], "Yellow");
    assert!(
        sc["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("2 extra pacing slot(s)")),
        "{sc}"
    );
}

#[test]
fn twenty_concurrent_pubchem_calls_stay_under_five_per_second() {
    let replay = ExternalReplay::start();
    let s = Arc::new(server(&replay));
    let results: Vec<Value> = block_on(async {
        let mut tasks = Vec::new();
        for i in 0..20 {
            let s = Arc::clone(&s);
            tasks.push(tokio::spawn(async move {
                let cid = [2244, 2519, 62695][i % 3];
                let msg = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                    "params": {"name": "entrez_external", "arguments": {"service": "pubchem", "operation": "compound", "identifier": cid}}});
                s.handle_bytes(msg.to_string().as_bytes(), &Default::default()).await.unwrap()
            }));
        }
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    });
    for r in &results {
        assert_eq!(r["result"]["isError"], false, "{r}");
    }
    let stats = replay.stats();
    assert_eq!(stats["throttled"], 0, "{stats}");
    assert_eq!(stats["requests"]["pubchem"], 20);
    assert!(
        stats["max_in_any_1s_window"]["pubchem"].as_u64().unwrap() <= 5,
        "{stats}"
    );
}

#[test]
fn an_async_search_still_running_after_the_deadline_hands_back_its_listkey() {
    use scripted::*;
    let clock = Arc::new(Clock::default());
    let script = Arc::new(Script {
        clock: clock.clone(),
        reply: Box::new(|_| {
            json_reply(
                202,
                None,
                json!({"Waiting": {"ListKey": "42", "Message": "Your request is running"}}),
            )
        }),
        sent: Default::default(),
    });
    let pacer = Arc::new(CountingPacer::default());
    let s = scripted::server(script.clone(), pacer.clone());
    let e = err(
        &s,
        pubchem(
            "structure_search",
            json!({"search_type": "substructure", "identifier": "C1=CC=CC=C1", "mode": "async"}),
        ),
    );
    assert_eq!(e["code"], "pubchem_search_pending");
    assert_eq!(e["details"]["listkey"], "42");
    assert!(e["suggestions"][0]
        .as_str()
        .unwrap()
        .contains("namespace listkey, identifier \"42\""));
    let sent = script.sent.lock().unwrap().clone();
    assert!(sent.len() > 10, "polled until the deadline: {sent:?}");
    assert!(sent[1..]
        .iter()
        .all(|u| u.ends_with("/compound/listkey/42/cids/JSON")));
    // Polls grow from 1 s to at most 4 s apart and stop inside 60 s.
    let waited = entrez_mcp_core::platform::Platform::now_unix_ms(&clock);
    assert!(waited <= 60_000, "{waited}");
    assert!(pacer.0.lock().unwrap().iter().all(|b| b == "pubchem"));
}

#[test]
fn throttling_levels_reserve_extra_slots_in_the_shared_pubchem_bucket() {
    use scripted::*;
    for (level, extra) in [("Green", 0), ("Yellow", 1), ("Red", 3)] {
        let clock = Arc::new(Clock::default());
        let header = format!("Request Count status: {level} (60%), Request Time status: Green (0%), Service status: Green (10%)");
        let script = Arc::new(Script {
            clock,
            reply: Box::new(move |_| {
                json_reply(
                    200,
                    Some(&header),
                    json!({"IdentifierList": {"CID": [2244]}}),
                )
            }),
            sent: Default::default(),
        });
        let pacer = Arc::new(CountingPacer::default());
        let s = scripted::server(script, pacer.clone());
        let sc = ok(
            &s,
            pubchem("compound", json!({"identifier": 2244, "data": "cids"})),
        );
        assert_eq!(pacer.0.lock().unwrap().len(), 1 + extra, "{level}");
        assert_eq!(sc["throttling"]["worst"], level);
    }
}
