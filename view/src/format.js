// Formatting of numbers, cells, CSV and tool results. Fixed locale, so what the view shows
// does not depend on the machine it runs on.

const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const DECIMAL = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A value for people: 1,234 or 0.25; null and non-numbers as given. */
export function formatNumber(value) {
  if (value === null || value === undefined) return 'no value';
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? INTEGER.format(value) : DECIMAL.format(value);
}

/** Tick labels of an axis: short forms past a thousand (12k, 1.5M). */
export function formatTick(value) {
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${trim(value / 1e9)}G`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${trim(value / 1e3)}k`;
  return formatNumber(value);
}

function trim(n) {
  return DECIMAL.format(Math.round(n * 10) / 10);
}

/** The text of a table cell, and whether it stands for SQL NULL. */
export function cellText(value) {
  if (value === null || value === undefined) return { text: 'NULL', isNull: true };
  if (typeof value === 'object') {
    if (typeof value.base64 === 'string') {
      return { text: `[blob, ${Math.floor((value.base64.length * 3) / 4)} bytes]`, isNull: false };
    }
    return { text: JSON.stringify(value), isNull: false };
  }
  return { text: String(value), isNull: false };
}

/** One CSV field (RFC 4180 quoting). */
function csvField(value) {
  const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text of a header and rows. */
export function toCsv(header, rows) {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The first text content block of a tool result, or a JSON rendering when there is none. */
export function firstText(result) {
  const blocks = result && Array.isArray(result.content) ? result.content : [];
  const text = blocks.find((b) => b && b.type === 'text' && typeof b.text === 'string');
  if (text) return text.text;
  try {
    return JSON.stringify(result, null, 2) ?? String(result);
  } catch {
    return String(result);
  }
}

/** A file name from a title: lower case, dashes, at most 60 characters. */
export function fileName(title, ext) {
  const base = String(title || 'entrez')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'entrez'}.${ext}`;
}
