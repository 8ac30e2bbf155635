// The pacing benchmark's driver (scripts/bench-pacing.sh starts the servers and calls this).
//
//   node scripts/bench-pacing.mjs <label> <mcp url> <replay base> <calls> [caller key]
//
// Fires <calls> concurrent searches through one edge, each a tools/call of entrez_query, and
// reads what the stand-in NCBI saw (it counts every request in a sliding second and answers
// 429 past NCBI's limit): the steady upstream rate, the most requests in any one-second
// window, the 429s, and, from the X-Entrez-Pacing trace each request carried
// (ENTREZ_PACING_TRACE=1), where its time went: the grant's round trip, how late it woke
// after its slot, how long from waking to arriving, and slots retaken for waking too late.
// Prints one JSON line.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [label, url, replay, callsArg, callerKey] = process.argv.slice(2);
const calls = Number(callsArg);

async function replayJson(path, method = 'GET') {
  const res = await fetch(`${replay}${path}`, { method, signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
  return res.json();
}

const quantile = (xs, q) => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** Largest count of times inside any half-open 1,000 ms window. */
function maxInWindow(times) {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j] - t[i] >= 1000) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

await replayJson('/__replay/reset', 'POST');
const headers = callerKey ? { 'X-NCBI-API-Key': callerKey } : {};
const client = new Client({ name: 'entrez-mcp-bench-pacing', version: '1.0.0' }, { capabilities: {} });
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }), { timeout: 30_000 });
const started = Date.now();
const results = await Promise.all(Array.from({ length: calls }, (_, i) =>
  client.callTool({ name: 'entrez_query', arguments: { operation: 'search', database: 'pubmed', term: `biopython ${i}` } },
    undefined, { timeout: 300_000 })));
const wall = (Date.now() - started) / 1000;
await client.close();
const errors = results.filter((r) => r.isError).length;

const stats = await replayJson('/__replay/stats');
const [caller, stampsMs] = Object.entries(stats.timestamps_ms).sort((a, b) => b[1].length - a[1].length)[0] || ['none', []];
const stamps = [...stampsMs].sort((a, b) => a - b);
// Steady state: the rate over the middle of the run, leaving out a tenth at each end.
const cut = Math.floor(stamps.length / 10);
const mid = stamps.slice(cut, stamps.length - cut);
const steady = mid.length > 1 ? (mid.length - 1) / ((mid[mid.length - 1] - mid[0]) / 1000) : null;
const traces = (stats.pacing || []).filter((p) => p.caller === caller);
const ms = (xs) => ({ median: quantile(xs, 0.5), p95: quantile(xs, 0.95), max: xs.length ? Math.max(...xs) : null });
console.log(JSON.stringify({
  label,
  calls,
  errors,
  caller: caller.startsWith('key:') ? 'key' : caller.split(':')[0],
  upstream_requests: stats.requests,
  rate_limited: stats.rate_limited,
  steady_per_s: steady && Number(steady.toFixed(2)),
  max_in_any_1s: maxInWindow(stamps),
  wall_s: Number(wall.toFixed(1)),
  grant_rtt_ms: ms(traces.map((p) => p.granted - p.asked)),
  woke_late_ms: ms(traces.map((p) => p.woke - p.slot)),
  woke_to_arrival_ms: ms(traces.map((p) => p.arrived_us / 1000 - p.woke)),
  retakes: traces.reduce((n, p) => n + (p.retakes || 0), 0),
}));
if (process.env.BENCH_PACING_DUMP) {
  const t0 = traces.length ? traces[0].asked : 0;
  for (const p of traces) {
    console.error([p.asked - t0, p.granted - p.asked, p.slot - t0, p.woke - p.slot, (p.arrived_us / 1000 - p.woke).toFixed(1), p.retakes].join('\t'));
  }
}
