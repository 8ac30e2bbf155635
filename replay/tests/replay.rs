//! The replay server through its real binary and real sockets.
//!
//! Other tests trust this server to behave like NCBI, so what it promises is
//! checked here from the outside: recordings come back byte for byte, GET
//! and POST are equivalent, NCBI's rate limit and 429 body are reproduced,
//! faults and stats work, and the synthetic ranges hold. Each test starts its
//! own server so limiter state never leaks between tests. The client is a
//! few lines over std's TcpStream, talking only to 127.0.0.1.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const EINFO1: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/einfo1.xml"
));
const PUBMED2: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../tests/fixtures/ncbi/eutils/pubmed2.xml"
));
const IO_TIMEOUT: Duration = Duration::from_secs(20);

/// A running replay server, killed when dropped.
struct Replay {
    child: Child,
    port: u16,
}

impl Replay {
    fn start(extra: &[&str]) -> Replay {
        let child = Command::new(env!("CARGO_BIN_EXE_ncbi-replay"))
            .args(["--listen", "127.0.0.1:0"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ncbi-replay");
        // The guard exists before anything can panic, so the child never leaks.
        let mut replay = Replay { child, port: 0 };
        let stdout = replay.child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(IO_TIMEOUT).expect("port line in time");
        let port = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        replay.port = port.parse().expect("numeric port");
        replay
    }

    fn get(&self, path: &str) -> Reply {
        self.send("GET", path, None)
    }

    fn post_form(&self, path: &str, form: &str) -> Reply {
        let body = ("application/x-www-form-urlencoded", form.as_bytes());
        self.send("POST", path, Some(body))
    }

    fn post_json(&self, path: &str, json: &str) -> Reply {
        self.send("POST", path, Some(("application/json", json.as_bytes())))
    }

    fn stats(&self) -> serde_json::Value {
        let r = self.get("/__replay/stats");
        assert_eq!(r.status, 200);
        serde_json::from_slice(&r.body).expect("stats JSON")
    }

    fn send(&self, method: &str, path: &str, body: Option<(&str, &[u8])>) -> Reply {
        let addr = SocketAddr::from(([127, 0, 0, 1], self.port));
        let mut s = TcpStream::connect_timeout(&addr, IO_TIMEOUT).expect("connect");
        s.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
        s.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n",
            self.port
        );
        if let Some((content_type, bytes)) = body {
            head.push_str(&format!(
                "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
                bytes.len()
            ));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).unwrap();
        if let Some((_, bytes)) = body {
            s.write_all(bytes).unwrap();
        }
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("read response");
        Reply::parse(&raw)
    }
}

impl Drop for Replay {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn parse(raw: &[u8]) -> Reply {
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("header end");
        let head = String::from_utf8_lossy(&raw[..split]).to_string();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let mut reply = Reply {
            status,
            headers,
            body: raw[split + 4..].to_vec(),
        };
        if reply.header("transfer-encoding") == Some("chunked") {
            reply.body = dechunk(&reply.body);
        }
        reply
    }

    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).to_string()
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[eol + 2 + size + 2..];
    }
    out
}

/// Sends `n` quick GETs and returns them with the time they took, retrying
/// (at most 3 times) when the machine was too slow to fit them in a second.
fn burst(replay: &Replay, path: &str, n: usize) -> Vec<Reply> {
    for _ in 0..3 {
        assert_eq!(replay.post_json("/__replay/reset", "{}").status, 200);
        let began = Instant::now();
        let replies: Vec<Reply> = (0..n).map(|_| replay.get(path)).collect();
        if began.elapsed() < Duration::from_millis(800) {
            return replies;
        }
        std::thread::sleep(Duration::from_millis(1100));
    }
    panic!("could not send {n} requests within a second in 3 tries");
}

#[test]
fn einfo_without_db_is_the_recording_byte_for_byte() {
    let replay = Replay::start(&[]);
    let r = replay.get("/entrez/eutils/einfo.fcgi?tool=replay-test");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/xml; charset=UTF-8"));
    assert_eq!(r.body, EINFO1);
}

#[test]
fn efetch_pubmed_serves_the_article_that_holds_the_pmid() {
    let replay = Replay::start(&["--limit", "1000"]);
    let r = replay.get("/entrez/eutils/efetch.fcgi?db=pubmed&id=11700088&retmode=xml&tool=t");
    assert_eq!(r.status, 200);
    let body = r.text();
    assert!(body.contains("<PMID Version=\"1\">11700088</PMID>"));
    assert_eq!(body.matches("<PubmedArticle>").count(), 1);

    // Ids from two recordings come back together, in request order.
    let r = replay.get("/entrez/eutils/efetch.fcgi?db=pubmed&id=29963580,11748933&tool=t");
    let body = r.text();
    let first = body.find(">29963580</PMID>").expect("pubmed7 article");
    let second = body.find(">11748933</PMID>").expect("pubmed2 article");
    assert!(first < second);

    let r = replay.get("/entrez/eutils/efetch.fcgi?db=pubmed&id=1&tool=t");
    assert!(r.text().contains("<PubmedArticleSet></PubmedArticleSet>"));
}

#[test]
fn post_form_body_is_merged_with_the_query_string() {
    let replay = Replay::start(&["--limit", "1000"]);
    let r = replay.post_form(
        "/entrez/eutils/efetch.fcgi?db=pubmed",
        "id=11748933%2C11700088&retmode=xml&tool=replay-test",
    );
    assert_eq!(r.status, 200);
    assert_eq!(r.body, PUBMED2);
    let stats = replay.stats();
    assert_eq!(stats["posts"], 1);
    assert_eq!(stats["missing_tool"], 0);
}

#[test]
fn fourth_rapid_anonymous_request_gets_ncbis_429() {
    let replay = Replay::start(&[]);
    let replies = burst(&replay, "/entrez/eutils/einfo.fcgi?tool=t", 4);
    let codes: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!(codes, [200, 200, 200, 429]);
    let refused = &replies[3];
    assert_eq!(refused.header("content-type"), Some("application/json"));
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(
        refused.text(),
        r#"{"error":"API rate limit exceeded","api-key":"127.0.0.1","count":"4","limit":"3"}"#
    );
}

#[test]
fn an_api_key_raises_the_limit_to_ten_and_is_never_named() {
    let replay = Replay::start(&[]);
    let path = "/entrez/eutils/einfo.fcgi?tool=t&api_key=0123456789abcdef0123";
    let replies = burst(&replay, path, 11);
    let ok = replies.iter().filter(|r| r.status == 200).count();
    assert_eq!(ok, 10);
    assert_eq!(replies[10].status, 429);
    assert!(replies[10].text().contains(r#""limit":"10""#));
    let stats = replay.stats();
    let callers = stats["max_in_any_1s_window"].as_object().unwrap();
    assert_eq!(callers.len(), 1);
    let (label, max) = callers.iter().next().unwrap();
    assert!(label.starts_with("key:") && !label.contains("0123456789"));
    assert_eq!(max, 11);
}

#[test]
fn injected_503s_are_answered_then_service_recovers() {
    let replay = Replay::start(&["--limit", "1000"]);
    let queued = replay.post_json(
        "/__replay/fail",
        r#"{"status": 503, "count": 2, "retry_after": "1"}"#,
    );
    assert_eq!(queued.status, 200);
    for _ in 0..2 {
        let r = replay.get("/entrez/eutils/esearch.fcgi?db=pubmed&term=biopython&tool=t");
        assert_eq!(r.status, 503);
        assert_eq!(r.header("retry-after"), Some("1"));
    }
    let r = replay.get("/entrez/eutils/esearch.fcgi?db=pubmed&term=biopython&tool=t");
    assert_eq!(r.status, 200);
    assert!(r.text().contains("<Count>63</Count>"));
    assert_eq!(replay.stats()["faulted"], 2);
    let bad = replay.post_json("/__replay/fail", r#"{"status": 42}"#);
    assert_eq!(bad.status, 400);
}

#[test]
fn stats_take_the_max_over_sliding_one_second_windows() {
    let replay = Replay::start(&["--limit", "3"]);
    // Five arrivals within a second, two of them refused: NCBI saw all five.
    let replies = burst(&replay, "/entrez/eutils/espell.fcgi?term=biopythooon", 5);
    assert_eq!(replies.iter().filter(|r| r.status == 429).count(), 2);
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(
        replay
            .get("/entrez/eutils/espell.fcgi?term=x&tool=t")
            .status,
        200
    );
    let stats = replay.stats();
    assert_eq!(stats["requests"], 6);
    assert_eq!(stats["rate_limited"], 2);
    assert_eq!(stats["gets"], 6);
    assert_eq!(stats["missing_tool"], 5);
    assert_eq!(stats["max_in_any_1s_window"]["ip:127.0.0.1"], 5);
    let times = stats["timestamps_ms"]["ip:127.0.0.1"].as_array().unwrap();
    assert_eq!(times.len(), 6);
    assert!(times.windows(2).all(|w| w[0].as_u64() <= w[1].as_u64()));

    assert_eq!(replay.post_json("/__replay/reset", "{}").status, 200);
    assert_eq!(replay.stats()["requests"], 0);
}

#[test]
fn synthetic_search_and_fetch_cover_the_staging_range() {
    let replay = Replay::start(&["--limit", "1000"]);
    let r = replay.get(
        "/entrez/eutils/esearch.fcgi?db=pubmed&term=replay-synthetic%5Ball%5D&retstart=100&retmax=5&tool=t",
    );
    let body = r.text();
    assert!(body.contains("<Count>20000</Count>"));
    let ids: Vec<String> = (90000101..=90000105)
        .map(|i| format!("<Id>{i}</Id>"))
        .collect();
    assert!(ids.iter().all(|id| body.contains(id.as_str())));
    assert_eq!(body.matches("<Id>").count(), 5);

    // 250 ids: more than NCBI allows in a GET, so POSTed like the client does.
    let wanted: Vec<u64> = (90000001..=90000250).collect();
    let list: Vec<String> = wanted.iter().map(u64::to_string).collect();
    let form = format!("db=pubmed&retmode=xml&tool=t&id={}", list.join(","));
    let r = replay.post_form("/entrez/eutils/efetch.fcgi", &form);
    assert_eq!(r.status, 200);
    let body = r.text();
    assert_eq!(body.matches("<PubmedArticle>").count(), 250);
    let mut at = 0;
    for id in &wanted {
        let own = format!("<PMID Version=\"1\">{id}</PMID>");
        at += body[at..]
            .find(&own)
            .unwrap_or_else(|| panic!("{id} missing or out of order"));
    }
}

#[test]
fn ncbi_error_answers_and_unknown_paths() {
    let replay = Replay::start(&["--limit", "1000"]);
    let r = replay.get("/entrez/eutils/esearch.fcgi?db=xyz&term=a&tool=t");
    assert_eq!(r.status, 200);
    assert!(r
        .text()
        .contains("<eSearchResult>\n\t<ERROR>Invalid db name specified: xyz</ERROR>"));
    let r = replay.get("/entrez/eutils/esummary.fcgi?db=pubmed&tool=t");
    assert!(r
        .text()
        .contains("<ERROR>Neither query_key nor id specified</ERROR>"));
    assert_eq!(replay.get("/entrez/eutils/nope.fcgi").status, 404);
    assert_eq!(replay.get("/elsewhere").status, 404);
    let r = replay.get(
        "/entrez/eutils/ecitmatch.cgi?db=pubmed&retmode=xml&bdata=proc+natl+acad+sci+u+s+a%7C1991%7C88%7C3248%7Cmann+bj%7CArt1%7C",
    );
    assert_eq!(
        r.text(),
        "proc natl acad sci u s a|1991|88|3248|mann bj|Art1|2014248\n"
    );
}

#[test]
fn routing_table_names_the_recording_it_serves() {
    let replay = Replay::start(&["--limit", "1000"]);
    let table = [
        ("einfo.fcgi?db=pubmed", "eutils/einfo2.xml"),
        (
            "esearch.fcgi?db=pubmed&term=biopython",
            "eutils/esearch1.xml",
        ),
        (
            "esearch.fcgi?db=pubmed&term=cancer&usehistory=y",
            "eutils/esearch2.xml",
        ),
        (
            "esearch.fcgi?db=pubmed&term=PNAS%5Bta%5D+AND+97%5Bvi%5D",
            "eutils/esearch3.xml",
        ),
        ("esearch.fcgi?db=pmc&term=stem+cells", "eutils/esearch5.xml"),
        (
            "esearch.fcgi?db=nuccore&term=biomol+trna%5Bprop%5D",
            "eutils/esearch6.xml",
        ),
        (
            "esearch.fcgi?db=protein&term=200020%5Bmolecular+weight%5D",
            "eutils/esearch7.xml",
        ),
        ("esearch.fcgi?db=protein&term=abcXYZ", "eutils/esearch8.xml"),
        (
            "esearch.fcgi?db=gene&term=118502329%5BUID%5D&retmode=json",
            "json/esearch_gene_history.json",
        ),
        (
            "esummary.fcgi?db=pubmed&id=11850928",
            "eutils/esummary1.xml",
        ),
        (
            "esummary.fcgi?db=protein&id=28800982",
            "eutils/esummary3.xml",
        ),
        (
            "esummary.fcgi?db=nucleotide&id=28864546",
            "eutils/esummary4.xml",
        ),
        (
            "esummary.fcgi?db=structure&id=19923",
            "eutils/esummary5.xml",
        ),
        ("esummary.fcgi?db=taxonomy&id=9913", "eutils/esummary6.xml"),
        (
            "esummary.fcgi?db=pccompound&id=7488",
            "eutils/esummary9.xml",
        ),
        ("esummary.fcgi", "eutils/esummary8.xml"),
        (
            "esummary.fcgi?db=pubmed&WebEnv=MCID_6927d6e7fee3e90f880ec190&query_key=1",
            "eutils/esummary1.xml",
        ),
        (
            "efetch.fcgi?db=pubmed&WebEnv=MCID_6927d6e7fee3e90f880ec190&query_key=1",
            "eutils/pubmed1.xml",
        ),
        (
            "efetch.fcgi?db=pubmed&id=12230038&rettype=medline&retmode=text",
            "text/pubmed_result1.txt",
        ),
        ("efetch.fcgi?db=pmc&id=1", "eutils/efetch_pmc.xml"),
        ("efetch.fcgi?db=taxonomy&id=9615", "eutils/taxonomy.xml"),
        (
            "efetch.fcgi?db=nuccore&id=1&rettype=gb&retmode=text",
            "text/NC_005816.gb",
        ),
        (
            "efetch.fcgi?db=nucleotide&id=1&rettype=fasta&retmode=text",
            "text/NC_005816.fna",
        ),
        (
            "efetch.fcgi?db=nucleotide&id=1&retmode=xml",
            "eutils/nucleotide1.xml",
        ),
        (
            "efetch.fcgi?db=nucleotide&id=1&rettype=fasta&retmode=xml",
            "eutils/nucleotide2.xml",
        ),
        (
            "efetch.fcgi?db=protein&id=1&rettype=gp&retmode=text",
            "text/1MRR_A.gp",
        ),
        (
            "efetch.fcgi?db=protein&id=1&rettype=fasta",
            "text/NC_005816.faa",
        ),
        (
            "efetch.fcgi?db=protein&id=1&retmode=xml",
            "eutils/protein.xml",
        ),
        (
            "efetch.fcgi?db=protein&id=1&rettype=ipg",
            "eutils/efetch_schemas.xml",
        ),
        ("efetch.fcgi?db=biosample&id=1", "eutils/biosample.xml"),
        (
            "efetch.fcgi?db=nlmcatalog&id=1&retmode=xml",
            "eutils/journals.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&id=9298984&cmd=neighbor",
            "eutils/elink1.xml",
        ),
        (
            "elink.fcgi?dbfrom=nuccore&db=protein&id=48819",
            "eutils/elink2.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&db=pubmed&id=1&mindate=1995&datetype=pdat",
            "eutils/elink3.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&db=pubmed&id=1&term=medline%5Bsb%5D",
            "eutils/elink4.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&id=10611131&cmd=prlinks",
            "eutils/elink5.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&id=12085856&cmd=llinks",
            "eutils/elink6.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&id=12169658&cmd=acheck",
            "eutils/elink7.xml",
        ),
        (
            "elink.fcgi?dbfrom=pubmed&id=12068369&cmd=ncheck",
            "eutils/elink8.xml",
        ),
        (
            "elink.fcgi?dbfrom=gene&db=nuccore&id=118502329&retmode=json",
            "json/elink_gene_nuccore.json",
        ),
        ("epost.fcgi?db=pubmed&id=11237011", "eutils/epost1.xml"),
        ("epost.fcgi?db=nothing&id=1", "eutils/epost2.xml"),
        (
            "epost.fcgi?db=pubmed&id=99999999999999999999999999999999",
            "eutils/epost3.xml",
        ),
        (
            "espell.fcgi?db=pubmed&term=biopythooon",
            "eutils/espell.xml",
        ),
    ];
    for (query, recording) in table {
        let r = replay.get(&format!("/entrez/eutils/{query}&tool=t").replace(".fcgi&", ".fcgi?"));
        assert_eq!(r.status, 200, "{query}");
        assert_eq!(r.header("x-replay-source"), Some(recording), "{query}");
        let path = format!(
            "{}/../tests/fixtures/ncbi/{recording}",
            env!("CARGO_MANIFEST_DIR")
        );
        assert_eq!(r.body, std::fs::read(&path).unwrap(), "{query}");
    }
    let r = replay.get("/entrez/eutils/efetch.fcgi?db=gene&id=1&tool=t");
    assert_eq!(r.status, 404, "nothing recorded for gene efetch");
}
