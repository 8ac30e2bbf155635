// Bibliographies against a truth the server has no hand in: every recorded PubMed fixture
// (../shared/fixtures/ncbi/eutils/pubmed*.xml) and the records built to the PubMed DTD
// (tests/fixtures/export/pubmed-dtd), mapped to CSL JSON by this test's own reading of the
// XML (pubmed-csl.mjs), rendered by citeproc-js with the official CSL styles. The server
// reads the same XML (`entrez-mcp export --from`, the parser, rows and record model of a
// staged dataset) and its CSL JSON and five styles are compared with that rendering.
// Run: E2E_BIN=target/debug/entrez-mcp node --test tests/e2e/export/truth.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bibliography, render, STYLES, JOURNAL_STYLES, INTEGRITY_FLAG } from './citeproc.mjs';
import { items, joinSets } from './pubmed-csl.mjs';

const BIN = process.env.E2E_BIN || '';
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const RECORDED = path.join(ROOT, '../shared/fixtures/ncbi/eutils');
const BUILT = path.join(ROOT, 'tests/fixtures/export/pubmed-dtd/records.xml');

// The citation's variables: what a style can print.
const FIELDS = ['type', 'title', 'author', 'container-title', 'container-title-short', 'issued', 'volume', 'issue', 'page', 'number', 'DOI', 'PMID', 'PMCID', 'ISSN', 'language'];

/**
 * Entries of the five styles that differ from citeproc-js on the mapping, each with why the
 * server's is the right one. Keyed "style PMID"; the test fails on a difference not listed
 * here and on a listed one that no longer differs.
 */
const DIFFERENCES = {
  'vancouver 99000005':
    'An issue dated "2018 Dec-2019 Jan": Citing Medicine (ch. 1, "Date of publication", ranges across years) writes "2018 Dec-2019 Jan"; ' +
    'citeproc-js drops the space between the second year and its month ("2018 Dec–2019Jan"), a quirk of its date-range output ' +
    '(the style\'s localized date joins every part with a space, <date delimiter=" " form="text">, nlm-citation-sequence.csl; ' +
    'citeproc-js applies that delimiter within each end of a range but not after the year that opens the second).',
  'chicago 99000013':
    'A species name in a title: "Escherichia coli" (italic in PubMed\'s ArticleTitle) keeps its lower-case epithet in title case ' +
    '(CMOS 8.159: species names keep their case; CSL 1.0.2 "Title-casing": text in a nocase span is left alone); citeproc-js ' +
    'does not treat <i> as nocase and writes "Escherichia Coli".',
};

const files = readdirSync(RECORDED)
  .filter((f) => /^pubmed\d*\.xml$/.test(f))
  .sort()
  .map((f) => path.join(RECORDED, f));

let dir;
let joined;
function setup() {
  if (joined) return joined;
  dir = mkdtempSync(path.join(os.tmpdir(), 'entrez-truth-'));
  joined = path.join(dir, 'pubmed.xml');
  writeFileSync(joined, joinSets([...files, BUILT].map((f) => readFileSync(f, 'utf8'))));
  return joined;
}
process.on('exit', () => dir && rmSync(dir, { recursive: true, force: true }));

const exported = (...args) => execFileSync(BIN, ['export', '--from', setup(), ...args], { encoding: 'utf8' });
const pick = (it) => Object.fromEntries(FIELDS.filter((f) => it[f] !== undefined).map((f) => [f, it[f]]));

test('the truth covers every recorded PubMed article and every built case', () => {
  const truth = items(readFileSync(setup(), 'utf8'));
  const recorded = files.reduce((n, f) => n + (readFileSync(f, 'utf8').match(/<PubmedArticle>/g) || []).length, 0);
  assert.ok(files.length >= 6, 'the recorded fixtures are found');
  assert.equal(truth.length, recorded + 13);
  // Each case the DTD-built records hold is in the mapping, so a comparison sees it.
  const byId = Object.fromEntries(truth.map((it) => [it.id, it]));
  assert.equal(byId['99000001'].page, '1203-1210');
  assert.equal(byId['99000002']['container-title-short'], 'Rev Salud Publica Nutr');
  assert.deepEqual(byId['99000003'].issued, { 'date-parts': [[2020]], season: 'Winter' });
  assert.deepEqual(byId['99000004'].issued, { 'date-parts': [[2019, 1], [2019, 2]] });
  assert.deepEqual(byId['99000005'].issued, { 'date-parts': [[2018, 12], [2019, 1]] });
  assert.equal(byId['99000006'].number, 'e0252345');
  assert.equal(byId['99000012'].author[0]['non-dropping-particle'], 'van der');
  assert.equal(byId['99000012'].author[2].suffix, 'Jr');
  assert.deepEqual(byId['99000011'].author, [{ literal: 'GBD Chronic Kidney Disease Collaboration' }]);
  assert.match(byId['99000013'].title, /<i>Escherichia coli<\/i>/);
});

test("the server's CSL JSON is the XML's, variable for variable", { skip: !BIN && 'E2E_BIN is not set' }, () => {
  const truth = items(readFileSync(setup(), 'utf8'));
  const ours = JSON.parse(exported('--format', 'csl_json'));
  assert.deepEqual(ours.map((it) => String(it.id)), truth.map((it) => it.id), 'every record, in order');
  for (let i = 0; i < truth.length; i++) {
    assert.deepEqual(pick(ours[i]), pick(truth[i]), `PMID ${truth[i].id}`);
  }
});

test("in ten official styles citeproc-js renders the server's CSL JSON as it renders the XML", { skip: !BIN && 'E2E_BIN is not set' }, () => {
  const truth = items(readFileSync(setup(), 'utf8'));
  const ours = JSON.parse(exported('--format', 'csl_json'));
  const styles = [...Object.keys(STYLES), ...Object.keys(JOURNAL_STYLES)];
  assert.equal(styles.length, 10);
  for (const style of styles) {
    assert.deepEqual(render(style, ours), render(style, truth), style);
  }
});

test('the five styles match citeproc-js on the XML, but for the differences listed', { skip: !BIN && 'E2E_BIN is not set' }, () => {
  const truth = items(readFileSync(setup(), 'utf8'));
  const found = {};
  for (const style of Object.keys(STYLES)) {
    const theirs = bibliography(style, truth);
    const ours = exported('--format', 'text', '--style', style).trimEnd().split('\n').map((l) => l.replace(INTEGRITY_FLAG, ''));
    assert.equal(ours.length, theirs.length, style);
    for (let i = 0; i < ours.length; i++) {
      if (ours[i] !== theirs[i].text) found[`${style} ${theirs[i].id}`] = { ours: ours[i], citeproc: theirs[i].text };
    }
  }
  const unlisted = Object.keys(found).filter((k) => !DIFFERENCES[k]);
  assert.deepEqual(unlisted.map((k) => ({ entry: k, ...found[k] })), [], 'differences not listed');
  assert.deepEqual(Object.keys(DIFFERENCES).filter((k) => !found[k]), [], 'listed differences that are gone');
});

// The title's own italics (species, genes) from the XML, read here: in every style, plain
// text keeps their words as written (no capital on "coli") without tags, and Markdown
// writes each span in italics.
test('a title\'s italics keep their case in every style and are italic in Markdown', { skip: !BIN && 'E2E_BIN is not set' }, () => {
  const xml = readFileSync(setup(), 'utf8');
  const spans = [...xml.matchAll(/<ArticleTitle>(.*?)<\/ArticleTitle>/gs)]
    .flatMap((m) => [...m[1].matchAll(/<i>([^<"&]+)<\/i>/g)].map((i) => i[1]));
  assert.ok(spans.includes('Escherichia coli'), JSON.stringify(spans));
  for (const style of Object.keys(STYLES)) {
    const text = exported('--format', 'text', '--style', style);
    const md = exported('--format', 'markdown', '--style', style);
    assert.doesNotMatch(text, /<\/?i>|\u{e000}|\u{e001}/u, style);
    for (const span of spans) {
      assert.ok(text.includes(span), `${style}: "${span}" as written`);
      assert.ok(md.includes(`*${span}*`), `${style}: "*${span}*" in Markdown`);
    }
  }
});
