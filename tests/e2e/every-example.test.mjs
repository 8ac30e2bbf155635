// Every example call of every tool (entrez_tool_info serves them), through one edge, with the
// official SDK client (which validates each structuredContent against the
// tool's outputSchema). The examples cover every entrez_query and
// entrez_external operation, so this proves each operation end to end through
// the edge against the replay servers.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/every-example.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders, listAllTools, withExamples } from './helpers.mjs';

describe(`every schema example [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  let tools = [];

  before(async () => {
    // A caller key: the calls are paced at 10 a second rather than 3 (helpers.mjs).
    const requestInit = { headers: callerKeyHeaders('examples') };
    const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), { requestInit });
    client = new Client({ name: 'entrez-mcp-examples', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport, { timeout: 15_000 });
    tools = await withExamples(client, await listAllTools(client));
  });

  after(async () => {
    if (client) await client.close();
  });

  test('every operation of the upstream tools has an example', () => {
    for (const name of ['entrez_query', 'entrez_external']) {
      const tool = tools.find((t) => t.name === name);
      assert.ok(tool, `${name} is listed`);
      const ops = new Set(tool.examples.map((e) => e.operation));
      for (const op of tool.inputSchema.properties.operation.enum) {
        assert.ok(ops.has(op), `${name} has no example for operation ${op}`);
      }
    }
  });

  test('each example call succeeds and matches its outputSchema', async () => {
    let calls = 0;
    // entrez_data's examples name a dataset id that only exists after staging; its own suites cover it.
    for (const tool of tools.filter((t) => t.name !== 'entrez_data')) {
      for (const args of tool.examples) {
        const label = `${tool.name} ${JSON.stringify(args)}`;
        const result = await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: 90_000 });
        assert.equal(result.isError, false, `${label} → ${JSON.stringify(result.structuredContent)}`);
        assert.ok(result.structuredContent, `${label} has structuredContent`);
        assert.equal(result.content[0].type, 'text', `${label} starts with a text block`);
        calls++;
      }
    }
    assert.ok(calls >= 20, `only ${calls} example calls`);
  });
});
