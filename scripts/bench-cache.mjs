// The agent-workload benchmark's driver (scripts/bench-cache.sh starts the servers and the
// replays, and calls this once per edge and cache setting).
//
//   node scripts/bench-cache.mjs <edge> <cache on|off> <mcp url> <ncbi replay> <external replay>
//
// Twenty simulated research agents at once, five on each of four overlapping topics (a
// topic is one page of the replay's synthetic PubMed search). Each agent, with a session of
// its own and no key of its own (so all share the server's anonymous budget, as agents of
// one team behind one deployment do), does what the issue describes and what agents are
// seen to do: look up PubMed's search fields, search, summarize the top five hits, fetch
// ten abstracts, follow neighbor and citedin links of the top hit, convert the ten PMIDs to
// PMCIDs, re-run the search (a paging mistake), and fetch the ten abstracts again for a
// citation. Prints one JSON line: tool calls, upstream requests (E-utilities and PMC),
// 429s the replays sent, and wall time.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [edge, cache, url, ncbi, external] = process.argv.slice(2);
const AGENTS = 20;
const TOPICS = 4;

async function stats(base) {
  const r = await fetch(`${base}/__replay/stats`);
  return r.json();
}
async function reset(base) {
  await fetch(`${base}/__replay/reset`, { method: 'POST' });
}

async function agent(n) {
  const client = new Client({ name: `bench-cache-agent-${n}`, version: '1.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  let calls = 0;
  const call = async (name, args) => {
    calls += 1;
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
    if (r.isError) throw new Error(`agent ${n}: ${name} ${JSON.stringify(args)}: ${r.content[0]?.text}`);
    return r.structuredContent;
  };
  const topic = n % TOPICS;
  const search = { operation: 'search', term: 'replay-synthetic[all]', retstart: topic * 10, retmax: 10 };
  await call('entrez_query', { operation: 'info', database: 'pubmed' });
  const hits = (await call('entrez_query', search)).ids;
  await call('entrez_query', { operation: 'summary', database: 'pubmed', ids: hits.slice(0, 5) });
  await call('entrez_query', { operation: 'fetch', database: 'pubmed', ids: hits });
  await call('entrez_query', { operation: 'link', dbfrom: 'pubmed', database: 'pubmed', ids: [hits[0]], cmd: 'neighbor' });
  await call('entrez_query', { operation: 'link', dbfrom: 'pubmed', database: 'pubmed', ids: [hits[0]], linkname: 'pubmed_pubmed_citedin' });
  // The ten hits and a paper the agent already holds (the replay's PMC knows only a few).
  await call('entrez_external', { service: 'pmc', operation: 'id_convert', ids: [...hits, '23193287'] });
  await call('entrez_query', search);
  await call('entrez_query', { operation: 'fetch', database: 'pubmed', ids: hits });
  await client.close();
  return calls;
}

await reset(ncbi);
await reset(external);
const started = performance.now();
const calls = (await Promise.all(Array.from({ length: AGENTS }, (_, n) => agent(n)))).reduce((a, b) => a + b, 0);
const wall = (performance.now() - started) / 1000;
const [e, x] = [await stats(ncbi), await stats(external)];
const upstream = e.requests + x.total;
console.log(JSON.stringify({
  edge,
  cache,
  agents: AGENTS,
  tool_calls: calls,
  eutils_requests: e.requests,
  pmc_requests: x.total,
  upstream_per_call: Math.round((upstream / calls) * 1000) / 1000,
  http_429: e.rate_limited + (x.throttled ?? 0),
  wall_s: Math.round(wall * 10) / 10,
}));
