// What the model reads, through a running edge with the MCP TypeScript SDK as the client:
// whole abstracts at the default budget, both blocks within a lower max_characters, every
// record or row left out named with the call that returns it, and detail shaping both blocks.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/budgets.test.mjs
//
// Upstream is the NCBI replay (synthetic PMIDs 90000001.. are recorded articles cloned, two
// of them with structured abstracts) and the PubChem replay.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders } from './helpers.mjs';

const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));
const TWENTY = synthetic(90_000_001, 20);
const chars = (s) => [...s].length;
const textOf = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const cuts = (r) => (r.structuredContent.call_warnings || []).filter((w) => w.code === 'results_cut');

describe(`budgets [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r;
  };
  const fetch = (extra = {}) => call('entrez_query', { operation: 'fetch', database: 'pubmed', ids: TWENTY, ...extra });
  // Both blocks within the budget: the text blocks a client hands over, and structuredContent.
  const within = (r, budget) => {
    assert.ok(chars(textOf(r)) <= budget, `text ${chars(textOf(r))} > ${budget}`);
    const structured = chars(JSON.stringify(r.structuredContent));
    assert.ok(structured <= budget, `structuredContent ${structured} > ${budget}`);
  };

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-budgets', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
      requestInit: { headers: callerKeyHeaders('budgets') },
    });
    await client.connect(transport, { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('twenty PubMed records: every abstract whole, with its labels, inside the default budget', async () => {
    const r = await fetch();
    const records = r.structuredContent.records;
    assert.equal(records.length, 20);
    assert.deepEqual(cuts(r), []);
    const text = textOf(r);
    let floor = 0;
    for (const a of records) {
      floor += chars(a.title) + chars(a.abstract_text || '');
      for (const line of (a.abstract_text || '').split('\n')) assert.ok(text.includes(line), `missing: ${line}`);
    }
    assert.match(text, /(BACKGROUND|RESULTS|CONCLUSIONS?): /);
    assert.ok(chars(text) <= 1.25 * floor, `text ${chars(text)} vs title+abstract ${floor}`);
    const structured = chars(JSON.stringify(r.structuredContent));
    assert.ok(structured <= 2 * chars(text), `structuredContent ${structured} vs text ${chars(text)}`);
    within(r, 60_000);
  });

  test('a lower max_characters holds both blocks and names the records left out', async () => {
    const r = await fetch({ max_characters: 12_000 });
    within(r, 12_000);
    const sc = r.structuredContent;
    const shown = sc.records.map((a) => a.pmid);
    assert.ok(shown.length > 0 && shown.length < 20, `${shown.length} shown`);
    assert.deepEqual([...shown, ...sc.budget.left_out_ids], TWENTY);
    assert.equal(sc.budget.left_out, 20 - shown.length);
    assert.match(cuts(r)[0].message, new RegExp(`^${shown.length} of 20 records fit`));
    const next = sc.budget.next_call;
    assert.equal(next.tool, 'entrez_query');
    const rest = await call(next.tool, next.arguments);
    assert.equal(rest.structuredContent.records[0].pmid, sc.budget.left_out_ids[0]);
    within(rest, 12_000);
  });

  test('detail brief and fields shape the text and structuredContent alike', async () => {
    const brief = await fetch({ detail: 'brief' });
    const a = brief.structuredContent.records[0];
    assert.equal(a.abstract_text, undefined);
    assert.equal(typeof a.title, 'string');
    assert.doesNotMatch(textOf(brief), /BACKGROUND: /);
    const picked = await fetch({ fields: ['title'] });
    // integrity comes with every record whatever the fields (a retraction is never left out).
    for (const rec of picked.structuredContent.records) assert.deepEqual(Object.keys(rec).sort(), ['integrity', 'pmid', 'title']);
    const full = await fetch({ ids: TWENTY.slice(0, 2), detail: 'full' });
    assert.ok(Array.isArray(full.structuredContent.records[0].authors[0].affiliations));
  });

  test('a PubChem record at detail brief and a summary under a small budget', async () => {
    const args = { service: 'pubchem', operation: 'compound', namespace: 'cid', identifier: 2244, data: 'record' };
    const standard = await call('entrez_external', args);
    const brief = await call('entrez_external', { ...args, detail: 'brief' });
    assert.equal(standard.structuredContent.compounds[0].cid, 2244);
    assert.equal(standard.structuredContent.compounds[0].properties, undefined);
    const briefKeys = ['cid', 'title', 'molecular_formula', 'molecular_weight', 'iupac_name'];
    for (const k of Object.keys(brief.structuredContent.compounds[0])) assert.ok(briefKeys.includes(k), k);
    const summary = await call('entrez_query', { operation: 'summary', ids: TWENTY, max_characters: 2_000 });
    within(summary, 2_000);
    assert.ok(cuts(summary).length > 0);
  });

  test('rows past the budget are named with the statement that pages on', async () => {
    const staged = await call('entrez_data', { operation: 'fetch_and_stage', ids: synthetic(90_000_001, 60) });
    const id = staged.structuredContent.data_access_id;
    const r = await call('entrez_data', {
      operation: 'query', data_access_id: id, max_characters: 8_000,
      sql: 'SELECT pmid, title, abstract FROM article ORDER BY pmid',
    });
    within(r, 8_000);
    const sc = r.structuredContent;
    const shown = sc.rows.length;
    assert.ok(shown > 0 && shown < 60, `${shown} rows`);
    assert.equal(sc.budget.left_out, 60 - shown);
    const rest = await call('entrez_data', sc.budget.next_call.arguments);
    assert.equal(rest.structuredContent.rows[0][0], 90_000_001 + shown);
    await call('entrez_data', { operation: 'drop_dataset', data_access_id: id });
  });
});
