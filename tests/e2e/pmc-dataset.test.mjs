// 200 PMC articles staged as a dataset through a running edge (#55): their sections and
// captions land in SQL, and the full-text questions a researcher asks of them ("which report
// a hazard ratio in their results", "which tables have one") answer the right articles.
// Run: E2E_URL=... E2E_REPLAY=... node --test tests/e2e/pmc-dataset.test.mjs
//
// The articles are the NCBI stand-in's synthetic JATS (replay/src/ncbi/synthetic_pmc.rs). The
// expected rows come from the stand-in's own XML, fetched here after the staging and read by
// this file's own tag walk, never from the server. Each edge stages its own 200 ids (the
// edges share one stand-in, whose record of efetch requests shows each id fetched once).

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, efetchBatches, fetchPolitely } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const FIRST = 90_000_001 + (EDGE === 'worker' ? 200 : EDGE === 'native' ? 0 : 400);
const IDS = Array.from({ length: 200 }, (_, i) => `PMC${FIRST + i}`);

/** Text runs of a JATS article: the section titles around each, and the elements around it. */
function runs(xml) {
  const out = [];
  const elements = [];
  const titles = [];
  for (const m of xml.matchAll(/([^<]*)<([^>]*)>/g)) {
    const text = m[1].trim();
    if (text) {
      if (elements.at(-1) === 'title' && elements.at(-2) === 'sec') titles[titles.length - 1] = text;
      else out.push({ path: titles.join(' > '), elements: [...elements], text });
    }
    const tag = m[2];
    if (tag.startsWith('?') || tag.startsWith('!') || tag.endsWith('/')) continue;
    if (tag.startsWith('/')) {
      assert.equal(elements.pop(), tag.slice(1), 'balanced XML');
      if (tag === '/sec') titles.pop();
    } else {
      const name = tag.split(/\s/)[0];
      if (name === 'sec') titles.push('');
      elements.push(name);
    }
  }
  return out;
}

/** What the stand-in's articles hold, read from its XML: per article id, its facts. */
async function truth() {
  const res = await fetchPolitely(`${REPLAY}/entrez/eutils/efetch.fcgi?db=pmc&retmode=xml&id=${IDS.join(',')}`);
  assert.equal(res.status, 200);
  const xml = await res.text();
  const articles = xml.split('<article ').slice(1).map((a) => a.slice(0, a.indexOf('</article>') + '</article>'.length));
  assert.equal(articles.length, IDS.length, 'the stand-in answers every id');
  const resultsHr = new Set();
  const cellsHr = new Set();
  let sections = 0;
  for (const a of articles) {
    const id = a.match(/<article-id pub-id-type="pmc(?:id)?">(?:PMC)?(\d+)<\/article-id>/)[1];
    sections += (a.match(/<sec[\s>]/g) || []).length + (a.match(/<ack>/g) || []).length;
    for (const r of runs(`<article ${a}`)) {
      if (!/hazard ratio/i.test(r.text)) continue;
      if (r.elements.includes('td')) cellsHr.add(`PMC${id}`);
      else if (/result/i.test(r.path)) resultsHr.add(`PMC${id}`);
    }
  }
  return { resultsHr: [...resultsHr].sort(), cellsHr: [...cellsHr].sort(), sections };
}

describe(`a PMC dataset of 200 articles [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY) && 'E2E_URL and E2E_REPLAY are not set' }, () => {
  let client;
  let id;
  const call = async (args) => {
    const r = await client.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 180_000 });
    assert.equal(r.isError, false, `${JSON.stringify(args).slice(0, 200)} → ${JSON.stringify(r.structuredContent).slice(0, 500)}`);
    return r.structuredContent;
  };
  const column = (r) => r.rows.map((row) => row[0]).sort();

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-pmc-dataset', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (id) await client.callTool({ name: 'entrez_data', arguments: { operation: 'drop_dataset', data_access_id: id } }).catch(() => {});
    if (client) await client.close();
  });

  test('the articles stage whole, each fetched once, and the full-text questions answer the right ones', async () => {
    const staged = await call({ operation: 'fetch_and_stage', database: 'pmc', ids: IDS, wait_seconds: 120 });
    id = staged.data_access_id;
    assert.equal(staged.status, 'complete', JSON.stringify(staged).slice(0, 500));

    // Each id reached the stand-in's efetch exactly once (ids with or without their prefix).
    const wanted = new Set(IDS.map((x) => x.slice(3)));
    const counts = new Map();
    for (const b of await efetchBatches(REPLAY)) {
      for (const x of b.map((v) => String(v).replace(/^PMC/, '')).filter((v) => wanted.has(v))) counts.set(x, (counts.get(x) || 0) + 1);
    }
    assert.equal(counts.size, IDS.length, 'every id fetched');
    assert.deepEqual([...counts.values()].filter((n) => n !== 1), [], 'no id fetched twice');

    const expected = await truth();
    const q = async (sql) => {
      const r = await call({ operation: 'query', data_access_id: id, sql, limit: 1000 });
      assert.equal(r.status, 'complete');
      return r;
    };
    assert.deepEqual(column(await q('SELECT pmcid FROM article')), [...IDS].sort());
    assert.equal((await q('SELECT COUNT(*) FROM section')).rows[0][0], expected.sections);
    assert.ok(expected.resultsHr.length > 0 && expected.resultsHr.length < IDS.length, 'the stand-in mixes both kinds');
    const results = await q("SELECT DISTINCT pmcid FROM section WHERE instr(lower(path), 'result') > 0 AND instr(lower(text), 'hazard ratio') > 0");
    assert.deepEqual(column(results), expected.resultsHr);
    const cells = await q("SELECT DISTINCT pmcid FROM caption WHERE kind = 'table' AND instr(lower(table_rows), 'hazard ratio') > 0");
    assert.deepEqual(column(cells), expected.cellsHr);
  });
});
