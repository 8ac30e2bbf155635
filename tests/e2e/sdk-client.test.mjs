// The official MCP TypeScript SDK as the client, over Streamable HTTP.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/sdk-client.test.mjs
//
// Client.callTool validates structuredContent against the tool's outputSchema
// (cached by listTools), so a call that returns without throwing proves the
// server's output matches its schema.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { EDGE, URL_UNDER_TEST, listAllTools, withExamples, resultText, typoOf } from './helpers.mjs';

const CALLER_KEY = 'e2e-secret-key-0000';
const SECRET_FRAGMENT = 'e2e-secret-key';
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

describe(`sdk client [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  let transport;
  let tools = [];
  const transportErrors = [];
  /** Every response the client saw, to prove the caller's key never comes back. */
  const seen = [];
  const pendingReads = [];
  const remember = (label, value) => {
    seen.push({ label, text: JSON.stringify(value) });
    return value;
  };

  before(async () => {
    // Record every raw HTTP response body (and header) as well as the parsed results.
    const recordingFetch = async (url, init) => {
      const res = await fetch(url, init);
      const label = `HTTP ${res.status} ${init?.method || 'GET'}`;
      // Read the copy in the background: an SSE stream would not end while the client holds it.
      pendingReads.push(
        res.clone().text().then(
          (body) => seen.push({ label, text: JSON.stringify([...res.headers]) + body }),
          () => seen.push({ label, text: JSON.stringify([...res.headers]) }),
        ),
      );
      return res;
    };
    transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), {
      requestInit: { headers: { 'X-NCBI-API-Key': CALLER_KEY } },
      fetch: recordingFetch,
    });
    client = new Client({ name: 'entrez-mcp-e2e', version: '1.0.0' }, { capabilities: {} });
    client.onerror = (e) => transportErrors.push(e);
    await client.connect(transport, { timeout: 15_000 });
    tools = remember('tools/list', await withExamples(client, await listAllTools(client)));
  });

  after(async () => {
    if (client) await client.close();
  });

  test('initialize: serverInfo, instructions and protocol version', () => {
    const info = remember('serverInfo', client.getServerVersion());
    assert.equal(info.name, 'entrez-mcp');
    for (const field of ['title', 'version', 'description']) {
      assert.equal(typeof info[field], 'string', `serverInfo.${field} is a string`);
      assert.ok(info[field].length > 0, `serverInfo.${field} is not empty`);
    }
    assert.match(info.version, /^\d+\.\d+\.\d+/);
    const instructions = remember('instructions', client.getInstructions());
    assert.equal(typeof instructions, 'string');
    assert.ok(instructions.trim().length > 20, 'instructions are not empty');
    assert.equal(transport.protocolVersion, LATEST_PROTOCOL_VERSION);
    assert.ok(client.getServerCapabilities()?.tools, 'tools capability is advertised');
    assert.ok(transport.sessionId, 'a session id was issued');
  });

  test('tools/list: every tool is fully described', () => {
    assert.ok(tools.length >= 3, `at least 3 tools (got ${tools.length})`);
    const names = new Set();
    for (const tool of tools) {
      const where = `tool ${tool.name}`;
      assert.match(tool.name, /^[a-z][a-z0-9_]*$/, `${where}: snake_case name`);
      assert.ok(!names.has(tool.name), `${where}: listed once`);
      names.add(tool.name);
      assert.ok(tool.title && tool.title.length > 0, `${where}: has a title`);
      assert.ok(tool.description && tool.description.length > 20, `${where}: has a description`);
      assert.ok(tool.annotations, `${where}: has annotations`);
      for (const hint of HINTS) {
        assert.equal(typeof tool.annotations[hint], 'boolean', `${where}: annotations.${hint}`);
      }
      assert.equal(tool.inputSchema?.type, 'object', `${where}: inputSchema root type object`);
      assert.equal(tool.outputSchema?.type, 'object', `${where}: outputSchema root type object`);
      assert.equal(tool.inputSchema.examples, undefined, `${where}: tools/list leaves examples to entrez_tool_info`);
      assert.ok(tool.examples.length > 0, `${where}: entrez_tool_info has a valid example call`);
    }
  });

  test('tools/call: every tool succeeds with its first example', async () => {
    for (const tool of tools) {
      const args = tool.examples[0];
      const result = remember(`call ${tool.name}`, await client.callTool({ name: tool.name, arguments: args }));
      assert.equal(result.isError, false, `${tool.name}(${JSON.stringify(args)}) isError false: ${resultText(result)}`);
      assert.ok(result.structuredContent && typeof result.structuredContent === 'object', `${tool.name}: structuredContent`);
      assert.ok(resultText(result).length > 0, `${tool.name}: has a text block`);
    }
  });

  test('tools/call: an unexpected property is an invalid_arguments tool error', async () => {
    for (const tool of tools) {
      const args = { ...tool.examples[0], bogus_param: 1 };
      const result = remember(`bogus ${tool.name}`, await client.callTool({ name: tool.name, arguments: args }));
      assertInvalidArguments(tool.name, result, 'bogus_param');
    }
  });

  test('tools/call: a wrong enum value is an invalid_arguments tool error', async (t) => {
    let checked = 0;
    for (const tool of tools) {
      const props = tool.inputSchema.properties || {};
      const [name] = Object.entries(props).find(([, s]) => Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) || [];
      if (!name) continue;
      const args = { ...tool.examples[0], [name]: 'definitely_not_a_valid_value' };
      const result = remember(`enum ${tool.name}`, await client.callTool({ name: tool.name, arguments: args }));
      assertInvalidArguments(tool.name, result, `$.${name}`);
      checked++;
    }
    if (checked === 0) t.skip('no tool has a string enum parameter');
  });

  test('entrez_tool_info: a misspelt tool name gets a did-you-mean', async () => {
    const infoTool = tools.find((t) => t.name === 'entrez_tool_info');
    assert.ok(infoTool, 'entrez_tool_info is listed');
    const real = tools.find((t) => t.name !== 'entrez_tool_info') || infoTool;
    const typo = typoOf(real.name);
    assert.notEqual(typo, real.name);
    const result = remember('typo', await client.callTool({ name: 'entrez_tool_info', arguments: { name: typo } }));
    assert.equal(result.isError, true);
    const text = resultText(result);
    assert.match(text, /did you mean/i, `did-you-mean in: ${text}`);
    assert.ok(text.includes(real.name), `suggests ${real.name}: ${text}`);
    assert.equal(typeof result.structuredContent?.error?.code, 'string');
  });

  test('tools/call: an unknown tool is JSON-RPC error -32602', async () => {
    await assert.rejects(
      client.callTool({ name: 'no_such_tool_e2e', arguments: {} }),
      (e) => {
        remember('unknown tool', { message: e.message, data: e.data });
        assert.ok(e instanceof McpError, `McpError, got ${e?.constructor?.name}`);
        assert.equal(e.code, -32602);
        return true;
      },
    );
  });

  test('ping', async () => {
    const result = await client.ping();
    assert.deepEqual(result, {});
  });

  test('X-NCBI-API-Key: used for the caller, never echoed', async () => {
    const result = remember('key status', await client.callTool({ name: 'system_api_key_status', arguments: {} }));
    assert.equal(result.isError, false);
    assert.equal(result.structuredContent.source, 'caller_header');
    await Promise.race([Promise.all(pendingReads), new Promise((r) => setTimeout(r, 5_000).unref())]);
    assert.ok(seen.some((s) => s.label.startsWith('HTTP 200 POST')), 'raw responses were recorded');
    for (const { label, text } of seen) {
      assert.ok(!text.includes(SECRET_FRAGMENT), `the caller's key appears in ${label}`);
    }
    assert.deepEqual(transportErrors.map(String), [], 'no transport errors');
  });
});

function assertInvalidArguments(toolName, result, mustMention) {
  const text = resultText(result);
  const where = `${toolName}: ${text}`;
  assert.equal(result.isError, true, `isError true for ${where}`);
  const error = result.structuredContent?.error;
  assert.ok(error, `structuredContent.error for ${where}`);
  assert.equal(error.code, 'invalid_arguments', where);
  assert.ok(text.includes('$'), `the text names a JSON path: ${where}`);
  assert.ok(text.includes(mustMention), `the text mentions ${mustMention}: ${where}`);
  assert.ok(Array.isArray(error.suggestions) && error.suggestions.length > 0, `suggestions for ${where}`);
  assert.match(text, /suggest/i, `the text carries suggestions: ${where}`);
}
