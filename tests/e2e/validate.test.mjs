// validate and the experimental.toolValidation capability through a running edge,
// with the MCP TypeScript SDK as the client (which checks every structuredContent
// against validate's outputSchema).
// Run: E2E_URL=http://127.0.0.1:PORT/mcp E2E_REPLAY=http://127.0.0.1:PORT node --test tests/e2e/validate.test.mjs
//
// E2E_REPLAY is the NCBI replay server behind the edge: the runtime level asks it
// which PMIDs exist, and its request counter proves that the other levels, and
// calls validation rejects, never reach it.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, request } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';

async function upstreamRequests() {
  const res = await request(`${REPLAY}/__replay/stats`);
  assert.equal(res.status, 200, res.text);
  return res.json.requests;
}

describe(`validate [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  const validate = async (args) => {
    const r = await client.callTool({ name: 'validate', arguments: args }, undefined, { timeout: 30_000 });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    return r.structuredContent;
  };
  const codes = (list) => list.map((f) => `${f.code} ${f.path}`);

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-validate', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('initialize announces the capability truthfully', () => {
    const cap = client.getServerCapabilities().experimental?.toolValidation;
    assert.ok(cap, 'experimental.toolValidation');
    assert.equal(cap.method, 'validate');
    assert.deepEqual(cap.levels, { syntax: true, semantic: true, runtime: true, security: false });
    assert.equal(cap.defaultLevel, 'semantic');
    assert.equal(cap.batchValidation, true);
    assert.equal(cap.maxBatchSize, 20);
    assert.equal(cap.async, true);
    assert.equal(cap.streaming, false);
    assert.equal(cap.contextAware, true);
    assert.deepEqual(cap.caching, { enabled: true, ttl: 3600, invalidateOn: ['resource_change', 'tool_update'] });
    assert.equal(cap.sideEffects, false);
    assert.equal(cap.runtime.budgetMs, 1000);
  });

  test('semantic: specific messages, real accessions, batches, and nothing sent upstream', async () => {
    const before = REPLAY ? await upstreamRequests() : 0;
    const typo = await validate({ tool: 'entrez_query', arguments: { operation: 'search', database: 'pubmd', term: 'asthma' } });
    assert.equal(typo.valid, false);
    assert.deepEqual(codes(typo.details.errors), ['invalid_database $.database']);
    assert.equal(typo.details.errors[0].message, 'Invalid database "pubmd". Did you mean "pubmed"?');
    const accessions = await validate({
      tool: 'entrez_query',
      arguments: { operation: 'fetch', database: 'protein', ids: ['NP_000537.3', 'P69905'], rettype: 'fasta' },
    });
    assert.equal(accessions.valid, true, JSON.stringify(accessions));
    assert.equal(accessions.normalized_arguments.database, 'protein');
    const batch = await validate({
      calls: [
        { tool: 'entrez_query', arguments: { operation: 'fetch', database: 'pmc', ids: ['PMC3531190'] } },
        { tool: 'entrez_query', arguments: { operation: 'fetch', database: 'pubmed', ids: ['NM_000546.6'] } },
        { tool: 'entrez_qurey', arguments: {} },
      ],
    });
    assert.equal(batch.valid, false);
    assert.equal(batch.count, 3);
    assert.equal(batch.results[0].valid, true);
    assert.deepEqual(codes(batch.results[1].details.errors), ['id_wrong_database $.ids[0]']);
    assert.match(batch.results[2].details.errors[0].message, /Did you mean "entrez_query"/);
    // The same rules guard tools/call: a rejected call is never sent.
    const refused = await client.callTool({ name: 'entrez_query', arguments: { operation: 'search', database: 'pubmd', term: 'x' } });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent.error.code, 'invalid_database');
    if (REPLAY) assert.equal(await upstreamRequests(), before, 'nothing reached NCBI');
  });

  test('runtime: the ids are looked up at NCBI, once, within the budget', { skip: !REPLAY && 'E2E_REPLAY is not set' }, async () => {
    // The runtime level's 1 s budget includes waiting for a pacing slot. Slots are 363 ms
    // apart without a key: after a pause no longer than that, the first lookup goes at once
    // and the second waits one gap, whatever request of an earlier test came last.
    await new Promise((r) => setTimeout(r, 500));
    const before = await upstreamRequests();
    const r = await validate({
      tool: 'entrez_query',
      arguments: { operation: 'fetch', database: 'pubmed', ids: ['90000001', '1'] },
      level: 'runtime',
    });
    assert.equal(r.level, 'runtime');
    assert.equal(r.valid, false);
    assert.deepEqual(codes(r.details.errors), ['id_not_found $.ids[1]']);
    assert.match(r.details.errors[0].message, /pubmed has no record 1/);
    assert.equal(await upstreamRequests(), before + 1, 'exactly one lookup');
    const fine = await validate({
      tool: 'entrez_query',
      arguments: { operation: 'summary', database: 'pubmed', ids: ['90000001', '90000002'], retmode: 'json' },
      level: 'runtime',
    });
    assert.equal(fine.valid, true, JSON.stringify(fine));
    assert.deepEqual(fine.warnings, []);
  });
});
