// CPU per operation of the Worker's wasm, under Node's V8 (scripts/bench-worker-cpu.sh builds it).
//
// Every figure is this thread's CPU time (process.threadCpuUsage), the median of repeated
// runs after warm-up; `cold` measures a fresh module's first request instead (lazy
// compilation included), one per process. The shipped build and its comparisons (the parser at opt-level
// z, no simd128) are loaded side by side and measured in the same run, so their ratio does not depend on
// the machine's load.
//
// Usage: node scripts/bench-worker-cpu.mjs <dir with simd/ (and parse-z/, nosimd/) wasm-bindgen builds>
import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dir = path.resolve(process.argv[2] ?? path.join(root, "target/bench-wasm"));
const fixtures = path.join(root, "tests/fixtures/ncbi/eutils");
const RUNS = 15;
const WARMUP = 5;

// The <PubmedArticle> elements of the recorded PubMed fixtures (as benches/staging.rs uses).
const articles = [];
for (const f of ["pubmed1", "pubmed2", "pubmed4", "pubmed5", "pubmed6", "pubmed7"]) {
  const text = readFileSync(path.join(fixtures, `${f}.xml`), "utf8");
  for (const m of text.matchAll(/<PubmedArticle>[\s\S]*?<\/PubmedArticle>/g)) articles.push(m[0]);
}
const body = (n) => {
  const parts = ['<?xml version="1.0" ?>\n<PubmedArticleSet>\n'];
  for (let i = 0; i < n; i++) parts.push(articles[i % articles.length], "\n");
  parts.push("</PubmedArticleSet>\n");
  return Buffer.from(parts.join(""));
};
const esearch = readFileSync(path.join(fixtures, "esearch2.xml"));
const batch500 = body(500);

// The thread CPU clock ticks in milliseconds on some kernels, so one sample is many runs: CPU
// time over all of them, divided. A single request is timed by the wall clock (it is
// synchronous: no I/O, no waiting) and the thread's CPU over all requests checks it.
const cpuUs = (f, times = 1) => {
  const t = process.threadCpuUsage();
  let out;
  for (let i = 0; i < times; i++) out = f();
  const d = process.threadCpuUsage(t);
  return [(d.user + d.system) / times, out];
};
const wallUs = (f) => {
  const t = performance.now();
  const out = f();
  return [(performance.now() - t) * 1000, out];
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// A fresh module's first staging call (lazy compilation and all): run in a new process.
if (process.argv[3] === "cold") {
  const m = require(path.join(dir, "simd", "entrez_mcp_worker.js"));
  const built = performance.now();
  const bench = new m.Bench(articles.join("\n"), esearch, 10, 50);
  const buildUs = (performance.now() - built) * 1000;
  const req = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "entrez_data", arguments: { operation: "fetch_and_stage", term: "asthma[mh]", max_records: 1000 }, _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } };
  const t = performance.now();
  const text = bench.call("tools/call", "entrez_data", Buffer.from(JSON.stringify(req)));
  const us = (performance.now() - t) * 1000;
  const st = JSON.parse(text).result.structuredContent;
  console.log(JSON.stringify({ server_build_us: Math.round(buildUs), cold_call_us: Math.round(us), records: st.records, status: st.status }));
  process.exit(0);
}

const builds = Object.fromEntries(
  ["simd", "parse-z", "nosimd"]
    .filter((name) => existsSync(path.join(dir, name, "entrez_mcp_worker.js")))
    .map((name) => [name, require(path.join(dir, name, "entrez_mcp_worker.js"))]),
);
const mb = batch500.length / 1e6;
const report = { articles_in_batch: 500, batch_bytes: batch500.length, parse: {}, batch: {}, calls: {} };
console.log(`500-article efetch reply: ${batch500.length.toLocaleString()} bytes (${articles.length} recorded articles, cycled)`);
// The builds take turns, sample by sample, so a change in the machine's speed during the run
// (a shared VM's varies by tens of percent within minutes) reaches each of them alike; each
// ratio below is the median of the ratios of one round's samples.
const names = Object.keys(builds);
for (const name of names) {
  const m = builds[name];
  if (m.bench_parse(batch500) !== 500) throw new Error(`${name}: the parser did not read 500 articles`);
  for (let i = 0; i < WARMUP; i++) { m.bench_parse(batch500); m.bench_batch(batch500); }
}
const samples = Object.fromEntries(names.map((n) => [n, { parse: [], batch: [] }]));
for (let i = 0; i < RUNS; i++) {
  for (const name of names) {
    samples[name].parse.push(cpuUs(() => builds[name].bench_parse(batch500), 10)[0]);
    samples[name].batch.push(cpuUs(() => builds[name].bench_batch(batch500), 10)[0]);
  }
}
for (const name of names) {
  const parse = median(samples[name].parse);
  const whole = median(samples[name].batch);
  report.parse[name] = { cpu_us: parse, mb_per_s: mb / (parse / 1e6) };
  report.batch[name] = { cpu_us: whole, mb_per_s: mb / (whole / 1e6) };
  console.log(
    `${name.padEnd(7)} parse ${(mb / (parse / 1e6)).toFixed(0)} MB/s (${(parse / 1000).toFixed(2)} ms per 500 articles); ` +
      `parse + rows + append command ${(whole / 1000).toFixed(2)} ms per 500 articles (${(mb / (whole / 1e6)).toFixed(0)} MB/s)`,
  );
}
const ratio = (k, other) => median(samples[other][k].map((us, i) => us / samples.simd[k][i]));
if (builds["parse-z"]) console.log(`the parser at its own opt-level against z like the rest, same run: parse ${ratio("parse", "parse-z").toFixed(2)}x, whole batch ${ratio("batch", "parse-z").toFixed(2)}x faster`);
if (builds.nosimd) console.log(`simd128 speed-up, same run: parse ${ratio("parse", "nosimd").toFixed(2)}x, whole batch ${ratio("batch", "nosimd").toFixed(2)}x`);

// Whole requests through the Worker's Endpoint, NCBI and the Durable Objects answering at once.
const meta = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
let id = 0;
const call = (bench, args) => {
  const req = { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "entrez_data", arguments: args, _meta: meta } };
  const [us, text] = wallUs(() => bench.call("tools/call", "entrez_data", Buffer.from(JSON.stringify(req))));
  const reply = JSON.parse(text);
  const result = reply.result;
  if (!result || result.isError) throw new Error(`call failed: ${JSON.stringify(result?.structuredContent ?? reply.error).slice(0, 600)}`);
  return [us, result.structuredContent];
};
const drop = (bench, dataset) => call(bench, { operation: "drop_dataset", data_access_id: dataset });

const dataset = (bench, id) =>
  call(bench, { operation: "list_datasets" })[1].datasets.find((d) => d.data_access_id === id);

// Stages `records` by a search, in one call and the steps the server then runs by itself
// (on Workers, alarms of the dataset's Durable Object); the CPU of each call and step.
const stageAll = (bench, records) => {
  const [first, st] = call(bench, { operation: "fetch_and_stage", term: "asthma[mh]", max_records: records });
  const calls = [{ us: first, records: st.records }];
  let before = st.records;
  for (;;) {
    const [us, outcome] = wallUs(() => bench.step());
    if (outcome === "") break;
    if (outcome.startsWith("error")) throw new Error(`step failed: ${outcome}`);
    const now = dataset(bench, st.data_access_id).records;
    calls.push({ us, records: now - before });
    before = now;
  }
  const last = dataset(bench, st.data_access_id);
  if (last.status !== "complete" || last.records !== records) throw new Error(`staged ${last.records} of ${records}: ${last.status}`);
  drop(bench, last.data_access_id);
  return calls;
};

const plans = [
  { name: "free plan (ENTREZ_CPU_BUDGET_MS=10, ENTREZ_SUBREQUESTS=50)", budget: 10, subrequests: 50, records: 1000, rounds: 5 },
  { name: "default (paid plan: 30,000 ms, 10,000 subrequests)", budget: 30000, subrequests: 10000, records: 1000, rounds: 5 },
];
for (const plan of plans) {
  const bench = new builds.simd.Bench(articles.join("\n"), esearch, plan.budget, plan.subrequests);
  const cold = stageAll(bench, plan.records);
  for (let i = 1; i < 3; i++) stageAll(bench, plan.records);
  const warm = [];
  const [threadUs] = cpuUs(() => {
    for (let i = 0; i < plan.rounds; i++) warm.push(...stageAll(bench, plan.records));
  });
  const us = warm.map((c) => c.us);
  const perCall = warm.map((c) => c.records);
  const entry = {
    calls_per_staging: warm.length / plan.rounds,
    records_per_call_median: median(perCall),
    cpu_us_median: median(us),
    cpu_us_max: Math.max(...us),
    first_call_cpu_us: cold[0].us,
    us_per_record: us.reduce((a, b) => a + b, 0) / (plan.records * plan.rounds),
    // Thread CPU over every call of the rounds (drops included), against their summed wall time.
    thread_cpu_per_wall: threadUs / us.reduce((a, b) => a + b, 0),
  };
  report.calls[plan.name] = entry;
  console.log(
    `${plan.name}: ${plan.records} records in ${entry.calls_per_staging} call(s) and step(s), ` +
      `${entry.records_per_call_median} records per call or step; CPU per call or step median ${(entry.cpu_us_median / 1000).toFixed(2)} ms, ` +
      `max ${(entry.cpu_us_max / 1000).toFixed(2)} ms; first call of this instance ${(entry.first_call_cpu_us / 1000).toFixed(2)} ms; ` +
      `${entry.us_per_record.toFixed(1)} µs per record (thread CPU / wall ${entry.thread_cpu_per_wall.toFixed(2)})`,
  );
}
console.log(JSON.stringify(report));
