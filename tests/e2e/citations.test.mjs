// entrez_query `citations` through a running edge (#56), with the MCP TypeScript SDK as the
// client: seeds of the stand-ins' citation graph with their citers, references and metrics
// from iCite, the retracted record in the trail flagged, an unknown PMID said per id, 200
// PMIDs in one iCite request within the default budget, PMIDs iCite lacks from elink, and
// elink standing in when iCite answers 503.
// Run: E2E_URL=... E2E_REPLAY=... E2E_EXTERNAL_REPLAY=... node --test tests/e2e/citations.test.mjs
//
// Expected values are read here from the stand-ins' own answers, asked directly (iCite's raw
// JSON from the external replay, elink's JSON from the NCBI replay), and from the recorded
// fixtures (the retraction of 9500320), never from the server's answer.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders, request } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const EXTERNAL_REPLAY = process.env.E2E_EXTERNAL_REPLAY || '';

// The graph's layout as replay/src/ncbi/graph.rs documents it.
const SEEDS = [90050001, 90050002, 90050003, 90050004, 90050005];
const REF_BASE = 90051001;
const CITER_BASE = 90052001;
const RETRACTED = 9500320;
const ICITE_MISSING = [90052701, 90052702, 90052703];
const INTEGRITY = readFileSync(new URL('../fixtures/ncbi/documented/pubmed_integrity.xml', import.meta.url), 'utf8');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sorted = (list) => [...list].map(String).sort();

/** iCite's own records for `pmids`. The stand-in allows 3 requests a second to everyone
 * (this suite, the server, other suites side by side): a 503 over it is asked again. */
async function icite(pmids) {
  for (let attempt = 1; ; attempt++) {
    await sleep(400 * attempt);
    const r = await request(`${EXTERNAL_REPLAY}/api/pubs?pmids=${pmids.join(',')}`);
    if (r.status === 503 && attempt < 5) continue;
    assert.equal(r.status, 200, r.text);
    return new Map(r.json.data.map((d) => [String(d.pmid), d]));
  }
}

/** PubMed's links of each PMID along `linkname`, from the NCBI stand-in's elink. */
async function elink(pmids, linkname) {
  const ids = pmids.map((p) => `id=${p}`).join('&');
  const r = await request(`${REPLAY}/entrez/eutils/elink.fcgi?dbfrom=pubmed&db=pubmed&cmd=neighbor&linkname=${linkname}&retmode=json&${ids}&tool=e2e-citations&api_key=e2e-citations-${EDGE}`);
  assert.equal(r.status, 200, r.text);
  return new Map(r.json.linksets.map((s) => [s.ids[0], s.linksetdbs?.[0]?.links ?? []]));
}

/** iCite requests the external replay served (not refused over its limit) whose query
 * holds `text`. */
async function iciteRequests(text) {
  const r = await request(`${EXTERNAL_REPLAY}/__replay/stats`);
  return r.json.log.filter((l) => l.service === 'icite' && l.gate === 'served' && l.query.includes(text)).length;
}

describe(`citations [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY && EXTERNAL_REPLAY) && 'E2E_URL, E2E_REPLAY and E2E_EXTERNAL_REPLAY are not set' }, () => {
  let client;
  const call = async (args) => {
    const r = await client.callTool({ name: 'entrez_query', arguments: { operation: 'citations', ...args } }, undefined, { timeout: 120_000 });
    assert.equal(r.isError, false, `${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent).slice(0, 500)}`);
    return [r.structuredContent, r.content[0].text];
  };

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-citations', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
      requestInit: { headers: callerKeyHeaders('citations') },
    });
    await client.connect(transport, { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('seeds come from iCite with their citers, references and metrics; the retracted record is flagged; an unknown PMID is said', async () => {
    const truth = await icite([...SEEDS, RETRACTED]);
    // The record is retracted in the documented fixture the stand-in serves.
    const record = INTEGRITY.split('<PubmedArticle>').find((a) => a.includes(`<PMID Version="1">${RETRACTED}</PMID>`));
    assert.match(record, /Retracted Publication/);
    await sleep(400);
    const [r, text] = await call({ ids: [...SEEDS.map(String), String(RETRACTED), '99999999'] });
    assert.equal(r.papers.length, 7);
    for (const p of r.papers.slice(0, 6)) {
      const t = truth.get(p.pmid);
      assert.equal(p.source, 'icite', p.pmid);
      assert.equal(p.cited_by_count, t.cited_by.length);
      assert.equal(p.references_count, t.references.length);
      assert.deepEqual(sorted(p.cited_by), sorted(t.cited_by));
      assert.deepEqual(sorted(p.references), sorted(t.references));
      assert.equal(p.relative_citation_ratio, Math.round(t.relative_citation_ratio * 100) / 100);
      assert.equal(p.nih_percentile, Math.round(t.nih_percentile * 100) / 100);
      assert.equal(p.year, t.year);
    }
    // Neighbouring seeds share ten references and ten citers (the graph's overlaps).
    const [a, b] = r.papers;
    assert.equal(a.cited_by.filter((x) => b.cited_by.includes(x)).length, 10);
    assert.equal(r.papers[5].retracted, true);
    assert.equal(r.papers[0].retracted, false);
    assert.ok(r.papers[0].references.includes(String(RETRACTED)));
    assert.equal(r.papers[6].status, 'unknown');
    assert.equal(r.summary.unknown, 1);
    assert.equal(r.summary.retracted, 1);
    assert.match(text, new RegExp(`PMID ${RETRACTED} \\(\\d{4}\\) RETRACTED`));
  });

  test('200 PMIDs take one iCite request and fit the default budget', async () => {
    const pmids = Array.from({ length: 200 }, (_, i) => CITER_BASE + 300 + i);
    const truth = await icite(pmids);
    const before = await iciteRequests(`pmids=${pmids[0]},`);
    await sleep(400);
    const [r] = await call({ ids: pmids.map(String) });
    assert.equal((await iciteRequests(`pmids=${pmids[0]},`)) - before, 1);
    assert.equal(r.papers.length, 200);
    assert.equal(r.budget, undefined);
    assert.equal(r.sources.icite.papers, 200);
    for (const p of r.papers) {
      assert.equal(p.cited_by_count, truth.get(p.pmid).cited_by.length);
      assert.equal(p.references_count, truth.get(p.pmid).references.length);
    }
  });

  test('PMIDs iCite lacks come from elink, without metrics', async () => {
    const absent = await icite(ICITE_MISSING);
    assert.equal(absent.size, 0);
    const citedBy = await elink(ICITE_MISSING, 'pubmed_pubmed_citedin');
    const refs = await elink(ICITE_MISSING, 'pubmed_pubmed_refs');
    const [r] = await call({ ids: ICITE_MISSING.map(String) });
    for (const p of r.papers) {
      assert.equal(p.source, 'elink');
      assert.equal(p.relative_citation_ratio, undefined);
      assert.deepEqual(sorted(p.references), sorted(refs.get(p.pmid)));
      assert.deepEqual(sorted(p.cited_by), sorted(citedBy.get(p.pmid)));
      assert.ok(p.references.includes(String(SEEDS[4])));
    }
    assert.deepEqual(r.failures, []);
  });

  test('iCite answering 503 is said, and elink answers instead', async () => {
    const pmids = [REF_BASE + 100, REF_BASE + 101];
    const truth = await icite(pmids);
    // Both attempts of the one request for these PMIDs fail.
    const marker = `pmids=${pmids.join(',')}`;
    const queued = await request(`${EXTERNAL_REPLAY}/__replay/fail`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ service: 'icite', status: 503, count: 2, match: marker }),
    });
    assert.equal(queued.status, 200);
    const [r, text] = await call({ ids: pmids.map(String) });
    assert.equal(r.failures.length, 1, JSON.stringify(r.failures));
    const f = r.failures[0];
    assert.deepEqual([f.source, f.code, f.fallback, f.pmids], ['icite', 'icite_unavailable', 'elink', 2]);
    for (const p of r.papers) {
      assert.equal(p.source, 'elink');
      assert.deepEqual(sorted(p.cited_by), sorted(truth.get(p.pmid).cited_by));
    }
    assert.match(text, /icite failed for 2 PMID\(s\).*elink answered instead/);
  });
});
