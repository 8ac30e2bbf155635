// entrez-mcp's MCP Apps view: charts of entrez_data (chart) and entrez_query (count_by_year),
// and tables of staged datasets paged through the app-only tool entrez_data_page.

import { App, applyDocumentTheme, applyHostStyleVariables } from './apps.js';
import { h, button } from './dom.js';
import { createChart } from './chart.js';
import { saveFile } from './download.js';
import { fileName, firstText, formatNumber, toCsv } from './format.js';
import { pagedTable, sortableTable } from './table.js';

const root = document.getElementById('app');
const app = new App({ name: 'entrez-mcp-view', version: '1.0.0' }, {}, { autoResize: true });
let toolInput = {};

function number(v) {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function list(v) {
  return Array.isArray(v) ? v : [];
}

// ---- models -------------------------------------------------------------------------------

function chartModel(sc) {
  const series = list(sc.series).length ? list(sc.series).map(String) : null;
  const points = list(sc.points).map((p) => {
    const parts = series && Array.isArray(p?.parts) ? series.map((_, j) => number(p.parts[j]) ?? 0) : null;
    let value = number(p?.value);
    if (value === null && parts) value = parts.reduce((a, b) => a + b, 0);
    return { label: String(p?.label ?? ''), value, parts };
  });
  const xName = sc.x_label || 'Label';
  const yName = sc.y_label || 'Value';
  const columns = [{ name: xName }, ...(series || []).map((name) => ({ name, numeric: true })), { name: yName, numeric: true }];
  const rows = points.map((p) => [p.label, ...(p.parts || []), p.value]);
  return {
    title: sc.title || 'Chart',
    xLabel: sc.x_label || '',
    yLabel: sc.y_label || '',
    kind: sc.kind,
    points,
    series,
    sql: typeof sc.sql === 'string' ? sc.sql : '',
    warnings: list(sc.warnings).map(String),
    columns,
    rows,
    csv: { header: columns.map((c) => c.name), rows },
  };
}

function countsModel(sc) {
  const counts = list(sc.counts);
  const points = counts.map((c) => ({ label: String(c?.year ?? ''), value: number(c?.count), parts: null }));
  const title = sc.title || `${sc.term || 'Records'} per year`;
  const yName = sc.database ? `${sc.database} records` : 'Records';
  const missing = points.filter((p) => p.value === null).length;
  const warnings = list(sc.warnings).map(String);
  if (missing) warnings.push(`${missing} year${missing === 1 ? '' : 's'} without a count (drawn as a mark on the axis).`);
  return {
    title,
    xLabel: 'Year',
    yLabel: yName,
    kind: 'bar',
    points,
    series: null,
    sql: '',
    term: typeof sc.term === 'string' ? sc.term : '',
    warnings,
    columns: [{ name: 'Year' }, { name: 'Count', numeric: true, format: formatNumber, nullText: 'no count' }],
    rows: points.map((p) => [p.label, p.value]),
    csv: {
      header: ['year', 'count', 'term'],
      rows: counts.map((c) => [c?.year ?? '', c?.count ?? '', c?.term ?? '']),
    },
  };
}

// ---- views --------------------------------------------------------------------------------

function textView(text) {
  return h('pre', { class: 'text' }, text);
}

function errorView(result) {
  const sc = result?.structuredContent;
  const suggestions = list(sc?.error?.suggestions).map(String);
  return h(
    'div',
    { class: 'error', role: 'alert' },
    h('strong', null, 'Error: '),
    h('span', { class: 'message' }, firstText(result)),
    suggestions.length ? h('ul', null, suggestions.map((s) => h('li', null, s))) : null,
  );
}

function warningsView(warnings) {
  if (!warnings.length) return null;
  return h('ul', { class: 'warnings' }, warnings.map((w) => h('li', null, w)));
}

function chartView(model) {
  const chart = createChart(model);
  const note = h('span', { class: 'note', 'aria-live': 'polite' });
  const kindButtons = ['bar', 'line'].map((kind) =>
    button(kind === 'bar' ? 'Bar' : 'Line', () => {
      chart.setKind(kind);
      for (const b of kindButtons) b.setAttribute('aria-pressed', String(b.dataset.kind === kind));
    }, { 'data-kind': kind, 'aria-pressed': String(chart.kind() === kind) }),
  );
  async function download(what) {
    note.textContent = '';
    try {
      let outcome;
      if (what === 'png') {
        const url = await chart.pngDataUrl();
        outcome = await saveFile(app, { name: fileName(model.title, 'png'), mimeType: 'image/png', base64: url.slice(url.indexOf(',') + 1) });
      } else {
        outcome = await saveFile(app, { name: fileName(model.title, 'csv'), mimeType: 'text/csv', text: toCsv(model.csv.header, model.csv.rows) });
      }
      note.textContent = outcome === 'refused' ? 'The host did not save the file.' : '';
    } catch (e) {
      note.textContent = `Could not save: ${e && e.message ? e.message : String(e)}`;
    }
  }
  const toolbar = h(
    'div',
    { class: 'toolbar' },
    h('div', { class: 'segmented', role: 'group', 'aria-label': 'Chart type' }, kindButtons),
    button('Download PNG', () => download('png'), { 'data-action': 'png' }),
    button('Download CSV', () => download('csv'), { 'data-action': 'csv' }),
    note,
  );
  const empty = model.points.length === 0 ? h('p', { class: 'empty', role: 'status' }, 'No data') : null;
  return h(
    'section',
    { class: 'view chart-view' },
    h('h1', null, model.title),
    model.term && !model.title.includes(model.term) ? h('p', { class: 'sub' }, model.term) : null,
    toolbar,
    empty,
    chart.element,
    warningsView(model.warnings),
    sortableTable(model.columns, model.rows, { caption: `${model.title}: data` }),
    model.sql ? h('details', { class: 'sql' }, h('summary', null, 'SQL'), h('pre', null, model.sql)) : null,
  );
}

function queryView(sc, input) {
  const sql = typeof input.sql === 'string' && input.sql ? input.sql : typeof sc.sql === 'string' ? sc.sql : '';
  const columns = list(sc.columns).map(String);
  const rows = list(sc.rows);
  const total = Number.isInteger(sc.total) ? sc.total : Number.isInteger(sc.row_count) ? sc.row_count : rows.length;
  let table;
  if (sql && typeof sc.data_access_id === 'string') {
    const limit = 25;
    table = pagedTable(app, {
      dataAccessId: sc.data_access_id,
      sql,
      limit,
      caption: 'Query results',
      first: { columns, rows: rows.slice(0, limit), offset: 0, total },
    }).element;
  } else {
    table = sortableTable(columns.map((name) => ({ name })), rows, { caption: 'Query results' });
  }
  return h(
    'section',
    { class: 'view query-view' },
    h('h1', null, 'Query results'),
    warningsView(list(sc.warnings).map(String)),
    table,
    sql ? h('details', { class: 'sql' }, h('summary', null, 'SQL'), h('pre', null, sql)) : null,
  );
}

function browseView(result, sc) {
  const holder = h('div', { class: 'browse' });
  const open = button('Browse rows', () => {
    open.remove();
    holder.append(pagedTable(app, { dataAccessId: sc.data_access_id, caption: 'Rows of the dataset' }).element);
  }, { 'data-action': 'browse' });
  holder.append(open);
  return h('section', { class: 'view browse-view' }, textView(firstText(result)), holder);
}

function render(result) {
  let view;
  try {
    const sc = result && typeof result === 'object' ? result.structuredContent : undefined;
    if (!result || typeof result !== 'object') view = textView(String(result));
    else if (result.isError) view = errorView(result);
    else if (sc && sc.operation === 'chart') view = chartView(chartModel(sc));
    else if (sc && sc.operation === 'count_by_year') view = chartView(countsModel(sc));
    else if (sc && sc.operation === 'query' && Array.isArray(sc.columns)) view = queryView(sc, toolInput);
    else if (sc && typeof sc.data_access_id === 'string' && sc.data_access_id) view = browseView(result, sc);
    else view = textView(firstText(result));
  } catch (e) {
    console.warn('entrez-mcp view: showing the text of a result it could not draw', e);
    view = textView(firstText(result));
  }
  root.replaceChildren(view);
}

function applyContext(ctx) {
  if (!ctx) return;
  if (ctx.theme === 'dark' || ctx.theme === 'light') applyDocumentTheme(ctx.theme);
  if (ctx.styles && ctx.styles.variables) applyHostStyleVariables(ctx.styles.variables);
}

app.ontoolinput = (params) => {
  toolInput = params && params.arguments && typeof params.arguments === 'object' ? params.arguments : {};
};
app.ontoolresult = (result) => render(result);
app.ontoolcancelled = (params) => {
  root.replaceChildren(h('p', { class: 'status' }, `Cancelled${params && params.reason ? `: ${params.reason}` : ''}.`));
};
app.onhostcontextchanged = applyContext;
app.onteardown = async () => ({});

app.connect().then(
  () => applyContext(app.getHostContext()),
  (e) => {
    root.replaceChildren(h('p', { class: 'status' }, `Not connected to a host: ${e && e.message ? e.message : String(e)}`));
  },
);
