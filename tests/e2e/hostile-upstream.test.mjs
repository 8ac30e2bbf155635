// An upstream that misbehaves, through a running edge: the NCBI replay queues a
// hostile body (POST /__replay/fail {"body": ...}) for the next E-utilities request.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp E2E_REPLAY=http://127.0.0.1:RPORT node --test tests/e2e/hostile-upstream.test.mjs
//
// Each hostile reply must end as a clear error (response_too_large) after exactly one
// upstream request, the edge must keep serving, and a key quoted back by upstream must
// not reach the caller. Natively, E2E_NATIVE_PID names the server process, whose peak
// resident memory (VmHWM) must stay under 300 MB through the suite.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const NATIVE_PID = process.env.E2E_NATIVE_PID || '';
const CALLER_KEY = 'e2e0hostile0key0123456789abcdef0123';

async function replay(path, body) {
  const res = await fetch(`${REPLAY}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  assert.equal(res.status, 200, path);
  return res.json();
}

async function connect(headers = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), { requestInit: { headers } });
  const client = new Client({ name: 'entrez-mcp-e2e-hostile', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport, { timeout: 15_000 });
  return client;
}

const FETCH = { operation: 'fetch', database: 'pubmed', ids: ['19304878'] };

describe(`hostile upstream [${EDGE}]`, { skip: (!URL_UNDER_TEST || !REPLAY) && 'E2E_URL or E2E_REPLAY is not set' }, () => {
  let client;

  before(async () => {
    client = await connect();
  });

  after(async () => {
    if (client) await client.close();
  });

  for (const body of ['declared', 'endless', 'gzip_bomb']) {
    test(`${body}: response_too_large after one request, and the edge keeps serving`, async () => {
      const before = (await replay('/__replay/stats')).requests;
      await replay('/__replay/fail', { body, count: 1 });
      const started = Date.now();
      const r = await client.callTool({ name: 'entrez_query', arguments: FETCH }, undefined, { timeout: 60_000 });
      assert.equal(r.isError, true, JSON.stringify(r.structuredContent));
      assert.equal(r.structuredContent.error.code, 'response_too_large', JSON.stringify(r.structuredContent));
      assert.ok(r.structuredContent.error.suggestions.length > 0);
      assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
      assert.equal((await replay('/__replay/stats')).requests, before + 1, 'a reply too large to read was retried');
      const fine = await client.callTool({ name: 'entrez_query', arguments: FETCH }, undefined, { timeout: 60_000 });
      assert.equal(fine.isError, false, JSON.stringify(fine.structuredContent));
    });
  }

  test('a body that drips in is cut off at the attempt time limit, retried, and others are served meanwhile', async () => {
    const before = (await replay('/__replay/stats')).requests;
    await replay('/__replay/fail', { body: 'drip', count: 1 });
    const started = Date.now();
    const dripping = client.callTool({ name: 'entrez_query', arguments: FETCH }, undefined, { timeout: 60_000 });
    let drippingDone = false;
    dripping.then(() => { drippingDone = true; }, () => { drippingDone = true; });
    while ((await replay('/__replay/stats')).requests === before) await new Promise((r) => setTimeout(r, 50));
    const other = await connect();
    try {
      const quick = Date.now();
      const fine = await other.callTool({ name: 'entrez_query', arguments: FETCH }, undefined, { timeout: 60_000 });
      assert.equal(fine.isError, false, JSON.stringify(fine.structuredContent));
      // Served while the dripping reply still held its own call (which cannot end before its
      // 8 s attempt limit): nothing waited behind it, however fast the machine.
      assert.ok(!drippingDone, `another caller waited ${Date.now() - quick} ms, until the dripping reply was cut off`);
    } finally {
      await other.close();
    }
    const r = await dripping;
    const ms = Date.now() - started;
    // ENTREZ_UPSTREAM_TIMEOUT_MS is 8 s in scripts/test.sh; the retry finds a normal reply.
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    assert.ok(ms >= 7_000 && ms < 30_000, `the dripping call took ${ms} ms`);
    assert.equal((await replay('/__replay/stats')).requests, before + 3);
  });

  test('a connection reset halfway through a body is retried, never parsed', async () => {
    const before = (await replay('/__replay/stats')).requests;
    await replay('/__replay/fail', { body: 'reset', count: 1 });
    const known = { operation: 'fetch', database: 'pubmed', ids: ['12091962'] };
    const r = await client.callTool({ name: 'entrez_query', arguments: known }, undefined, { timeout: 60_000 });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    assert.equal(r.structuredContent.count, 1, JSON.stringify(r.structuredContent).slice(0, 500));
    assert.equal((await replay('/__replay/stats')).requests, before + 2, 'the cut-off reply was not retried');
  });

  test('a key quoted back by upstream reaches the caller as [redacted]', async () => {
    const keyed = await connect({ 'X-NCBI-API-Key': CALLER_KEY });
    try {
      await replay('/__replay/fail', { body: 'quote_key', count: 1 });
      const r = await keyed.callTool({ name: 'entrez_query', arguments: FETCH }, undefined, { timeout: 60_000 });
      const everything = JSON.stringify(r);
      assert.equal(r.isError, true, everything);
      assert.match(everything, /\[redacted\]/);
      for (let i = 0; i + 12 <= CALLER_KEY.length; i++) {
        assert.ok(!everything.includes(CALLER_KEY.slice(i, i + 12)), `a piece of the key leaked: ${everything}`);
      }
    } finally {
      await keyed.close();
    }
  });

  test('peak memory of the native server stays under 300 MB', { skip: !NATIVE_PID && 'E2E_NATIVE_PID is not set' }, () => {
    const status = readFileSync(`/proc/${NATIVE_PID}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]);
    console.log(`native server peak RSS: ${(kb / 1024).toFixed(1)} MB`);
    assert.ok(kb < 300 * 1024, `peak RSS ${kb} kB`);
  });
});
