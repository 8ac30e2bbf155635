// entrez_data chart and entrez_query count_by_year through a running edge: the picture is decoded as a person's client
// would show it. Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/charts.test.mjs
//
// Upstream is the NCBI replay server (replay-synthetic[all]). Client.callTool checks
// structuredContent against the outputSchema; the PNG is decoded with pngjs: 800×500, not
// blank, and each bar measured in pixels against a value the test knows itself (the years of
// the stand-in's own XML, the numbers written in the SQL, the replay's rule for counts by
// year): every bar's size is its value times one scale within two pixels, and each label
// stands at its bar. E2E_CHART_PNG names a file to keep the per-year chart in,
// E2E_CHART_TEXT one for its text.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, request } from './helpers.mjs';

const BAR = [31, 119, 180];
const REPLAY = process.env.E2E_REPLAY || '';

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

// The plot's box as core/src/chart/draw.rs lays it out: upright bars over x 80..770 with the
// axis at y 430; horizontal bars from x 250 over rows 70..450.
const UP = { l: 80, r: 770, axis: 430 };
const ACROSS = { l: 250, t: 70, b: 450 };
const isBar = (png, x, y) => pixel(png, x, y).every((v, i) => v === BAR[i]);

/** Each upright bar's height: bar pixels counted up from the axis at the centre of each of n slots. */
function uprightHeights(png, n) {
  const slot = (UP.r - UP.l) / n;
  return Array.from({ length: n }, (_, i) => {
    const x = Math.round(UP.l + slot * (i + 0.5));
    let h = 0;
    while (h < UP.axis && isBar(png, x, UP.axis - 1 - h)) h++;
    return h;
  });
}

/** Each horizontal bar's length: bar pixels counted right from the axis, mid-slot. */
function acrossLengths(png, n) {
  const slot = (ACROSS.b - ACROSS.t) / n;
  return Array.from({ length: n }, (_, i) => {
    const y = Math.round(ACROSS.t + slot * (i + 0.5));
    let w = 0;
    while (ACROSS.l + w < png.width && isBar(png, ACROSS.l + w, y)) w++;
    return w;
  });
}

/** Each size is its value times one scale (the largest value's) within two pixels; 0, no bar. */
function assertProportional(sizes, values) {
  assert.equal(sizes.length, values.length);
  const top = values.reduce((best, v, i) => (v > values[best] ? i : best), 0);
  assert.ok(values[top] > 0 && sizes[top] > 20, `the largest bar is drawn: ${sizes}`);
  const scale = sizes[top] / values[top];
  values.forEach((v, i) => {
    assert.ok(Math.abs(sizes[i] - v * scale) <= 2, `bar ${i}: ${sizes[i]} px for ${v}, want ${(v * scale).toFixed(1)} (all ${sizes} for ${values})`);
  });
}

/** The columns x0..x1 holding ink (not background, grid or bar) in rows y0..y1. */
function inkColumns(png, [x0, x1], [y0, y1]) {
  const plain = [[255, 255, 255], [225, 225, 225], BAR];
  const out = [];
  for (let x = x0; x < x1; x++) {
    for (let y = y0; y < y1; y++) {
      const p = pixel(png, x, y);
      if (!plain.some((c) => c.every((v, k) => v === p[k]))) {
        out.push(x);
        break;
      }
    }
  }
  return out;
}

/**
 * A SQL that returns these rows (label, value, or label, series, value): the values are the
 * test's own. One VALUES clause, not a compound SELECT: the Worker's SQLite allows only five
 * terms in one.
 */
const literalSql = (rows) => {
  const cells = rows.map((r) => `(${r.map((c) => (typeof c === 'number' ? c : `'${c}'`)).join(', ')})`);
  return `SELECT ${rows[0].map((_, i) => `column${i + 1}`).join(', ')} FROM (VALUES ${cells.join(', ')})`;
};

/** Each record's publication year as the stand-in's own XML gives it (PubDate's Year, or a MedlineDate's first). */
async function yearsFromReplay(n) {
  const key = `api_key=e2e-charts-truth-${EDGE}`;
  const search = await request(`${REPLAY}/entrez/eutils/esearch.fcgi?db=pubmed&retmode=json&retmax=${n}&term=${encodeURIComponent('replay-synthetic[all]')}&${key}`);
  assert.equal(search.status, 200, search.text.slice(0, 200));
  const ids = search.json.esearchresult.idlist;
  assert.equal(ids.length, n);
  const fetched = await request(`${REPLAY}/entrez/eutils/efetch.fcgi?db=pubmed&retmode=xml&id=${ids.join(',')}&${key}`);
  assert.equal(fetched.status, 200, fetched.text.slice(0, 200));
  const years = new Map();
  for (const article of fetched.text.split('<PubmedArticle>').slice(1)) {
    const pmid = article.match(/<PMID[^>]*>(\d+)<\/PMID>/)[1];
    const date = article.match(/<PubDate>([\s\S]*?)<\/PubDate>/)?.[1] || '';
    const year = date.match(/<Year>(\d{4})<\/Year>/)?.[1] || date.match(/<MedlineDate>\D*(\d{4})/)?.[1];
    years.set(pmid, year ? Number(year) : null);
  }
  assert.equal(years.size, n, 'the replay answered every id');
  return { ids, years };
}

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

  test('per_year: each bar is as tall as the stand-in\'s own records count that year', { skip: !REPLAY && 'E2E_REPLAY is not set' }, async () => {
    const { ids, years } = await yearsFromReplay(200);
    // The dataset holds those records (the search's first 200), nothing else.
    const held = await call({ operation: 'query', data_access_id: id, sql: 'SELECT group_concat(pmid) FROM (SELECT pmid FROM article ORDER BY pmid)' });
    assert.deepEqual(String(held.structuredContent.rows[0][0]).split(','), [...ids].sort());
    const known = [...years.values()].filter((y) => y !== null);
    const first = Math.min(...known);
    const values = Array.from({ length: Math.max(...known) - first + 1 }, () => 0);
    for (const y of known) values[y - first] += 1;
    assert.ok(values.filter((v) => v > 0).length >= 3, `years ${values}`);
    const r = await call({ operation: 'chart', data_access_id: id, chart: 'per_year' });
    const { png } = picture(r);
    assert.deepEqual(r.structuredContent.points.map((p) => [Number(p.label), p.value]), values.map((v, i) => [first + i, v]));
    assertProportional(uprightHeights(png, values.length), values);
  });

  test('a chart of SQL: bars as tall or long as the numbers the SQL holds, each label at its bar', async () => {
    // Years as labels: upright bars, each year's label centred under its bar.
    const years = [['2001', 5], ['2002', 40], ['2003', 23], ['2004', 0], ['2005', 17], ['2006', 31]];
    const up = await call({ operation: 'chart', data_access_id: id, sql: literalSql(years) });
    assert.equal(up.isError, false, JSON.stringify(up.structuredContent));
    const a = picture(up).png;
    assertProportional(uprightHeights(a, years.length), years.map((p) => p[1]));
    const slot = (UP.r - UP.l) / years.length;
    years.forEach((_, i) => {
      const ink = inkColumns(a, [Math.floor(UP.l + slot * i), Math.floor(UP.l + slot * (i + 1))], [UP.axis + 6, UP.axis + 26]);
      assert.ok(ink.length > 0, `no label under bar ${i}`);
      const centre = (ink[0] + ink[ink.length - 1]) / 2;
      assert.ok(Math.abs(centre - (UP.l + slot * (i + 0.5))) <= 2, `bar ${i}'s label centred at ${centre}`);
    });
    // Stacked parts: each series' run of its colour from the axis up, the first lowest.
    const parts = [['2001', 'a', 5], ['2001', 'b', 10], ['2002', 'a', 20], ['2002', 'b', 4], ['2003', 'a', 0], ['2003', 'b', 12]];
    const stacked = await call({
      operation: 'chart', data_access_id: id, chart: 'stacked',
      sql: literalSql(parts),
    });
    assert.equal(stacked.isError, false, JSON.stringify(stacked.structuredContent));
    // The series' order (bottom first) is the chart's to choose and its legend's to say; the values are the SQL's.
    const series = stacked.structuredContent.series;
    assert.deepEqual([...series].sort(), ['a', 'b']);
    const c = picture(stacked).png;
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const x = Math.round(UP.l + ((UP.r - UP.l) / 3) * (i + 0.5));
      let y = UP.axis;
      for (const colour of [BAR, [255, 127, 14]]) {
        let run = 0;
        while (y - 1 - run >= 0 && pixel(c, x, y - 1 - run).every((v, k) => v === colour[k])) run++;
        runs.push(run);
        y -= run;
      }
    }
    assertProportional(runs, ['2001', '2002', '2003'].flatMap((y) => series.map((k) => parts.find((p) => p[0] === y && p[1] === k)[2])));
    // Names as labels: horizontal bars, each value's label just past its bar's end, each name
    // ending left of the axis on its bar's rows.
    const names = [['alpha', 12], ['beta', 3], ['gamma', 48], ['delta', 30]];
    const across = await call({ operation: 'chart', data_access_id: id, sql: literalSql(names) });
    assert.equal(across.isError, false, JSON.stringify(across.structuredContent));
    const b = picture(across).png;
    const lengths = acrossLengths(b, names.length);
    assertProportional(lengths, names.map((p) => p[1]));
    const rows = (ACROSS.b - ACROSS.t) / names.length;
    lengths.forEach((len, i) => {
      const band = [Math.floor(ACROSS.t + rows * i), Math.floor(ACROSS.t + rows * (i + 1))];
      const end = ACROSS.l + len;
      const value = inkColumns(b, [end, Math.min(end + 60, b.width)], band);
      assert.ok(value.length > 0 && value[0] >= end + 3 && value[0] <= end + 8, `bar ${i} ends at ${end}; its value's label at ${value[0]}`);
      const name = inkColumns(b, [0, ACROSS.l - 2], band);
      assert.ok(name.length > 0 && name[name.length - 1] >= ACROSS.l - 20, `bar ${i}'s name is not beside it`);
    });
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
    // Each year's bar as tall as the replay's rule says, 1988's and 1989's none.
    assertProportional(uprightHeights(png, 8), [0, 0, 100, 120, 140, 160, 180, 200]);
    const wide = await client.callTool({
      name: 'entrez_query',
      arguments: { operation: 'count_by_year', term: 'x', mindate: '1900', maxdate: '2024' },
    });
    assert.equal(wide.isError, true);
    assert.match(JSON.stringify(wide.structuredContent), /chart_too_large/);
  });
});
