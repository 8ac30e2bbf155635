// MCP tasks through a running edge. 2025-11-25: the TypeScript SDK 1.x stages through its
// experimental callToolStream, which sees entrez_data's execution.taskSupport, asks for a task,
// polls tasks/get and reads the call's own result from tasks/result; another session cannot see
// the task. 2026-07-28, over raw HTTP: a task only when the request declares the extension, the
// outcome inline in tasks/get, -32021 (HTTP 400) for a task method without it. A PubChem
// asynchronous search that PubChem is still working on after the hand-off is held as a task in
// both eras (the external replay told to keep new searches running for a few polls). A BioC
// call made a task runs in the background, on the edge's scheduler, in both eras.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/tasks.test.mjs

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { EDGE, URL_UNDER_TEST, TASKS_EXTENSION, callerKeyHeaders, postModern } from './helpers.mjs';

const EXTERNAL_REPLAY = process.env.E2E_EXTERNAL_REPLAY || '';

// How many polls a new asynchronous search answers Waiting at the external replay.
async function asyncWaits(waits) {
  const res = await fetch(`${EXTERNAL_REPLAY}/__replay/async`, { method: 'POST', body: JSON.stringify({ waits }) });
  assert.equal(res.status, 200);
}

const ASYNC_SEARCH = {
  name: 'entrez_external',
  arguments: { service: 'pubchem', operation: 'structure_search', search_type: 'substructure', identifier: 'C1=CC=CC=C1', mode: 'async', max_records: 5 },
};

const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));

async function connect(name) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
    requestInit: { headers: callerKeyHeaders('tasks') },
  });
  await client.connect(transport, { timeout: 15_000 });
  return client;
}

// A 2026-07-28 request under this suite's caller key, declaring the tasks extension or not.
const modern = (method, params, { extension = true, name } = {}) =>
  postModern(URL_UNDER_TEST, method, params, {
    capabilities: extension ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
    name,
    headers: callerKeyHeaders('tasks'),
  });

// Polls a 2026-07-28 task every `everyMs` until it has ended (90 s at most); its last tasks/get.
async function untilEnded(taskId, everyMs) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const got = await modern('tasks/get', { taskId }, { name: taskId });
    assert.equal(got.status, 200, got.text);
    if (got.json.result.status !== 'working') return got;
    assert.ok(Date.now() < deadline, 'the task ends');
    await new Promise((res) => setTimeout(res, everyMs));
  }
}

describe(`tasks [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  test('2025-11-25: the SDK stages as a task, polls it and reads what the call would have returned', async () => {
    const client = await connect('entrez-mcp-e2e-tasks');
    const stranger = await connect('entrez-mcp-e2e-tasks-stranger');
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.find((t) => t.name === 'entrez_data').execution.taskSupport, 'optional');
      assert.equal(tools.find((t) => t.name === 'entrez_query').execution.taskSupport, 'optional');
      assert.equal(tools.find((t) => t.name === 'entrez_capabilities').execution, undefined);
      const ids = synthetic(EDGE === 'worker' ? 90_070_001 : 90_075_001, 300);
      const events = [];
      const stream = client.experimental.tasks.callToolStream(
        { name: 'entrez_data', arguments: { operation: 'fetch_and_stage', database: 'pubmed', ids } },
        undefined,
        { timeout: 120_000 },
      );
      for await (const event of stream) events.push(event);
      assert.equal(events[0].type, 'taskCreated', JSON.stringify(events[0]));
      const last = events.at(-1);
      assert.equal(last.type, 'result', `${JSON.stringify(events.slice(0, -1))} then ${last.error?.message}`);
      const taskId = events[0].task.taskId;
      const sc = last.result.structuredContent;
      assert.equal(sc.status, 'complete', JSON.stringify(sc));
      assert.equal(sc.records, 300);
      assert.equal(sc.data_access_id, taskId, 'a staging task is its dataset');
      const got = await client.experimental.tasks.getTask(taskId);
      assert.equal(got.status, 'completed');
      const { tasks } = await client.experimental.tasks.listTasks();
      assert.ok(tasks.some((t) => t.taskId === taskId));
      // Another session can neither see, poll nor cancel it.
      await assert.rejects(stranger.experimental.tasks.getTask(taskId), /No task/);
      await assert.rejects(stranger.experimental.tasks.cancelTask(taskId), /No task/);
      const theirs = await stranger.experimental.tasks.listTasks();
      assert.ok(!theirs.tasks.some((t) => t.taskId === taskId));
    } finally {
      await client.close();
      await stranger.close();
    }
  });

  test('2026-07-28: a task only for a request that declares the extension, its outcome inline', async () => {
    const ids = synthetic(EDGE === 'worker' ? 90_071_001 : 90_076_001, 300);
    const args = { name: 'entrez_data', arguments: { operation: 'fetch_and_stage', database: 'pubmed', ids } };
    const created = await modern('tools/call', args, { name: 'entrez_data' });
    assert.equal(created.status, 200, created.text);
    const t = created.json.result;
    assert.equal(t.resultType, 'task', created.text);
    assert.equal(t.status, 'working');
    assert.ok(Number.isInteger(t.ttlMs) && t.ttlMs > 0 && Number.isInteger(t.pollIntervalMs));
    assert.match(t.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    const undeclared = await modern('tasks/get', { taskId: t.taskId }, { extension: false, name: t.taskId });
    assert.equal(undeclared.status, 400, undeclared.text);
    assert.equal(undeclared.json.error.code, -32021);
    assert.deepEqual(undeclared.json.error.data.requiredCapabilities, { extensions: { [TASKS_EXTENSION]: {} } });
    const got = await untilEnded(t.taskId, 300);
    const done = got.json.result;
    assert.equal(done.status, 'completed', got.text);
    assert.equal(done.resultType, 'complete');
    assert.equal(done.result.structuredContent.records, 300);
    const ack = await modern('tasks/cancel', { taskId: t.taskId }, { name: t.taskId });
    assert.equal(ack.json.result.resultType, 'complete', ack.text);
    assert.equal(ack.json.result.taskId, undefined);
    const wrongName = await modern('tasks/get', { taskId: t.taskId }, { name: 'someone-else' });
    assert.equal(wrongName.json.error.code, -32020, wrongName.text);
    // Without the extension the same call answers as it always did.
    const plain = await modern('tools/call', args, { extension: false, name: 'entrez_data' });
    assert.equal(plain.json.result.resultType, 'complete', plain.text);
    assert.equal(plain.json.result.structuredContent.status, 'complete');
  });

  test('2025-11-25: a caller keeps at most 200 task results; the oldest go first', async () => {
    const client = await connect('entrez-mcp-e2e-tasks-many');
    try {
      const ids = [];
      for (let i = 0; i < 201; i++) {
        const created = await client.request(
          { method: 'tools/call', params: { name: 'entrez_data', arguments: { operation: 'list_datasets' }, task: {} } },
          CreateTaskResultSchema,
        );
        ids.push(created.task.taskId);
      }
      const kept = [];
      for (const id of ids) {
        try {
          const task = await client.experimental.tasks.getTask(id);
          assert.equal(task.status, 'completed');
          kept.push(id);
        } catch (e) {
          assert.match(String(e.message), /No task/);
        }
      }
      assert.equal(kept.length, 200, `kept ${kept.length} of 201`);
      assert.ok(kept.includes(ids.at(-1)), 'the newest is kept');
    } finally {
      await client.close();
    }
  });

  test('both eras: a PubChem search still running after the hand-off is held as a task', { skip: !EXTERNAL_REPLAY && 'E2E_EXTERNAL_REPLAY is not set' }, async () => {
    // Waiting for the in-call polls at 1, 2.5 and 4.75 s, then the task; its first look, 4 s
    // later, collects the answer.
    await asyncWaits(3);
    const client = await connect('entrez-mcp-e2e-tasks-pubchem');
    const stranger = await connect('entrez-mcp-e2e-tasks-pubchem-stranger');
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.find((t) => t.name === 'entrez_external').execution.taskSupport, 'optional');
      const events = [];
      const started = Date.now();
      const stream = client.experimental.tasks.callToolStream(ASYNC_SEARCH, undefined, { timeout: 120_000 });
      for await (const event of stream) {
        events.push(event);
        if (event.type === 'taskCreated') {
          assert.ok(Date.now() - started < 15_000, 'the task comes after the hand-off, not the minute');
          await assert.rejects(stranger.experimental.tasks.getTask(event.task.taskId), /No task/);
        }
      }
      assert.equal(events[0].type, 'taskCreated', JSON.stringify(events[0]));
      const last = events.at(-1);
      assert.equal(last.type, 'result', `${JSON.stringify(events.slice(0, -1))} then ${last.error?.message}`);
      const sc = last.result.structuredContent;
      assert.equal(sc.count, 5, JSON.stringify(sc));
      assert.equal(sc.polls, 4, 'the call and its task polled the ListKey four times in all');
      assert.ok(sc.listkey, JSON.stringify(sc));
      // 2026-07-28: the same search from a request that declares the extension.
      await asyncWaits(3);
      const created = await modern('tools/call', ASYNC_SEARCH, { name: 'entrez_external' });
      const t = created.json.result;
      assert.equal(t.resultType, 'task', created.text);
      assert.match(t.statusMessage, /PubChem is still working/);
      const got = await untilEnded(t.taskId, 1_000);
      assert.equal(got.json.result.status, 'completed', got.text);
      assert.equal(got.json.result.result.structuredContent.count, 5, got.text);
      // A pending search its caller cancels is looked at no more.
      await asyncWaits(50);
      const again = await modern('tools/call', ASYNC_SEARCH, { name: 'entrez_external' });
      const id = again.json.result.taskId;
      const ack = await modern('tasks/cancel', { taskId: id }, { name: id });
      assert.equal(ack.status, 200, ack.text);
      const gone = await modern('tasks/get', { taskId: id }, { name: id });
      assert.equal(gone.json.result.status, 'cancelled', gone.text);
    } finally {
      await asyncWaits(1);
      await client.close();
      await stranger.close();
    }
  });

  test('both eras: a BioC call made a task runs in the background and ends with what the call returns', { skip: !EXTERNAL_REPLAY && 'E2E_EXTERNAL_REPLAY is not set' }, async () => {
    const BIOC = { name: 'entrez_external', arguments: { service: 'pmc', operation: 'bioc', ids: ['PMC3531190', 'PMC0000001'] } };
    const client = await connect('entrez-mcp-e2e-tasks-bioc');
    const stranger = await connect('entrez-mcp-e2e-tasks-bioc-stranger');
    try {
      await client.listTools(); // callToolStream asks for a task where a tool says it may run as one
      const inline = await client.callTool(BIOC);
      assert.equal(inline.isError, false, JSON.stringify(inline));
      const events = [];
      const stream = client.experimental.tasks.callToolStream(BIOC, undefined, { timeout: 120_000 });
      for await (const event of stream) {
        events.push(event);
        if (event.type === 'taskCreated') {
          assert.match(event.task.statusMessage, /running in the background/);
          await assert.rejects(stranger.experimental.tasks.getTask(event.task.taskId), /No task/);
        }
      }
      assert.equal(events[0].type, 'taskCreated', JSON.stringify(events[0]));
      const last = events.at(-1);
      assert.equal(last.type, 'result', `${JSON.stringify(events.slice(0, -1))} then ${last.error?.message}`);
      // The server's run is the call itself: the same articles, passages and failures (its
      // answers may come from the cache the inline call filled, which the text then says).
      const { structuredContent: ran } = last.result;
      assert.equal(ran.found, 1, JSON.stringify(ran));
      assert.deepEqual(ran.articles, inline.structuredContent.articles);
      assert.deepEqual(ran.warnings, inline.structuredContent.warnings);
      const [heading] = inline.content[0].text.split('\n\n');
      assert.ok(last.result.content[0].text.startsWith(`${heading}\n\n== PMC3531190 ==`), last.result.content[0].text);
      // 2026-07-28: the server decides, and runs it apart too.
      const created = await modern('tools/call', BIOC, { name: 'entrez_external' });
      const t = created.json.result;
      assert.equal(t.resultType, 'task', created.text);
      const got = await untilEnded(t.taskId, 300);
      assert.equal(got.json.result.status, 'completed', got.text);
      assert.deepEqual(got.json.result.result.structuredContent.articles, inline.structuredContent.articles);
    } finally {
      await client.close();
      await stranger.close();
    }
  });
});
