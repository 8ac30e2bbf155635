// Whose a task is, for every kind of task in both revisions: a staging, a PubChem call held
// while PubChem works, a BioC call run in the background, and a result kept at once. A
// stranger (another session and another key in 2025-11-25, another key in 2026-07-28) who
// knows the task id gets exactly what an id nobody made gets, from tasks/get, tasks/result,
// tasks/cancel and tasks/list alike, and their cancel changes nothing for the owner.
// Run: E2E_URL=... E2E_REPLAY=... E2E_EXTERNAL_REPLAY=... node --test tests/e2e/task-ownership.test.mjs

import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { EDGE, URL_UNDER_TEST, TASKS_EXTENSION, openSession, post, postModern, request } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const EXTERNAL_REPLAY = process.env.E2E_EXTERNAL_REPLAY || '';
const OWNER_KEY = { 'X-NCBI-API-Key': `e2e-ownership-owner-${EDGE}` };
const STRANGER_KEY = { 'X-NCBI-API-Key': `e2e-ownership-stranger-${EDGE}` };
const NOBODY_S = '00000000000000000000000000000000';
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));

const KINDS = {
  // A staging whose NCBI answers come late, so that it is still working when the stranger asks.
  staging: (n) => ({
    name: 'entrez_data',
    arguments: { operation: 'fetch_and_stage', database: 'pubmed', ids: synthetic((EDGE === 'worker' ? 90_091_001 : 90_093_001) + n * 1000, 400) },
  }),
  // PubChem keeps the search running for many polls: the call is held.
  held: () => ({
    name: 'entrez_external',
    arguments: { service: 'pubchem', operation: 'structure_search', search_type: 'substructure', identifier: 'C1=CC=CC=C1', mode: 'async', max_records: 5 },
  }),
  apart: () => ({ name: 'entrez_external', arguments: { service: 'pmc', operation: 'bioc', ids: ['PMC3531190'] } }),
  // An operation that is no long work: 2025-11-25 keeps its result as a task at once.
  kept: () => ({ name: 'entrez_data', arguments: { operation: 'list_datasets' } }),
};

async function prepare(kind) {
  if (kind === 'staging') {
    // One batch of 400 records: one efetch, answered 2.5 s late. Exactly one, so that no
    // delay is left queued for a later suite's requests.
    const r = await request(`${REPLAY}/__replay/fail`, { method: 'POST', body: JSON.stringify({ delay_ms: 2500, count: 1 }) });
    assert.equal(r.status, 200, r.text);
  }
  if (kind === 'held') {
    const r = await request(`${EXTERNAL_REPLAY}/__replay/async`, { method: 'POST', body: JSON.stringify({ waits: 50 }) });
    assert.equal(r.status, 200, r.text);
  }
}

async function settle() {
  await request(`${EXTERNAL_REPLAY}/__replay/async`, { method: 'POST', body: JSON.stringify({ waits: 1 }) });
}

// The error, with the task id it names replaced, so two refusals can be compared.
const shape = (reply, id) => {
  assert.ok(reply.json?.error, `not refused: ${reply.text}`);
  return JSON.parse(JSON.stringify(reply.json.error).replaceAll(id, '<id>'));
};

describe(`task ownership [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY && EXTERNAL_REPLAY) && 'E2E_URL, E2E_REPLAY and E2E_EXTERNAL_REPLAY are not set' }, () => {
  let n = 0;
  after(async () => {
    // Nothing queued at the replay is left for the suites that follow.
    const stats = (await request(`${REPLAY}/__replay/stats`)).json;
    assert.equal(stats.pending_faults, 0, 'a delay queued here was never used');
  });
  for (const kind of Object.keys(KINDS)) {
    test(`2025-11-25: a stranger's tasks/get, tasks/result, tasks/cancel and tasks/list reveal nothing of a ${kind} task`, { timeout: 90_000 }, async () => {
      const owner = await openSession(URL_UNDER_TEST, OWNER_KEY);
      const stranger = await openSession(URL_UNDER_TEST, STRANGER_KEY);
      const rpc = (s, method, params) => post(URL_UNDER_TEST, { jsonrpc: '2.0', id: 2, method, params }, s.headers);
      await prepare(kind);
      let taskId;
      try {
        const created = await rpc(owner, 'tools/call', { ...KINDS[kind](n++), task: { ttl: 600_000 } });
        taskId = created.json?.result?.task?.taskId;
        assert.ok(taskId, `no task: ${created.text}`);
        const before = (await rpc(owner, 'tasks/get', { taskId })).json.result.status;
        for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
          const theirs = await rpc(stranger, method, { taskId });
          const nobody = await rpc(stranger, method, { taskId: NOBODY_S });
          assert.deepEqual(shape(theirs, taskId), shape(nobody, NOBODY_S), `${method}: ${theirs.text}`);
          assert.equal(theirs.json.error.code, -32602);
          assert.doesNotMatch(theirs.text, new RegExp(`${KINDS[kind](0).name}|working|completed|cancelled|PubChem|BioC`));
        }
        const list = await rpc(stranger, 'tasks/list', {});
        assert.ok(Array.isArray(list.json?.result?.tasks), list.text);
        assert.ok(!list.text.includes(taskId), 'the stranger lists it');
        // The stranger's cancel did nothing: the owner's task stands as it stood.
        const after = (await rpc(owner, 'tasks/get', { taskId })).json.result.status;
        assert.notEqual(after, 'cancelled');
        if (before === 'working') assert.ok(['working', 'completed'].includes(after), after);
        else assert.equal(after, before);
      } finally {
        if (taskId) await rpc(owner, 'tasks/cancel', { taskId });
        await settle();
      }
    });

    // 2026-07-28 makes a task only of long work: no task for a call that ends at once.
    if (kind === 'kept') continue;
    test(`2026-07-28: a stranger's tasks/get and tasks/cancel reveal nothing of a ${kind} task`, { timeout: 90_000 }, async () => {
      const as = (headers, method, params) =>
        postModern(URL_UNDER_TEST, method, params, {
          capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
          name: params.name || params.taskId,
          headers,
        });
      await prepare(kind);
      let taskId;
      try {
        const created = await as(OWNER_KEY, 'tools/call', KINDS[kind](n++));
        taskId = created.json?.result?.taskId;
        assert.equal(created.json?.result?.resultType, 'task', created.text);
        const before = (await as(OWNER_KEY, 'tasks/get', { taskId })).json.result.status;
        for (const method of ['tasks/get', 'tasks/cancel']) {
          const theirs = await as(STRANGER_KEY, method, { taskId });
          const nobody = await as(STRANGER_KEY, method, { taskId: NOBODY_S });
          assert.deepEqual(shape(theirs, taskId), shape(nobody, NOBODY_S), `${method}: ${theirs.text}`);
          assert.equal(theirs.json.error.code, -32602);
        }
        const after = (await as(OWNER_KEY, 'tasks/get', { taskId })).json.result.status;
        assert.notEqual(after, 'cancelled');
        if (before !== 'working') assert.equal(after, before);
      } finally {
        if (taskId) await as(OWNER_KEY, 'tasks/cancel', { taskId });
        await settle();
      }
    });
  }
});
