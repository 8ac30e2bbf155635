// Tables: one sorted in the page (the points of a chart), one paged and sorted by the server
// through the app-only tool entrez_data_page.

import { h, button } from './dom.js';
import { cellText, firstText, formatNumber } from './format.js';

const CELL_CHARS = 240;
export const PAGE_TOOL = 'entrez_data_page';

function cell(value, { numeric = false } = {}) {
  const { text, isNull } = cellText(value);
  const shown = text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text;
  return h(
    'td',
    { class: [isNull ? 'null' : '', numeric ? 'num' : ''].join(' ').trim() || undefined, title: text.length > 40 ? text : undefined },
    shown,
  );
}

function header(name, sort, onclick) {
  const state = sort === 'asc' ? 'ascending' : sort === 'desc' ? 'descending' : undefined;
  const arrow = sort === 'asc' ? ' ▲' : sort === 'desc' ? ' ▼' : '';
  return h(
    'th',
    { scope: 'col', 'aria-sort': state },
    h('button', { type: 'button', class: 'sort', 'data-column': name, onclick }, name, h('span', { class: 'arrow', 'aria-hidden': 'true' }, arrow)),
  );
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}

/**
 * A table sorted in the page. columns: [{name, numeric, format?, nullText?}]; rows: arrays in
 * column order.
 * Clicking a header sorts by it, ascending, then descending.
 */
export function sortableTable(columns, rows, { caption } = {}) {
  let by = -1;
  let descending = false;
  const table = h('table', { class: 'data' });
  const wrap = h('div', { class: 'table-wrap' }, table);

  function render() {
    const order = rows.map((row, i) => i);
    if (by >= 0) {
      order.sort((i, j) => {
        const c = compare(rows[i][by], rows[j][by]);
        // Nulls stay last either way; ties keep their order.
        const nulls = rows[i][by] === null || rows[j][by] === null;
        return (descending && !nulls ? -c : c) || i - j;
      });
    }
    const head = h(
      'tr',
      null,
      columns.map((col, c) =>
        header(col.name, c === by ? (descending ? 'desc' : 'asc') : undefined, () => {
          if (by === c) descending = !descending;
          else {
            by = c;
            descending = false;
          }
          render();
        }),
      ),
    );
    const body = order.map((i) =>
      h(
        'tr',
        null,
        columns.map((col, c) => {
          const value = rows[i][c];
          if (col.format && value !== null && value !== undefined) {
            return h('td', { class: col.numeric ? 'num' : undefined }, col.format(value));
          }
          if (col.nullText && (value === null || value === undefined)) {
            return h('td', { class: `null${col.numeric ? ' num' : ''}` }, col.nullText);
          }
          return cell(value, { numeric: col.numeric });
        }),
      ),
    );
    table.replaceChildren(
      ...(caption ? [h('caption', { class: 'sr-only' }, caption)] : []),
      h('thead', null, head),
      h('tbody', null, body),
    );
  }
  render();
  return wrap;
}

/**
 * A table of rows paged by the server. `app` calls the tool; `first` is a page already in
 * hand ({columns, rows, offset, total}) or null to load the first page.
 * sql undefined pages the dataset's main table.
 */
export function pagedTable(app, { dataAccessId, sql, first = null, limit = 25, caption = 'Rows' }) {
  const state = {
    columns: first?.columns || [],
    rows: first?.rows || [],
    offset: first?.offset || 0,
    total: first?.total ?? null,
    limit,
    orderBy: null,
    descending: false,
    busy: false,
    loads: 0,
  };
  const status = h('span', { class: 'range', 'aria-live': 'polite' });
  const prev = button('Previous', () => load(Math.max(0, state.offset - state.limit)), { 'data-action': 'prev' });
  const next = button('Next', () => load(state.offset + state.rows.length), { 'data-action': 'next' });
  const size = h(
    'select',
    {
      class: 'page-size',
      'aria-label': 'Rows per page',
      onchange: () => {
        state.limit = Number(size.value);
        load(state.offset);
      },
    },
    [10, 25, 50, 100].map((n) => h('option', { value: n, selected: n === limit }, `${n} / page`)),
  );
  const error = h('div', { class: 'error', role: 'alert', hidden: true });
  const table = h('table', { class: 'data', 'aria-busy': 'false' });
  const element = h(
    'div',
    { class: 'paged', 'data-loads': '0' },
    h('div', { class: 'pager' }, prev, next, status, size),
    error,
    h('div', { class: 'table-wrap tall' }, table),
  );

  function render() {
    const { columns, rows, offset, total } = state;
    if (total === 0 || (rows.length === 0 && offset === 0)) status.textContent = 'No rows';
    else if (rows.length === 0) status.textContent = `no rows past ${formatNumber(offset)} of ${formatNumber(total)}`;
    else {
      const of = total === null ? '' : ` of ${formatNumber(total)}`;
      status.textContent = `rows ${formatNumber(offset + 1)}–${formatNumber(offset + rows.length)}${of}`;
    }
    prev.disabled = state.busy || offset === 0;
    next.disabled = state.busy || rows.length === 0 || (total !== null && offset + rows.length >= total);
    size.disabled = state.busy;
    table.setAttribute('aria-busy', String(state.busy));
    const head = h(
      'tr',
      null,
      columns.map((name) =>
        header(name, state.orderBy === name ? (state.descending ? 'desc' : 'asc') : undefined, () => {
          if (state.busy) return;
          const descending = state.orderBy === name ? !state.descending : false;
          load(0, { orderBy: name, descending });
        }),
      ),
    );
    const body = rows.map((row) =>
      h('tr', null, columns.map((_, c) => cell(Array.isArray(row) ? row[c] : undefined, { numeric: typeof row?.[c] === 'number' }))),
    );
    table.replaceChildren(h('caption', { class: 'sr-only' }, caption), h('thead', null, head), h('tbody', null, body));
  }

  function fail(message) {
    error.textContent = message;
    error.hidden = false;
  }

  async function load(offset, { orderBy = state.orderBy, descending = state.descending } = {}) {
    if (state.busy) return;
    state.busy = true;
    render();
    const args = { data_access_id: dataAccessId, offset, limit: state.limit };
    if (sql) args.sql = sql;
    if (orderBy) {
      args.order_by = orderBy;
      args.descending = Boolean(descending);
    }
    try {
      const result = await app.callServerTool({ name: PAGE_TOOL, arguments: args });
      const page = result?.structuredContent;
      if (result?.isError || !page || !Array.isArray(page.rows)) {
        fail(firstText(result) || 'The page could not be read.');
      } else {
        error.hidden = true;
        state.columns = Array.isArray(page.columns) ? page.columns.map(String) : state.columns;
        state.rows = page.rows;
        state.offset = Number.isInteger(page.offset) ? page.offset : offset;
        state.total = Number.isInteger(page.total) ? page.total : null;
        state.orderBy = typeof page.order_by === 'string' ? page.order_by : orderBy || null;
        state.descending = typeof page.descending === 'boolean' ? page.descending : Boolean(descending);
      }
    } catch (e) {
      fail(`The page could not be read: ${e && e.message ? e.message : String(e)}`);
    } finally {
      state.busy = false;
      state.loads += 1;
      element.dataset.loads = String(state.loads);
      render();
    }
  }

  render();
  if (!first) load(0);
  return { element, load };
}
