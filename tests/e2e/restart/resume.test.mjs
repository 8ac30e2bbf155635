// A staging the server was continuing when it was killed (SIGKILL, mid-step) goes on after
// a restart from its last stored position, with no further tool call and nothing twice:
// natively the store puts it back when it reopens; on the Worker the dataset's Durable Object
// alarm, armed as a watchdog before each step, takes it up two minutes after the dead step
// last wrote. scripts/test.sh starts the staging (start.mjs), kills and restarts the server.
// Run: E2E_URL=... E2E_TASK_ID=... node --test tests/e2e/restart/resume.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modern, IDS } from './modern.mjs';
import { assertFetched, efetchBatches } from '../helpers.mjs';

const URL_UNDER_TEST = process.env.E2E_URL || '';
const TASK = process.env.E2E_TASK_ID || '';
const EDGE = process.env.E2E_EDGE || 'edge';
const REPLAY = process.env.E2E_REPLAY || '';

test(`a staging interrupted by a restart completes by itself [${EDGE}]`, { skip: !(URL_UNDER_TEST && TASK && REPLAY) && 'E2E_URL, E2E_TASK_ID and E2E_REPLAY are not set' }, async () => {
  let task;
  const seen = [];
  // The Worker's watchdog waits 2 minutes after the dead step's last write, then some 25
  // paced steps of 1.5 s each (163 s in all here): 280 s, under the suite's 300 s per test,
  // leaves a slow machine room.
  const deadline = Date.now() + 280_000;
  for (;;) {
    const reply = await modern(URL_UNDER_TEST, 'tasks/get', { taskId: TASK }, TASK);
    task = reply.result;
    assert.ok(task, JSON.stringify(reply));
    seen.push(task.statusMessage);
    if (task.status !== 'working') break;
    assert.ok(Date.now() < deadline, `still working: ${seen.slice(-3).join(' | ')}`);
    await new Promise((res) => setTimeout(res, 2_000));
  }
  assert.ok(seen.length > 1, 'the restart came before the staging ended');
  assert.equal(task.status, 'completed', JSON.stringify(task));
  assert.equal(task.result.structuredContent.status, 'complete');
  assert.equal(task.result.structuredContent.records, IDS.length);
  const q = await modern(URL_UNDER_TEST, 'tools/call', {
    name: 'entrez_data',
    arguments: { operation: 'query', data_access_id: TASK, sql: 'SELECT COUNT(*), COUNT(DISTINCT pmid), MIN(pmid), MAX(pmid) FROM article' },
  }, 'entrez_data');
  assert.deepEqual(q.result.structuredContent.rows[0], [IDS.length, IDS.length, Number(IDS[0]), Number(IDS.at(-1))]);
  // What NCBI was asked (the replay was reset before the staging began): every record, and
  // again at most the one batch the kill cut off; a restart from the first record, or a batch
  // fetched twice, would show here (the table's primary key hides both).
  const batches = await efetchBatches(REPLAY, IDS);
  const { twice } = await assertFetched(assert, REPLAY, IDS, { again: Math.max(...batches.map((b) => b.length)) });
  console.log(`restart [${EDGE}]: ${batches.length} efetch requests, ${twice.length} ids fetched again`);
});
