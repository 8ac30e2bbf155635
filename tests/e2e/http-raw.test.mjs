// Streamable HTTP status codes and JSON-RPC errors, with plain fetch (and node:http for Host).
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/http-raw.test.mjs

import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { EDGE, URL_UNDER_TEST, JSON_HEADERS, initializeBody, openSession, post, rawHttp, request } from './helpers.mjs';

function assertRpcError(res, status, code) {
  assert.equal(res.status, status, `HTTP ${status} expected, got ${res.status}: ${res.text}`);
  assert.ok(res.json, `a JSON body: ${res.text}`);
  assert.equal(res.json.jsonrpc, '2.0');
  assert.equal(res.json.error?.code, code, `JSON-RPC error ${code} expected: ${res.text}`);
  assert.equal(typeof res.json.error.message, 'string');
  assert.ok(!('result' in res.json), 'no result beside an error');
}

describe(`raw http [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  const url = URL_UNDER_TEST;
  let session;

  before(async () => {
    session = await openSession(url);
  });

  test('initialize: 200, JSON, a session id', async () => {
    const res = await post(url, initializeBody(7));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') || '', /^application\/json/);
    assert.ok(res.headers.get('mcp-session-id'));
    assert.equal(res.json.id, 7);
    assert.equal(res.json.result.serverInfo.name, 'entrez-mcp');
  });

  test('malformed JSON: 400 and -32700', async () => {
    const res = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ', session.headers);
    assertRpcError(res, 400, -32700);
    assert.equal(res.json.id, null);
  });

  test('JSON array batch: 400 and -32600', async () => {
    const res = await post(url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }], session.headers);
    assertRpcError(res, 400, -32600);
  });

  test('unknown method with a valid session: -32601', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 3, method: 'no/such/method' }, session.headers);
    assertRpcError(res, 200, -32601);
    assert.equal(res.json.id, 3);
  });

  test('server/discover without its _meta: 400, -32602; with it: the discover result', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 4, method: 'server/discover', params: {} }, { 'MCP-Protocol-Version': '2026-07-28' });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json?.error?.code, -32602, res.text);
    assert.equal(res.json.id, 4);
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const ok = await post(url, { jsonrpc: '2.0', id: 5, method: 'server/discover', params: { _meta: meta } },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.result.resultType, 'complete');
    assert.equal(ok.json.result.supportedVersions[0], '2026-07-28');
    assert.ok(!ok.headers.get('mcp-session-id'), 'no session in the stateless era');
  });

  test('GET /mcp: 405 (no SSE stream offered)', async () => {
    const res = await request(url, { method: 'GET', headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': session.sessionId } });
    assert.equal(res.status, 405, res.text);
    assert.match(res.headers.get('allow') || '', /POST/);
  });

  test('unsupported MCP-Protocol-Version on a request after initialize: 400', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { ...session.headers, 'MCP-Protocol-Version': '1999-01-01' });
    assert.equal(res.status, 400, res.text);
    assert.ok(res.json?.error, res.text);
  });

  test('foreign Origin: 403', async () => {
    const res = await post(url, initializeBody(), { Origin: 'https://evil.example.com' });
    assert.equal(res.status, 403, res.text);
    assert.ok(!res.headers.get('mcp-session-id'), 'no session for a forbidden origin');
  });

  test('localhost Origin: allowed', async () => {
    const u = new URL(url);
    const res = await post(url, initializeBody(), { Origin: `http://localhost:${u.port}` });
    assert.equal(res.status, 200, res.text);
  });

  test('Host: evil.example.com: 403', async () => {
    const res = await rawHttp(url, {
      headers: { ...JSON_HEADERS, Host: 'evil.example.com' },
      body: JSON.stringify(initializeBody()),
    });
    assert.equal(res.status, 403, res.text);
  });

  test('Host: localhost with the port: allowed', async () => {
    const u = new URL(url);
    const res = await rawHttp(url, {
      headers: { ...JSON_HEADERS, Host: `localhost:${u.port}` },
      body: JSON.stringify(initializeBody()),
    });
    assert.equal(res.status, 200, res.text);
  });

  test('tools/list without a session id: 400', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 6, method: 'tools/list' });
    assert.equal(res.status, 400, res.text);
    assert.ok(res.json?.error, res.text);
  });

  test('tools/list with a bogus session id: 404', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, { 'Mcp-Session-Id': 'bogus-session-id' });
    assert.equal(res.status, 404, res.text);
    assert.ok(res.json?.error, res.text);
  });

  test('a notification: 202 with an empty body', async () => {
    const res = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session.headers);
    assert.equal(res.status, 202);
    assert.equal(res.text, '');
  });

  test('tools/list with a bad cursor: -32602', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { cursor: 'not-a-real-cursor' } }, session.headers);
    assertRpcError(res, 200, -32602);
  });

  test('tools/list with a session: 200 and tools', async () => {
    const res = await post(url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, session.headers);
    assert.equal(res.status, 200);
    assert.ok(Array.isArray(res.json.result.tools) && res.json.result.tools.length > 0);
  });

  test('wrong Content-Type: 415', async () => {
    const res = await request(url, {
      method: 'POST',
      headers: { ...session.headers, 'Content-Type': 'text/plain', Accept: JSON_HEADERS.Accept },
      body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }),
    });
    assert.equal(res.status, 415, res.text);
  });

  test('GET / describes the server; other paths 404', async () => {
    const root = new URL('/', url).href;
    const res = await request(root);
    assert.equal(res.status, 200);
    assert.equal(res.json?.name, 'entrez-mcp');
    assert.equal(res.json?.mcp_endpoint, '/mcp');
    const missing = await request(new URL('/nope', url).href);
    assert.equal(missing.status, 404);
  });
});
