// A dataset lives its lifetime from its last write: a staging that takes longer than the
// lifetime completes, and its dataset stays queryable for a whole lifetime after.
// Run against a server whose ENTREZ_DATA_TTL_SECS is E2E_DATA_TTL_SECS (scripts/test.sh
// starts one per edge with a short lifetime), with its NCBI replay at E2E_REPLAY:
//   E2E_URL=http://127.0.0.1:PORT/mcp E2E_REPLAY=http://127.0.0.1:RPORT E2E_DATA_TTL_SECS=8 \
//     node --test tests/e2e/lifetime/lifetime.test.mjs
//
// No margin here depends on the machine's speed: the replay answers each NCBI request of the
// staging only after a delay, so the staging lasts at least as long as the test says, and
// every wait is measured from the expiry the server reports.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, request } from '../helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const TTL_SECS = Number(process.env.E2E_DATA_TTL_SECS || 0);
// The search and every batch of the staging below answer this late.
const DELAY_MS = Math.ceil((TTL_SECS * 1000) / 2);
// 1,500 records: one search and three batches of 500, so four delayed requests, twice the lifetime.
const RECORDS = 1_500;
const DELAYED_REQUESTS = 4;

const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

describe(`dataset lifetime [${EDGE}]`, {
  skip: (!URL_UNDER_TEST || !REPLAY || TTL_SECS === 0) && 'E2E_URL, E2E_REPLAY or E2E_DATA_TTL_SECS is not set',
}, () => {
  let client;
  const call = (args) =>
    client.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 300_000 });

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-lifetime', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('a staging longer than the lifetime completes and lives a whole lifetime after', async () => {
    const queued = await request(`${REPLAY}/__replay/fail`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ delay_ms: DELAY_MS, count: DELAYED_REQUESTS }),
    });
    assert.equal(queued.status, 200, queued.text);

    const started = Date.now();
    const staged = await call({
      operation: 'fetch_and_stage', database: 'pubmed', term: 'replay-synthetic[all]', max_records: RECORDS,
    });
    const took = Date.now() - started;
    assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
    const st = staged.structuredContent;
    assert.equal(st.status, 'complete');
    assert.equal(st.records, RECORDS);
    // The replay made sure of it: the staging outlasted the lifetime by a lifetime.
    assert.ok(took >= DELAY_MS * DELAYED_REQUESTS, `staging took ${took} ms`);
    assert.ok(took > 2 * TTL_SECS * 1000 - 1, `staging took ${took} ms, lifetime ${TTL_SECS} s`);

    // Its lifetime runs from the last write, which came at the end of the staging.
    // (The reported time is in whole seconds, so it may read up to a second early.)
    const expiresAt = Date.parse(st.expires);
    assert.ok(expiresAt >= started + DELAY_MS * DELAYED_REQUESTS + TTL_SECS * 1000 - 1_000,
      `expires ${st.expires}, ${expiresAt - Date.now()} ms from now, lifetime ${TTL_SECS} s`);

    // Queryable until its reported expiry: checked in the last part of its lifetime.
    await sleep(expiresAt - Date.now() - Math.min(3_000, (TTL_SECS * 1000) / 2));
    const q = await call({ operation: 'query', data_access_id: st.data_access_id, sql: 'SELECT COUNT(*) AS n FROM article' });
    assert.equal(q.isError, false, JSON.stringify(q.structuredContent));
    assert.equal(q.structuredContent.rows[0][0], RECORDS);

    // And gone once it has passed.
    await sleep(expiresAt - Date.now() + 1_500);
    const gone = await call({ operation: 'query', data_access_id: st.data_access_id, sql: 'SELECT 1' });
    assert.equal(gone.isError, true, JSON.stringify(gone.structuredContent));
    assert.ok(['dataset_expired', 'dataset_not_found'].includes(gone.structuredContent.error.code),
      JSON.stringify(gone.structuredContent.error));
    const listed = await call({ operation: 'list_datasets' });
    assert.equal(listed.isError, false, JSON.stringify(listed.structuredContent));
    assert.ok(!listed.structuredContent.datasets.some((d) => d.data_access_id === st.data_access_id),
      'an expired dataset is no longer listed');
  });
});
