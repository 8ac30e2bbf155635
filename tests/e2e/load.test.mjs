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
          { name: 'entrez_query', arguments: { operation: 'search', term: 'biopython' } },
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
