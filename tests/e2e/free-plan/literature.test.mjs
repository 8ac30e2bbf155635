// A literature review on the Workers Free plan's settings (ENTREZ_CPU_BUDGET_MS=10,
// ENTREZ_SUBREQUESTS=50), by a client without MCP Tasks: count, stage 2,000 records, read the
// schema, three SQL answers, five abstracts. At most 8 tool calls, none of them a status poll
// (the staging call waits for its data, `wait_seconds`), and every SQL answer computed on the
// complete dataset. On the Worker, the isolate's start-up rehearsed every tool first
// (ENTREZ_STARTUP_TRACE=1 shows how it went).
// Run: E2E_URL=... E2E_EDGE=... node --test tests/e2e/free-plan/literature.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, postModern } from '../helpers.mjs';

// The replay's synthetic search: 20,000 PubMed records, ids from 90,000,001.
const TERM = 'replay-synthetic[all]';
// A call that waits may take this long; the client waits a little longer.
const WAIT_SECONDS = 120;

describe(`a literature review on the Free plan's settings, no Tasks [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  const calls = [];
  const call = async (name, args) => {
    calls.push({ name, operation: args.operation });
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: (WAIT_SECONDS + 30) * 1000 });
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent;
  };
  // An SQL answer, which must be computed on the whole dataset: it says nothing is missing.
  const sql = async (id, query) => {
    const r = await call('entrez_data', { operation: 'query', data_access_id: id, sql: query });
    assert.equal(r.status, 'complete', JSON.stringify(r));
    assert.deepEqual(r.warnings.filter((w) => /loading|partial|incomplete/.test(w)), [], JSON.stringify(r.warnings));
    return r;
  };

  before(async () => {
    // No tasks capability: the client cannot poll a task, and need not poll anything else.
    client = new Client({ name: 'entrez-mcp-e2e-free-plan', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('count, stage 2,000, schema, three SQL answers, five abstracts: at most 8 calls, no polls', async () => {
    const found = await call('entrez_query', { operation: 'search', database: 'pubmed', term: TERM, retmax: 0 });
    assert.equal(found.count, 20_000, JSON.stringify(found));

    // One call stages what its 10 ms pay for; the server stages the rest by itself, and the
    // call waits for it.
    const staged = await call('entrez_data', {
      operation: 'fetch_and_stage', database: 'pubmed', term: TERM, max_records: 2000, wait_seconds: WAIT_SECONDS,
    });
    assert.equal(staged.status, 'complete', JSON.stringify(staged));
    assert.equal(staged.records, 2000);
    assert.ok(staged.warnings.some((w) => /^Waited \d+ s for the staging to end\.$/.test(w)), JSON.stringify(staged.warnings));
    const id = staged.data_access_id;
    try {
      const schema = await call('entrez_data', { operation: 'schema', data_access_id: id });
      assert.ok(schema.tables.some((t) => t.name === 'article' && t.row_count === 2000), JSON.stringify(schema.tables));

      const counted = await sql(id, 'SELECT COUNT(*), COUNT(DISTINCT pmid), MIN(pmid), MAX(pmid) FROM article');
      assert.deepEqual(counted.rows[0], [2000, 2000, 90_000_001, 90_002_000]);
      const journals = await sql(id, 'SELECT journal, COUNT(*) AS n FROM article GROUP BY journal ORDER BY n DESC LIMIT 5');
      assert.equal(journals.rows.reduce((sum, r) => sum + r[1], 0) <= 2000, true);
      assert.ok(journals.rows.length > 0);
      const recent = await sql(id, 'SELECT pmid FROM article ORDER BY pmid DESC LIMIT 5');
      const five = recent.rows.map((r) => String(r[0]));
      assert.deepEqual(five, ['90002000', '90001999', '90001998', '90001997', '90001996']);

      // The records themselves (PubMed XML: title, abstract, authors), as the replay serves them.
      const abstracts = await call('entrez_query', { operation: 'fetch', database: 'pubmed', ids: five });
      assert.deepEqual(abstracts.records.map((r) => r.pmid), five, JSON.stringify(abstracts).slice(0, 400));

      assert.ok(calls.length <= 8, `${calls.length} calls: ${JSON.stringify(calls)}`);
      assert.deepEqual(calls.filter((c) => c.operation === 'list_datasets'), [], 'no status polls');
    } finally {
      await client.callTool({ name: 'entrez_data', arguments: { operation: 'drop_dataset', data_access_id: id } });
    }
  });

  test('a wait that runs out answers with what is staged so far, and says so', async () => {
    // A second staging on the same budget, waiting one second only: it cannot be complete.
    const staged = await call('entrez_data', {
      operation: 'fetch_and_stage', database: 'pubmed', term: TERM, max_records: 2000, wait_seconds: 1,
    });
    const id = staged.data_access_id;
    try {
      assert.equal(staged.status, 'loading', JSON.stringify(staged));
      assert.ok(staged.records < 2000);
      assert.ok(staged.warnings.some((w) => /^Waited \d+ s \(wait_seconds 1\): the staging goes on, \d+ records so far; this answer covers those\./.test(w)),
        JSON.stringify(staged.warnings));
      // A query that does not wait says the answer is on the records so far.
      const r = await call('entrez_data', { operation: 'query', data_access_id: id, sql: 'SELECT COUNT(*) FROM article' });
      if (r.status !== 'complete') {
        assert.ok(r.warnings.some((w) => /still loading/.test(w)), JSON.stringify(r.warnings));
      }
    } finally {
      await client.callTool({ name: 'entrez_data', arguments: { operation: 'drop_dataset', data_access_id: id } });
    }
  });

  test('a trend by year: as many years as one call can afford are counted and drawn, more are refused naming the limit', async () => {
    // One NCBI search a year: ENTREZ_SUBREQUESTS=50 and 10 ms of CPU allow fewer than the 50
    // years the paid plan's settings do (core/src/tools/entrez_query/plan.rs years_per_call).
    const wide = await client.callTool({
      name: 'entrez_query',
      arguments: { operation: 'count_by_year', term: TERM, mindate: '1975', maxdate: '2024' },
    });
    assert.equal(wide.isError, true, JSON.stringify(wide.structuredContent));
    const error = wide.structuredContent.error;
    const message = JSON.stringify(error);
    assert.match(message, /chart_too_large/);
    assert.match(message, /ENTREZ_SUBREQUESTS=50/);
    const most = Number(/counts at most (\d+) per call/.exec(message)[1]);
    assert.ok(most >= 10 && most < 50, message);
    const from = 2024 - most + 1;
    const fits = await call('entrez_query', { operation: 'count_by_year', term: TERM, mindate: String(from), maxdate: '2024' });
    assert.equal(fits.counts.length, most);
    assert.equal(fits.counts[0].year, from);
    assert.match(JSON.stringify(error.suggestions), new RegExp(`mindate ${from} and maxdate 2024`));
  });

  test('on the Worker, the isolate rehearsed every tool at start-up, without a failure', { skip: EDGE !== 'worker' && 'the Worker only' }, async () => {
    const r = await postModern(URL_UNDER_TEST, 'tools/list', {});
    const report = r.headers.get('x-entrez-startup') || '';
    assert.match(report, /^calls=\d+ failed=0$/, report);
    assert.ok(Number(/calls=(\d+)/.exec(report)[1]) >= 14, report);
  });
});
