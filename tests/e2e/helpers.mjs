// Shared helpers for the end-to-end suites. No test runs from this file.
//
// Targets come from the environment (scripts/test.sh sets them):
//   E2E_URL         MCP endpoint of the edge under test, e.g. http://127.0.0.1:8787/mcp
//   E2E_EDGE        a label for that edge in test names ("native" or "worker")
//   E2E_BIN         the native binary, for the stdio suite
//   E2E_NATIVE_URL  and E2E_WORKER_URL, for the suite that compares the two edges

import http from 'node:http';

export const PROTOCOL_VERSION = '2025-11-25';
export const EDGE = process.env.E2E_EDGE || 'edge';
export const URL_UNDER_TEST = process.env.E2E_URL || '';
/** Every request is bounded by this many milliseconds. */
export const REQUEST_TIMEOUT_MS = 15_000;

// A caller's own NCBI key for suites that test what a call returns, not how it is paced: its
// bucket allows 10 requests a second where an anonymous caller gets 3, so a suite of a hundred
// paced calls spends a third of the time waiting. `suite` names the bucket, one per suite and
// edge, so no two suites share one.
export const callerKeyHeaders = (suite) => ({ 'X-NCBI-API-Key': `e2e-${suite}-key-${EDGE}` });

export const JSON_HEADERS = Object.freeze({
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
});

export function initializeBody(id = 1, protocolVersion = PROTOCOL_VERSION) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: 'entrez-mcp-e2e', version: '1.0.0' },
    },
  };
}

/**
 * POSTs `body` (an object, or a string sent verbatim) and returns
 * { status, headers, text, json } where json is the parsed body or undefined.
 */
export async function post(url, body, headers = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return readResponse(res);
}

/** fetch with a deadline: REQUEST_TIMEOUT_MS, or `init.timeoutMs` for a request that waits on paced NCBI calls. */
export async function request(url, init = {}) {
  const { timeoutMs = REQUEST_TIMEOUT_MS, ...rest } = init;
  const res = await fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
  return readResponse(res);
}

async function readResponse(res) {
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Opens a session: initialize + notifications/initialized. Returns the session id. */
export async function openSession(url, extraHeaders = {}) {
  const init = await post(url, initializeBody(), extraHeaders);
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}: ${init.text}`);
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('initialize returned no Mcp-Session-Id header');
  const headers = {
    'Mcp-Session-Id': sessionId,
    'MCP-Protocol-Version': init.json.result.protocolVersion,
    ...extraHeaders,
  };
  const note = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (note.status !== 202) throw new Error(`notifications/initialized answered ${note.status}`);
  return { sessionId, headers, initialize: init };
}

/**
 * A raw HTTP/1.1 request through node:http, which (unlike fetch) lets the test set
 * the Host header. Returns { status, headers, text, json }.
 */
export function rawHttp(url, { method = 'POST', headers = {}, body = '' } = {}) {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port,
        path: u.pathname,
        method,
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode, headers: res.headers, text, json });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The MCP tasks extension of 2026-07-28. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * POSTs one 2026-07-28 request: `params` with the `_meta` the revision requires (the client's
 * `capabilities`), and the headers it mirrors (`Mcp-Name` when `name` is given).
 */
export function postModern(url, method, params, { capabilities = {}, name, headers = {} } = {}) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
  const mirrored = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method };
  if (name) mirrored['Mcp-Name'] = name;
  return post(url, body, { ...mirrored, ...headers });
}

/** All tools, following nextCursor for at most `maxPages` pages. */
export async function listAllTools(client, maxPages = 20) {
  const tools = [];
  let cursor;
  for (let page = 0; page < maxPages; page++) {
    const res = await client.listTools(cursor ? { cursor } : {});
    tools.push(...res.tools);
    cursor = res.nextCursor;
    if (!cursor) return tools;
  }
  throw new Error(`tools/list still had a nextCursor after ${maxPages} pages`);
}

/**
 * Adds `examples` to each listed tool: the example calls entrez_tool_info serves with
 * the tool's whole inputSchema (tools/list leaves them out to keep what a model reads small).
 */
export async function withExamples(client, tools) {
  for (const tool of tools) {
    const info = await client.callTool({ name: 'entrez_tool_info', arguments: { name: tool.name } });
    tool.examples = info.structuredContent?.examples || [];
  }
  return tools;
}

/** The text of every text content block of a tool result, joined. */
export function resultText(result) {
  return (result.content || [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** A typo of `name`: two adjacent letters in the middle swapped (entrez_query -> entrez_qurey). */
export function typoOf(name) {
  const chars = [...name];
  for (let i = Math.floor(chars.length / 2); i < chars.length - 1; i++) {
    if (chars[i] !== chars[i + 1] && chars[i] !== '_' && chars[i + 1] !== '_') {
      [chars[i], chars[i + 1]] = [chars[i + 1], chars[i]];
      return chars.join('');
    }
  }
  return `${name}x`;
}

/**
 * A test's own request to a stand-in, made as a polite client makes it: the stand-ins hold
 * NCBI's and iCite's pace for every caller, and suites running beside each other share them,
 * so a 429 or 503 is waited out (a second between tries, five tries) rather than failed on.
 */
export async function fetchPolitely(url, init = {}) {
  for (let attempt = 0; ; attempt++) {
    await new Promise((r) => setTimeout(r, 400));
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(120_000) });
    if (![429, 503].includes(res.status) || attempt === 4) return res;
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/**
 * What the NCBI replay at `replay` served to efetch, one array of ids per request (history
 * slices as `@N` positions), only the requests that named one of `ids` when given.
 */
export async function efetchBatches(replay, ids) {
  const res = await fetch(`${replay}/__replay/stats`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const stats = await res.json();
  const wanted = ids ? new Set(ids) : null;
  const batches = (stats.efetch || []).map((f) =>
    f.ids || Array.from({ length: f.retmax }, (_, i) => `@${f.retstart + i}`),
  );
  return wanted ? batches.filter((b) => b.some((id) => wanted.has(id))) : batches;
}

/** How many times efetch served each id of `batches`. */
export function fetchCounts(batches) {
  const counts = new Map();
  for (const id of batches.flat()) counts.set(id, (counts.get(id) || 0) + 1);
  return counts;
}

/**
 * Asserts that the replay served each of `ids` to efetch, and at most `again` of them twice:
 * those all from one earlier request (a batch cut off mid-way and fetched again), none three
 * times. `again` 0: each exactly once.
 */
export async function assertFetched(assert, replay, ids, { again = 0 } = {}) {
  const batches = await efetchBatches(replay, ids);
  const counts = fetchCounts(batches);
  const missing = ids.filter((id) => !counts.has(id));
  assert.deepEqual(missing.slice(0, 5), [], `${missing.length} ids never fetched`);
  const twice = ids.filter((id) => counts.get(id) > 1);
  assert.ok(twice.every((id) => counts.get(id) === 2), `fetched three times or more: ${twice.filter((id) => counts.get(id) > 2).slice(0, 5)}`);
  assert.ok(twice.length <= again, `${twice.length} ids fetched twice (at most ${again}): ${twice.slice(0, 5)}…`);
  if (twice.length > 0) {
    const first = batches.find((b) => b.includes(twice[0]));
    assert.ok(twice.every((id) => first.includes(id)), 'the ids fetched again were not one batch');
  }
  return { batches, twice };
}

// Every suite that imports these helpers checks each tool result against schemas/ (the check
// installs itself on import; scripts/test.sh also preloads it).
export { checkToolResult, checkToolList, resultProblem, schemaCheckReport } from './schema-check.mjs';
