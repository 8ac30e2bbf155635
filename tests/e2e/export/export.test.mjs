// Exports through a running edge: a 2,000-record staged PubMed dataset exported in every
// format, each file read page by page with resources/read, written to disk and read back
// by an independent reader (Python rispy, bibtexparser, nbib, csv, json; tests/e2e/python/
// read_exports.py), every record's PMID, title, authors, year, journal and DOI compared
// with the stand-in's own records: the recorded PubMed XML mapped by this test's own code
// (pubmed-csl.mjs; a synthetic PMID is the recorded article it clones, round-robin, under
// its own id). CSL JSON is checked against the CSL schema and against that mapping, and
// bibliographies (20 PMIDs in each style, and the whole dataset in APA) against what
// citeproc-js renders from the mapping with the official styles.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp E2E_PYTHON=target/e2e-python/bin/python \
//        node --test tests/e2e/export/export.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders } from '../helpers.mjs';
import { render, CSL_DIR, STYLES, INTEGRITY_FLAG } from './citeproc.mjs';
import { citation, items as mapped } from './pubmed-csl.mjs';

const require = createRequire(import.meta.url);
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PYTHON = process.env.E2E_PYTHON || path.join(ROOT, 'target/e2e-python/bin/python');
const READER = path.join(ROOT, 'tests/e2e/python/read_exports.py');
const RECORDS = 2000;
const FORMATS = ['ris', 'bibtex', 'csl_json', 'medline', 'csv', 'jsonl'];
const PAGE_META = 'entrez-mcp/export-page';
// The six recorded PubMed articles (8 records) and synthetic clones: 20 PMIDs.
const RECORDED = ['12091962', '9997', '11748933', '11700088', '27797938', '28775130', '30108519', '29963580'];
const TWENTY = [...RECORDED, ...Array.from({ length: 12 }, (_, i) => String(90_000_101 + i))];
// The stand-in's recorded articles in its order (replay/src/ncbi/fixtures.rs: pubmed1, 2,
// 4-7), mapped from their XML; synthetic PMIDs from 90000001 clone them round-robin.
const FIXTURES = path.join(ROOT, '../shared/fixtures/ncbi/eutils');
const TEMPLATES = readdirSync(FIXTURES)
  .filter((f) => /^pubmed\d*\.xml$/.test(f))
  .sort()
  .flatMap((f) => mapped(readFileSync(path.join(FIXTURES, f), 'utf8')));
const FIRST_SYNTHETIC = 90_000_001;
/** The CSL JSON item the stand-in's XML for `pmid` maps to. */
function upstream(pmid) {
  const id = String(pmid);
  const recorded = TEMPLATES.find((t) => t.id === id);
  if (recorded) return recorded;
  const template = TEMPLATES[(Number(id) - FIRST_SYNTHETIC) % TEMPLATES.length];
  assert.ok(template && Number(id) >= FIRST_SYNTHETIC, `PMID ${id} is neither recorded nor synthetic`);
  return { ...template, id, PMID: id };
}
// The citation's variables a style can print.
const FIELDS = ['type', 'title', 'author', 'container-title', 'container-title-short', 'issued', 'volume', 'issue', 'page', 'number', 'DOI', 'PMID', 'PMCID', 'ISSN', 'language'];
const pick = (it) => Object.fromEntries(FIELDS.filter((f) => it[f] !== undefined).map((f) => [f, it[f]]));

/**
 * fetch, sent again once when the connection it reused had been closed: the server closes a
 * connection idle past its header timeout (10 s), and this suite idles longer than that
 * while the readers and citeproc-js work; a request on a closed socket never reached it.
 */
async function retryingFetch(url, init) {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (!(e instanceof TypeError) || e.message !== 'fetch failed') throw e;
    return fetch(url, init);
  }
}

describe(`exports [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  let id;
  let truth;
  let dir;

  const call = (args) =>
    client.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 180_000 });
  const ok = async (args) => {
    const r = await call(args);
    assert.equal(r.isError, false, `${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r;
  };
  const rows = async (sql) => {
    const out = [];
    for (let offset = 0; ; offset += 1000) {
      const r = await ok({
        operation: 'query',
        data_access_id: id,
        sql: `${sql} LIMIT 1000 OFFSET ${offset}`,
        limit: 1000,
        max_characters: 200_000,
      });
      const got = r.structuredContent.rows;
      assert.ok(!r.structuredContent.budget, 'rows fit the result');
      out.push(...got);
      if (got.length < 1000) return out;
    }
  };

  /** Every page of the export `result` links, joined; checks the link and each page's _meta. */
  const readAll = async (result) => {
    const link = result.content.find((c) => c.type === 'resource_link');
    assert.ok(link, JSON.stringify(result.content));
    for (const field of ['uri', 'name', 'mimeType']) assert.ok(link[field], `resource_link.${field}`);
    let uri = link.uri;
    const parts = [];
    for (let page = 1; ; page++) {
      const r = await client.readResource({ uri }, { timeout: 120_000 });
      assert.equal(r.contents.length, 1);
      assert.equal(r.contents[0].mimeType, link.mimeType);
      parts.push(r.contents[0].text);
      const meta = r._meta?.[PAGE_META];
      assert.equal(meta?.page, page, JSON.stringify(r._meta));
      if (!meta.next) {
        assert.equal(page, meta.pages);
        break;
      }
      uri = meta.next;
    }
    const text = parts.join('');
    if (link.size !== undefined) assert.equal(Buffer.byteLength(text), link.size, 'the link says the file size');
    return { text, link };
  };

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-export', version: '1.0.0' }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
        requestInit: { headers: callerKeyHeaders('export') },
        fetch: retryingFetch,
      }),
      { timeout: 15_000 },
    );
    const staged = await ok({
      operation: 'fetch_and_stage',
      term: 'replay-synthetic[all]',
      max_records: RECORDS,
      wait_seconds: 120,
    });
    id = staged.structuredContent.data_access_id;
    assert.equal(staged.structuredContent.records, RECORDS, JSON.stringify(staged.structuredContent));
    // The truth is the stand-in's XML for each PMID staged, never the staged rows.
    const pmids = (await rows('SELECT pmid FROM article ORDER BY pmid')).map(([p]) => String(p));
    truth = new Map(pmids.map((p) => [p, citation(upstream(p))]));
    assert.equal(truth.size, RECORDS);
    assert.ok(TEMPLATES.length >= 8, 'the recorded PubMed fixtures are read');
    dir = mkdtempSync(path.join(os.tmpdir(), 'entrez-export-'));
  });

  after(async () => {
    if (client) await client.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const strip = (t) => String(t ?? '').trim().replace(/(?<!\.)\.$/, '');

  for (const format of FORMATS) {
    test(`${format}: ${RECORDS} records through resources/read, read back by an independent reader`, async (t) => {
      const started = performance.now();
      const result = await ok({ operation: 'export', data_access_id: id, format });
      const called = performance.now();
      const answer = JSON.stringify({ content: result.content, structuredContent: result.structuredContent });
      assert.ok(Buffer.byteLength(answer) < 1024, `the model reads ${Buffer.byteLength(answer)} bytes: ${answer}`);
      assert.equal(result.structuredContent.export.items, RECORDS);
      const { text, link } = await readAll(result);
      // The figures docs/src/export.md quotes: the file's size, the export call, reading every page.
      t.diagnostic(
        `${EDGE} ${format}: ${Buffer.byteLength(text)} bytes in ${result.structuredContent.export.pages} pages ` +
          `(the model read ${Buffer.byteLength(answer)}); ` +
          `export call ${Math.round(called - started)} ms, resources/read of every page ${Math.round(performance.now() - called)} ms`,
      );
      assert.ok(link.size > 100_000, `size ${link.size}`);
      const file = path.join(dir, link.name);
      writeFileSync(file, text);
      const parsed = JSON.parse(execFileSync(PYTHON, [READER, format, file], { encoding: 'utf8', maxBuffer: 1 << 28 }));
      assert.equal(parsed.length, RECORDS, `${format}: records read back`);
      const seen = new Set();
      for (const got of parsed) {
        const pmid = String(got.pmid);
        const want = truth.get(pmid);
        assert.ok(want, `${format}: unknown PMID ${pmid}`);
        seen.add(pmid);
        assert.equal(strip(got.title), strip(format === 'csl_json' ? want.richTitle : want.title), `${format} ${pmid} title`);
        assert.deepEqual(got.authors, want.authors, `${format} ${pmid} authors`);
        assert.equal(String(got.year ?? ''), String(want.year ?? ''), `${format} ${pmid} year`);
        assert.equal(got.journal ?? null, want.journal, `${format} ${pmid} journal`);
        assert.equal(got.doi ?? null, want.doi, `${format} ${pmid} doi`);
      }
      assert.equal(seen.size, RECORDS, `${format}: every record once`);
      if (format === 'csl_json') {
        const Ajv = require('ajv');
        const addFormats = require('ajv-formats');
        const ajv = new Ajv({ strict: false });
        addFormats(ajv);
        const schema = JSON.parse(readFileSync(path.join(CSL_DIR, 'csl-data.json'), 'utf8'));
        const items = JSON.parse(text);
        assert.ok(ajv.validate(schema, items), JSON.stringify(ajv.errors?.slice(0, 3)));
        // Every variable a style prints is the one the stand-in's XML gives.
        for (const it of items) assert.deepEqual(pick(it), pick(upstream(it.id)), `csl_json ${it.id}`);
        // citeproc-js reads every item (and the APA bibliography of the whole dataset matches ours below).
        assert.equal(render('vancouver', items.slice(0, 50)).length, 50);
      }
    });
  }

  test('an APA bibliography of the whole dataset, as a resource, is what citeproc-js renders', async () => {
    const csl = JSON.parse((await readAll(await ok({ operation: 'export', data_access_id: id, format: 'csl_json' }))).text);
    const result = await ok({ operation: 'bibliography', data_access_id: id, style: 'apa', format: 'text' });
    const answer = JSON.stringify({ content: result.content, structuredContent: result.structuredContent });
    assert.ok(Buffer.byteLength(answer) < 1024, answer);
    const ours = (await readAll(result)).text.trimEnd().split('\n').map((l) => l.replace(INTEGRITY_FLAG, ''));
    const theirs = render('apa', csl.map((it) => upstream(it.id)));
    assert.equal(ours.length, RECORDS);
    assert.equal(theirs.length, RECORDS);
    for (let i = 0; i < RECORDS; i++) {
      if (ours[i] !== theirs[i]) {
        writeFileSync(path.join(os.tmpdir(), 'entrez-export-apa-ours.txt'), ours.join('\n'));
        writeFileSync(path.join(os.tmpdir(), 'entrez-export-apa-citeproc.txt'), theirs.join('\n'));
        writeFileSync(path.join(os.tmpdir(), 'entrez-export-apa.json'), JSON.stringify(csl));
      }
      assert.equal(ours[i], theirs[i], `entry ${i + 1} of ${RECORDS}`);
    }
  });

  test('20 PMIDs in each of the five styles match citeproc-js on the stand-in\'s XML', async () => {
    const staged = await ok({ operation: 'fetch_and_stage', ids: TWENTY });
    const twenty = staged.structuredContent.data_access_id;
    const exported = JSON.parse(
      (await readAll(await ok({ operation: 'export', data_access_id: twenty, format: 'csl_json' }))).text,
    );
    // Cited in the order given; what citeproc-js renders is the stand-in's XML, mapped.
    const items = TWENTY.map(upstream);
    for (const p of TWENTY) {
      const it = exported.find((i) => i.PMID === p);
      assert.ok(it, `PMID ${p} exported`);
      assert.deepEqual(pick(it), pick(upstream(p)), `csl_json ${p}`);
    }
    for (const style of Object.keys(STYLES)) {
      const r = await ok({ operation: 'bibliography', ids: TWENTY, style, format: 'text' });
      assert.equal(r.structuredContent.count, 20, JSON.stringify(r.structuredContent.warnings));
      const ours = r.structuredContent.entries.map((e) => e.text.replace(INTEGRITY_FLAG, ''));
      assert.deepEqual(ours, render(style, items), style);
      if (STYLES[style] && (style === 'vancouver' || style === 'ama')) {
        assert.deepEqual(r.structuredContent.entries.map((e) => e.pmid), TWENTY, `${style} numbers in the order given`);
      }
    }
  });

  test('bad input: unknown formats and styles list the supported ones, a missing dataset is named', async () => {
    const bad = await call({ operation: 'export', data_access_id: id, format: 'docx' });
    assert.equal(bad.isError, true);
    const e = bad.structuredContent.error.details.errors[0];
    assert.equal(e.code, 'unknown_format');
    assert.match(e.message, /Supported: ris, bibtex, csl_json, medline, csv, jsonl, text, markdown\.$/);
    const style = await call({ operation: 'bibliography', ids: ['9997'], style: 'mla' });
    assert.equal(style.structuredContent.error.details.errors[0].code, 'unknown_style');
    const none = await call({ operation: 'export', data_access_id: '0123456789abcdef0123456789abcdef' });
    assert.equal(none.structuredContent.error.code, 'dataset_not_found');
    await assert.rejects(
      client.readResource({ uri: `entrez-dataset://${id}/export/0123456789abcdef.ris` }),
      (err) => err.code === -32002,
    );
  });
});

if (!existsSync(PYTHON)) {
  test('the Python readers are installed', () => assert.fail(`no ${PYTHON}: run scripts/setup.sh`));
}
