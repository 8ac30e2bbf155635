// A citation network staged from five seeds through a running edge (#56): the upstream
// requests it takes, and the co-citation, coupling, top-RCR and "cites a retracted paper"
// questions answered from it.
// Run: E2E_URL=... E2E_REPLAY=... E2E_EXTERNAL_REPLAY=... node --test tests/e2e/citation-network.test.mjs
//
// The network is the stand-ins' citation graph (replay/src/ncbi/graph.rs): five synthetic
// seeds, their references and citers. Everything expected here is this file's own reading of
// the stand-ins' raw answers (iCite's JSON, elink's JSON, PubMed's XML), fetched after the
// staging was counted, never the server's answer: the network's papers and the requests it
// takes follow the documented rule (seeds first; each paper's references, then its citers, in
// the order iCite lists them; 200 PMIDs a look-up), the rows follow from the edges.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, efetchBatches, fetchCounts, fetchPolitely } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const EXTERNAL = process.env.E2E_EXTERNAL_REPLAY || '';
const SEEDS = [90050001, 90050002, 90050003, 90050004, 90050005];
const LOOKUP = 200;
// On the Workers Free plan's budget (the free-plan suite), a call or step fetches the papers
// a few dozen at a time, so there are more, smaller efetch batches; everything else holds.
const FREE_PLAN = process.env.E2E_FREE_PLAN === '1';
const EFETCH = 500;


/** A request to a stand-in at under its pace (3 a second, as NCBI's and iCite's keyless
 * rate), tried again a few times where it refuses for pace (429, 503). */
const json = async (url, init = {}) => {
  const res = await fetchPolitely(url, init);
  assert.equal(res.status, 200, url);
  return res.json();
};
const ncbiStats = () => json(`${REPLAY}/__replay/stats`);
const externalStats = () => json(`${EXTERNAL}/__replay/stats`);

/** iCite's records of `pmids`, as its stand-in answers them: pmid → record. */
async function icite(pmids) {
  const out = new Map();
  for (let i = 0; i < pmids.length; i += LOOKUP) {
    const body = await json(`${EXTERNAL}/api/pubs?pmids=${pmids.slice(i, i + LOOKUP).join(',')}&format=json`);
    // A record without its two lists says nothing of its citations: elink answers for it.
    for (const r of body.data) if ('cited_by' in r && 'references' in r) out.set(Number(r.pmid), r);
  }
  return out;
}

/** elink's links of each of `pmids` along `linkname` (one id= per PMID). */
async function elink(pmids, linkname) {
  const out = new Map();
  if (!pmids.length) return out;
  const ids = pmids.map((p) => `id=${p}`).join('&');
  const body = await json(`${REPLAY}/entrez/eutils/elink.fcgi?dbfrom=pubmed&db=pubmed&linkname=${linkname}&retmode=json&${ids}`);
  for (const set of body.linksets) {
    const links = (set.linksetdbs || []).filter((d) => d.linkname === linkname).flatMap((d) => d.links.map(Number));
    out.set(Number(set.ids[0]), links);
  }
  return out;
}

/** Year and retraction of each PubMed record of `pmids`, read from the stand-in's XML. */
async function records(pmids) {
  const out = new Map();
  for (let i = 0; i < pmids.length; i += EFETCH) {
    const res = await fetchPolitely(`${REPLAY}/entrez/eutils/efetch.fcgi`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `db=pubmed&retmode=xml&id=${pmids.slice(i, i + EFETCH).join(',')}`,
    });
    assert.equal(res.status, 200);
    const xml = await res.text();
    for (const a of xml.split(/<PubmedArticle>/).slice(1)) {
      const pmid = Number(a.match(/<PMID[^>]*>(\d+)<\/PMID>/)[1]);
      const date = a.match(/<PubDate>([\s\S]*?)<\/PubDate>/);
      const year = date && date[1].match(/\d{4}/) ? Number(date[1].match(/\d{4}/)[0]) : null;
      const retracted = /<PublicationType[^>]*>Retracted Publication<\/PublicationType>/.test(a) || /RefType="RetractionIn"/.test(a);
      // NLM's links to notices, errata and comments (not the reference list, RefType "Cites").
      const links = [...a.matchAll(/<CommentsCorrections RefType="([^"]+)">([\s\S]*?)<\/CommentsCorrections>/g)]
        .filter((m) => m[1] !== 'Cites')
        .map((m) => m[2].match(/<PMID[^>]*>(\d+)<\/PMID>/))
        .filter(Boolean)
        .map((m) => Number(m[1]));
      out.set(pmid, { year, retracted, links });
    }
  }
  return out;
}

/** The network as the documented rule builds it from the stand-ins' answers. */
async function network() {
  const papers = SEEDS.map((p) => ({ pmid: p, step: 0 }));
  const known = new Set(SEEDS);
  const chunks = [];
  const refs = new Map();
  const citedBy = new Map();
  const rcr = new Map();
  const elinked = [];
  // Each look-up takes the next 200 papers not yet looked up (the first, the seeds alone).
  for (let at = 0, size = 0; at < papers.length; at += size) {
    const chunk = papers.slice(at, at + LOOKUP).map((p) => p.pmid);
    size = chunk.length;
    chunks.push(chunk);
    const found = await icite(chunk);
    const missing = chunk.filter((p) => !found.has(p));
    const [citers, references] = [await elink(missing, 'pubmed_pubmed_citedin'), await elink(missing, 'pubmed_pubmed_refs')];
    if (missing.length) elinked.push(missing);
    const offers = [];
    for (const p of papers.slice(at, at + LOOKUP)) {
      const r = found.get(p.pmid);
      const pRefs = r ? r.references.map(Number) : references.get(p.pmid) || [];
      const pCiters = r ? r.cited_by.map(Number) : citers.get(p.pmid) || [];
      refs.set(p.pmid, pRefs);
      citedBy.set(p.pmid, pCiters);
      if (r && r.relative_citation_ratio != null) rcr.set(p.pmid, r.relative_citation_ratio);
      if (p.step < 1) offers.push([...pRefs, ...pCiters]);
    }
    // The papers of a look-up add their neighbours round-robin: the first new one of each in
    // turn, then the second... (max_records, 1,000, is never reached here: no share is cut).
    for (let turn = 0, more = true; more; turn++) {
      more = false;
      for (const list of offers) {
        let n;
        while (list.length && known.has((n = list.shift())));
        if (n === undefined || known.has(n)) continue;
        more = true;
        known.add(n);
        papers.push({ pmid: n, step: 1 });
      }
    }
  }
  // A citation a cited paper's citers name is an edge too, where its citer's own list (elink's,
  // partial for a few recent papers) lacks it.
  for (const [p, citers] of citedBy) {
    for (const c of citers) {
      if (refs.has(c) && !refs.get(c).includes(p)) refs.get(c).push(p);
    }
  }
  return { papers, chunks, refs, rcr, elinked };
}

const byCount = (a, b) => b[0] - a[0] || a[1] - b[1] || a[2] - b[2];

describe(`a citation network of five seeds [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY && EXTERNAL) && 'E2E_URL, E2E_REPLAY and E2E_EXTERNAL_REPLAY are not set' }, () => {
  let client;
  let id;
  const call = async (args) => {
    const r = await client.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 180_000 });
    assert.equal(r.isError, false, `${JSON.stringify(args).slice(0, 200)} → ${JSON.stringify(r.structuredContent).slice(0, 500)}`);
    return r.structuredContent;
  };

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-citation-network', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (id) await client.callTool({ name: 'entrez_data', arguments: { operation: 'drop_dataset', data_access_id: id } }).catch(() => {});
    if (client) await client.close();
  });

  test('staged in the fewest requests, and the network questions answer the right rows', async () => {
    const [ncbiBefore, externalBefore] = [await ncbiStats(), await externalStats()];
    const efetchBefore = (await efetchBatches(REPLAY)).length;
    let staged = await call({ operation: 'fetch_and_stage', network: 'both', ids: SEEDS.map(String), wait_seconds: 120 });
    // The native Free-plan server has no scheduler of its own: its caller continues the staging.
    for (let i = 0; staged.status === 'partial' && staged.next_call && i < 200; i++) {
      staged = { ...(await call({ ...staged.next_call, wait_seconds: 120 })), example_queries: staged.example_queries };
    }
    id = staged.data_access_id;
    assert.equal(staged.status, 'complete', JSON.stringify(staged).slice(0, 800));
    const [ncbiAfter, externalAfter] = [await ncbiStats(), await externalStats()];
    const fetchedSince = (await efetchBatches(REPLAY)).slice(efetchBefore);
    // Nothing else runs against the stand-ins meanwhile (node --test-concurrency=1); the
    // truth below is fetched only now, so the counts are the staging's own.
    const net = await network();
    const pmids = net.papers.map((p) => p.pmid);
    // The staging's own efetch requests: those naming a paper of the network (a staging left
    // running by an earlier suite would fetch other ids).
    const inNetwork = new Set(pmids.map(String));
    const efetched = fetchedSince.filter((b) => b.some((x) => inNetwork.has(String(x))));
    for (const b of efetched) assert.ok(b.every((x) => inNetwork.has(String(x))), 'only papers of the network');
    assert.equal(pmids.length, 977, 'five seeds, 260 references, 710 citers, the retracted record and its notice');

    // Upstream: one iCite request per look-up of 200 (the seeds' own first), exactly those
    // PMIDs; elink (both directions) only for the look-ups holding papers iCite lacks; one
    // efetch per 500 papers, each paper fetched once.
    const iciteAsked = (externalAfter.log || [])
      .filter((e) => e.service === 'icite')
      .slice(-(externalAfter.requests.icite - (externalBefore.requests.icite || 0)))
      .map((e) => new URLSearchParams(e.query).get('pmids').split(',').map(Number));
    assert.equal(externalAfter.requests.icite - (externalBefore.requests.icite || 0), net.chunks.length);
    assert.deepEqual(iciteAsked, net.chunks);
    assert.equal(net.chunks.length, 1 + Math.ceil((977 - 5) / LOOKUP));
    assert.ok(net.elinked.length >= 1, 'the stand-in leaves some papers to elink');
    if (FREE_PLAN) assert.ok(efetched.length > Math.ceil(977 / EFETCH) && efetched.every((b) => b.length <= EFETCH));
    else assert.equal(efetched.length, Math.ceil(977 / EFETCH));
    const counts = fetchCounts(efetched);
    assert.deepEqual([...counts.keys()].map(Number).sort((a, b) => a - b), [...pmids].sort((a, b) => a - b));
    assert.deepEqual([...counts.values()].filter((n) => n !== 1), [], 'no paper fetched twice');
    // NCBI's stand-in does not itemize elink; at least these (exactly these natively, in
    // tests/suite/replay/citation_network.rs).
    // elink both ways for a look-up holding a seed, references only for one all at the last step.
    const elinks = net.elinked.reduce((n, chunk) => n + (chunk.some((p) => SEEDS.includes(p)) ? 2 : 1), 0);
    assert.ok(ncbiAfter.requests - ncbiBefore.requests >= efetched.length + elinks, 'efetch and elink');
    // iCite is asked for citers only in a look-up holding a paper followed further (a seed).
    const askedCiters = (externalAfter.log || [])
      .filter((e) => e.service === 'icite')
      .slice(-net.chunks.length)
      .map((e) => new URLSearchParams(e.query).get('fl').split(',').includes('cited_by'));
    assert.deepEqual(askedCiters, net.chunks.map((c) => c.some((p) => SEEDS.includes(p))));
    assert.equal((externalAfter.throttled || 0) - (externalBefore.throttled || 0), 0, 'iCite never refused for pace');
    assert.equal((ncbiAfter.rate_limited || 0) - (ncbiBefore.rate_limited || 0), 0, 'NCBI never refused for pace');

    // Truth for the rows.
    const recs = await records(pmids);
    const inNet = new Set(pmids);
    const refsOf = (p) => net.refs.get(p) || [];
    // The example queries the staging's result lists, as a model would run them.
    const run = async (startsWith) => {
      const { sql } = staged.example_queries.find((e) => e.title.startsWith(startsWith));
      const r = await call({ operation: 'query', data_access_id: id, sql, limit: 1000 });
      return r.rows;
    };

    // Co-citation: pairs (seed, paper) counted over the network's reference lists.
    const co = new Map();
    const coupling = new Map();
    for (const s of SEEDS) {
      for (const c of pmids) {
        const r = refsOf(c);
        if (!r.includes(s)) continue;
        for (const x of r) if (x !== s) co.set(`${s} ${x}`, (co.get(`${s} ${x}`) || 0) + 1);
      }
      const mine = new Set(refsOf(s));
      for (const p of pmids) {
        if (p === s) continue;
        const shared = refsOf(p).filter((r) => mine.has(r)).length;
        if (shared) coupling.set(`${s} ${p}`, shared);
      }
    }
    const top = (m) => [...m.entries()].map(([k, n]) => [n, ...k.split(' ').map(Number)]).sort(byCount).slice(0, 20);
    const coRows = (await run('Most cited together')).map((r) => [r[2], r[0], r[1]]);
    assert.deepEqual(coRows, top(co));
    assert.ok(coRows[0][0] > 10, 'the most co-cited paper shares many reference lists');
    const coupled = (await run('Bibliographic coupling')).map((r) => [r[2], r[0], r[1]]);
    assert.deepEqual(coupled, top(coupling));

    // The top three RCR of each year: iCite's RCR, PubMed's year.
    const years = new Map();
    for (const p of pmids) {
      const year = recs.get(p)?.year;
      if (!net.rcr.has(p) || year == null) continue;
      if (!years.has(year)) years.set(year, []);
      years.get(year).push([net.rcr.get(p), p]);
    }
    // RANK: one more than the papers of the year with a higher RCR; ranks 1-3 kept, ties and all.
    const best = [...years.entries()]
      .sort((a, b) => b[0] - a[0])
      .flatMap(([y, list]) => list
        .map(([r, p]) => [list.filter(([q]) => q > r).length + 1, p])
        .filter(([rank]) => rank <= 3)
        .sort((a, b) => a[0] - b[0] || a[1] - b[1])
        .map(([, p]) => [y, p]));
    assert.deepEqual((await run('The most influential')).map((r) => [r[0], r[1]]), best);

    // Retractions inside the trail: every paper of the network citing a retracted one.
    const retracted = new Set(pmids.filter((p) => recs.get(p)?.retracted));
    assert.ok(retracted.has(9500320), 'the retracted record is in the trail');
    // A paper NLM links to the retracted paper it cites (its notice, an erratum, a comment),
    // either way, is about it and left out.
    const linked = (a, b) => (recs.get(a)?.links || []).includes(b) || (recs.get(b)?.links || []).includes(a);
    const citing = pmids
      .map((p) => [refsOf(p).filter((r) => retracted.has(r) && !linked(p, r)).length, p])
      .filter(([n]) => n > 0)
      .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const rows = await run('Retractions inside the trail');
    assert.deepEqual(rows.map((r) => [r[1], r[0]]), citing);
    assert.ok(citing.length >= 17, 'two seeds and fifteen citers cite the retracted record');
    assert.ok(pmids.some((p) => refsOf(p).some((r) => retracted.has(r) && linked(p, r))), 'its notice cites it too, left out');
    for (const r of rows) assert.ok(inNet.has(r[0]));
  });
});
