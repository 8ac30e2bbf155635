// The TypeScript client of the 2026 SDK line (@modelcontextprotocol/client 2.x) with version
// negotiation 'auto': it probes server/discover and must end in 2026-07-28, not fall back to
// initialize. Its callTool validates structuredContent against each tool's outputSchema.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/modern-client.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

/** One call per tool that every edge answers from the replay servers. */
const CALLS = {
  entrez_capabilities: {},
  entrez_tool_info: { name: 'entrez_query' },
  system_api_key_status: {},
  validate: { tool: 'entrez_query', arguments: { operation: 'search', database: 'pubmed', term: 'asthma', retmax: '5' } },
  entrez_query: { operation: 'search', database: 'pubmed', term: 'asthma', retmax: 3 },
  entrez_external: { service: 'pubchem', operation: 'compound', namespace: 'name', identifier: 'aspirin' },
  entrez_data: { operation: 'list_datasets' },
};

describe(`modern client [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;

  before(async () => {
    client = new Client({ name: 'e2e-modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)));
  });

  after(async () => {
    await client?.close();
  });

  test('auto negotiation ends in 2026-07-28 with the discover result', () => {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const caps = client.getServerCapabilities();
    for (const key of ['tools', 'prompts', 'completions', 'logging']) assert.ok(caps[key], key);
    assert.ok(caps.experimental?.toolValidation, 'experimental.toolValidation in both eras');
    assert.equal(client.getServerVersion()?.name, 'entrez-mcp');
  });

  test('every tool answers with structured content that matches its outputSchema', async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 6, `${tools.length} tools`);
    for (const tool of tools) {
      const args = CALLS[tool.name];
      assert.ok(args, `a call for ${tool.name}`);
      const r = await client.callTool({ name: tool.name, arguments: args });
      assert.ok(r.structuredContent, `${tool.name} structuredContent`);
      assert.equal(r.isError ?? false, false, `${tool.name}: ${JSON.stringify(r.structuredContent).slice(0, 300)}`);
    }
  });

  test('prompts and completion work statelessly', async () => {
    const { prompts } = await client.listPrompts();
    assert.ok(prompts.some((p) => p.name === 'compound_profile'));
    const got = await client.getPrompt({ name: 'compound_profile', arguments: { compound: 'aspirin' } });
    assert.match(got.messages[0].content.text, /aspirin/);
    const done = await client.complete({ ref: { type: 'ref/prompt', name: 'fetch_records' }, argument: { name: 'database', value: 'nuc' } });
    assert.ok(done.completion.values.includes('nuccore'), JSON.stringify(done.completion.values));
  });
});
