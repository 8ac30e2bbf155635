// Concurrent tool calls through one edge against the NCBI replay server, which
// enforces NCBI's real limits (3 requests/s per IP, 10 per API key) and answers
// 429 beyond them. Proves the edge's pacing authority holds under load.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp E2E_REPLAY=http://127.0.0.1:RPORT node --test tests/e2e/load.test.mjs

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const EXTERNAL_REPLAY = process.env.E2E_EXTERNAL_REPLAY || '';
// The authority that must have paced every request (the servers send ENTREZ_PACING_TRACE's
// header): natively the process's own pacer; on the Worker the pacing Durable Object, not
// the per-isolate pacer it falls back to without the binding.
const AUTHORITY = EDGE === 'worker' ? 'durable_object' : 'memory';
// Anonymous calls queue at 3 per second, keyed ones at 10: each burst takes about 10 s.
const CALLS = 30;
const KEYED_CALLS = 90;

async function replay(path, method = 'GET') {
  const res = await fetch(`${REPLAY}${path}`, { method, signal: AbortSignal.timeout(10_000) });
  assert.equal(res.status, 200, `${method} ${path}`);
  return res.json();
}

async function connect(headers) {
  const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), { requestInit: { headers } });
  const client = new Client({ name: 'entrez-mcp-load', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport, { timeout: 15_000 });
  return client;
}

/** Fires `calls` concurrent searches and returns the replay's view of them. */
async function burst(headers, calls) {
  await replay('/__replay/reset', 'POST');
  const client = await connect(headers);
  try {
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: calls }, () =>
        client.callTool(
          // PMC: one request per search (a PubMed search also checks its matches for
          // retractions, a second request), so the count is the calls'.
          { name: 'entrez_query', arguments: { operation: 'search', database: 'pmc', term: 'stem cells' } },
          undefined,
          { timeout: 90_000 },
        ),
      ),
    );
    for (const r of results) assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    return { stats: await replay('/__replay/stats'), seconds: (Date.now() - started) / 1000 };
  } finally {
    await client.close();
  }
}

/** Largest count of timestamps inside any 1000 ms window. */
function maxInWindow(stamps) {
  const t = [...stamps].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < t.length; j++) {
    while (t[j] - t[i] >= 1000) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

describe(`load [${EDGE}]`, { skip: (!URL_UNDER_TEST || !REPLAY) && 'E2E_URL and E2E_REPLAY are needed' }, () => {
  test(`${CALLS} concurrent anonymous calls: zero 429s, at most 3 requests in any 1 s window`, async () => {
    const { stats, seconds } = await burst({}, CALLS);
    assert.equal(stats.rate_limited, 0, JSON.stringify(stats));
    assert.equal(stats.requests, CALLS);
    for (const [identity, stamps] of Object.entries(stats.timestamps_ms)) {
      assert.ok(identity.startsWith('ip:'), identity);
      assert.ok(maxInWindow(stamps) <= 3, `${identity}: ${maxInWindow(stamps)} in one second`);
      assert.ok(stats.max_in_any_1s_window[identity] <= 3);
    }
    // 30 requests at 3 per second cannot finish in under 9 seconds.
    assert.ok(seconds >= 9, `finished in ${seconds}s: pacing did not hold`);
    // Every request says which authority granted its slot.
    assert.equal(stats.pacing.length, CALLS, 'each request carried its pacing trace');
    const by = new Set(stats.pacing.map((p) => p.by));
    assert.deepEqual([...by], [AUTHORITY]);
  });

  test('15 concurrent PMC calls: at most 3 requests in any 1 s window, none refused', { skip: !EXTERNAL_REPLAY && 'E2E_EXTERNAL_REPLAY is not set' }, async () => {
    const ext = async (path, method = 'GET') => {
      const res = await fetch(`${EXTERNAL_REPLAY}${path}`, { method, signal: AbortSignal.timeout(10_000) });
      assert.equal(res.status, 200, `${method} ${path}`);
      return res.json();
    };
    await ext('/__replay/reset', 'POST');
    const client = await connect({ 'X-NCBI-API-Key': `e2e-load-pmc-${EDGE}` });
    try {
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 15 }, () =>
          client.callTool(
            { name: 'entrez_external', arguments: { service: 'pmc', operation: 'id_convert', ids: ['PMC3531190'] } },
            undefined,
            { timeout: 90_000 },
          ),
        ),
      );
      const seconds = (Date.now() - started) / 1000;
      for (const r of results) assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      const stats = await ext('/__replay/stats');
      assert.equal(stats.throttled, 0, JSON.stringify(stats.max_in_any_1s_window));
      assert.equal(stats.total, 15, JSON.stringify(stats.requests));
      for (const [family, n] of Object.entries(stats.max_in_any_1s_window)) assert.ok(n <= 3, `${family}: ${n} in one second`);
      // PMC allows 3 a second whatever the key: 15 cannot leave in under 14 gaps of 1/3 s.
      assert.ok(seconds >= 4.5, `finished in ${seconds}s: PMC's pacing did not hold`);
    } finally {
      await client.close();
    }
  });

  test(`${KEYED_CALLS} concurrent calls with a caller key: zero 429s, at most 10 in any 1 s window`, async () => {
    const { stats } = await burst({ 'X-NCBI-API-Key': `e2e-load-key-${EDGE}` }, KEYED_CALLS);
    assert.equal(stats.rate_limited, 0, JSON.stringify(stats));
    assert.equal(stats.requests, KEYED_CALLS);
    for (const [identity, stamps] of Object.entries(stats.timestamps_ms)) {
      assert.ok(identity.startsWith('key:'), `the caller's key was not used: ${identity}`);
      assert.ok(!identity.includes('e2e-load-key'), 'the replay must never see a key in clear in its stats');
      assert.ok(maxInWindow(stamps) <= 10, `${identity}: ${maxInWindow(stamps)} in one second`);
    }
  });
});
