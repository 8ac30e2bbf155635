// CPU per operation of the Worker's wasm, under Node's V8 (scripts/bench-worker-cpu.sh builds it).
//
// Every figure is this thread's CPU time (process.threadCpuUsage), the median of repeated
// runs after warm-up; `first <tool>` measures a fresh module's start-up and first request
// instead (lazy compilation included), one per process. The shipped build and its comparisons
// (other opt-levels, no simd128: scripts/bench-worker-cpu.sh) are loaded side by side and
// measured in the same run, so their ratio does not depend on the machine's load.
//
// Usage: node scripts/bench-worker-cpu.mjs <dir with simd/ and the comparisons' wasm-bindgen builds>
import { createRequire } from "node:module";
import { existsSync, readFileSync, readdirSync } from "node:fs";
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

// A fresh isolate's first request for each tool, one new process per tool: the module's
// evaluation (compiling and instantiating the wasm), the work the Worker does at global scope
// (`startup`, before any request), then the first request: building the server (on Workers,
// from the request's env) and the tool's first call (compiling its schemas on first use).
const FIRST_CALLS = {
  entrez_query: { operation: "search", term: "asthma[mh]", retmax: 5 },
  entrez_data: { operation: "fetch_and_stage", term: "asthma[mh]", max_records: 1000 },
  entrez_external: { service: "pubchem", operation: "compound", namespace: "cid", identifier: 2244 },
  entrez_capabilities: {},
  entrez_tool_info: { name: "entrez_query" },
  system_api_key_status: {},
  validate: { tool: "entrez_query", arguments: { operation: "search", term: "asthma[mh]" } },
};
if (process.argv[3] === "first") {
  const tool = process.argv[4];
  const t0 = performance.now();
  const m = require(path.join(dir, "simd", "entrez_mcp_worker.js"));
  const t1 = performance.now();
  m.bench_startup();
  const t2 = performance.now();
  const c2 = process.threadCpuUsage();
  if (!m.bench_server_build()) throw new Error("the server did not build");
  const t3 = performance.now();
  const c3 = process.threadCpuUsage(c2);
  // The stand-ins' replies (not the Worker's work), then the first call.
  const bench = new m.Bench(articles.join("\n"), esearch, 10, 50);
  const req = { jsonrpc: "2.0", id: 1, method: tool === "tools/list" ? "tools/list" : "tools/call",
    params: { ...(tool === "tools/list" ? {} : { name: tool, arguments: FIRST_CALLS[tool] }), _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } };
  const body = Buffer.from(JSON.stringify(req));
  const t3b = performance.now();
  const c3b = process.threadCpuUsage();
  const text = bench.call(req.method, tool === "tools/list" ? "" : tool, body);
  const t4 = performance.now();
  const c4 = process.threadCpuUsage(c3b);
  const reply = JSON.parse(text);
  if (!reply.result || reply.result.isError) throw new Error(`${tool}: ${text.slice(0, 400)}`);
  console.log(JSON.stringify({ tool, module_ms: +(t1 - t0).toFixed(2), startup_ms: +(t2 - t1).toFixed(2),
    server_build_ms: +(t3 - t2).toFixed(2), first_call_ms: +(t4 - t3b).toFixed(2), first_request_ms: +(t3 - t2 + t4 - t3b).toFixed(2),
    // The same request by this thread's CPU clock (a check on the wall clock above).
    first_request_cpu_ms: +((c3.user + c3.system + c4.user + c4.system) / 1000).toFixed(2) }));
  process.exit(0);
}

// The shipped build first, then the comparisons scripts/bench-worker-cpu.sh built.
const builds = Object.fromEntries(
  ["simd", ...readdirSync(dir).filter((n) => n !== "simd").sort()]
    .filter((name) => existsSync(path.join(dir, name, "entrez_mcp_worker.js")))
    .map((name) => [name, require(path.join(dir, name, "entrez_mcp_worker.js"))]),
);
// Built here, not before the `first` runs: 8 MB of JavaScript strings would be garbage a fresh
// isolate does not have, collected during its first request.
const batch500 = body(500);
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
// tools/list, the request every client makes first: 68 KB of descriptions and schemas.
const listBody = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }));
const listers = Object.fromEntries(names.map((n) => [n, new builds[n].Bench(articles.join("\n"), esearch, 10, 50)]));
for (const name of names) for (let i = 0; i < WARMUP; i++) listers[name].call("tools/list", "", listBody);
const samples = Object.fromEntries(names.map((n) => [n, { parse: [], batch: [], list: [] }]));
for (let i = 0; i < RUNS; i++) {
  for (const name of names) {
    samples[name].parse.push(cpuUs(() => builds[name].bench_parse(batch500), 10)[0]);
    samples[name].batch.push(cpuUs(() => builds[name].bench_batch(batch500), 10)[0]);
    samples[name].list.push(cpuUs(() => listers[name].call("tools/list", "", listBody), 10)[0]);
  }
}
for (const name of names) {
  const parse = median(samples[name].parse);
  const whole = median(samples[name].batch);
  report.parse[name] = { cpu_us: parse, mb_per_s: mb / (parse / 1e6) };
  report.batch[name] = { cpu_us: whole, mb_per_s: mb / (whole / 1e6) };
  const list = median(samples[name].list);
  report.list = { ...report.list, [name]: { cpu_us: list } };
  console.log(
    `${name.padEnd(7)} parse ${(mb / (parse / 1e6)).toFixed(0)} MB/s (${(parse / 1000).toFixed(2)} ms per 500 articles); ` +
      `parse + rows + append command ${(whole / 1000).toFixed(2)} ms per 500 articles (${(mb / (whole / 1e6)).toFixed(0)} MB/s); ` +
      `tools/list ${(list / 1000).toFixed(2)} ms`,
  );
}
// How much faster the shipped build is than each comparison: the median of the ratios of one
// round's samples (above 1: the shipped build is faster).
const ratio = (k, other) => median(samples[other][k].map((us, i) => us / samples.simd[k][i]));
for (const other of names.filter((n) => n !== "simd")) {
  console.log(`shipped against ${other}, same run: parse ${ratio("parse", other).toFixed(2)}x, whole batch ${ratio("batch", other).toFixed(2)}x, tools/list ${ratio("list", other).toFixed(2)}x`);
}

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

// A chart's drawing and PNG writing (the chart operation after its query): 800×500, as bars
// of 50 years, a line of 50 years, and 40 horizontal bars with journal-length names.
report.chart = {};
for (const [name, points, years, line] of [["50 years, bars", 50, true, false], ["50 years, line", 50, true, true], ["40 names, bars", 40, false, false]]) {
  const m = builds.simd;
  for (let i = 0; i < WARMUP; i++) m.bench_chart(points, years, line);
  const runs = Array.from({ length: RUNS }, () => cpuUs(() => m.bench_chart(points, years, line), 3));
  const us = median(runs.map((r) => r[0]));
  report.chart[name] = { cpu_us: us, png_bytes: runs[0][1] };
  console.log(`chart ${name}: ${(us / 1000).toFixed(2)} ms CPU, ${runs[0][1]} bytes of PNG`);
}

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
