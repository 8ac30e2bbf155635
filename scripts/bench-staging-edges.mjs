// The staging benchmark's driver (scripts/bench-staging-edges.sh starts the servers and calls this).
//
//   node scripts/bench-staging-edges.mjs <label> <mcp url> <records>
//
// Stages <records> PubMed records in one fetch_and_stage call through one edge, every one a
// clone of the heaviest recorded article (PMID 27797938: 22 authors, 38 affiliations, 21 MeSH
// headings with qualifiers; the replay's synthetic ids 90000005, 90000013, ... are its clones),
// then checks that every row arrived: records, and 22 authors per record. Prints one JSON line
// with the wall time and records per second.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [label, url, recordsArg] = process.argv.slice(2);
const records = Number(recordsArg);
const AUTHORS = 22;
// The replay clones its 8 recorded articles round-robin from 90000001; the fifth is the heaviest.
const ids = Array.from({ length: records }, (_, i) => String(90_000_005 + 8 * i));

const client = new Client({ name: 'entrez-mcp-bench-staging', version: '1.0.0' }, { capabilities: {} });
await client.connect(new StreamableHTTPClientTransport(new URL(url)), { timeout: 30_000 });
const call = async (args) => {
  const r = await client.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 600_000 });
  if (r.isError) throw new Error(`${JSON.stringify(args).slice(0, 200)} → ${JSON.stringify(r.structuredContent)}`);
  return r.structuredContent;
};
const started = Date.now();
const st = await call({ operation: 'fetch_and_stage', database: 'pubmed', ids, max_records: records });
const seconds = (Date.now() - started) / 1000;
const count = async (sql) => (await call({ operation: 'query', data_access_id: st.data_access_id, sql })).rows[0][0];
const articles = await count('SELECT COUNT(*) FROM article');
const authors = await count('SELECT COUNT(*) FROM author');
const perRecord = await count('SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM author GROUP BY pmid)');
await call({ operation: 'drop_dataset', data_access_id: st.data_access_id });
await client.close();
const complete = st.status === 'complete' && articles === records && authors === records * AUTHORS && perRecord === AUTHORS;
console.log(JSON.stringify({
  label, records, status: st.status, batches: st.batches, seconds: Number(seconds.toFixed(2)),
  records_per_s: Math.round(records / seconds), articles, authors, min_authors_per_record: perRecord, complete,
}));
if (!complete) process.exitCode = 1;
