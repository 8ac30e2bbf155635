// Budgets checked against what the upstream sent, not against the result itself: the test asks
// the stand-ins for the same records the server asked for (the NCBI replay's efetch XML, the
// BioC API's answer, PUG REST's properties), reads them with its own few lines of parsing, and
// checks that every record the server shows, at the default budget and at small ones, is
// whole: each abstract section and title in full, in the text a client hands to the model and
// in structuredContent alike; that both blocks stay within max_characters; and that whatever
// was left out is named. A cut in both blocks, or a record shown in part, fails here.
// Run: E2E_URL=... E2E_REPLAY=... E2E_EXTERNAL_REPLAY=... node --test tests/e2e/budget-truth.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders, request } from './helpers.mjs';

const REPLAY = process.env.E2E_REPLAY || '';
const EXTERNAL_REPLAY = process.env.E2E_EXTERNAL_REPLAY || '';
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));
// Thirty synthetic PMIDs: the eight recorded articles cloned, structured abstracts among them.
const IDS = synthetic(90_000_101, 30);
const chars = (s) => [...s].length;
const textOf = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) => {
    if (e[0] === '#') return String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? m;
  });
// MathML stands for a formula that a reader may lay out in its own order (prescripts before
// their base): the truth keeps a hole there, which up to 40 characters of any kind may fill.
const HOLE = '\u0000';
// An element's text as a reader sees it: inline markup dropped, entities decoded, spaces collapsed.
const plain = (xml) =>
  decode(xml.replace(/<mml:math[\s\S]*?<\/mml:math>/g, HOLE).replace(/<[^>]*>/g, ''))
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');

/** Each PMID's title and abstract sections, read from the replay's own efetch XML. */
async function truth(ids) {
  const url = `${REPLAY}/entrez/eutils/efetch.fcgi?db=pubmed&retmode=xml&tool=e2e-truth&api_key=e2e-truth-${EDGE}&id=${ids.join(',')}`;
  const r = await request(url);
  assert.equal(r.status, 200, r.text.slice(0, 200));
  const out = new Map();
  for (const article of r.text.split('<PubmedArticle>').slice(1)) {
    const pmid = article.match(/<PMID[^>]*>(\d+)<\/PMID>/)[1];
    const title = plain(article.match(/<ArticleTitle[^>]*>([\s\S]*?)<\/ArticleTitle>/)?.[1] || '');
    const sections = [...article.matchAll(/<AbstractText([^>]*)>([\s\S]*?)<\/AbstractText>/g)].map((m) => ({
      label: m[1].match(/Label="([^"]*)"/)?.[1],
      text: plain(m[2]),
    }));
    out.set(pmid, { title, sections: sections.filter((s) => s.text) });
  }
  assert.equal(out.size, ids.length, 'the replay answered every id');
  return out;
}

// Compared without whitespace: inline markup (MathML in one abstract) leaves spaces between
// its elements that a reader may keep or drop; a cut, a lost section or a changed word shows.
const squeeze = (s) => s.replace(/\s+/g, '');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A pattern for the truth `t` (squeezed), its holes filled by anything short.
const pattern = (t) => squeeze(t).split(HOLE).map(escape).join('[^\u0000]{0,40}?');
/** Whether `actual` is the truth `t`, whitespace aside. */
const same = (actual, t) => new RegExp(`^${pattern(t)}$`, 'u').test(squeeze(actual));
/** Whether `actual` holds the truth `t` somewhere, whitespace aside. */
const holds = (actual, t) => new RegExp(pattern(t), 'u').test(squeeze(actual));
const abstractOf = (t) => t.sections.map((s) => (s.label ? `${s.label}: ${s.text}` : s.text)).join('\n');
// A field cut because its record alone was longer than the budget: `head… [cut: K of N characters]`.
const CUT = /… \[cut: (\d+) of (\d+) characters\]$/;

/**
 * Asserts that a shown PubMed record is whole, its title and every section in both blocks; or,
 * where `cutAllowed` (the one record shown, longer than the budget on its own), that its
 * abstract is the truth's beginning and says how long the whole is.
 */
function assertWhole(record, truthOf, text, cutAllowed = false) {
  const t = truthOf.get(record.pmid);
  assert.ok(t, `a record nobody asked for: ${record.pmid}`);
  assert.ok(same(record.title, t.title), `${record.pmid}: title ${record.title}`);
  assert.ok(holds(text, t.title), `${record.pmid}: the title is not whole in the text`);
  // fetch's default detail carries each record's abstract: a record without the field is not
  // one whose abstract was checked, and fails rather than passing unread.
  assert.ok('abstract_text' in record, `${record.pmid}: no abstract_text, so its abstract cannot be checked`);
  if (record.abstract_text === null) {
    assert.equal(t.sections.length, 0, `${record.pmid}: an abstract went missing`);
    return;
  }
  const expected = abstractOf(t);
  const cut = record.abstract_text.match(CUT);
  if (cut && cutAllowed) {
    const head = squeeze(record.abstract_text.slice(0, cut.index));
    const whole = squeeze(expected.split(HOLE)[0]);
    assert.ok(whole.startsWith(head) || head.startsWith(whole), `${record.pmid}: the cut abstract is not the abstract's beginning`);
    assert.ok(Number(cut[2]) > Number(cut[1]), `${record.pmid}: the marker says what was kept of how much`);
    return;
  }
  assert.ok(same(record.abstract_text, expected), `${record.pmid}: abstract in structuredContent: ${record.abstract_text.slice(0, 80)}… vs ${expected.slice(0, 80)}…`);
  for (const s of t.sections) assert.ok(holds(text, s.text), `${record.pmid}: a section is not whole in the text: ${s.text.slice(0, 60)}…`);
}

function within(r, budget) {
  assert.ok(chars(textOf(r)) <= budget, `text ${chars(textOf(r))} > ${budget}`);
  const structured = chars(JSON.stringify(r.structuredContent));
  assert.ok(structured <= budget, `structuredContent ${structured} > ${budget}`);
}

describe(`budgets against upstream truth [${EDGE}]`, { skip: !(URL_UNDER_TEST && REPLAY && EXTERNAL_REPLAY) && 'E2E_URL, E2E_REPLAY and E2E_EXTERNAL_REPLAY are not set' }, () => {
  let client;
  let known;
  const call = async (name, args) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    assert.equal(r.isError, false, `${name} ${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r;
  };

  let bioc;
  before(async () => {
    // The BioC article as its stand-in sends it, asked once (PMC allows 3 requests a second).
    const sent = await request(`${EXTERNAL_REPLAY}/research/bionlp/RESTful/pmcoa.cgi/BioC_xml/PMC3531190/unicode`);
    assert.equal(sent.status, 200);
    bioc = sent.text;
    client = new Client({ name: 'entrez-mcp-e2e-budget-truth', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
      requestInit: { headers: callerKeyHeaders('budget-truth') },
    }), { timeout: 15_000 });
    known = await truth(IDS);
    assert.ok([...known.values()].some((t) => t.sections.some((s) => s.label)), 'a structured abstract is among them');
  });

  after(async () => {
    if (client) await client.close();
  });

  for (const budget of [undefined, 12_000, 5_000, 2_000]) {
    test(`entrez_query fetch at ${budget ?? 'the default'} characters: every record shown is whole, the rest named`, async () => {
      const r = await call('entrez_query', { operation: 'fetch', database: 'pubmed', ids: IDS, ...(budget ? { max_characters: budget } : {}) });
      within(r, budget ?? 60_000);
      const sc = r.structuredContent;
      const text = textOf(r);
      // Only a record longer than the whole budget on its own may be cut, and then it is the
      // only one shown, and the budget says so.
      const alone = sc.budget?.record_cut === true;
      if (alone) assert.equal(sc.records.length, 1);
      for (const record of sc.records) assertWhole(record, known, text, alone);
      const shown = sc.records.map((a) => a.pmid);
      // Every budget shows at least one record, so the checks above ran on something; and
      // at least one shown has an abstract that was compared with the truth.
      assert.ok(shown.length >= 1, `no record shown at ${budget ?? 'the default'} characters`);
      assert.ok(
        sc.records.some((rec) => typeof rec.abstract_text === 'string' && known.get(rec.pmid).sections.length > 0),
        'no record shown carries an abstract to compare',
      );
      const left = sc.budget?.left_out_ids || [];
      // Shown, then the ids left out (at a small budget the first of them, for the next call),
      // in order; and the count of those left out makes up the rest.
      assert.deepEqual([...shown, ...left], IDS.slice(0, shown.length + left.length), 'shown then left out, in order');
      assert.equal(shown.length + (sc.budget?.left_out || 0), IDS.length, 'every id shown or counted as left out');
      if (budget === undefined) assert.ok(shown.length >= 20, `${shown.length} shown at the default budget`);
      if (budget === 2_000) assert.ok(left.length > 0, 'a small budget leaves some out');
    });
  }

  test('entrez_data query at a small budget: each row shown carries its whole abstract', async () => {
    const staged = await call('entrez_data', { operation: 'fetch_and_stage', ids: IDS });
    const id = staged.structuredContent.data_access_id;
    try {
      const r = await call('entrez_data', {
        operation: 'query', data_access_id: id, max_characters: 10_000,
        sql: 'SELECT pmid, title, abstract FROM article ORDER BY pmid',
      });
      within(r, 10_000);
      const sc = r.structuredContent;
      assert.ok(sc.rows.length > 1 && sc.rows.length < IDS.length, `${sc.rows.length} rows`);
      assert.equal(sc.budget.left_out, IDS.length - sc.rows.length);
      assert.equal(sc.budget.record_cut, false);
      const text = squeeze(textOf(r));
      sc.rows.forEach(([pmid, title, abstract], i) => {
        assert.equal(String(pmid), IDS[i], 'the rows shown are the first ones, in order');
        const t = known.get(String(pmid));
        assert.ok(same(title, t.title), `${pmid}: title`);
        // Whole in structuredContent; the text's table shows each cell's first 200 characters.
        assert.ok(same(abstract ?? '', abstractOf(t)), `${pmid}: the abstract column`);
        assert.ok(text.includes(squeeze([...(abstract ?? '')].slice(0, 150).join(''))), `${pmid}: not in the text`);
      });
      // The next call returns the first row left out.
      const rest = await call('entrez_data', sc.budget.next_call.arguments);
      assert.equal(String(rest.structuredContent.rows[0][0]), IDS[sc.rows.length]);
    } finally {
      await call('entrez_data', { operation: 'drop_dataset', data_access_id: id });
    }
  });

  for (const budget of [10_000, 4_000, 2_000]) {
    test(`entrez_external BioC at ${budget} characters: each article shown is the article as sent, a cut one said`, async () => {
      // The one article the BioC stand-in serves, by its three names: three articles to fit.
      const ids = ['PMC3531190', '3531190', '23193287'];
      const sent = { text: bioc };
      const r = await call('entrez_external', { service: 'pmc', operation: 'bioc', ids, format: 'xml', max_characters: budget });
      within(r, budget);
      const sc = r.structuredContent;
      const shown = sc.articles.filter((a) => a.ok);
      assert.ok(shown.length > 0, JSON.stringify(sc));
      const cutMarks = (sc.call_warnings || []).filter((w) => w.code === 'results_cut');
      shown.forEach((a, i) => {
        if (a.xml === sent.text) return;
        // Only the last article shown may be cut: it begins as the article does, and the cut is said.
        assert.equal(i, shown.length - 1, `${a.id}, not the last shown, is not whole`);
        const head = a.xml.replace(CUT, '');
        assert.ok(head.length > 0 && sent.text.startsWith(head), `${a.id}: not the article's beginning`);
        assert.equal(sc.truncated, true);
        assert.ok(cutMarks.length > 0, JSON.stringify(sc.call_warnings));
      });
      if (budget === 10_000) assert.deepEqual(shown.map((a) => a.xml), ids.map(() => sent.text), 'all three whole');
      if (budget === 2_000) assert.ok(cutMarks.length > 0, 'a small budget says what it cut');
      // The articles not fetched or not shown are named, with the call that returns them.
      assert.deepEqual([...sc.articles.map((a) => a.id), ...(sc.budget?.left_out_ids || [])], ids);
      if (sc.budget?.left_out) assert.deepEqual(sc.budget.next_call.arguments.ids, sc.budget.left_out_ids);
    });
  }

  test('entrez_external PubChem at the smallest budget: each compound shown as PubChem sent it', async () => {
    const cids = [2244, 2519, 62695];
    const props = 'Title,MolecularFormula,MolecularWeight,IUPACName,InChIKey';
    const sent = await request(`${EXTERNAL_REPLAY}/rest/pug/compound/cid/${cids.join(',')}/property/${props}/JSON`);
    assert.equal(sent.status, 200, sent.text);
    const truthBy = new Map(sent.json.PropertyTable.Properties.map((p) => [p.CID, p]));
    const r = await call('entrez_external', {
      service: 'pubchem', operation: 'compound', namespace: 'cid', identifier: cids,
      properties: props.split(','), max_characters: 2_000,
    });
    within(r, 2_000);
    const sc = r.structuredContent;
    const text = textOf(r);
    assert.ok(sc.compounds.length > 0);
    for (const c of sc.compounds) {
      const t = truthBy.get(c.cid);
      assert.ok(t, `a compound nobody asked for: ${c.cid}`);
      assert.equal(c.title, t.Title);
      assert.equal(c.molecular_formula, t.MolecularFormula);
      assert.equal(String(c.molecular_weight), String(t.MolecularWeight));
      assert.equal(c.iupac_name, t.IUPACName);
      assert.ok(text.includes(t.IUPACName) && text.includes(t.Title), `${c.cid}: cut in the text`);
    }
    assert.deepEqual([...sc.compounds.map((c) => c.cid), ...(sc.budget?.left_out_ids || []).map(Number)], cids);
  });
});
