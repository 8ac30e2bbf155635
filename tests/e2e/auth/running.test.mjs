// Stagings running at once, on the ledger, under concurrency: an edge in bearer mode with
// ENTREZ_DATA_MAX_RUNNING=2 and ENTREZ_DATA_TOTAL_MAX_RUNNING=3, on the Free plan's budget
// (a call stages what its budget pays for and the server carries the rest on), its NCBI replay
// answering each request 1.5 s late so that every staging is still running while the suite
// looks. Four stagings of one account sent at the same moment: exactly two run, the others
// are refused `account_running`; a second account's first runs and its second is refused
// `total_running`; a task cancelled frees its slot at once.
//
//   E2E_RUNNING_URL     the edge (bearer tokens E2E_BEARER_TOKENS)
//   E2E_RUNNING_REPLAY  its own NCBI replay
//   E2E_EDGE            native or worker

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { TASKS_EXTENSION, postModern, request } from '../helpers.mjs';

const URL_UNDER_TEST = process.env.E2E_RUNNING_URL || '';
const REPLAY = process.env.E2E_RUNNING_REPLAY || '';
const EDGE = process.env.E2E_EDGE || 'edge';
const TOKENS = Object.fromEntries(
  (process.env.E2E_BEARER_TOKENS || '').split(',').filter(Boolean).map((p) => p.split(':')),
);
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));

// A 2026-07-28 request of `who`, declaring the tasks extension.
const call = (who, method, params) =>
  postModern(URL_UNDER_TEST, method, params, {
    capabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    name: params.name || params.taskId,
    headers: { Authorization: `Bearer ${TOKENS[who]}` },
  });

let range = 90_050_001;
/** Starts a staging of 1,000 new records as `who`: its task id, or the refusal's error. */
async function stage(who) {
  const ids = synthetic(range, 1000);
  range += 1000;
  const reply = await call(who, 'tools/call', {
    name: 'entrez_data',
    arguments: { operation: 'fetch_and_stage', database: 'pubmed', ids, max_records: 1000 },
  });
  const r = reply.json?.result;
  assert.ok(r, reply.text);
  if (r.resultType === 'task') return { task: r.taskId };
  assert.equal(r.isError, true, `neither a task nor a refusal: ${reply.text}`);
  return { error: r.structuredContent.error };
}

const limitOf = (outcome) => outcome.error?.details?.limit;

describe(`stagings running at once [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY) && 'E2E_RUNNING_URL and E2E_RUNNING_REPLAY are not set' }, () => {
  const started = [];

  test('two per account and three in all, counted atomically; a cancel frees a slot at once', async () => {
    // Every answer 1.5 s late: a staging of 1,000 records runs for a minute or more.
    const slow = await request(`${REPLAY}/__replay/fail`, {
      method: 'POST',
      body: JSON.stringify({ delay_ms: 1500, count: 100_000 }),
    });
    assert.equal(slow.status, 200, slow.text);
    try {
      // Four at the same moment: the ledger admits one at a time.
      const four = await Promise.all([0, 1, 2, 3].map(() => stage('alice')));
      const admitted = four.filter((o) => o.task);
      started.push(...admitted.map((o) => ['alice', o.task]));
      assert.equal(admitted.length, 2, JSON.stringify(four));
      for (const o of four.filter((x) => x.error)) {
        assert.equal(o.error.code, 'quota_exceeded', JSON.stringify(o.error));
        assert.equal(limitOf(o), 'account_running', JSON.stringify(o.error));
        assert.match(o.error.message, /ENTREZ_DATA_MAX_RUNNING/);
      }
      // Another account: its first makes three in the deployment, its second is one too many.
      const bobFirst = await stage('bob');
      assert.ok(bobFirst.task, JSON.stringify(bobFirst));
      started.push(['bob', bobFirst.task]);
      const bobSecond = await stage('bob');
      assert.equal(limitOf(bobSecond), 'total_running', JSON.stringify(bobSecond));
      assert.match(bobSecond.error.message, /ENTREZ_DATA_TOTAL_MAX_RUNNING/);
      // All three are still running (the refusals were not for stagings that had ended).
      for (const [who, taskId] of started) {
        const got = await call(who, 'tasks/get', { taskId });
        assert.equal(got.json?.result?.status, 'working', got.text);
      }
      // Alice cancels one: the slot is free at once, for her and so for the deployment.
      const [, first] = started[0];
      const ack = await call('alice', 'tasks/cancel', { taskId: first });
      assert.equal(ack.status, 200, ack.text);
      const again = await stage('alice');
      assert.ok(again.task, `refused right after a cancel: ${JSON.stringify(again)}`);
      started.push(['alice', again.task]);
      // And the deployment is full again.
      assert.equal(limitOf(await stage('bob')), 'total_running');
    } finally {
      // Stop them all (a cancelled staging takes no more steps) and let NCBI answer at once.
      for (const [who, taskId] of started) await call(who, 'tasks/cancel', { taskId });
      await request(`${REPLAY}/__replay/reset`, { method: 'POST' });
    }
  });
});
