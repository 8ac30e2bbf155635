// The stdio transport of the native binary: `entrez-mcp stdio`.
// Run: E2E_BIN=target/release/entrez-mcp node --test tests/e2e/stdio.test.mjs

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { initializeBody, listAllTools, resultText } from './helpers.mjs';

const BIN = process.env.E2E_BIN || '';
const RUN_TIMEOUT_MS = 15_000;

/**
 * Hermetic environment: no NCBI key or other settings leak in from the caller's shell;
 * ENTREZ_DATA_DIR (set by scripts/test.sh to a temporary directory) is passed through.
 */
function childEnv() {
  const env = { PATH: process.env.PATH || '/usr/bin:/bin', HOME: process.env.HOME || '/tmp' };
  if (process.env.ENTREZ_DATA_DIR) env.ENTREZ_DATA_DIR = process.env.ENTREZ_DATA_DIR;
  return env;
}

/**
 * Runs the binary once with `input` on stdin (stdin then closes), bounded in time.
 * Resolves with { code, stdout, stderr }.
 */
function runStdio(input) {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, ['stdio'], { env: childEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`entrez-mcp stdio did not exit within ${RUN_TIMEOUT_MS} ms after stdin closed`));
    }, RUN_TIMEOUT_MS);
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(input);
  });
}

function parseLines(stdout) {
  assert.ok(stdout === '' || stdout.endsWith('\n'), 'stdout ends with a newline');
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      let msg;
      assert.doesNotThrow(() => {
        msg = JSON.parse(line);
      }, `every stdout line is JSON, got: ${line}`);
      assert.equal(msg.jsonrpc, '2.0', `a JSON-RPC 2.0 message: ${line}`);
      assert.ok('result' in msg || 'error' in msg || 'method' in msg, `a JSON-RPC message: ${line}`);
      return msg;
    });
}

describe('stdio [native]', { skip: !BIN && 'E2E_BIN is not set' }, () => {
  test('the SDK client: initialize, list tools, call a tool', async () => {
    const transport = new StdioClientTransport({ command: BIN, args: ['stdio'], env: childEnv(), stderr: 'pipe' });
    const stderr = [];
    transport.stderr?.on('data', (c) => stderr.push(String(c)));
    const client = new Client({ name: 'entrez-mcp-e2e-stdio', version: '1.0.0' }, { capabilities: {} });
    // The SDK reports any stdout line that is not a JSON-RPC message through onerror.
    const errors = [];
    client.onerror = (e) => errors.push(e);
    try {
      await client.connect(transport, { timeout: RUN_TIMEOUT_MS });
      assert.equal(client.getServerVersion()?.name, 'entrez-mcp');
      assert.ok(client.getInstructions());
      const tools = await listAllTools(client);
      assert.ok(tools.length >= 3);
      const tool = tools.find((t) => t.name === 'entrez_capabilities') || tools[0];
      const result = await client.callTool({ name: tool.name, arguments: {} });
      assert.equal(result.isError, false, resultText(result));
      assert.ok(result.structuredContent);
      assert.deepEqual(await client.ping(), {});
    } finally {
      await client.close();
    }
    assert.deepEqual(errors.map(String), [], `stdout carried only JSON-RPC (stderr: ${stderr.join('')})`);
  });

  test('raw: a malformed line and a ping give exactly two JSON-RPC lines', async () => {
    const input = ['this is not json', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), ''].join('\n');
    const { code, stdout } = await runStdio(input);
    assert.equal(code, 0, 'exits 0 when stdin closes');
    const messages = parseLines(stdout);
    assert.equal(messages.length, 2, `two replies, got: ${stdout}`);
    const parseError = messages.find((m) => m.error);
    assert.equal(parseError?.error.code, -32700);
    assert.equal(parseError.id, null);
    const pong = messages.find((m) => m.id === 1);
    assert.deepEqual(pong?.result, {});
  });

  test('raw: a whole session writes nothing but JSON-RPC to stdout', async () => {
    const lines = [
      initializeBody(1, LATEST_PROTOCOL_VERSION),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'entrez_capabilities', arguments: {} } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'entrez_capabilities', arguments: { bogus_param: 1 } } },
      { jsonrpc: '2.0', id: 5, method: 'no/such/method' },
      [{ jsonrpc: '2.0', id: 6, method: 'ping' }],
    ];
    const { code, stdout } = await runStdio(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    assert.equal(code, 0);
    const messages = parseLines(stdout);
    // One reply per request (ids 1-5) plus one error for the batch; none for the notification.
    assert.equal(messages.length, 6, stdout);
    const byId = new Map(messages.filter((m) => m.id !== null).map((m) => [m.id, m]));
    assert.equal(byId.get(1)?.result?.serverInfo?.name, 'entrez-mcp');
    assert.ok(byId.get(2)?.result?.tools?.length >= 3);
    assert.equal(byId.get(3)?.result?.isError, false);
    assert.equal(byId.get(4)?.result?.isError, true);
    assert.equal(byId.get(4)?.result?.structuredContent?.error?.code, 'invalid_arguments');
    assert.equal(byId.get(5)?.error?.code, -32601);
    assert.equal(messages.find((m) => m.id === null)?.error?.code, -32600);
  });
});
