//! Throughput of `parse_pubmed` on a corpus of real PubMed records.
//!
//! An example, not a criterion bench: MB/s and articles/s on the very bytes Biopython's
//! `Entrez.read` is timed on (`scripts/bench-parse.sh` runs both). The corpus: the recorded
//! `PubmedArticle`s repeated to the target size, written to `--corpus` under `target/`.
//! Two warm-up parses, then `--iterations` timed ones: median wall and on-CPU time.
//!
//! Usage: `cargo run --release --example bench_parse_pubmed -- [--corpus PATH]
//! [--size-mb N] [--iterations N] [--floor-runs N]`

use entrez_mcp_parse::pubmed::parse_pubmed;

/// The native binary's allocator, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use entrez_mcp_parse::xml::Xml;
use quick_xml::events::Event;
use std::time::Instant;

const FIXTURES: [&[u8]; 6] = [
    include_bytes!("../../tests/fixtures/ncbi/eutils/pubmed1.xml"),
    include_bytes!("../../tests/fixtures/ncbi/eutils/pubmed2.xml"),
    include_bytes!("../../tests/fixtures/ncbi/eutils/pubmed4.xml"),
    include_bytes!("../../tests/fixtures/ncbi/eutils/pubmed5.xml"),
    include_bytes!("../../tests/fixtures/ncbi/eutils/pubmed6.xml"),
    include_bytes!("../../tests/fixtures/ncbi/eutils/pubmed7.xml"),
];

const HEADER: &str = "<?xml version=\"1.0\" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC \"-//NLM//DTD PubMedArticle, 1st January 2025//EN\" \"https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd\">\n<PubmedArticleSet>\n";
const FOOTER: &str = "</PubmedArticleSet>\n";

/// Every `<PubmedArticle>...</PubmedArticle>` span of a fixture, by byte search.
fn article_spans(doc: &[u8]) -> Vec<&[u8]> {
    let (open, close) = (
        b"<PubmedArticle>".as_slice(),
        b"</PubmedArticle>".as_slice(),
    );
    let mut spans = Vec::new();
    let mut at = 0;
    while let Some(start) = find(&doc[at..], open).map(|i| at + i) {
        let Some(end) = find(&doc[start..], close).map(|i| start + i + close.len()) else {
            break;
        };
        spans.push(&doc[start..end]);
        at = end;
    }
    spans
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn build_corpus(min_bytes: usize) -> (Vec<u8>, usize) {
    let spans: Vec<&[u8]> = FIXTURES.iter().flat_map(|d| article_spans(d)).collect();
    assert!(!spans.is_empty(), "no PubmedArticle found in the fixtures");
    let mut out = Vec::with_capacity(min_bytes + 64 * 1024);
    out.extend_from_slice(HEADER.as_bytes());
    let mut n = 0;
    while out.len() < min_bytes {
        for s in &spans {
            out.extend_from_slice(s);
            out.push(b'\n');
            n += 1;
        }
    }
    out.extend_from_slice(FOOTER.as_bytes());
    (out, n)
}

/// On-CPU time of this thread, so a busy machine does not count against the parser.
///
/// Linux only (`/proc/thread-self/schedstat`, nanoseconds); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Medians of wall and on-CPU time over `n` runs, with the wall extremes.
struct Timing {
    wall: f64,
    min: f64,
    max: f64,
    cpu: Option<f64>,
}

fn measure<T>(n: usize, mut run: impl FnMut() -> T) -> Timing {
    if n == 0 {
        return Timing {
            wall: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
            cpu: None,
        };
    }
    let mut wall = Vec::with_capacity(n);
    let mut cpu = Vec::with_capacity(n);
    for _ in 0..n {
        let c = cpu_seconds();
        let t = Instant::now();
        // Dropping the records is part of the work a caller pays for (and
        // Biopython's timing includes freeing its objects too).
        drop(std::hint::black_box(run()));
        let elapsed = t.elapsed().as_secs_f64();
        let c = c.zip(cpu_seconds()).map(|(a, b)| b - a);
        wall.push(elapsed);
        cpu.extend(c);
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    Timing {
        wall: wall[n / 2],
        min: wall[0],
        max: wall[n - 1],
        cpu: cpu.get(cpu.len() / 2).copied(),
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size_mb: usize = arg(&args, "--size-mb").map_or(12, |s| s.parse().expect("--size-mb"));
    let iterations: usize =
        arg(&args, "--iterations").map_or(15, |s| s.parse().expect("--iterations"));
    let (corpus, built) = build_corpus(size_mb * 1024 * 1024);
    if let Some(path) = arg(&args, "--corpus") {
        std::fs::write(&path, &corpus).expect("writing the corpus");
    }

    let mut articles = 0;
    for _ in 0..2 {
        articles = std::hint::black_box(parse_pubmed(&corpus).expect("corpus parses")).len();
    }
    assert_eq!(articles, built, "every article in the corpus is returned");

    // The floor: the same bytes read event by event through the shared
    // reader with nothing built, to show what the parser itself adds.
    // `--floor-runs 0` leaves the floor out, e.g. to profile the parser alone.
    let floor_runs =
        arg(&args, "--floor-runs").map_or(iterations, |s| s.parse().expect("--floor-runs"));
    let floor = measure(floor_runs, || {
        let mut x = Xml::new(std::hint::black_box(&corpus), "PubMed XML").expect("sniff");
        let mut events = 0usize;
        while !matches!(x.event().expect("corpus reads"), Event::Eof) {
            events += 1;
        }
        events
    });
    let parse = measure(iterations, || {
        parse_pubmed(std::hint::black_box(&corpus)).expect("corpus parses")
    });

    let mb = corpus.len() as f64 / 1e6;
    let ms = |s: Option<f64>| s.map_or("unknown".into(), |c| format!("{:.1} ms", c * 1e3));
    println!(
        "entrez-mcp parse_pubmed: {mb:.1} MB, {articles} articles, {iterations} runs: median {:.1} ms wall (min {:.1}, max {:.1}), {} CPU",
        parse.wall * 1e3,
        parse.min * 1e3,
        parse.max * 1e3,
        ms(parse.cpu),
    );
    println!(
        "reading events only (no records): median {:.1} ms wall, {} CPU",
        floor.wall * 1e3,
        ms(floor.cpu),
    );
    let median = parse.wall;
    let cpu_median = parse.cpu;
    println!(
        "{{\"tool\":\"entrez-mcp\",\"mb\":{mb:.3},\"articles\":{articles},\"median_s\":{median:.6},\"mb_per_s\":{:.1},\"articles_per_s\":{:.0},\"cpu_median_s\":{}}}",
        mb / median,
        articles as f64 / median,
        cpu_median.map_or("null".into(), |c| format!("{c:.6}")),
    );
}
