// Every example tool call the docs show (a ```json block holding {"name": TOOL, "arguments":
// {...}} in docs/src, the README or CHANGELOG.md) is accepted by `validate` on the edge under
// test: a call the server would refuse fails here, so the docs cannot drift from the tools.
// Calls that name a data_access_id are checked at the syntax level (the dataset they name
// is an example, not one this caller staged); every other call at the default, semantic,
// level. A `validate` call is sent as itself and must not be an error. scripts/docs.py
// checks the same blocks offline (they parse, the tools and parameters exist).
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/docs-examples.test.mjs

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, callerKeyHeaders } from './helpers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Every example tool call in the docs, with where it is. */
export function docExamples() {
  const files = [...markdownFiles(join(ROOT, 'docs/src')), join(ROOT, 'README.md'), join(ROOT, 'CHANGELOG.md')];
  const calls = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^```json[^\n]*\n([\s\S]*?)^```/gm)) {
      let value;
      try {
        value = JSON.parse(m[1]);
      } catch {
        continue; // scripts/docs.py fails on a block that does not parse
      }
      if (value && typeof value === 'object' && 'name' in value && 'arguments' in value) {
        const line = text.slice(0, m.index).split('\n').length;
        calls.push({ where: `${relative(ROOT, file)}:${line}`, name: value.name, arguments: value.arguments });
      }
    }
  }
  return calls;
}

describe(`the docs' example calls [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  const examples = docExamples();

  before(async () => {
    const requestInit = { headers: callerKeyHeaders('docs-examples') };
    const transport = new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST), { requestInit });
    client = new Client({ name: 'entrez-mcp-docs-examples', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport, { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('the docs show an example call of every tool', async () => {
    const { tools } = await client.listTools();
    const shown = new Set(examples.map((e) => e.name));
    for (const tool of tools) assert.ok(shown.has(tool.name), `no example call of ${tool.name} in the docs`);
  });

  test('validate accepts every example call', async () => {
    const refused = [];
    for (const ex of examples) {
      let result;
      if (ex.name === 'validate') {
        result = await client.callTool({ name: 'validate', arguments: ex.arguments }, undefined, { timeout: 30_000 });
        if (result.isError) refused.push(`${ex.where}: validate refused the call itself: ${JSON.stringify(result.structuredContent)}`);
        continue;
      }
      const level = 'data_access_id' in ex.arguments ? 'syntax' : 'semantic';
      result = await client.callTool(
        { name: 'validate', arguments: { tool: ex.name, arguments: ex.arguments, level } },
        undefined,
        { timeout: 30_000 },
      );
      const report = result.structuredContent;
      if (result.isError || !report?.valid) {
        refused.push(`${ex.where}: ${ex.name} ${JSON.stringify(ex.arguments)} → ${JSON.stringify(report?.errors ?? report)}`);
      }
    }
    assert.deepEqual(refused, [], `example calls the server refuses:\n${refused.join('\n')}`);
    assert.ok(examples.length >= 7, `only ${examples.length} example calls found`);
  });
});
