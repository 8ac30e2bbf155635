// entrez_data chart and entrez_query count_by_year through a running edge: the picture is decoded as a person's client
// would show it. Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/charts.test.mjs
//
// Upstream is the NCBI replay server (replay-synthetic[all]). Client.callTool checks
// structuredContent against the outputSchema; the PNG is decoded with pngjs: 800×500, not
// blank, and the bar colour (31, 119, 180) where the bars of the largest value stand.
// E2E_CHART_PNG names a file to keep the per-year chart in, E2E_CHART_TEXT one for its text.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

const BAR = [31, 119, 180];

// The image block of a result, decoded.
function picture(result) {
  const image = result.content.find((c) => c.type === 'image');
  assert.ok(image, `no image block: ${JSON.stringify(result.content).slice(0, 300)}`);
  assert.equal(image.mimeType, 'image/png');
  const bytes = Buffer.from(image.data, 'base64');
  const png = PNG.sync.read(bytes);
  assert.equal(png.width, 800);
  assert.equal(png.height, 500);
  return { png, bytes };
}

const pixel = (png, x, y) => {
  const i = (y * png.width + x) * 4;
  return [png.data[i], png.data[i + 1], png.data[i + 2]];
};
const same = (a, b) => a.every((v, i) => Math.abs(v - b[i]) <= 2);

describe(`entrez_data chart [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  let id;
  const call = (args) =>
    client.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 120_000 });

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-charts', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
    const staged = await call({
      operation: 'fetch_and_stage',
      term: 'replay-synthetic[all]',
      max_records: 200,
      wait_seconds: 60,
    });
    assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
    id = staged.structuredContent.data_access_id;
  });

  after(async () => {
    if (client) await client.close();
  });

  test('per_year is a PNG with bars where the counts are, a summary and the points', async () => {
    const r = await call({ operation: 'chart', data_access_id: id, chart: 'per_year', wait_seconds: 60 });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    const { png, bytes } = picture(r);
    if (process.env.E2E_CHART_PNG) writeFileSync(process.env.E2E_CHART_PNG, bytes);
    const st = r.structuredContent;
    assert.equal(st.title, 'Articles per year');
    assert.equal(st.points.reduce((s, p) => s + p.value, 0), 200);
    const text = r.content.find((c) => c.type === 'text').text;
    if (process.env.E2E_CHART_TEXT) writeFileSync(process.env.E2E_CHART_TEXT, text);
    assert.match(text, /total 200/);
    assert.match(text, /SQL: SELECT year/);
    // Not blank: many colours, mostly white.
    const colours = new Set();
    for (let y = 0; y < 500; y += 5) for (let x = 0; x < 800; x += 5) colours.add(pixel(png, x, y).join());
    assert.ok(colours.size > 10, `${colours.size} colours`);
    // The largest point's bar: its slot's centre, just above the axis, is the bar colour
    // (the plot spans x 80..770 and y 60..430, as core/src/chart/draw.rs lays it out).
    const n = st.points.length;
    const slot = (770 - 80) / n;
    const top = st.points.reduce((best, p, i) => (p.value > st.points[best].value ? i : best), 0);
    const x = Math.round(80 + slot * (top + 0.5));
    assert.ok(same(pixel(png, x, 425), BAR), `bar colour at (${x}, 425): ${pixel(png, x, 425)}`);
    // Where a year has no article, no bar: white at the same height.
    const empty = st.points.findIndex((p) => p.value === 0);
    if (empty >= 0) {
      const ex = Math.round(80 + slot * (empty + 0.5));
      assert.ok(!same(pixel(png, ex, 400), BAR), `no bar at (${ex}, 400)`);
    }
  });

  test('top journals and a chart of SQL draw too; bad input is said', async () => {
    const r = await call({ operation: 'chart', data_access_id: id, chart: 'top_mesh_major', limit: 8 });
    assert.equal(r.isError, false);
    const { png } = picture(r);
    assert.ok(r.structuredContent.points.length <= 8);
    // Horizontal bars: the first (largest) starts at x 250, in the first slot.
    let found = false;
    for (let y = 70; y < 110 && !found; y++) found = same(pixel(png, 260, y), BAR);
    assert.ok(found, 'the first bar is drawn');
    const line = await call({
      operation: 'chart',
      data_access_id: id,
      chart: 'line',
      sql: 'SELECT year, COUNT(*) AS n FROM article GROUP BY year ORDER BY year',
    });
    assert.equal(line.isError, false);
    picture(line);
    const words = await call({ operation: 'chart', data_access_id: id, sql: "SELECT 'a', 'many'" });
    assert.equal(words.isError, false);
    picture(words);
    assert.deepEqual(words.structuredContent.points, []);
    assert.match(words.structuredContent.warnings.join(' '), /not a number/);
    const big = await call({
      operation: 'chart',
      data_access_id: id,
      sql: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) SELECT i, i FROM n',
    });
    assert.equal(big.isError, true);
    assert.equal(big.structuredContent.error.code, 'chart_too_large');
  });

  test('a stacked chart splits each bar by its series, bottom first, with the parts summing to the bar', async () => {
    const r = await call({
      operation: 'chart',
      data_access_id: id,
      chart: 'stacked',
      sql: 'SELECT a.year, p.publication_type, COUNT(*) AS n FROM article a JOIN publication_type p USING (pmid) GROUP BY 1, 2 ORDER BY 1',
    });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    const st = r.structuredContent;
    assert.equal(st.kind, 'stacked');
    assert.ok(st.series.length >= 2 && st.series.length <= 8, `series ${st.series}`);
    for (const p of st.points) {
      assert.equal(p.parts.length, st.series.length);
      assert.equal(p.parts.reduce((a, b) => a + b, 0), p.value, `parts of ${p.label}`);
    }
    // The tallest bar: its bottom is the first series' colour where that series has a part.
    const { png } = picture(r);
    const slot = (770 - 80) / st.points.length;
    const top = st.points.reduce((best, p, i) => (p.value > st.points[best].value ? i : best), 0);
    const x = Math.round(80 + slot * (top + 0.5));
    if (st.points[top].parts[0] > 0) assert.ok(same(pixel(png, x, 428), BAR), `first series at (${x}, 428)`);
    // The second series' colour (orange) is drawn somewhere: in a bar or the legend.
    let orange = false;
    for (let y = 36; y < 430 && !orange; y++) for (let xx = 0; xx < 800 && !orange; xx++) orange = same(pixel(png, xx, y), [255, 127, 14]);
    assert.ok(orange, 'the second series is drawn');
    assert.match(r.content.find((c) => c.type === 'text').text, /Series \(bottom first\)/);
    const two = await call({ operation: 'chart', data_access_id: id, chart: 'stacked', sql: 'SELECT year, COUNT(*) FROM article GROUP BY 1' });
    assert.equal(two.isError, true);
    assert.equal(two.structuredContent.error.code, 'chart_unsuitable');
  });

  test('count_by_year of a term is one count a year, drawn', async () => {
    const r = await client.callTool(
      {
        name: 'entrez_query',
        arguments: { operation: 'count_by_year', term: 'replay-synthetic[all]', mindate: '1988', maxdate: '1995' },
      },
      undefined,
      { timeout: 120_000 },
    );
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    const { png } = picture(r);
    const st = r.structuredContent;
    // The replay's made-up counts: 0 before 1990, then 100 + 20 a year.
    assert.deepEqual(
      st.counts.map((c) => [c.year, c.count]),
      [[1988, 0], [1989, 0], [1990, 100], [1991, 120], [1992, 140], [1993, 160], [1994, 180], [1995, 200]],
    );
    assert.equal(st.counts[2].term, '(replay-synthetic[all]) AND 1990[pdat]');
    // 1995's bar (the last of eight slots) is drawn; 1988's is not.
    const slot = (770 - 80) / 8;
    assert.ok(same(pixel(png, Math.round(80 + slot * 7.5), 425), BAR), '1995 has a bar');
    assert.ok(!same(pixel(png, Math.round(80 + slot * 0.5), 400), BAR), '1988 has none');
    const wide = await client.callTool({
      name: 'entrez_query',
      arguments: { operation: 'count_by_year', term: 'x', mindate: '1900', maxdate: '2024' },
    });
    assert.equal(wide.isError, true);
    assert.match(JSON.stringify(wide.structuredContent), /chart_too_large/);
  });
});
