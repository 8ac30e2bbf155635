// The configuration a user runs: a server with nothing set but where NCBI, PubChem and PMC are
// (here the stand-ins) and its session secret. Its cache is on with the shipped lifetimes and
// bound, its ceilings and budgets are the defaults; every other suite runs with the cache off
// or with settings of its own. Beside this file, scripts/test.sh runs every-example and the
// SDK client suites against the same server.
// Run: E2E_URL=... E2E_REPLAY=... E2E_EDGE=... node --test tests/e2e/defaults/defaults.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders, request } from '../helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));

describe(`shipped defaults [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY) && 'E2E_URL and E2E_REPLAY are not set' }, () => {
  let client;
  const ok = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r;
  };
  const upstream = async () => (await request(`${REPLAY}/__replay/stats`)).json.requests;

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-defaults', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
      requestInit: { headers: callerKeyHeaders('defaults') },
    }), { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('the cache is on by default, and a repeated call is answered from it', async () => {
    const status = (await ok('system_api_key_status', {})).structuredContent;
    assert.equal(status.cache.enabled, true, JSON.stringify(status.cache));
    const args = { operation: 'fetch', database: 'pubmed', ids: synthetic(90_002_001, 5) };
    const before = await upstream();
    const first = await ok('entrez_query', args);
    assert.equal(first.structuredContent.records.length, 5);
    const between = await upstream();
    assert.ok(between > before, 'the first call went upstream');
    const again = await ok('entrez_query', args);
    assert.equal(await upstream(), between, 'the repeated call went upstream');
    assert.equal(again.structuredContent.cache.hits, 1);
    assert.deepEqual(again.structuredContent.records, first.structuredContent.records);
  });

  test('a staging and its queries under the default budgets and ceilings', async () => {
    const ids = synthetic(90_002_101, 600);
    const staged = await ok('entrez_data', { operation: 'fetch_and_stage', database: 'pubmed', ids });
    const id = staged.structuredContent.data_access_id;
    try {
      // Whatever the call's budget did not pay for, the server stages by itself.
      let status = staged.structuredContent.status;
      for (const deadline = Date.now() + 90_000; status === 'loading'; ) {
        assert.ok(Date.now() < deadline, 'still loading');
        await new Promise((res) => setTimeout(res, 1_000));
        const listed = await ok('entrez_data', { operation: 'list_datasets' });
        status = listed.structuredContent.datasets.find((d) => d.data_access_id === id).status;
      }
      assert.equal(status, 'complete', JSON.stringify(staged.structuredContent));
      const q = await ok('entrez_data', {
        operation: 'query', data_access_id: id,
        sql: 'SELECT COUNT(*), COUNT(DISTINCT pmid), MIN(pmid), MAX(pmid) FROM article',
      });
      assert.deepEqual(q.structuredContent.rows[0], [600, 600, 90_002_101, 90_002_700]);
      const schema = await ok('entrez_data', { operation: 'schema', data_access_id: id });
      assert.ok(schema.structuredContent.tables.some((t) => t.name === 'article'));
    } finally {
      await ok('entrez_data', { operation: 'drop_dataset', data_access_id: id });
    }
  });
});
