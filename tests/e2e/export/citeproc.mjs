// citeproc-js (npm `citeproc`, CPAL-1.0 OR AGPL-1.0; a test oracle only, never shipped)
// rendering CSL JSON with the official style files in tests/fixtures/csl. No test runs from
// this file.

import { readFileSync } from 'node:fs';
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

/**
 * The bibliography citeproc-js makes of `items` (CSL JSON, cited in their order) in
 * `style`, as plain text, one string per entry.
 */
export function render(style, items) {
  const byId = Object.fromEntries(items.map((it) => [String(it.id), it]));
  const xml = readFileSync(path.join(CSL_DIR, STYLES[style]), 'utf8');
  const engine = new CSL.Engine(
    { retrieveLocale: () => LOCALE, retrieveItem: (id) => byId[id] },
    xml,
    'en-US',
    true,
  );
  engine.setOutputFormat('text');
  engine.updateItems(items.map((it) => String(it.id)));
  const [, entries] = engine.makeBibliography();
  return entries.map((e) => e.replace(/\n$/, ''));
}

/** The flag this server writes beside a retracted entry known only by its publication type
 * (citeproc-js knows nothing of it). */
export const RETRACTED_FLAG = ' [RETRACTED]';

/** Any integrity flag this server writes after an entry in plain text: a retraction or an
 * expression of concern, with its notices' PMIDs ("[RETRACTED, see PMID 20137807]"). */
export const INTEGRITY_FLAG = / \[(RETRACTED|EXPRESSION OF CONCERN)[^\]]*\]$/;
