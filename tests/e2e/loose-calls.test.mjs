// Calls as language models send them, through a running edge
// (tests/fixtures/loose-calls/corpus.json), with the MCP TypeScript SDK client,
// which checks every structuredContent against the tool's outputSchema.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/loose-calls.test.mjs
//
// A clear call must validate as its canonical form (each repair named with its code
// and JSONPath) and, through tools/call, return what the canonical form returns plus
// call_warnings naming the repairs. A hopeless call must be refused by both doors
// with its code at its path.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders } from './helpers.mjs';

const corpus = JSON.parse(readFileSync(new URL('../fixtures/loose-calls/corpus.json', import.meta.url), 'utf8'));

// Fields that describe the moment rather than the call: PubChem's load report, timings,
// and the ListKey PubChem stores each run of a search under.
const VOLATILE = new Set(['throttling', 'elapsed_ms', 'listkey']);
const steady = (v) =>
  Array.isArray(v)
    ? v.map(steady)
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).filter(([k]) => !VOLATILE.has(k)).map(([k, x]) => [k, steady(x)]))
      : v;
const found = (list) => new Set((list || []).map((f) => `${f.code} ${f.path}`));
const repairsOf = (list) => new Set([...found(list)].filter((s) => s.startsWith('argument_')));
const label = (c) => `${c.tool} ${JSON.stringify(c.sent)} (${c.why})`;
// JSON.parse reads 5.0 as 5, so this client sends whole floats as integers: nothing to repair there.
const expectedRepairs = (c) =>
  new Set(c.repairs.filter((r) => !(c.whole_floats || []).some((p) => r === `argument_coerced ${p}`)));

describe(`loose calls [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  const validate = async (tool, args) => {
    const r = await call('validate', { tool, arguments: args });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    return r.structuredContent;
  };
  const staged = [];

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-loose', version: '1.0.0' }, { capabilities: {} });
    // A caller key: the calls are paced at 10 a second rather than 3 (helpers.mjs).
    const requestInit = { headers: callerKeyHeaders('loose') };
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), { requestInit }), { timeout: 15_000 });
  });

  after(async () => {
    for (const id of staged) await call('entrez_data', { operation: 'drop_dataset', data_access_id: id });
    if (client) await client.close();
  });

  test('every clear call validates as its canonical form, each repair named', async () => {
    for (const c of corpus.clear) {
      const loose = await validate(c.tool, c.sent);
      const canonical = await validate(c.tool, c.becomes);
      assert.equal(loose.valid, true, `${label(c)}: ${JSON.stringify(loose.errors)}`);
      assert.equal(canonical.valid, true, `canonical of ${label(c)}: ${JSON.stringify(canonical.errors)}`);
      assert.deepEqual(repairsOf(loose.details.warnings), expectedRepairs(c), label(c));
      assert.deepEqual(repairsOf(canonical.details.warnings), new Set(), `canonical of ${label(c)}`);
      assert.deepEqual(loose.normalized_arguments, canonical.normalized_arguments, label(c));
    }
  });

  // One test per call: each makes up to a few paced NCBI requests, so a whole pass is a
  // minute or more of pacing alone; apart, every test stays far inside its own limit.
  corpus.clear.forEach((c, i) => test(`clear call ${i} runs as its canonical form, with call_warnings: ${c.tool} (${c.why})`, async () => {
    {
      const loose = await call(c.tool, c.sent);
      const canonical = await call(c.tool, c.becomes);
      const sc = { ...loose.structuredContent };
      const notes = sc.call_warnings ?? sc.error?.details?.warnings;
      delete sc.call_warnings;
      const csc = { ...canonical.structuredContent };
      delete csc.call_warnings;
      assert.deepEqual(repairsOf(notes), expectedRepairs(c), `${label(c)}: ${JSON.stringify(loose.structuredContent)}`);
      assert.equal(loose.isError, canonical.isError, label(c));
      if (c.becomes.operation === 'fetch_and_stage') {
        // Two datasets with their own ids: the same records in each.
        for (const r of [sc, csc]) if (r.data_access_id) staged.push(r.data_access_id);
        assert.deepEqual([sc.status, sc.records, sc.rows], [csc.status, csc.records, csc.rows], label(c));
      } else if (c.tool !== 'validate') {
        assert.deepEqual(steady(sc), steady(csc), label(c));
      }
    }
  }));

  test('every hopeless call is refused by validate and by tools/call, with its code', async () => {
    for (const c of corpus.hopeless) {
      const want = `${c.code} ${c.path}`;
      const v = await validate(c.tool, c.sent);
      assert.equal(v.valid, false, label(c));
      assert.ok(found(v.details.errors).has(want), `${label(c)}: ${v.errors.join(', ')}`);
      const r = await call(c.tool, c.sent);
      assert.equal(r.isError, true, label(c));
      assert.ok(found(r.structuredContent.error.details.errors).has(want), `${label(c)}: ${JSON.stringify(r.structuredContent)}`);
    }
  });
});
