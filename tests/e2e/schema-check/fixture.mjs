// Run by schema-check.test.mjs in a child `node --test`, never on its own: one call to the
// stand-in server at FIXTURE_URL, through the SDK client (FIXTURE_MODE=sdk) or a raw JSON-RPC
// POST (raw), or to the stdio stand-in beside this file through the SDK's stdio transport
// (stdio, the answer in FIXTURE_RESULT), whose result this test does not look at. Whatever the
// stand-in answers, the test passes; only the output-schema check that every suite gets
// through helpers.mjs can fail it.

import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fileURLToPath } from 'node:url';
import { post } from '../helpers.mjs';

const URL_ = process.env.FIXTURE_URL;

test(`a call whose result nobody reads (${process.env.FIXTURE_MODE})`, async () => {
  if (process.env.FIXTURE_MODE === 'raw') {
    await post(URL_, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'system_api_key_status', arguments: {} } });
    return;
  }
  const client = new Client({ name: 'schema-check-fixture', version: '1.0.0' }, { capabilities: {} });
  const transport =
    process.env.FIXTURE_MODE === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [fileURLToPath(new URL('./stdio-stand-in.mjs', import.meta.url))],
          env: { ...process.env },
        })
      : new StreamableHTTPClientTransport(new URL(URL_));
  await client.connect(transport, { timeout: 5_000 });
  try {
    await client.callTool({ name: 'system_api_key_status', arguments: {} });
  } catch {
    // A test that swallows the failure still fails: the check counts it for the file.
  } finally {
    await client.close();
  }
});
