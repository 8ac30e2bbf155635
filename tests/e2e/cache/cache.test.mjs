// The cache of upstream answers, through a running edge with the MCP TypeScript SDK as the
// client: a repeated call sends nothing upstream and says so, fresh asks again, identical
// calls in flight send one request, entries expire on time and stay within the byte bound,
// and what must not be kept (the history server, errors, cut-off bodies, no-store answers,
// validate's checks) never is, nor any API key.
//
// Runs on servers of its own (scripts/test.sh): ENTREZ_CACHE=on with a short TTL scale and
// a small byte bound; every other suite runs with ENTREZ_CACHE=off, since they queue faults
// and count requests at the replay.
// Run: E2E_URL=... E2E_REPLAY=... E2E_EXTERNAL_REPLAY=... E2E_CACHE_STATE=DIR \
//      E2E_CACHE_TTL_SCALE=0.01 E2E_CACHE_MAX_BYTES=40000 E2E_SERVER_KEY=... \
//      node --test tests/e2e/cache/cache.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders } from '../helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const EXTERNAL = process.env.E2E_EXTERNAL_REPLAY || '';
const STATE = process.env.E2E_CACHE_STATE || '';
const SCALE = Number(process.env.E2E_CACHE_TTL_SCALE || '1');
const MAX_BYTES = Number(process.env.E2E_CACHE_MAX_BYTES || '0');
const SERVER_KEY = process.env.E2E_SERVER_KEY || '';
const CALLER = callerKeyHeaders('cache');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function upstream(base) {
  const r = await fetch(`${base}/__replay/stats`);
  const s = await r.json();
  return s.total ?? s.requests;
}

async function fault(body) {
  const r = await fetch(`${REPLAY}/__replay/fail`, { method: 'POST', body: JSON.stringify(body) });
  assert.equal(r.status, 200, await r.text());
}

/** Every file under `dir`: [path, contents]. */
function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push([path, readFileSync(path)]);
  }
  return out;
}

describe(`cache [${EDGE}]`, { skip: (!URL_UNDER_TEST || !REPLAY) && 'E2E_URL or E2E_REPLAY is not set' }, () => {
  let client;
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    return r;
  };
  const ok = async (name, args) => {
    const r = await call(name, args);
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r;
  };
  // How many requests reached the NCBI replay while `f` ran.
  const sent = async (f) => {
    const before = await upstream(REPLAY);
    const result = await f();
    return [(await upstream(REPLAY)) - before, result];
  };

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-cache', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), { requestInit: { headers: CALLER } });
    await client.connect(transport, { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('a repeated fetch is answered without an upstream request, and says so', async () => {
    const args = { operation: 'fetch', database: 'pubmed', ids: ['12091962', '90000001'] };
    const [first, a] = await sent(() => ok('entrez_query', args));
    assert.equal(first, 1);
    assert.equal(a.structuredContent.cache, undefined);
    const [second, b] = await sent(() => ok('entrez_query', args));
    assert.equal(second, 0, 'the repeated fetch went upstream');
    assert.equal(b.structuredContent.cache.hits, 1);
    assert.ok(b.structuredContent.cache.oldest_age_s >= 0);
    assert.match(b.content[0].text, /1 upstream answer\(s\) came from this server's cache \(oldest \d+ s old\)/);
    assert.deepEqual(b.structuredContent.records, a.structuredContent.records);
  });

  // Without the external stand-in this cannot run: a listed skip, not a pass.
  test('PubChem and PMC lookups are kept too', { skip: !EXTERNAL && 'E2E_EXTERNAL_REPLAY is not set' }, async () => {
    const compound = { service: 'pubchem', operation: 'compound', namespace: 'cid', identifier: 2244 };
    const before = await upstream(EXTERNAL);
    await ok('entrez_external', compound);
    const once = (await upstream(EXTERNAL)) - before;
    assert.ok(once >= 1);
    const r = await ok('entrez_external', compound);
    assert.equal((await upstream(EXTERNAL)) - before, once, 'the repeated lookup went upstream');
    assert.ok(r.structuredContent.cache.hits >= 1);
  });

  test('fresh: true asks upstream again and refreshes what the next call reads', async () => {
    const args = { operation: 'info', database: 'pubmed' };
    await ok('entrez_query', args);
    const [refreshed, r] = await sent(() => ok('entrez_query', { ...args, fresh: true }));
    assert.equal(refreshed, 1);
    assert.equal(r.structuredContent.cache, undefined);
    const [again, hit] = await sent(() => ok('entrez_query', args));
    assert.equal(again, 0);
    assert.equal(hit.structuredContent.cache.hits, 1);
  });

  test('the history server is never cached', async () => {
    const search = { operation: 'search', term: 'biopython', usehistory: true };
    const [n1, r] = await sent(() => ok('entrez_query', search));
    const [n2] = await sent(() => ok('entrez_query', search));
    // Each search goes upstream again (it checks for retractions only when asked).
    assert.deepEqual([n1, n2], [1, 1]);
    const page = { operation: 'fetch', webenv: r.structuredContent.webenv, query_key: 1, retmax: 2 };
    const [n3] = await sent(() => ok('entrez_query', page));
    const [n4, again] = await sent(() => ok('entrez_query', page));
    assert.deepEqual([n3, n4], [1, 1]);
    assert.equal(again.structuredContent.cache, undefined);
  });

  test('errors, cut-off bodies and no-store answers are never cached', async () => {
    // A term of its own, so that nothing earlier in the run is kept for it.
    const args = { operation: 'spell', term: `asthmaa ${EDGE}` };
    await fault({ status: 400 });
    const [n1, e1] = await sent(() => call('entrez_query', args));
    assert.equal(e1.isError, true);
    await fault({ body: 'quote_key' });
    const [n2, e2] = await sent(() => call('entrez_query', args));
    assert.equal(e2.isError, true);
    await fault({ cache_control: 'no-store' });
    const [n3] = await sent(() => ok('entrez_query', args));
    assert.deepEqual([n1, n2, n3], [1, 1, 1]);
    // Nothing was kept: this one goes upstream, and the one after it is the first hit.
    const [n4, r4] = await sent(() => ok('entrez_query', args));
    assert.equal(n4, 1);
    assert.equal(r4.structuredContent.cache, undefined);
    const [n5, r5] = await sent(() => ok('entrez_query', args));
    assert.equal(n5, 0);
    assert.equal(r5.structuredContent.cache.hits, 1);
    // NCBI's own truncated einfo (a recording): not kept, whatever the reader made of it.
    const info = { operation: 'info', database: 'protein' };
    await fault({ fixture: 'einfo4.xml' });
    const [n6] = await sent(() => call('entrez_query', info));
    const [n7] = await sent(() => call('entrez_query', info));
    assert.deepEqual([n6, n7], [1, 1]);
  });

  test('an entry expires when its lifetime (times the TTL scale) is up', async () => {
    // A search is kept 10 minutes; at the suite's scale, a few seconds.
    const ttlMs = 600_000 * SCALE;
    assert.ok(ttlMs >= 3_000 && ttlMs <= 20_000, `TTL ${ttlMs} ms suits this test`);
    const args = { operation: 'search', term: `expiry ${EDGE} ${Date.now()}` };
    // A PubMed search is one request (it checks for retractions only when asked).
    const [n1] = await sent(() => ok('entrez_query', args));
    const [n2] = await sent(() => ok('entrez_query', args));
    assert.deepEqual([n1, n2], [1, 0]);
    await sleep(ttlMs + 1_500);
    const [n3, r] = await sent(() => ok('entrez_query', args));
    assert.equal(n3, 1, 'an expired entry was served');
    assert.equal(r.structuredContent.cache, undefined);
  });

  test('identical calls in flight send one upstream request', async () => {
    // The first request to reach the replay answers after 3 s; the others wait for it here.
    await fault({ delay_ms: 3_000 });
    const args = { operation: 'fetch', database: 'pubmed', ids: ['90000050'] };
    const [n, results] = await sent(() => Promise.all(Array.from({ length: 5 }, () => ok('entrez_query', args))));
    assert.equal(n, 1);
    const shared = results.filter((r) => r.structuredContent.cache?.shared === 1).length;
    assert.equal(shared, 4);
    for (const r of results) assert.deepEqual(r.structuredContent.records, results[0].structuredContent.records);
  });

  test('the byte bound holds as the least recently used entries go', async () => {
    assert.ok(MAX_BYTES > 0, 'E2E_CACHE_MAX_BYTES is set');
    // Ten records of about 5.5 KB each: more than the bound holds.
    const ids = Array.from({ length: 10 }, (_, i) => String(90_000_101 + i));
    const one = (id) => ({ operation: 'fetch', database: 'pubmed', ids: [id], retmode: 'xml' });
    for (const id of ids) await ok('entrez_query', one(id));
    const status = await ok('system_api_key_status', {});
    const c = status.structuredContent.cache;
    assert.equal(c.enabled, true);
    assert.ok(c.bytes <= MAX_BYTES, `${c.bytes} bytes kept, bound ${MAX_BYTES}`);
    assert.ok(c.entries >= 2, JSON.stringify(c));
    const [last] = await sent(() => ok('entrez_query', one(ids[9])));
    assert.equal(last, 0, 'the most recent entry was dropped');
    const [first] = await sent(() => ok('entrez_query', one(ids[0])));
    assert.equal(first, 1, 'the least recently used entry was kept past the bound');
  });

  test('validate checks ids at NCBI as it is now, never from the cache', async () => {
    const check = {
      tool: 'entrez_query',
      level: 'runtime',
      arguments: { operation: 'fetch', database: 'pubmed', ids: ['11748933'] },
    };
    const [n1] = await sent(() => ok('validate', check));
    const [n2] = await sent(() => ok('validate', check));
    assert.deepEqual([n1, n2], [1, 1]);
  });

  test('the status tool reports the cache, and no key is in anything it stored', async () => {
    const c = (await ok('system_api_key_status', {})).structuredContent.cache;
    assert.ok(c.hits >= 5 && c.misses >= 5 && c.shared >= 4, JSON.stringify(c));
    assert.ok(c.hit_rate > 0 && c.hit_rate < 1);
    // Where the cache keeps its files is the run's to say: without it, nothing here can look.
    assert.ok(STATE, 'E2E_CACHE_STATE is not set: the stored files cannot be searched for keys');
    // Kept last, so the byte bound has not dropped it yet.
    await ok('entrez_query', { operation: 'fetch', database: 'pubmed', ids: ['12091962'], retmode: 'xml' });
    const files = filesUnder(STATE);
    // The scan reaches where the answers are: a title from a cached PubMed record.
    const answers = files.filter(([, bytes]) => bytes.includes('correctional facilities'));
    assert.ok(answers.length > 0, `no cached answer under ${STATE}`);
    for (const key of [SERVER_KEY, CALLER['X-NCBI-API-Key']].filter(Boolean)) {
      const holding = files.filter(([, bytes]) => bytes.includes(key)).map(([path]) => path);
      assert.deepEqual(holding, [], `an API key (${key === SERVER_KEY ? "the server's" : "the caller's"}) is stored`);
    }
  });
});
