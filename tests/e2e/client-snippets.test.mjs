// Every client configuration the docs give (docs/src/clients.md and the README: Claude
// Desktop, Claude Code's .mcp.json, Cursor, VS Code), tried as the client would read it, with
// the official SDK client: a stdio entry starts the native binary with the entry's `args` and
// `env` (its placeholders — the binary's path, `your-key`, `${input:…}` — replaced by the
// built binary, the replay and nothing); an HTTP entry connects to the edge under test in
// place of `https://<your-worker>…/mcp`. Each must list every tool and answer a search.
// Entries that run something else (`npx mcp-remote`, which npm would fetch) are named and
// left out. Runs in the defaults suite: E2E_URL (the edge), E2E_BIN (the native binary,
// default target/debug/entrez-mcp), E2E_REPLAY (the NCBI replay, for stdio entries).

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = process.env.E2E_BIN || join(ROOT, 'target/debug/entrez-mcp');
const REPLAY = process.env.E2E_REPLAY || '';

/** Every server entry of every client configuration block, with where it is. */
function entries() {
  const out = [];
  for (const file of ['docs/src/clients.md', 'README.md']) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/^```json[^\n]*\n([\s\S]*?)^```/gm)) {
      let value;
      try {
        value = JSON.parse(m[1]);
      } catch {
        continue;
      }
      const servers = value?.mcpServers || value?.servers;
      if (!servers) continue;
      const line = text.slice(0, m.index).split('\n').length;
      for (const [name, entry] of Object.entries(servers)) out.push({ where: `${file}:${line} ${name}`, entry });
    }
  }
  return out;
}

async function tryClient(transport) {
  const client = new Client({ name: 'entrez-mcp-client-snippets', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport, { timeout: 30_000 });
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const want of ['entrez_query', 'entrez_external', 'validate']) assert.ok(names.includes(want), `${want} is listed`);
    const r = await client.callTool({ name: 'entrez_query', arguments: { operation: 'search', term: 'biopython' } }, undefined, { timeout: 60_000 });
    assert.equal(r.isError, false, JSON.stringify(r.structuredContent));
    return names.length;
  } finally {
    await client.close();
  }
}

describe(`the docs' client configurations [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  const all = entries();

  test('the docs give stdio and HTTP entries for several clients', () => {
    assert.ok(all.filter((e) => e.entry.command).length >= 4, 'stdio entries');
    assert.ok(all.filter((e) => e.entry.url).length >= 3, 'HTTP entries');
  });

  for (const { where, entry } of all) {
    if (entry.command && !/entrez-mcp$/.test(entry.command)) {
      test(`${where}: runs ${entry.command}, not the server (left out)`, () => {});
      continue;
    }
    test(`${where}`, async () => {
      if (entry.url) {
        assert.match(entry.url, /^https:\/\/<your-worker>[^/]*\/mcp$/, 'an HTTP entry names the /mcp URL');
        assert.ok(!entry.type || entry.type === 'http', `type ${entry.type}`);
        await tryClient(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)));
        return;
      }
      assert.ok(existsSync(BIN), `${BIN} is built`);
      assert.ok(!entry.type || entry.type === 'stdio', `type ${entry.type}`);
      assert.deepEqual(entry.args, ['stdio'], 'the entry starts the stdio transport');
      // The entry's variables as a client would set them, placeholders left out, plus the
      // replay in place of NCBI and datasets in memory.
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, ENTREZ_DATA_DIR: ':memory:' };
      for (const [k, v] of Object.entries(entry.env || {})) if (!/\$\{|your-key/.test(v)) env[k] = v;
      if (REPLAY) env.EUTILS_BASE_URL = `${REPLAY}/entrez/eutils/`;
      await tryClient(new StdioClientTransport({ command: BIN, args: entry.args, env }));
    });
  }
});
