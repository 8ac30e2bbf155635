// The five bibliography styles against citeproc-js running the official CSL files, on the
// hand-made edge cases of tests/fixtures/export/records.jsonl (1 to 25 authors,
// collectives, particles, suffixes, every combination of volume, issue and pages, no
// date, non-English titles, a book...). The native binary writes both the CSL JSON and
// the bibliography (`entrez-mcp export --from`), so what citeproc-js renders is exactly
// the data this server's styles rendered.
// Run: E2E_BIN=target/debug/entrez-mcp node --test tests/e2e/export/styles.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { render, STYLES, RETRACTED_FLAG } from './citeproc.mjs';

const BIN = process.env.E2E_BIN || '';
const RECORDS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/export/records.jsonl');

function exported(...args) {
  return execFileSync(BIN, ['export', '--from', RECORDS, ...args], { encoding: 'utf8' });
}

/**
 * Entries where the server is right and citeproc-js is not, each with the only change that
 * turns ours into citeproc-js's (so nothing else may differ) and why; a listed difference
 * that no longer occurs fails too.
 */
const DIFFERENCES = [
  {
    style: 'chicago',
    ours: 'The Role of p53 in DNA Repair',
    citeproc: 'The Role of P53 in DNA Repair',
    why:
      'A gene or protein symbol keeps its case in title case (CMOS 8.159, as "mRNA" and "BRCA1" keep theirs); ' +
      'citeproc-js capitalizes any lower-case word, digits or not.',
  },
];

test('every style matches citeproc-js entry for entry on the edge cases', { skip: !BIN && 'E2E_BIN is not set' }, () => {
  const items = JSON.parse(exported('--format', 'csl_json'));
  assert.equal(items.length, 55);
  const retracted = new Set(
    exported('--format', 'jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((r) => (r.publication_types || []).includes('Retracted Publication'))
      .map((r) => String(r.pmid)),
  );
  assert.equal(retracted.size, 1);
  for (const style of Object.keys(STYLES)) {
    const ours = exported('--format', 'text', '--style', style).trimEnd().split('\n');
    const theirs = render(style, items);
    assert.equal(ours.length, theirs.length, style);
    let flagged = 0;
    for (let i = 0; i < ours.length; i++) {
      let line = ours[i];
      if (line.endsWith(RETRACTED_FLAG)) {
        flagged++;
        line = line.slice(0, -RETRACTED_FLAG.length);
      }
      const listed = DIFFERENCES.find((d) => d.style === style && line.includes(d.ours));
      if (listed && line !== theirs[i]) {
        listed.seen = true;
        line = line.replace(listed.ours, listed.citeproc);
      }
      assert.equal(line, theirs[i], `${style}, entry ${i + 1}`);
    }
    assert.equal(flagged, 1, `${style}: the retracted record is flagged, and only it`);
  }
  assert.deepEqual(DIFFERENCES.filter((d) => !d.seen).map((d) => d.ours), [], 'listed differences that are gone');
});

test('markdown is the same entries with italics and links', { skip: !BIN && 'E2E_BIN is not set' }, () => {
  const md = exported('--format', 'markdown', '--style', 'apa').trimEnd().split('\n\n');
  const text = exported('--format', 'text', '--style', 'apa').trimEnd().split('\n');
  assert.equal(md.length, text.length);
  const plain = (s) =>
    s
      .replace(/ \[PMID: \d+\]\(<[^>]+>\)$/, '')
      .replace(/\[([^\]]*)\]\(<[^>]+>\)/g, '$1')
      .replace(/\*([^*]+)\*/g, '$1')
      .replace(/\\([\\*_[\]`<>])/g, '$1');
  for (let i = 0; i < md.length; i++) {
    assert.equal(plain(md[i]), text[i], `entry ${i + 1}`);
    assert.match(md[i], / \[PMID: \d+\]\(<https:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/\d+\/>\)$/);
  }
  const withDoi = md.find((e) => e.includes('doi.org/10.1038/s41573-019-0024-5'));
  assert.ok(withDoi.includes('[https://doi.org/10.1038/s41573-019-0024-5](<https://doi.org/10.1038/s41573-019-0024-5>)'), withDoi);
  assert.ok(withDoi.includes('*Nature Reviews. Drug Discovery*, *18*(9)'), withDoi);
});
