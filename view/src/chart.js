// The chart: inline SVG drawn from a model {title, xLabel, yLabel, kind, points, series}.
// points: [{label, value (number or null), parts (numbers, one per series) or null}].
// Bars (stacked when series are given) or a line; hover or keyboard focus shows a tooltip.

import { h, svg } from './dom.js';
import { formatNumber, formatTick } from './format.js';

const HEIGHT = 280;
const TICK_FONT = 11;
const LABEL_FONT = 12;
const MAX_LABEL_CHARS = 18;

let measure;
let measureFont = '';
function textWidth(text, size = TICK_FONT) {
  if (measure === undefined) measure = document.createElement('canvas').getContext('2d') || null;
  if (!measure) return String(text).length * size * 0.6;
  const font = `${size}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  if (font !== measureFont) {
    measure.font = font;
    measureFont = font;
  }
  return measure.measureText(String(text)).width;
}

function shorten(label, chars = MAX_LABEL_CHARS) {
  return label.length > chars ? `${label.slice(0, chars - 1)}…` : label;
}

/** Round ticks covering [lo, hi]: steps of 1, 2, 2.5 or 5 times a power of ten. */
export function niceTicks(lo, hi, count, integer) {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) || raw;
  if (integer) step = Math.max(1, Math.ceil(step));
  const start = Math.floor(lo / step) * step;
  const end = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let i = 0; start + i * step <= end + step / 2; i++) ticks.push(Number((start + i * step).toPrecision(12)));
  return { lo: start, hi: end, ticks };
}

/** The lines of a point's tooltip. */
export function describePoint(model, p) {
  const lines = [`${p.label}: ${p.value === null ? 'no value' : formatNumber(p.value)}`];
  if (model.series && p.parts) {
    model.series.forEach((name, j) => lines.push(`${name}: ${formatNumber(p.parts[j] ?? 0)}`));
  }
  return lines;
}

/**
 * Lays out and draws the chart into a new <svg> `width` pixels wide.
 * exportTitle: the title is drawn inside (for the PNG).
 */
function draw(model, kind, width, { exportTitle = false } = {}) {
  const points = model.points;
  const n = points.length;
  const stacked = kind === 'bar' && Array.isArray(model.series) && model.series.length > 0;
  const values = points.map((p) => p.value).filter((v) => v !== null);
  const integer = points.every((p) => p.value === null || Number.isInteger(p.value));
  const { lo, hi, ticks } = niceTicks(Math.min(0, ...values), Math.max(0, ...values), 5, integer);
  const tickLabels = ticks.map(formatTick);
  const tickWidth = Math.max(0, ...tickLabels.map((t) => textWidth(t)));

  const titleBand = exportTitle ? 28 : 0;
  // Legend items of a stacked chart, wrapped into rows.
  const legend = [];
  if (stacked) {
    let x = 0;
    let row = 0;
    for (const [j, name] of model.series.entries()) {
      const text = shorten(String(name), 24);
      const w = 16 + textWidth(text) + 14;
      if (x > 0 && x + w > width - 24) {
        row += 1;
        x = 0;
      }
      legend.push({ j, text, x, row });
      x += w;
    }
  }
  const legendRows = legend.length ? legend[legend.length - 1].row + 1 : 0;
  const top = 16 + titleBand + legendRows * 18;
  let left = 10 + (model.yLabel ? 18 : 0) + tickWidth + 8;
  const right = 14;
  let plotW = Math.max(40, width - left - right);
  let slot = n ? plotW / n : plotW;

  // X labels: all of them when they fit, else every step-th; long labels are turned 45°.
  const labels = points.map((p) => p.label);
  const widest = Math.max(0, ...labels.map((l) => textWidth(l)));
  let rotate = false;
  let step = 1;
  let shown = labels;
  let shownWidest = 0;
  if (widest + 6 > slot) {
    if (widest <= 48) {
      step = Math.ceil((widest + 10) / slot);
    } else {
      rotate = true;
      shown = labels.map((l) => shorten(l));
      shownWidest = Math.max(0, ...shown.map((l) => textWidth(l)));
      // The first label, turned, reaches left of its bar: room for it.
      const reach = Math.min(shownWidest, 120) * 0.71 + 4 - slot / 2;
      if (reach > left) {
        left = reach;
        plotW = Math.max(40, width - left - right);
        slot = n ? plotW / n : plotW;
      }
      step = Math.ceil((TICK_FONT + 6) / slot);
    }
  }
  const labelBand = rotate ? Math.min(shownWidest, 120) * 0.71 + 14 : TICK_FONT + 10;
  const bottom = labelBand + (model.xLabel ? 20 : 4);
  const height = HEIGHT + titleBand + legendRows * 18 + (rotate ? Math.max(0, labelBand - 40) : 0);
  const plotH = Math.max(40, height - top - bottom);
  const y = (v) => top + (plotH * (hi - v)) / (hi - lo);
  const baseline = y(Math.max(lo, Math.min(0, hi)));

  const root = svg('svg', {
    xmlns: 'http://www.w3.org/2000/svg',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    class: `chart ${kind}`,
    role: 'group',
    'aria-label': `${model.title || 'Chart'}: ${kind === 'line' ? 'line' : 'bar'} chart of ${n} points`,
    'font-family': getComputedStyle(document.body).fontFamily || 'sans-serif',
  });
  root.append(svg('title', { text: model.title || 'Chart' }));
  root.append(svg('rect', { class: 'bg', x: 0, y: 0, width, height }));
  if (exportTitle) {
    root.append(
      svg('text', { class: 'chart-title', x: width / 2, y: 20, 'text-anchor': 'middle', 'font-size': 15 }, shorten(model.title || '', 90)),
    );
  }
  for (const item of legend) {
    const ly = 10 + titleBand + item.row * 18;
    const g = svg('g', { class: 'legend-item', transform: `translate(${left + item.x},${ly})` });
    g.append(svg('rect', { class: `seg s${item.j % 10}`, x: 0, y: 0, width: 11, height: 11, rx: 2 }));
    g.append(svg('text', { class: 'legend-text', x: 16, y: 10, 'font-size': TICK_FONT }, item.text));
    root.append(g);
  }

  // Gridlines and the y axis.
  const grid = svg('g', { class: 'y-axis', 'aria-hidden': 'true' });
  ticks.forEach((t, i) => {
    const ty = y(t);
    grid.append(svg('line', { class: t === 0 ? 'axis' : 'grid', x1: left, x2: left + plotW, y1: ty, y2: ty }));
    grid.append(
      svg('text', { class: 'tick', x: left - 6, y: ty + 4, 'text-anchor': 'end', 'font-size': TICK_FONT }, tickLabels[i]),
    );
  });
  grid.append(svg('line', { class: 'axis', x1: left, x2: left, y1: top, y2: top + plotH }));
  grid.append(svg('line', { class: 'axis', x1: left, x2: left + plotW, y1: top + plotH, y2: top + plotH }));
  if (model.yLabel) {
    const cx = 14;
    const cy = top + plotH / 2;
    grid.append(
      svg(
        'text',
        { class: 'axis-title', x: cx, y: cy, 'text-anchor': 'middle', 'font-size': LABEL_FONT, transform: `rotate(-90 ${cx} ${cy})` },
        shorten(model.yLabel, 40),
      ),
    );
  }
  root.append(grid);

  // X tick labels.
  const xAxis = svg('g', { class: 'x-axis', 'aria-hidden': 'true' });
  points.forEach((p, i) => {
    if (i % step !== 0) return;
    const cx = left + slot * (i + 0.5);
    const ty = top + plotH + 14;
    xAxis.append(svg('line', { class: 'axis', x1: cx, x2: cx, y1: top + plotH, y2: top + plotH + 4 }));
    const attrs = rotate
      ? { class: 'tick', x: cx, y: ty, 'text-anchor': 'end', transform: `rotate(-45 ${cx} ${ty})`, 'font-size': TICK_FONT }
      : { class: 'tick', x: cx, y: ty, 'text-anchor': 'middle', 'font-size': TICK_FONT };
    xAxis.append(svg('text', attrs, shown[i]));
  });
  if (model.xLabel) {
    xAxis.append(
      svg(
        'text',
        { class: 'axis-title', x: left + plotW / 2, y: height - 6, 'text-anchor': 'middle', 'font-size': LABEL_FONT },
        shorten(model.xLabel, 60),
      ),
    );
  }
  root.append(xAxis);

  if (n === 0) {
    root.append(
      svg('text', { class: 'no-data', x: left + plotW / 2, y: top + plotH / 2, 'text-anchor': 'middle', 'font-size': 14 }, 'No data'),
    );
    return root;
  }

  // The marks: one focusable group per point, holding a full-height hit area.
  const marks = svg('g', { class: 'marks', role: 'list' });
  const barWidth = Math.max(1, Math.min(slot * 0.78, 64));
  const centers = points.map((_, i) => left + slot * (i + 0.5));
  if (kind === 'line') {
    let d = '';
    let pen = false;
    points.forEach((p, i) => {
      if (p.value === null) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${centers[i].toFixed(2)},${y(p.value).toFixed(2)}`;
      pen = true;
    });
    if (d) marks.append(svg('path', { class: 'line', d, fill: 'none' }));
  }
  points.forEach((p, i) => {
    const item = svg('g', {
      class: kind === 'line' ? 'point' : 'bar',
      'data-index': i,
      'data-label': p.label,
      'data-value': p.value === null ? '' : p.value,
      'data-missing': p.value === null ? 'true' : undefined,
      tabindex: i === 0 ? 0 : -1,
      role: 'listitem',
      'aria-label': describePoint(model, p).join('; '),
    });
    item.append(svg('rect', { class: 'hit', x: left + slot * i, y: top, width: slot, height: plotH }));
    const x0 = centers[i] - barWidth / 2;
    if (p.value === null) {
      item.append(svg('rect', { class: 'missing', x: x0, y: baseline - 3, width: barWidth, height: 3 }));
    } else if (kind === 'line') {
      item.append(svg('circle', { class: 'dot', cx: centers[i], cy: y(p.value), r: n > 60 ? 2 : 3.5 }));
    } else if (stacked && p.parts) {
      let sum = 0;
      p.parts.forEach((part, j) => {
        const v = Number.isFinite(part) ? part : 0;
        const a = y(sum);
        const b = y(sum + v);
        sum += v;
        item.append(svg('rect', { class: `seg s${j % 10}`, x: x0, y: Math.min(a, b), width: barWidth, height: Math.abs(a - b) }));
      });
    } else {
      const a = y(p.value);
      item.append(svg('rect', { class: 'fill', x: x0, y: Math.min(a, baseline), width: barWidth, height: Math.abs(a - baseline) }));
    }
    marks.append(item);
  });
  root.append(marks);
  return root;
}

// Presentation properties copied from the page's CSS onto the exported SVG, which is drawn
// as an image without the page's style sheet.
const PAINT = ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linejoin', 'opacity', 'font-size', 'font-weight', 'font-family'];

function inlineStyles(from, to) {
  const style = getComputedStyle(from);
  for (const prop of PAINT) {
    const value = style.getPropertyValue(prop);
    if (value) to.setAttribute(prop, value);
  }
  to.removeAttribute('class');
  to.removeAttribute('tabindex');
  for (let i = 0; i < from.children.length; i++) inlineStyles(from.children[i], to.children[i]);
}

/**
 * A chart component: {element, setKind(kind), kind(), pngDataUrl()}.
 */
export function createChart(model) {
  let kind = model.kind === 'line' ? 'line' : 'bar';
  let width = 0;
  let current = null;
  const tooltip = h('div', { class: 'tooltip', role: 'tooltip', id: 'chart-tooltip', hidden: true });
  const frame = h('div', { class: 'chart-frame' });
  const element = h('div', { class: 'chart-wrap' }, frame, tooltip);

  function items() {
    return current ? [...current.querySelectorAll('[data-index]')] : [];
  }

  function show(item) {
    const p = model.points[Number(item.getAttribute('data-index'))];
    if (!p) return;
    tooltip.replaceChildren(...describePoint(model, p).map((line, i) => h('div', { class: i ? 'tip-line' : 'tip-main' }, line)));
    tooltip.hidden = false;
    const box = element.getBoundingClientRect();
    const mark = (item.querySelector('.fill, .seg, .dot, .missing') || item).getBoundingClientRect();
    const tw = tooltip.offsetWidth;
    const th = tooltip.offsetHeight;
    let x = mark.left - box.left + mark.width / 2 - tw / 2;
    x = Math.max(2, Math.min(x, box.width - tw - 2));
    let ty = mark.top - box.top - th - 6;
    if (ty < 2) ty = mark.bottom - box.top + 6;
    tooltip.style.left = `${Math.round(x)}px`;
    tooltip.style.top = `${Math.round(ty)}px`;
    for (const other of items()) other.classList.toggle('active', other === item);
  }

  function hide() {
    tooltip.hidden = true;
    for (const other of items()) other.classList.remove('active');
  }

  function render() {
    const w = Math.max(280, Math.floor(frame.clientWidth || 560));
    width = w;
    const next = draw(model, kind, w);
    next.setAttribute('aria-describedby', 'chart-tooltip');
    next.addEventListener('pointerover', (e) => {
      const item = e.target.closest && e.target.closest('[data-index]');
      if (item) show(item);
    });
    next.addEventListener('pointerleave', hide);
    next.addEventListener('focusin', (e) => {
      const item = e.target.closest && e.target.closest('[data-index]');
      if (item) show(item);
    });
    next.addEventListener('focusout', hide);
    next.addEventListener('keydown', (e) => {
      const all = items();
      const at = all.indexOf(document.activeElement);
      if (at < 0) return;
      const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      const target = all[Math.max(0, Math.min(all.length - 1, to))];
      all[at].setAttribute('tabindex', '-1');
      target.setAttribute('tabindex', '0');
      target.focus();
    });
    hide();
    if (current) current.replaceWith(next);
    else frame.append(next);
    current = next;
  }

  // Drawn once attached (the width is known then), and again when the width changes.
  const observer = new ResizeObserver(() => {
    const w = Math.max(280, Math.floor(frame.clientWidth || 560));
    if (!current || Math.abs(w - width) >= 1) render();
  });
  observer.observe(frame);

  return {
    element,
    kind: () => kind,
    setKind(next) {
      kind = next === 'line' ? 'line' : 'bar';
      render();
    },
    /** The chart as a PNG data: URL, 800 pixels wide (twice that in pixels), title included. */
    async pngDataUrl() {
      const picture = draw(model, kind, 800, { exportTitle: true });
      const holder = h('div', { class: 'export-holder', 'aria-hidden': 'true' }, picture);
      element.append(holder);
      let copy;
      try {
        copy = picture.cloneNode(true);
        inlineStyles(picture, copy);
      } finally {
        holder.remove();
      }
      const w = Number(copy.getAttribute('width'));
      const ht = Number(copy.getAttribute('height'));
      const xml = new XMLSerializer().serializeToString(copy);
      const img = new Image();
      img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(xml)}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = w * 2;
      canvas.height = ht * 2;
      const ctx = canvas.getContext('2d');
      ctx.scale(2, 2);
      ctx.drawImage(img, 0, 0, w, ht);
      return canvas.toDataURL('image/png');
    },
  };
}
