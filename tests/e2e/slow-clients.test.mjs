// Slow and idle clients against the native server's HTTP limits, over raw sockets.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp E2E_EDGE=native node --test tests/e2e/slow-clients.test.mjs
//
// The native server cuts off a client that never finishes its headers, a kept-alive
// connection left idle (both after ENTREZ_HTTP_HEADER_TIMEOUT_MS, 10 s by default),
// and a request body that trickles in (408 after ENTREZ_HTTP_BODY_TIMEOUT_MS, which
// scripts/test.sh sets to 5 s); meanwhile a well-behaved MCP client is answered at
// once. The Worker's HTTP server is Cloudflare's (wrangler dev's workerd here), so
// this suite runs on the native edge only.

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

const HEADER_TIMEOUT_MS = Number(process.env.ENTREZ_HTTP_HEADER_TIMEOUT_MS || 10_000);
const BODY_TIMEOUT_MS = Number(process.env.E2E_HTTP_BODY_TIMEOUT_MS || 5_000);

/**
 * Opens a socket, writes `first`, then `drip` once a second until the server closes
 * or `limitMs` passes. Resolves to { text, closed, ms }.
 */
function slowClient(first, { drip = '', limitMs }) {
  const { hostname, port } = new URL(URL_UNDER_TEST);
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks = [];
    const socket = net.connect({ host: hostname, port: Number(port) });
    let timer;
    const finish = (closed) => {
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closed, ms: Date.now() - started });
    };
    const limit = setTimeout(() => finish(false), limitMs);
    socket.on('connect', () => {
      if (first) socket.write(first);
      if (drip) timer = setInterval(() => socket.writable && socket.write(drip), 1_000);
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('close', () => finish(true));
    socket.on('error', () => {});
  });
}

async function answeredAtOnce() {
  const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST));
  const client = new Client({ name: 'entrez-mcp-e2e-slow', version: '1.0.0' }, { capabilities: {} });
  const started = Date.now();
  await client.connect(transport, { timeout: 5_000 });
  const r = await client.callTool({ name: 'entrez_capabilities', arguments: {} }, undefined, { timeout: 5_000 });
  await client.close();
  assert.equal(r.isError, false);
  return Date.now() - started;
}

describe(`slow and idle clients [${EDGE}]`, { skip: (!URL_UNDER_TEST || EDGE !== 'native') && 'native edge only (E2E_EDGE=native, E2E_URL)' }, () => {
  test('headers dripped a byte a second, and a silent connection, are closed; others are served meanwhile', async () => {
    const slack = 4_000;
    const dripping = slowClient('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n', { drip: 'X', limitMs: HEADER_TIMEOUT_MS + slack });
    const silent = slowClient('', { limitMs: HEADER_TIMEOUT_MS + slack });
    const idle = slowClient('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { limitMs: HEADER_TIMEOUT_MS + slack });
    const ms = await answeredAtOnce();
    assert.ok(ms < 3_000, `a well-behaved client waited ${ms} ms`);
    const [d, s, i] = await Promise.all([dripping, silent, idle]);
    assert.ok(d.closed, `dripped headers were waited on for ${d.ms} ms`);
    assert.ok(s.closed, `a silent connection was kept for ${s.ms} ms`);
    assert.ok(i.closed, `an idle kept-alive connection was kept for ${i.ms} ms`);
    assert.match(i.text, /^HTTP\/1\.1 200/, 'the kept-alive connection was answered first');
    for (const c of [d, s, i]) assert.ok(c.ms >= HEADER_TIMEOUT_MS - 1_000, `closed after ${c.ms} ms, before the timeout`);
  });

  test('a request body that trickles in gets 408, and the server keeps serving', async () => {
    const head =
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      'Accept: application/json, text/event-stream\r\nContent-Length: 10000\r\n\r\n{"jsonrpc"';
    const r = await slowClient(head, { drip: ' ', limitMs: BODY_TIMEOUT_MS + 5_000 });
    assert.match(r.text, /^HTTP\/1\.1 408/, r.text);
    assert.ok(r.ms >= BODY_TIMEOUT_MS - 1_000, `408 after ${r.ms} ms`);
    assert.ok((await answeredAtOnce()) < 3_000);
  });
});
