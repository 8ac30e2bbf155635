// The reading benchmark's driver (scripts/bench-reading.sh starts the servers and calls this).
//
//   node scripts/bench-reading.mjs <edge> <mcp url>
//
// Runs five typical research tasks through one edge, each at the default budget and detail
// (standard) and at the other levels that matter to it, and for each records what a model would read: the characters of the
// text blocks and of structuredContent, beside the information floor, the characters of the
// fields the task asks for (for example each record's title and abstract). Prints one JSON
// line per task and detail.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [edge, url] = process.argv.slice(2);
const chars = (s) => [...(s ?? '')].length;
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));
const textOf = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const client = new Client({ name: 'bench-reading', version: '1.0.0' }, { capabilities: {} });
await client.connect(new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { 'X-NCBI-API-Key': `bench-reading-${edge}` } },
}));
const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  if (r.isError) throw new Error(`${name} ${JSON.stringify(args)}: ${textOf(r)}`);
  return r;
};

// Each task: the call, and the floor: the characters of the fields it asks for, counted on
// the standard result (which holds them whole).
const staged = await call('entrez_data', { operation: 'fetch_and_stage', ids: synthetic(90_000_001, 60) });
const dataset = staged.structuredContent.data_access_id;
const hits = await call('entrez_query', { operation: 'search', term: 'replay-synthetic[all]', retmax: 50 });
const titleAndAbstract = (sc) => sc.records.reduce((n, a) => n + chars(a.title) + chars(a.abstract_text), 0);
const tasks = [
  {
    task: 'read 5 abstracts',
    tool: 'entrez_query',
    args: { operation: 'fetch', database: 'pubmed', ids: synthetic(90_000_001, 5) },
    details: ['standard', 'full'],
    floor: titleAndAbstract,
  },
  {
    task: 'read 20 abstracts',
    tool: 'entrez_query',
    args: { operation: 'fetch', database: 'pubmed', ids: synthetic(90_000_001, 20) },
    details: ['standard', 'full'],
    floor: titleAndAbstract,
  },
  {
    // A search's first 50 hits, read at a skim: title, journal, year.
    task: 'skim 50 search hits',
    tool: 'entrez_query',
    args: { operation: 'fetch', database: 'pubmed', ids: hits.structuredContent.ids },
    details: ['brief', 'standard', 'full'],
    floor: (sc) => sc.records.reduce((n, a) => n + chars(a.title) + chars(a.iso_abbreviation ?? a.journal) + String(a.year ?? '').length, 0),
  },
  {
    task: 'compare 3 compounds',
    tool: 'entrez_external',
    args: { service: 'pubchem', operation: 'compound', namespace: 'cid', identifier: [2244, 2519, 62695] },
    details: ['standard', 'full'],
    floor: (sc) => sc.compounds.reduce((n, c) => n + chars(c.title ?? '') + chars(c.molecular_formula) +
      String(c.molecular_weight ?? '').length + chars(c.connectivity_smiles) + String(c.xlogp ?? '').length +
      String(c.tpsa ?? '').length, 0),
  },
  {
    task: 'look at 20 rows',
    tool: 'entrez_data',
    args: { operation: 'query', data_access_id: dataset, sql: 'SELECT pmid, year, journal, title FROM article ORDER BY pmid LIMIT 20' },
    details: ['standard'],
    floor: (sc) => sc.rows.reduce((n, row) => n + row.reduce((m, c) => m + chars(String(c ?? '')), 0), 0),
  },
];

for (const t of tasks) {
  // The floor is counted on the standard result, which holds every field asked for whole.
  const floor = t.floor((await call(t.tool, t.args)).structuredContent);
  for (const detail of t.details) {
    const r = await call(t.tool, t.tool === 'entrez_data' ? t.args : { ...t.args, detail });
    const text = chars(textOf(r));
    const structured = chars(JSON.stringify(r.structuredContent));
    const cut = (r.structuredContent.call_warnings || []).some((w) => w.code === 'results_cut');
    console.log(JSON.stringify({
      edge, task: t.task, detail, floor, text, structured, cut,
      text_per_floor: +(text / floor).toFixed(2),
      structured_per_text: +(structured / text).toFixed(2),
    }));
  }
}
await call('entrez_data', { operation: 'drop_dataset', data_access_id: dataset });
await client.close();
