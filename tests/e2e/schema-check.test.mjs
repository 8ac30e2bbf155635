// The output-schema check every suite runs under (schema-check.mjs, through helpers.mjs and
// scripts/test.sh's --import) can fail a suite: a stand-in MCP server on 127.0.0.1 answers
// system_api_key_status with the edge's own result, or with that result broken (a rate limit
// the schema's enum does not allow), and a child `node --test` calls it once, through the SDK
// client (which swallows the error), a raw POST, or the SDK's stdio transport to a stand-in
// over stdio, without looking at the result. The broken result must fail the child's run and
// name the schema; the edge's own must pass.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/schema-check.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, resultProblem } from './helpers.mjs';

const FIXTURE = fileURLToPath(new URL('./schema-check/fixture.mjs', import.meta.url));

/** A minimal MCP server over HTTP answering every tools/call with `result(path)`. */
function standIn(result) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      if (msg.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const answer =
        msg.method === 'initialize'
          ? { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stand-in', version: '0' } }
          : msg.method === 'tools/call'
            ? result(req.url)
            : {};
      res.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'stand-in-session' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe(`output schemas are checked in every suite [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let real;
  let server;

  before(async () => {
    const client = new Client({ name: 'entrez-mcp-e2e-schema-check', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
    real = await client.callTool({ name: 'system_api_key_status', arguments: {} });
    await client.close();
    // /good/mcp answers the edge's own result, /bad/mcp the broken one.
    server = await standIn((path) => (path.startsWith('/good/') ? real : broken()));
  });

  after(() => server?.close());

  const broken = () => ({ ...real, structuredContent: { ...real.structuredContent, rate_limit_per_second: 7 } });

  test('the edge\'s own result passes the check, the broken copy does not', () => {
    assert.equal(real.isError, false);
    assert.equal(resultProblem('system_api_key_status', real), null);
    assert.match(resultProblem('system_api_key_status', broken()) || '', /rate_limit_per_second/);
    assert.match(resultProblem('system_api_key_status', { content: [], isError: false }) || '', /no structuredContent/);
  });

  for (const mode of ['sdk', 'raw', 'stdio']) {
    test(`a result that breaks its schema fails a suite that never reads it (${mode})`, async () => {
      // A run of its own, not a subtest of this one (node marks its children with NODE_TEST_CONTEXT).
      const { NODE_TEST_CONTEXT, ...env } = process.env;
      // Asynchronously (the stand-in answers from this process's event loop), both at once.
      const run = (which, answer) =>
        new Promise((resolve) => {
          const url = `http://127.0.0.1:${server.address().port}/${which}/mcp`;
          const child = spawn(process.execPath, ['--test', '--test-reporter=tap', FIXTURE], {
            env: { ...env, FIXTURE_URL: url, FIXTURE_MODE: mode, FIXTURE_RESULT: JSON.stringify(answer) },
            timeout: 60_000,
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (c) => (stdout += c));
          child.stderr.on('data', (c) => (stderr += c));
          child.on('close', (status) => resolve({ status, stdout, stderr }));
        });
      const [fine, bad] = await Promise.all([run('good', real), run('bad', broken())]);
      assert.equal(fine.status, 0, `the edge's own result failed the run: ${fine.stdout}${fine.stderr}`);
      assert.match(fine.stdout, /^# pass 1$/m, fine.stdout);
      assert.notEqual(bad.status, 0, `a broken result passed: ${bad.stdout}${bad.stderr}`);
      assert.match(bad.stdout + bad.stderr, /breaks schemas\/system_api_key_status\.output\.json/);
    });
  }
});
