// An edge in bearer-token mode, and what a deployment's ceilings do to someone who opens
// session after session to stage data.
//
//   E2E_BEARER_URL     strict bearer mode: tokens only; ENTREZ_DATA_MAX_DATASETS=3,
//                      ENTREZ_IDENTITY_STAGINGS_PER_HOUR=4, ENTREZ_DATA_TOTAL_MAX_DATASETS=5
//   E2E_OPEN_URL       bearer mode that also serves anonymous callers (MCP_AUTH_ANONYMOUS=true),
//                      with its own NCBI_API_KEY; ENTREZ_ANONYMOUS_MAX_DATASETS=2,
//                      ENTREZ_ANONYMOUS_STAGINGS_PER_HOUR=3
//   E2E_BEARER_TOKENS  identity:token pairs, as the servers' MCP_AUTH_TOKENS
//   E2E_REPLAY         the NCBI replay (its per-caller statistics show whose key was sent)
//   E2E_BEARER_DATA_DIR  (native) the strict server's data directory, to count what is on disk
//   E2E_EDGE           native or worker

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TASKS_EXTENSION, assertFetched, initializeBody, post, postModern, request } from '../helpers.mjs';

const STRICT = process.env.E2E_BEARER_URL || '';
const OPEN = process.env.E2E_OPEN_URL || '';
const EDGE = process.env.E2E_EDGE || 'edge';
const REPLAY = process.env.E2E_REPLAY || '';
const DATA_DIR = process.env.E2E_BEARER_DATA_DIR || '';
const TOKENS = Object.fromEntries(
  (process.env.E2E_BEARER_TOKENS || '').split(',').filter(Boolean).map((p) => p.split(':')),
);
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));
// Each edge stages its own PMIDs, so a dataset id never depends on which edge ran first.
const BASE = EDGE === 'worker' ? 90_097_000 : 90_098_000;
let next = BASE;
const fresh = (n = 2) => synthetic((next += 10), n);

async function connect(url, token) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const c = new Client({ name: 'e2e-bearer', version: '1.0.0' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }), { timeout: 15_000 });
  return c;
}
const data = (c, args) => c.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 120_000 });
const status = async (c) => (await c.callTool({ name: 'system_api_key_status', arguments: {} })).structuredContent;

/** Stages two records in a new session of `token`'s identity (or anonymously). */
async function stageInNewSession(url, token) {
  const c = await connect(url, token);
  try {
    return await data(c, { operation: 'fetch_and_stage', database: 'pubmed', ids: fresh() });
  } finally {
    await c.close();
  }
}
function refusedFor(result, limit, code = 'quota_exceeded') {
  assert.equal(result.isError, true, `expected a refusal for ${limit}: ${JSON.stringify(result.structuredContent)}`);
  const e = result.structuredContent.error;
  assert.equal(e.code, code, JSON.stringify(e));
  assert.equal(e.details.limit, limit, JSON.stringify(e));
  assert.ok(e.suggestions.length > 0);
  return e;
}
/** Requests the replay has seen in all, and those that carried an api_key. */
async function keyedArrivals() {
  const s = (await request(`${REPLAY}/__replay/stats`)).json;
  const keyed = Object.entries(s.timestamps_ms).filter(([caller]) => caller.startsWith('key:'));
  return { requests: s.requests, keyed: keyed.reduce((n, [, times]) => n + times.length, 0) };
}

describe(`bearer tokens [${EDGE}]`, { skip: !STRICT && 'E2E_BEARER_URL is not set' }, () => {
  test('without a token: 401 with a Bearer challenge; a wrong token: invalid_token; no metadata to point at', async () => {
    const none = await post(STRICT, initializeBody(1, '2025-11-25'));
    assert.equal(none.status, 401, none.text);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="entrez-mcp"');
    const discover = await post(STRICT, { jsonrpc: '2.0', id: 2, method: 'server/discover', params: {} });
    assert.equal(discover.status, 401, 'the 2026 era is behind the same door');
    const wrong = await post(STRICT, initializeBody(1, '2025-11-25'), { Authorization: 'Bearer not-one-of-ours-0123456789' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate'), /error="invalid_token"/);
    const origin = new URL(STRICT).origin;
    assert.equal((await request(`${origin}/.well-known/oauth-protected-resource/mcp`)).status, 404);
  });

  test('each token is its identity; a session is no credential for another', async () => {
    const alice = await connect(STRICT, TOKENS.alice);
    const s = await status(alice);
    assert.equal(s.caller.identity, 'alice');
    assert.equal(s.caller.auth_mode, 'bearer');
    await alice.close();
    const open = await post(STRICT, initializeBody(1, '2025-11-25'), { Authorization: `Bearer ${TOKENS.alice}` });
    const headers = { 'Mcp-Session-Id': open.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post(STRICT, list, { ...headers, Authorization: `Bearer ${TOKENS.alice}` })).status, 200);
    assert.equal((await post(STRICT, list, { ...headers, Authorization: `Bearer ${TOKENS.bob}` })).status, 404);
  });

  test('many sessions of one identity are one account: its dataset and hourly ceilings hold, then the deployment\'s total', async () => {
    // Alice opens a new session for every staging: the first three are admitted.
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const r = await stageInNewSession(STRICT, TOKENS.alice);
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      ids.push(r.structuredContent.data_access_id);
    }
    // An identity is the owner of its datasets, so the owner's own ceiling speaks first.
    for (let i = 0; i < 3; i++) {
      const e = refusedFor(await stageInNewSession(STRICT, TOKENS.alice), 'owner_datasets', 'dataset_quota_exceeded');
      assert.match(e.message, /already hold 3 datasets/i);
      assert.match(e.details.frees_at, /^\d{4}-\d\d-\d\dT/, 'it says when a dataset frees up');
    }
    const alice = await connect(STRICT, TOKENS.alice);
    const listed = await data(alice, { operation: 'list_datasets' });
    assert.deepEqual(listed.structuredContent.datasets.map((d) => d.data_access_id).sort(), [...ids].sort(), 'every session of hers sees all three');
    const left = await status(alice);
    assert.equal(left.allowances.datasets_left, 0);
    assert.equal(left.allowances.stagings_left, 1);
    // Dropping one makes room, and the fourth staging of the hour is admitted; the fifth is not.
    assert.equal((await data(alice, { operation: 'drop_dataset', data_access_id: ids.pop() })).isError, false);
    const fourth = await data(alice, { operation: 'fetch_and_stage', database: 'pubmed', ids: fresh() });
    assert.equal(fourth.isError, false, JSON.stringify(fourth.structuredContent));
    assert.equal((await data(alice, { operation: 'drop_dataset', data_access_id: fourth.structuredContent.data_access_id })).isError, false);
    const e = refusedFor(await data(alice, { operation: 'fetch_and_stage', database: 'pubmed', ids: fresh() }), 'stagings_per_hour');
    assert.match(e.message, /4/);
    await alice.close();

    // Bob fills the deployment (two of Alice's plus three of his make five) and Carol is refused.
    for (let i = 0; i < 3; i++) {
      const r = await stageInNewSession(STRICT, TOKENS.bob);
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    }
    const full = refusedFor(await stageInNewSession(STRICT, TOKENS.carol), 'total_datasets');
    assert.match(full.message, /maximum of 5 datasets/);
    const carol = await connect(STRICT, TOKENS.carol);
    const s = await status(carol);
    assert.equal(s.allowances.total_datasets_left, 0);
    await carol.close();
    if (DATA_DIR) {
      const files = readdirSync(`${DATA_DIR}/datasets`).filter((f) => f.endsWith('.sqlite'));
      assert.ok(files.length <= 5, `${files.length} dataset files on disk: ${files.join(', ')}`);
    }
  });
});

describe(`anonymous callers beside tokens [${EDGE}]`, { skip: !OPEN && 'E2E_OPEN_URL is not set' }, () => {
  test('an anonymous caller is served but does not spend the operator\'s NCBI key; a token holder does', async () => {
    const anon = await connect(OPEN);
    const s = await status(anon);
    assert.equal(s.caller.authenticated, false);
    assert.equal(s.caller.server_key_for_you, false);
    assert.equal(s.source, 'none');
    if (REPLAY) {
      const before = await keyedArrivals();
      const r = await anon.callTool({ name: 'entrez_query', arguments: { operation: 'search', database: 'pubmed', term: 'asthma', retmax: 3 } });
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      const after = await keyedArrivals();
      assert.ok(after.requests > before.requests, 'the search reached the replay');
      assert.equal(after.keyed, before.keyed, 'no api_key was sent for the anonymous caller');
      const alice = await connect(OPEN, TOKENS.alice);
      assert.equal((await status(alice)).source, 'server_secret');
      await alice.callTool({ name: 'entrez_query', arguments: { operation: 'search', database: 'pubmed', term: 'asthma', retmax: 3 } });
      const keyed = await keyedArrivals();
      assert.ok(keyed.keyed > after.keyed, 'the identity\'s search carried the server\'s key');
      await alice.close();
    }
    await anon.close();
    const bad = await post(OPEN, initializeBody(1, '2025-11-25'), { Authorization: 'Bearer not-one-of-ours-0123456789' });
    assert.equal(bad.status, 401, 'a wrong token is refused even where anonymous callers are served');
  });

  test('anonymous sessions from one address share its ceiling, however many are opened', async () => {
    const staged = [];
    for (let i = 0; i < 2; i++) {
      const r = await stageInNewSession(OPEN);
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      staged.push(r.structuredContent.data_access_id);
    }
    for (let i = 0; i < 4; i++) {
      const e = refusedFor(await stageInNewSession(OPEN), 'account_datasets');
      assert.match(e.message, /anonymous callers from your address/i);
    }
    // The hour's third staging is the last one, whatever was dropped.
    const c = await connect(OPEN);
    const s = await status(c);
    assert.equal(s.allowances.datasets_left, 0);
    assert.equal(s.allowances.stagings_left, 1);
    await c.close();
    // A token holder on the same address is its own account.
    const r = await stageInNewSession(OPEN, TOKENS.alice);
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
  });

  // This deployment runs the free-plan setting (ENTREZ_CPU_BUDGET_MS=10, ENTREZ_SUBREQUESTS=50):
  // one call stages what its budget pays for, and the server carries the rest on by itself
  // (natively a task per step; on the Worker each step an alarm of the dataset's Durable Object).
  test('one call on the free-plan budget stages 2,000 records, the server carrying the rest on by itself', async () => {
    const c = await connect(OPEN, TOKENS.alice);
    try {
      // A range of its own per edge, inside the replay's synthetic PMIDs (up to 90,099,999).
      const ids = synthetic(EDGE === 'worker' ? 90_080_001 : 90_085_001, 2000);
      const r = await data(c, { operation: 'fetch_and_stage', database: 'pubmed', ids, max_records: 2000 });
      assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
      const id = r.structuredContent.data_access_id;
      assert.equal(r.structuredContent.status, 'loading', JSON.stringify(r.structuredContent));
      assert.equal(r.structuredContent.next_call, null);
      assert.ok(r.structuredContent.records < 2000, JSON.stringify(r.structuredContent));
      assert.ok(r.structuredContent.warnings.some((w) => /ENTREZ_CPU_BUDGET_MS.*by itself/.test(w)));
      // No further tool call stages anything: list_datasets only watches.
      let seen = r.structuredContent.records;
      let d;
      const deadline = Date.now() + 90_000;
      for (;;) {
        const listed = await data(c, { operation: 'list_datasets' });
        d = listed.structuredContent.datasets.find((x) => x.data_access_id === id);
        assert.ok(d, JSON.stringify(listed.structuredContent));
        assert.ok(d.records >= seen, `records never go back: ${d.records} after ${seen}`);
        seen = d.records;
        if (d.status !== 'loading') break;
        assert.ok(Date.now() < deadline, `still loading at ${d.records} records`);
        await new Promise((res) => setTimeout(res, 500));
      }
      assert.equal(d.status, 'complete', JSON.stringify(d));
      assert.equal(d.records, 2000);
      const q = await data(c, { operation: 'query', data_access_id: id, sql: 'SELECT COUNT(*) AS rows, COUNT(DISTINCT pmid) AS n, MIN(pmid) AS lo, MAX(pmid) AS hi FROM article' });
      assert.deepEqual(q.structuredContent.rows[0], [2000, 2000, Number(ids[0]), Number(ids[1999])]);
      // NCBI was asked for each record once: no step fetched a batch another had fetched.
      await assertFetched(assert, REPLAY, ids);
      const again = await data(c, { operation: 'fetch_and_stage', data_access_id: id });
      assert.equal(again.isError, true);
      assert.equal(again.structuredContent.error.code, 'dataset_complete');
      // Someone else cannot see it, loading or complete.
      const bob = await connect(OPEN, TOKENS.bob);
      try {
        const other = await data(bob, { operation: 'query', data_access_id: id, sql: 'SELECT 1' });
        assert.equal(other.isError, true);
        assert.equal(other.structuredContent.error.code, 'dataset_not_found');
      } finally {
        await bob.close();
      }
    } finally {
      await c.close();
    }
  });

  test('a passing fault puts a carried staging off, and it then ends by itself', async () => {
    const c = await connect(OPEN, TOKENS.alice);
    try {
      const ids = synthetic(EDGE === 'worker' ? 90_030_001 : 90_033_001, 1000);
      const r = await data(c, { operation: 'fetch_and_stage', database: 'pubmed', ids, max_records: 1000 });
      assert.equal(r.structuredContent.status, 'loading', JSON.stringify(r.structuredContent));
      const id = r.structuredContent.data_access_id;
      // NCBI answers 503 to every attempt of the next request: past its retries, the step
      // that sent it puts the staging off (30 s) instead of leaving it for a caller.
      const fault = await request(`${REPLAY}/__replay/fail`, {
        method: 'POST',
        body: JSON.stringify({ status: 503, count: 4 }),
      });
      assert.equal(fault.status, 200, fault.text);
      const count = { operation: 'query', data_access_id: id, sql: 'SELECT COUNT(*), COUNT(DISTINCT pmid) FROM article' };
      let q;
      let paused = false;
      // Under the suite's 120 s per test: a half-minute pause, then the steps.
      const deadline = Date.now() + 100_000;
      for (;;) {
        q = await data(c, count);
        assert.equal(q.isError, false, JSON.stringify(q.structuredContent));
        paused ||= (q.structuredContent.warnings || []).some((w) => /paused by a passing fault \(.*tries again at/.test(w));
        if (q.structuredContent.status !== 'loading') break;
        assert.ok(Date.now() < deadline, `still loading: ${JSON.stringify(q.structuredContent.warnings)}`);
        await new Promise((res) => setTimeout(res, 500));
      }
      assert.ok(paused, 'the warning named the fault and the next try');
      assert.equal(q.structuredContent.status, 'complete', JSON.stringify(q.structuredContent));
      assert.deepEqual(q.structuredContent.rows[0], [1000, 1000]);
      // The faulted requests served nothing; each record was fetched once.
      await assertFetched(assert, REPLAY, ids);
    } finally {
      await c.close();
    }
  });

  test('a staging task cancelled mid-way keeps what it staged, and a stranger cannot reach it', async () => {
    const modern = (token, method, params) =>
      postModern(OPEN, method, params, {
        capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        name: params.name || params.taskId,
        headers: { Authorization: `Bearer ${token}` },
      });
    const ids = synthetic(EDGE === 'worker' ? 90_060_001 : 90_064_001, 2000);
    const created = await modern(TOKENS.alice, 'tools/call', {
      name: 'entrez_data',
      arguments: { operation: 'fetch_and_stage', database: 'pubmed', ids, max_records: 2000 },
    });
    const taskId = created.json?.result?.taskId;
    assert.equal(created.json?.result?.resultType, 'task', created.text);
    // Nobody else can poll or cancel it: it reads as unknown.
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const stranger = await modern(TOKENS.bob, method, { taskId });
      assert.equal(stranger.json?.error?.code, -32602, `${method}: ${stranger.text}`);
    }
    // Let a step or two land, then cancel.
    await new Promise((res) => setTimeout(res, 300));
    const ack = await modern(TOKENS.alice, 'tasks/cancel', { taskId });
    assert.equal(ack.json?.result?.resultType, 'complete', ack.text);
    const got = await modern(TOKENS.alice, 'tasks/get', { taskId });
    assert.equal(got.json?.result?.status, 'cancelled', got.text);
    // Whatever step was running ends; no more follow, and the records staged stay.
    await new Promise((res) => setTimeout(res, 2_000));
    const c = await connect(OPEN, TOKENS.alice);
    try {
      const listed = await data(c, { operation: 'list_datasets' });
      const d = listed.structuredContent.datasets.find((x) => x.data_access_id === taskId);
      assert.equal(d.status, 'failed', JSON.stringify(d));
      assert.match(d.reason, /cancelled/);
      assert.ok(d.records < 2000, `records ${d.records}`);
      await new Promise((res) => setTimeout(res, 1_500));
      const later = await data(c, { operation: 'list_datasets' });
      const after = later.structuredContent.datasets.find((x) => x.data_access_id === taskId);
      assert.equal(after.records, d.records, 'no step after the cancel');
      const q = await data(c, { operation: 'query', data_access_id: taskId, sql: 'SELECT COUNT(*) FROM article' });
      assert.equal(q.structuredContent.rows[0][0], d.records);
    } finally {
      await c.close();
    }
  });
});
