// The MCP Apps view (view/dist/view.html) in Chromium, inside a small host page
// (tests/e2e/view-host/host.js: a sandboxed iframe under the spec's default CSP, AppBridge over
// postMessage, tools/call forwarded to Node). Run:
//   node --test tests/e2e/view.test.mjs                              (canned results only)
//   E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/view.test.mjs   (and the server)
//
// "view with canned results" always runs: it needs no server, only Chromium (/usr/bin/chromium
// or CHROMIUM_BIN; ensure_chromium in scripts/lib.sh installs it). Without Chromium the suite
// fails. The server suite checks the extension's contract (capability, tools' _meta.ui, the
// ui:// resource is the checked-in page) and then drives the view with real results: charts,
// paging through the app-only tool entrez_data_page, an error. Screenshots go to target/test-artifacts/;
// E2E_VIEW_SCREENSHOT names one more file for the chart's.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import puppeteer from 'puppeteer-core';
import { PNG } from 'pngjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, listAllTools, resultText } from './helpers.mjs';
import { buildView, DIST } from '../../view/build.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ARTIFACTS = join(ROOT, 'target', 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const UI = 'io.modelcontextprotocol/ui';
const VIEW_URI = 'ui://entrez-mcp/view.html';
const MIME = 'text/html;profile=mcp-app';
const PAGE_TOOL = 'entrez_data_page';
const BAR_RGB = [31, 119, 180];
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

// ---- the browser and the host page -------------------------------------------------------

async function launch() {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not at ${CHROMIUM}: the view's tests need it. Install it (ensure_chromium in ` +
        'scripts/lib.sh does: apt-get install chromium) or set CHROMIUM_BIN to its path.',
    );
  }
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--font-render-hinting=none'],
  });
}

let hostScript;
async function hostHtml() {
  if (!hostScript) {
    const built = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [join(HERE, 'view-host', 'host.js')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: ['es2022'],
      logLevel: 'silent',
    });
    hostScript = built.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
  }
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>entrez-mcp view host</title></head>' +
    `<body style="margin:8px;background:#eef0f3"><div id="host"></div><script>${hostScript}</script></body></html>`
  );
}

/** One host page; callTool(params) answers the view's forwarded tools/call in Node. */
class Host {
  static async open(browser, callTool) {
    const host = new Host();
    host.problems = [];
    host.forwarded = [];
    host.page = await browser.newPage();
    await host.page.setViewport({ width: 800, height: 1000 });
    host.page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'assert') host.problems.push(`console.${m.type()}: ${m.text()}`);
    });
    host.page.on('pageerror', (e) => host.problems.push(`uncaught: ${e.message}`));
    await host.page.exposeFunction('nodeCallTool', async (params) => {
      host.forwarded.push(params);
      return callTool(params);
    });
    await host.page.setContent(await hostHtml(), { waitUntil: 'load' });
    return host;
  }

  /** Shows the view with a call's input and result; returns the view's frame. */
  async show(options) {
    await this.page.evaluate((o) => window.viewHost.show(o), options);
    this.iframe = await this.page.$('#host iframe');
    this.frame = await this.iframe.contentFrame();
    assert.ok(this.frame, 'the view iframe has a frame');
    return this.frame;
  }

  log() {
    return this.page.evaluate(() => JSON.parse(JSON.stringify(window.viewHost.log)));
  }

  /** No console error, uncaught exception or CSP violation so far. */
  assertClean() {
    assert.deepEqual(this.problems, [], 'console errors, uncaught exceptions or CSP violations');
  }

  async screenshot(name, extra) {
    mkdirSync(ARTIFACTS, { recursive: true });
    const bytes = await this.iframe.screenshot({ type: 'png' });
    writeFileSync(join(ARTIFACTS, name), bytes);
    if (extra) {
      mkdirSync(dirname(extra), { recursive: true });
      writeFileSync(extra, bytes);
    }
  }
}

// ---- reading the view --------------------------------------------------------------------

const bars = (frame) =>
  frame.$$eval('svg.chart .bar', (els) => els.map((e) => ({ label: e.dataset.label, value: e.dataset.value })));

async function waitBars(frame, n) {
  if (n === 0) await frame.waitForSelector('svg.chart');
  else await frame.waitForFunction((k) => document.querySelectorAll('svg.chart .bar').length === k, { timeout: 15_000 }, n);
}

async function tooltipOf(frame, handle) {
  await handle.hover();
  await frame.waitForFunction(() => !document.querySelector('.tooltip').hidden, { timeout: 5_000 });
  return frame.$eval('.tooltip', (e) => e.textContent);
}

const tableRows = (frame, scope = '') =>
  frame.$$eval(`${scope} table.data tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));

// Waits for the paged table to finish the load after `loads` (its data-loads counter).
async function waitLoaded(frame, loads) {
  await frame.waitForFunction(
    (n) => {
      const paged = document.querySelector('.paged');
      return Number(paged.dataset.loads) > n && paged.querySelector('table.data').getAttribute('aria-busy') === 'false';
    },
    { timeout: 60_000 },
    loads,
  );
}

async function clickAndWait(frame, selector) {
  const loads = Number(await frame.$eval('.paged', (e) => e.dataset.loads));
  await frame.click(selector);
  await waitLoaded(frame, loads);
}

/** Every first-column cell of every page, clicking Next until it is disabled. */
async function allPages(frame) {
  const seen = [];
  for (let page = 0; page < 100; page++) {
    seen.push(...(await tableRows(frame, '.paged')).map((r) => r[0]));
    if (await frame.$eval('[data-action=next]', (b) => b.disabled)) return seen;
    await clickAndWait(frame, '[data-action=next]');
    const error = await frame.$eval('.paged .error', (e) => (e.hidden ? '' : e.textContent));
    assert.equal(error, '', 'a page failed');
  }
  throw new Error('still a Next page after 100 pages');
}

/** The chart checks shared by both suites: bars, labels, a tooltip, bar <-> line, the table. */
async function checkChart(frame, points, { hoverAt } = {}) {
  await waitBars(frame, points.length);
  const shown = await bars(frame);
  assert.deepEqual(shown.map((b) => b.label), points.map((p) => String(p.label)));
  assert.deepEqual(shown.map((b) => b.value), points.map((p) => (p.value === null ? '' : String(p.value))));
  const at = hoverAt ?? points.reduce((best, p, i) => ((p.value ?? -Infinity) > (points[best].value ?? -Infinity) ? i : best), 0);
  const handle = (await frame.$$('svg.chart .bar'))[at];
  const tip = await tooltipOf(frame, handle);
  const value = points[at].value === null ? 'no value' : NUMBER.format(points[at].value);
  assert.ok(tip.includes(`${points[at].label}: ${value}`), `tooltip "${tip}" shows ${points[at].label}: ${value}`);
  // Bar -> line -> bar.
  await frame.click('[data-kind=line]');
  await frame.waitForFunction((k) => document.querySelectorAll('svg.chart .point').length === k, {}, points.length);
  assert.equal((await frame.$$('svg.chart .bar')).length, 0);
  if (points.some((p) => p.value !== null)) assert.ok(await frame.$('svg.chart path.line'), 'a line is drawn');
  assert.equal(await frame.$eval('[data-kind=line]', (b) => b.getAttribute('aria-pressed')), 'true');
  await frame.click('[data-kind=bar]');
  await waitBars(frame, points.length);
  // The table of the points.
  assert.equal((await tableRows(frame, '.chart-view')).length, points.length);
}

// ---- canned results ----------------------------------------------------------------------

const DATASET = '0123456789abcdef0123456789abcdef';
const YEARS = Array.from({ length: 35 }, (_, i) => 1990 + i);
const PER_YEAR = {
  operation: 'chart',
  data_access_id: DATASET,
  status: 'complete',
  chart: 'per_year',
  kind: 'bar',
  title: 'Articles per year',
  x_label: 'Year',
  y_label: 'Articles',
  sql: 'SELECT year, COUNT(*) AS n FROM article GROUP BY year ORDER BY year',
  points: YEARS.map((y, i) => ({ label: String(y), value: i % 11 === 3 ? 0 : ((i * 37) % 23) + 1 })),
  image: { mime_type: 'image/png', width: 800, height: 500, bytes: 1234 },
  warnings: [],
};
const textResult = (structuredContent, text) => ({
  content: [{ type: 'text', text: text ?? JSON.stringify(structuredContent).slice(0, 200) }],
  structuredContent,
  isError: false,
});

// The canned dataset: 200 articles. Its main table has a journal column; the query does not.
const ARTICLES = Array.from({ length: 200 }, (_, i) => [
  String(30_000_000 + ((i * 7919) % 200) * 13),
  `Synthetic article ${i + 1}`,
  1990 + ((i * 7) % 35),
  `Journal ${i % 9}`,
]);
const QUERY_SQL = 'SELECT pmid, title, year FROM article ORDER BY pmid';
const byPmid = [...ARTICLES].sort((a, b) => a[0].localeCompare(b[0]));

function cannedError(code, message) {
  return { content: [{ type: 'text', text: message }], structuredContent: { error: { code, message, suggestions: [] } }, isError: true };
}

function cannedPage(args) {
  if (args.data_access_id !== DATASET) return cannedError('not_found', `No dataset ${args.data_access_id}.`);
  const columns = args.sql ? ['pmid', 'title', 'year'] : ['pmid', 'title', 'year', 'journal'];
  let rows = (args.sql ? byPmid : ARTICLES).map((r) => r.slice(0, columns.length));
  if (args.order_by) {
    if (args.order_by === 'title') return cannedError('invalid_arguments', 'order_by title: the canned server does not sort by title.');
    const c = columns.indexOf(args.order_by);
    if (c < 0) return cannedError('invalid_arguments', `order_by: no column ${args.order_by}.`);
    rows = [...rows].sort((a, b) => (a[c] < b[c] ? -1 : a[c] > b[c] ? 1 : 0));
    if (args.descending) rows.reverse();
  }
  const offset = args.offset ?? 0;
  const limit = args.limit ?? 25;
  const page = rows.slice(offset, offset + limit);
  return textResult(
    {
      operation: 'page',
      data_access_id: DATASET,
      sql: args.sql ?? 'SELECT * FROM article',
      columns,
      rows: page,
      offset,
      limit,
      total: rows.length,
      order_by: args.order_by ?? null,
      descending: Boolean(args.descending),
    },
    `rows ${offset + 1}-${offset + page.length} of ${rows.length}`,
  );
}

describe('view with canned results', () => {
  let browser;
  let host;
  let html;

  before(async () => {
    html = readFileSync(DIST, 'utf8');
    browser = await launch();
    host = await Host.open(browser, async (params) => {
      if (params.name === PAGE_TOOL) return cannedPage(params.arguments || {});
      return cannedError('not_found', `no canned tool ${params.name}`);
    });
  });

  after(async () => {
    if (browser) await browser.close();
  });

  test('view/dist/view.html is what view/ builds, one file that loads nothing', async () => {
    assert.ok((await buildView()) === html, 'view/dist/view.html is stale: run scripts/build-view.sh');
    // An element that loads a URL, or CSS that does (url() is lower case; JS has new URL(…)).
    const external = html.match(/<(script|link|img|iframe|source)\b[^>]*\b(src|href)\s*=/i) || html.match(/@import|\burl\(\s*['"]?(https?:|\/\/)/);
    assert.equal(external, null, `the page loads something: ${external && html.slice(external.index, external.index + 80)}`);
  });

  test('a chart: bars with labels and values, a tooltip, bar <-> line, the table, PNG and CSV', async () => {
    const input = { operation: 'chart', data_access_id: DATASET, chart: 'per_year' };
    const frame = await host.show({ html, input, result: textResult(PER_YEAR), appTools: [PAGE_TOOL] });
    await checkChart(frame, PER_YEAR.points);
    assert.equal(await frame.$eval('h1', (e) => e.textContent), 'Articles per year');
    assert.equal(await frame.$eval('svg.chart title', (e) => e.textContent), 'Articles per year');
    assert.ok(await frame.$eval('svg.chart', (e) => e.getAttribute('aria-label').startsWith('Articles per year')));
    // Years are short: drawn level, every one or every few, never overlapping.
    const ticks = await frame.$$eval('svg.chart .x-axis text.tick', (ts) =>
      ts.map((t) => {
        const r = t.getBoundingClientRect();
        return { left: r.left, right: r.right, text: t.textContent, rotated: t.hasAttribute('transform') };
      }),
    );
    assert.ok(ticks.length >= 5 && ticks.length <= PER_YEAR.points.length, `${ticks.length} x labels`);
    for (let i = 1; i < ticks.length; i++) {
      assert.ok(ticks[i].left >= ticks[i - 1].right, `x labels ${ticks[i - 1].text} and ${ticks[i].text} overlap`);
    }
    // Keyboard: focus the first bar, arrow right to the second.
    await frame.$eval('svg.chart .bar', (e) => e.focus());
    await host.page.keyboard.press('ArrowRight');
    assert.equal(await frame.evaluate(() => document.activeElement.dataset.label), PER_YEAR.points[1].label);
    assert.match(await frame.$eval('.tooltip', (e) => e.textContent), new RegExp(`^${PER_YEAR.points[1].label}: `));
    // The table sorts in the page: by year descending, then by value ascending.
    await frame.click('.chart-view th button[data-column="Year"]');
    await frame.click('.chart-view th button[data-column="Year"]');
    assert.equal((await tableRows(frame, '.chart-view'))[0][0], '2024');
    assert.equal(await frame.$eval('.chart-view th[aria-sort]', (e) => e.getAttribute('aria-sort')), 'descending');
    await frame.click('.chart-view th button[data-column="Articles"]');
    assert.equal((await tableRows(frame, '.chart-view'))[0][1], '0');
    // Download PNG and CSV go through the host (it offers ui/download-file).
    await frame.click('[data-action=png]');
    await host.page.waitForFunction(() => window.viewHost.log.downloads.length >= 1, { timeout: 15_000 });
    await frame.click('[data-action=csv]');
    await host.page.waitForFunction(() => window.viewHost.log.downloads.length >= 2, { timeout: 15_000 });
    const [png, csv] = (await host.log()).downloads.map((d) => d.contents[0].resource);
    assert.equal(png.mimeType, 'image/png');
    assert.match(png.uri, /articles-per-year\.png$/);
    const pngBytes = Buffer.from(png.blob, 'base64');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'view-canned-download.png'), pngBytes);
    const picture = PNG.sync.read(pngBytes);
    assert.equal(picture.width, 1600);
    let barPixels = 0;
    for (let i = 0; i < picture.data.length; i += 4) {
      if (BAR_RGB.every((v, k) => Math.abs(picture.data[i + k] - v) <= 2)) barPixels++;
    }
    assert.ok(barPixels > 1000, `${barPixels} pixels of the bar colour in the PNG`);
    assert.equal(csv.mimeType, 'text/csv');
    assert.ok(csv.text.startsWith('Year,Articles\r\n1990,'), csv.text.slice(0, 40));
    assert.equal(csv.text.trim().split('\r\n').length, PER_YEAR.points.length + 1);
    await host.screenshot('view-canned-chart.png');
    host.assertClean();
  });

  test('stacked bars with a legend; 45 long labels thinned; dark theme', async () => {
    const series = ['Journal Article', 'Review', 'Letter'];
    const points = Array.from({ length: 45 }, (_, i) => {
      const parts = [i % 7, (i * 3) % 5, i % 2];
      return { label: `The Journal of Long Names, volume ${i + 1}`, value: parts.reduce((a, b) => a + b, 0), parts };
    });
    const sc = { ...PER_YEAR, chart: 'top_journals', title: 'Articles by journal and type', x_label: 'Journal', y_label: 'Articles', series, points };
    const frame = await host.show({ html, input: {}, result: textResult(sc), theme: 'dark', appTools: [PAGE_TOOL] });
    await waitBars(frame, 45);
    assert.equal(await frame.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await frame.$$eval('svg.chart .bar', (bs) => bs.filter((b) => b.querySelectorAll('.seg').length === 3).length), 45);
    assert.deepEqual(await frame.$$eval('svg.chart .legend-text', (ts) => ts.map((t) => t.textContent)), series);
    const labels = await frame.$$eval('svg.chart .x-axis text.tick', (ts) => ts.map((t) => t.textContent));
    assert.ok(labels.length < 45 && labels.length >= 5, `${labels.length} of 45 x labels shown`);
    assert.ok(labels.every((l) => l.length <= 18), 'long labels are shortened');
    const tip = await tooltipOf(frame, (await frame.$$('svg.chart .bar'))[10]);
    assert.ok(tip.includes('Journal Article: 3') && tip.includes('Review: 0') && tip.includes('Letter: 0'), tip);
    assert.deepEqual((await tableRows(frame, '.chart-view'))[10], [points[10].label, '3', '0', '0', '3']);
    await host.screenshot('view-canned-stacked-dark.png');
    host.assertClean();
  });

  test('count_by_year: a year without a count is marked; no points says No data', async () => {
    const counts = [2015, 2016, 2017, 2018].map((year, i) => ({
      year,
      count: i === 2 ? null : 1000 * (i + 1),
      term: `(asthma[mh]) AND ${year}[pdat]`,
    }));
    const sc = {
      operation: 'count_by_year',
      title: 'asthma[mh] per year',
      database: 'pubmed',
      term: 'asthma[mh]',
      counts,
      warnings: ['NCBI did not answer for 2017'],
    };
    const frame = await host.show({ html, input: { operation: 'count_by_year', term: 'asthma[mh]' }, result: textResult(sc) });
    await checkChart(frame, counts.map((c) => ({ label: c.year, value: c.count })), { hoverAt: 3 });
    assert.equal(await frame.$$eval('svg.chart .bar[data-missing] .missing', (m) => m.length), 1);
    assert.match(await frame.$eval('.warnings', (e) => e.textContent), /NCBI did not answer for 2017.*1 year without a count/);
    assert.equal(await tooltipOf(frame, (await frame.$$('svg.chart .bar'))[2]), '2017: no value');
    assert.deepEqual((await tableRows(frame, '.chart-view'))[3], ['2018', '4,000']);
    await host.screenshot('view-canned-counts.png');

    const empty = await host.show({ html, input: {}, result: textResult({ ...PER_YEAR, points: [], warnings: ['value: not a number'] }) });
    await waitBars(empty, 0);
    assert.equal(await empty.$eval('.empty', (e) => e.textContent), 'No data');
    assert.equal(await empty.$eval('svg.chart .no-data', (e) => e.textContent), 'No data');
    assert.ok(await empty.$('svg.chart .y-axis line.axis'), 'the empty chart still has its frame');
    await host.screenshot('view-canned-empty.png');
    host.assertClean();
  });

  test('a query pages through entrez_data_page, sorts on the server, and keeps working after an error', async () => {
    const first = byPmid.slice(0, 100).map((r) => r.slice(0, 3));
    const sc = {
      operation: 'query',
      data_access_id: DATASET,
      status: 'complete',
      columns: ['pmid', 'title', 'year'],
      rows: first,
      row_count: 100,
      total: 200,
      total_exact: true,
      truncated: true,
      limit: 100,
      elapsed_ms: 1,
      warnings: [],
    };
    host.forwarded.length = 0;
    const input = { operation: 'query', data_access_id: DATASET, sql: QUERY_SQL };
    const frame = await host.show({ html, input, result: textResult(sc), appTools: [PAGE_TOOL] });
    await frame.waitForSelector('.paged table.data tbody tr');
    assert.equal(await frame.$eval('.paged .range', (e) => e.textContent), 'rows 1–25 of 200');
    assert.deepEqual(await frame.$$eval('.paged th[scope=col]', (t) => t.map((e) => e.textContent)), ['pmid', 'title', 'year']);
    const pmids = await allPages(frame);
    assert.deepEqual(pmids, byPmid.map((r) => r[0]));
    assert.equal(new Set(pmids).size, 200);
    assert.equal(await frame.$eval('.paged .range', (e) => e.textContent), 'rows 176–200 of 200');
    assert.ok(host.forwarded.length >= 7 && host.forwarded.every((c) => c.name === PAGE_TOOL), `${host.forwarded.length} forwarded calls`);
    assert.ok(host.forwarded.every((c) => c.arguments.sql === QUERY_SQL && c.arguments.data_access_id === DATASET));
    // Previous goes back a page.
    await clickAndWait(frame, '[data-action=prev]');
    assert.equal(await frame.$eval('.paged .range', (e) => e.textContent), 'rows 151–175 of 200');
    // Sorting is the server's: year descending, from the first row.
    await clickAndWait(frame, '.paged th button[data-column="year"]');
    await clickAndWait(frame, '.paged th button[data-column="year"]');
    const want = cannedPage({ data_access_id: DATASET, sql: QUERY_SQL, order_by: 'year', descending: true }).structuredContent.rows[0];
    assert.deepEqual((await tableRows(frame, '.paged'))[0], [want[0], want[1], String(want[2])]);
    assert.equal(await frame.$eval('.paged th[aria-sort]', (e) => e.getAttribute('aria-sort')), 'descending');
    assert.deepEqual(host.forwarded.at(-1).arguments, {
      data_access_id: DATASET,
      sql: QUERY_SQL,
      offset: 0,
      limit: 25,
      order_by: 'year',
      descending: true,
    });
    // The server refuses to sort by title: its message is shown, the rows stay, Next still works.
    const before = await tableRows(frame, '.paged');
    await clickAndWait(frame, '.paged th button[data-column="title"]');
    assert.match(await frame.$eval('.paged .error', (e) => e.textContent), /does not sort by title/);
    assert.deepEqual(await tableRows(frame, '.paged'), before);
    await clickAndWait(frame, '[data-action=next]');
    assert.equal(await frame.$eval('.paged .range', (e) => e.textContent), 'rows 26–50 of 200');
    assert.equal(await frame.$eval('.paged .error', (e) => e.hidden), true);
    await host.screenshot('view-canned-table.png');
    host.assertClean();
  });

  test('a staged dataset offers Browse rows of its main table; a host that refuses the tool is said', async () => {
    const sc = { operation: 'fetch_and_stage', data_access_id: DATASET, database: 'pubmed', status: 'complete', records: 200 };
    host.forwarded.length = 0;
    const frame = await host.show({ html, input: {}, result: textResult(sc, 'Staged 200 PubMed records.'), appTools: [PAGE_TOOL] });
    assert.equal(await frame.$eval('pre.text', (e) => e.textContent), 'Staged 200 PubMed records.');
    await frame.click('[data-action=browse]');
    await frame.waitForSelector('.paged');
    await waitLoaded(frame, 0);
    assert.equal(await frame.$eval('.paged .range', (e) => e.textContent), 'rows 1–25 of 200');
    assert.deepEqual(await frame.$$eval('.paged th[scope=col]', (t) => t.map((e) => e.textContent)), ['pmid', 'title', 'year', 'journal']);
    assert.deepEqual(host.forwarded.map((c) => c.arguments), [{ data_access_id: DATASET, offset: 0, limit: 25 }]);
    assert.deepEqual((await tableRows(frame, '.paged'))[0], [ARTICLES[0][0], ARTICLES[0][1], String(ARTICLES[0][2]), ARTICLES[0][3]]);

    // A host where entrez_data_page is not callable from the view.
    const refused = await host.show({ html, input: {}, result: textResult(sc, 'Staged.'), appTools: [] });
    await refused.click('[data-action=browse]');
    await refused.waitForSelector('.paged');
    await waitLoaded(refused, 0);
    assert.match(await refused.$eval('.paged .error', (e) => e.textContent), /refuses tools\/call of entrez_data_page/);
    assert.equal(await refused.$eval('.paged .range', (e) => e.textContent), 'No rows');
    assert.deepEqual((await host.log()).refused.slice(-1), [PAGE_TOOL]);
    host.assertClean();
  });

  test('without ui/download-file, Download CSV falls back to an <a download> data: link', async () => {
    const frame = await host.show({ html, input: {}, result: textResult(PER_YEAR), downloadFile: false });
    await waitBars(frame, PER_YEAR.points.length);
    // Record the link's click instead of letting the sandbox refuse the download.
    await frame.evaluate(() => {
      window.clicked = [];
      HTMLAnchorElement.prototype.click = function click() {
        window.clicked.push({ href: this.href, download: this.download });
      };
    });
    const before = (await host.log()).downloads.length;
    await frame.click('[data-action=csv]');
    await frame.waitForFunction(() => window.clicked.length === 1);
    const [link] = await frame.evaluate(() => window.clicked);
    assert.equal(link.download, 'articles-per-year.csv');
    assert.ok(link.href.startsWith('data:text/csv;base64,'), link.href.slice(0, 40));
    const text = Buffer.from(link.href.slice(link.href.indexOf(',') + 1), 'base64').toString('utf8');
    assert.ok(text.startsWith('Year,Articles\r\n1990,'), text.slice(0, 40));
    assert.equal((await host.log()).downloads.length, before, 'nothing went to the host');
    host.assertClean();
  });

  test('errors and unexpected results show their text, never a blank view', async () => {
    const err = cannedError('not_found', 'No staged dataset 00000000000000000000000000000000.');
    err.structuredContent.error.suggestions = ['Stage it again with fetch_and_stage.'];
    let frame = await host.show({ html, input: {}, result: err });
    assert.equal(await frame.$eval('.error .message', (e) => e.textContent), err.content[0].text);
    assert.match(await frame.$eval('.error', (e) => e.getAttribute('role')), /alert/);
    assert.match(await frame.$eval('.error li', (e) => e.textContent), /Stage it again/);
    await host.screenshot('view-canned-error.png');

    frame = await host.show({ html, input: {}, result: { content: [{ type: 'text', text: 'Plain text answer' }] } });
    assert.equal(await frame.$eval('pre.text', (e) => e.textContent), 'Plain text answer');

    const odd = { operation: 'chart', points: 'not a list', series: 7 };
    frame = await host.show({ html, input: {}, result: { content: [{ type: 'text', text: 'odd' }], structuredContent: odd } });
    await waitBars(frame, 0);
    assert.equal(await frame.$eval('.empty', (e) => e.textContent), 'No data');

    const cells = { operation: 'query', columns: ['a'], rows: [[1], [null], [{ base64: 'AAAA' }]] };
    frame = await host.show({ html, input: {}, result: { content: [], structuredContent: cells } });
    assert.deepEqual(await tableRows(frame), [['1'], ['NULL'], ['[blob, 3 bytes]']]);
    host.assertClean();
  });
});

// ---- the server --------------------------------------------------------------------------

describe(`view against the server [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  let browser;
  let host;
  let html;
  let id;
  let appTools;
  const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });

  before(async () => {
    browser = await launch();
    client = new Client(
      { name: 'entrez-mcp-e2e-view', version: '1.0.0' },
      { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
    host = await Host.open(browser, (params) => call(params.name, params.arguments || {}));
    const staged = await call('entrez_data', { operation: 'fetch_and_stage', term: 'replay-synthetic[all]', max_records: 200, wait_seconds: 60 });
    assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
    id = staged.structuredContent.data_access_id;
  });

  after(async () => {
    if (client) await client.close();
    if (browser) await browser.close();
  });

  test('the server offers the UI extension, links entrez_data and entrez_query to the view, serves the page', async () => {
    assert.ok(client.getServerCapabilities()?.extensions?.[UI], `initialize result capabilities: ${JSON.stringify(client.getServerCapabilities())}`);
    const tools = await listAllTools(client);
    const named = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['entrez_data', 'entrez_query']) {
      assert.equal(named[name]?._meta?.ui?.resourceUri, VIEW_URI, `${name} _meta: ${JSON.stringify(named[name]?._meta)}`);
    }
    assert.ok(named[PAGE_TOOL], `${PAGE_TOOL} is listed`);
    assert.deepEqual(named[PAGE_TOOL]._meta?.ui?.visibility, ['app']);
    // What a host lets a view call: visibility includes "app" (the default is model and app).
    appTools = tools.filter((t) => (t._meta?.ui?.visibility ?? ['model', 'app']).includes('app')).map((t) => t.name);
    assert.ok(appTools.includes(PAGE_TOOL));
    const read = await client.readResource({ uri: VIEW_URI });
    assert.equal(read.contents.length, 1);
    assert.equal(read.contents[0].mimeType, MIME);
    assert.equal(read.contents[0].uri, VIEW_URI);
    html = read.contents[0].text;
    assert.equal(typeof html, 'string');
    assert.ok(html === readFileSync(DIST, 'utf8'), 'resources/read returns view/dist/view.html byte for byte');
  });

  test('a per_year chart in the view: a bar per point, tooltip, bar <-> line, table', async () => {
    assert.ok(html, 'the page was read');
    const input = { operation: 'chart', data_access_id: id, chart: 'per_year' };
    const result = await call('entrez_data', input);
    assert.equal(result.isError, false, resultText(result));
    const points = result.structuredContent.points;
    assert.ok(points.length > 1);
    const frame = await host.show({ html, input, result, appTools });
    await checkChart(frame, points);
    await host.screenshot(`view-chart-${EDGE}.png`, process.env.E2E_VIEW_SCREENSHOT);
    host.assertClean();
  });

  test('count_by_year in the view: ten bars, 2015 to 2024', async () => {
    const input = { operation: 'count_by_year', database: 'pubmed', term: 'asthma[mh]', mindate: '2015', maxdate: '2024' };
    const result = await call('entrez_query', input);
    assert.equal(result.isError, false, resultText(result));
    const frame = await host.show({ html, input, result, appTools });
    await waitBars(frame, 10);
    assert.deepEqual((await bars(frame)).map((b) => b.label), Array.from({ length: 10 }, (_, i) => String(2015 + i)));
    assert.deepEqual(
      (await bars(frame)).map((b) => b.value),
      result.structuredContent.counts.map((c) => (c.count === null ? '' : String(c.count))),
    );
    host.assertClean();
  });

  test('a query in the view pages all 200 rows through entrez_data_page and sorts on the server', async () => {
    const sql = 'SELECT pmid, title, year FROM article ORDER BY pmid';
    const input = { operation: 'query', data_access_id: id, sql };
    const result = await call('entrez_data', input);
    assert.equal(result.isError, false, resultText(result));
    // The rows straight from the app-only tool, for comparison.
    const want = [];
    for (let offset = 0; offset < 200; offset += 100) {
      const page = await call(PAGE_TOOL, { data_access_id: id, sql, offset, limit: 100 });
      assert.equal(page.isError, false, resultText(page));
      assert.equal(page.structuredContent.total, 200);
      want.push(...page.structuredContent.rows.map((r) => String(r[0])));
    }
    assert.equal(new Set(want).size, 200);
    host.forwarded.length = 0;
    const frame = await host.show({ html, input, result, appTools });
    await frame.waitForSelector('.paged table.data tbody tr');
    assert.match(await frame.$eval('.paged .range', (e) => e.textContent), /^rows 1–\d+ of 200$/);
    const pmids = await allPages(frame);
    assert.deepEqual(pmids, want);
    assert.ok(host.forwarded.length >= 1, 'the view called the app-only tool');
    assert.ok(host.forwarded.every((c) => c.name === PAGE_TOOL && c.arguments.sql === sql), JSON.stringify(host.forwarded.slice(0, 2)));
    // pmid descending: the first row is the last pmid.
    await clickAndWait(frame, '.paged th button[data-column="pmid"]');
    await clickAndWait(frame, '.paged th button[data-column="pmid"]');
    const direct = await call(PAGE_TOOL, { data_access_id: id, sql, offset: 0, limit: 25, order_by: 'pmid', descending: true });
    const first = (await tableRows(frame, '.paged'))[0][0];
    assert.equal(first, String(direct.structuredContent.rows[0][0]));
    assert.equal(first, want.at(-1));
    assert.equal(await frame.$eval('.paged .error', (e) => e.hidden), true);
    await host.screenshot(`view-table-${EDGE}.png`);
    host.assertClean();
  });

  test('a staged dataset browses its main table; an error result shows its message', async () => {
    const staged = await call('entrez_data', { operation: 'fetch_and_stage', term: 'replay-synthetic[all]', max_records: 200, wait_seconds: 60 });
    let frame = await host.show({ html, input: {}, result: staged, appTools });
    await frame.click('[data-action=browse]');
    await frame.waitForSelector('.paged');
    await waitLoaded(frame, 0);
    assert.equal(await frame.$eval('.paged .error', (e) => (e.hidden ? '' : e.textContent)), '');
    assert.match(await frame.$eval('.paged .range', (e) => e.textContent), /^rows 1–\d+ of \d+$/);
    assert.ok((await tableRows(frame, '.paged')).length > 0);

    const input = { operation: 'chart', data_access_id: '0'.repeat(32), chart: 'per_year' };
    const error = await call('entrez_data', input);
    assert.equal(error.isError, true);
    frame = await host.show({ html, input, result: error, appTools });
    const text = error.content.find((c) => c.type === 'text').text;
    assert.equal(await frame.$eval('.error .message', (e) => e.textContent), text);
    host.assertClean();
  });
});
