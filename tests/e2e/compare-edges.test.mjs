// The native server and the Worker must answer the same requests the same way:
// one core decides everything, the edges only move bytes. The replay servers (E2E_REPLAY,
// E2E_EXTERNAL_REPLAY) are reset before each request, so upstream state is the same too.
// Run: E2E_NATIVE_URL=... E2E_WORKER_URL=... node --test tests/e2e/compare-edges.test.mjs
//
// Both edges have a dataset store, so both list the same tools, entrez_data included;
// a different tool list is the first failure.
//
// Each step is sent to both edges; status, Content-Type, Allow and the JSON body must be
// identical (dataset ids, sizes and timestamps aside, see shape()). Session ids differ
// by design and are compared by presence only. DELETE is left out on purpose: native
// sessions can be terminated, Worker sessions end by expiry.

import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { JSON_HEADERS, initializeBody, request } from './helpers.mjs';

const NATIVE = process.env.E2E_NATIVE_URL || '';
const WORKER = process.env.E2E_WORKER_URL || '';
/** The upstream stand-ins; reset before every request so both edges meet the same upstream state. */
const REPLAYS = [process.env.E2E_REPLAY, process.env.E2E_EXTERNAL_REPLAY].filter(Boolean);

async function resetReplays() {
  for (const base of REPLAYS) {
    const res = await request(`${base}/__replay/reset`, { method: 'POST' });
    assert.equal(res.status, 200, `reset ${base}: ${res.status} ${res.text}`);
  }
}

async function toolNames(url) {
  const init = await request(url, rpc(initializeBody())(url, {}));
  assert.equal(init.status, 200, `initialize at ${url}: ${init.text}`);
  const headers = { 'Mcp-Session-Id': init.headers.get('mcp-session-id'), 'MCP-Protocol-Version': init.json.result.protocolVersion };
  const names = [];
  let cursor;
  for (let page = 0; page < 20; page++) {
    const res = await request(url, rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor ? { cursor } : {} })(url, headers));
    names.push(...res.json.result.tools.map((t) => t.name));
    cursor = res.json.result.nextCursor;
    if (!cursor) break;
  }
  return names.sort().join(',');
}

/** What must match between edges. */
function shape(res, sessionId) {
  let body = res.text;
  if (sessionId) body = body.split(sessionId).join('<session>');
  // What differs by design between the two dataset stores: random dataset ids, the
  // storage engine's size accounting (a file vs Durable Object SQLite), and timestamps.
  body = body
    .replace(/[0-9a-f]{32}/g, '<dataset-id>')
    .replace(/"(bytes|total_bytes)":\d+/g, '"$1":"<bytes>"')
    .replace(/\d[\d,]* bytes/g, '<n> bytes')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, '<time>')
    .replace(/"(created|expires|elapsed_ms)":("<time>"|\d+)/g, '"$1":"<varies>"')
    // What differs by deployment, not by edge: an open native server on loopback serves its
    // own machine (its key, only the deployment's storage totals), an open Worker the public
    // (per-address allowances, no server key for anonymous callers).
    .replace(/"allowances":(\{[^{}]*\}|null)/g, '"allowances":"<by deployment>"')
    .replace(/"server_key_for_you":(true|false)/g, '"server_key_for_you":"<by deployment>"');
  let json;
  try {
    json = body ? JSON.parse(body) : null;
  } catch {
    json = { notJson: body };
  }
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    allow: res.headers.get('allow'),
    hasSessionHeader: res.headers.has('mcp-session-id'),
    body: json,
  };
}

/** The first place where two JSON values differ, or null. */
function firstDifference(a, b, path) {
  if (Object.is(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return { path, native: a, worker: b };
}

function clip(value) {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}...` : text;
}

/** A step: (base url, session headers) -> fetch init; `url` may change the path. */
const rpc = (message, extra = {}) => (_url, session) => ({
  method: 'POST',
  headers: { ...JSON_HEADERS, ...session, ...extra },
  body: typeof message === 'string' ? message : JSON.stringify(message),
});

describe('native vs worker', { skip: !(NATIVE && WORKER) && 'E2E_NATIVE_URL and E2E_WORKER_URL are not both set' }, () => {
  const sessions = {};
  let tools = [];

  async function both(name, makeInit, path) {
    const out = {};
    for (const [edge, base] of [['native', NATIVE], ['worker', WORKER]]) {
      const url = path ? new URL(path, base).href : base;
      await resetReplays();
      // A step may wait on paced NCBI requests (a global_query asks 16 databases, about 8 s of
      // pacing alone); the deadline leaves room for a machine twice as slow and more.
      const res = await request(url, { ...makeInit(url, sessions[edge]?.headers || {}), timeoutMs: 90_000 });
      out[edge] = shape(res, sessions[edge]?.id);
    }
    const diff = firstDifference(out.native, out.worker, '');
    if (diff) {
      assert.fail(`${name}: the Worker answers differently from the native server at ${diff.path || '(root)'}\n` +
        `  native: ${clip(diff.native)}\n  worker: ${clip(diff.worker)}`);
    }
    return out.native;
  }

  before(async () => {
    assert.equal(await toolNames(WORKER), await toolNames(NATIVE), 'both edges list the same tools');
    for (const [edge, base] of [['native', NATIVE], ['worker', WORKER]]) {
      const res = await request(base, rpc(initializeBody())(base, {}));
      assert.equal(res.status, 200, `${edge} initialize: ${res.text}`);
      const id = res.headers.get('mcp-session-id');
      assert.ok(id, `${edge} issued a session id`);
      sessions[edge] = { id, headers: { 'Mcp-Session-Id': id, 'MCP-Protocol-Version': res.json.result.protocolVersion } };
    }
  });

  test('initialize', async () => {
    const r = await both('initialize', rpc(initializeBody(1)));
    assert.equal(r.hasSessionHeader, true);
    await both('initialize 2025-06-18', rpc(initializeBody(2, '2025-06-18')));
    await both('initialize unknown version', rpc(initializeBody(3, '2099-01-01')));
  });

  test('session lifecycle messages', async () => {
    await both('notifications/initialized', rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await both('ping', rpc({ jsonrpc: '2.0', id: 'p1', method: 'ping' }));
    const list = await both('tools/list', rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    tools = list.body.result.tools;
    assert.ok(tools.length > 0);
  });

  test('tools/call: each tool with its examples, bogus arguments and a typo', async () => {
    let id = 100;
    for (const tool of tools) {
      const info = await both(`${tool.name} info`, rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'entrez_tool_info', arguments: { name: tool.name } } }));
      const examples = info.body?.result?.structuredContent?.examples || [{}];
      for (const args of examples) {
        await both(`${tool.name} ${JSON.stringify(args)}`, rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: tool.name, arguments: args } }));
      }
      const bogus = { ...examples[0], bogus_param: 1 };
      await both(`${tool.name} bogus`, rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: tool.name, arguments: bogus } }));
    }
    await both('unknown tool', rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
    await both('tool_info typo', rpc({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'entrez_tool_info', arguments: { name: 'entrez_capabilites' } } }));
  });

  test('errors', async () => {
    await both('malformed JSON', rpc('{"jsonrpc":'));
    await both('batch', rpc([{ jsonrpc: '2.0', id: 1, method: 'ping' }]));
    await both('not an object', rpc('42'));
    await both('unknown method', rpc({ jsonrpc: '2.0', id: 5, method: 'no/such' }));
    await both('bad cursor', rpc({ jsonrpc: '2.0', id: 6, method: 'tools/list', params: { cursor: '!!' } }));
    await both('server/discover, newer client', () => rpc({ jsonrpc: '2.0', id: 7, method: 'server/discover' }, { 'MCP-Protocol-Version': '2026-07-28' })(null, {}));
    await both('unsupported version header', rpc({ jsonrpc: '2.0', id: 8, method: 'tools/list' }, { 'MCP-Protocol-Version': '1999-01-01' }));
    await both('bogus session', rpc({ jsonrpc: '2.0', id: 9, method: 'tools/list' }, { 'Mcp-Session-Id': 'bogus' }));
    await both('missing session', () => rpc({ jsonrpc: '2.0', id: 10, method: 'tools/list' })(null, {}));
    await both('foreign origin', rpc({ jsonrpc: '2.0', id: 11, method: 'ping' }, { Origin: 'https://evil.example.com' }));
    await both('wrong content type', rpc({ jsonrpc: '2.0', id: 12, method: 'ping' }, { 'Content-Type': 'text/plain' }));
    await both('not acceptable', rpc({ jsonrpc: '2.0', id: 13, method: 'ping' }, { Accept: 'text/html' }));
    await both('GET /mcp', (_u, s) => ({ method: 'GET', headers: { Accept: 'text/event-stream', ...s } }));
    await both('PUT /mcp', (_u, s) => ({ method: 'PUT', headers: s }));
    await both('GET /', () => ({ method: 'GET' }), '/');
    await both('GET /nope', () => ({ method: 'GET' }), '/nope');
  });
});
