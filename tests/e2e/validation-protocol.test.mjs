// The validation protocol's reference client, driven against a running edge.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/validation-protocol.test.mjs
//
// It reads `validate` exactly as the protocol's reference client (NCP's scheduler
// ToolValidator) does: the capability by dot path, then a call of the announced
// method with {tool, arguments}, then JSON.parse(result.content[0].text), `valid`,
// and errors.join(', '). Nothing here looks at structuredContent, so a server that
// only put its answer there would fail. The SDK client underneath still checks every
// structuredContent against validate's outputSchema.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

/** The reference client's capability check: a dot path into the server's capabilities. */
function hasCapability(capabilities, path) {
  let node = capabilities;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = node[key];
  }
  return node === true;
}

describe(`validation protocol reference client [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  let method;

  /** What the reference client does with one tool and its arguments. */
  async function validateTool(tool, args) {
    const result = await client.callTool({ name: method, arguments: { tool, arguments: args } }, undefined, {
      timeout: 30_000,
    });
    const data = JSON.parse(result.content[0].text);
    return { valid: data.valid, errors: data.errors.join(', '), warnings: data.warnings.join(', '), data };
  }

  before(async () => {
    client = new Client({ name: 'validation-reference-client', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('the capability is found by dot path and names the method', () => {
    const caps = client.getServerCapabilities();
    assert.equal(hasCapability(caps, 'experimental.toolValidation.supported'), true);
    method = caps.experimental.toolValidation.method || 'validate';
    assert.equal(method, 'validate');
  });

  test('a valid call reads as valid with nothing to join', async () => {
    const r = await validateTool('entrez_query', { operation: 'search', database: 'pubmed', term: 'asthma[mh]' });
    assert.equal(r.valid, true);
    assert.equal(r.errors, '');
    assert.equal(r.warnings, '');
  });

  test('an invalid call joins into specific, self-contained messages', async () => {
    const r = await validateTool('entrez_query', {
      operation: 'fetch',
      database: 'pubmd',
      ids: ['NP_000537.3'],
    });
    assert.equal(r.valid, false);
    assert.equal(r.errors, '[invalid_database] $.database: Invalid database "pubmd". Did you mean "pubmed"?');
    assert.doesNotMatch(r.errors, /\[object Object\]/);
    const dup = await validateTool('entrez_query', { operation: 'summary', ids: ['19304878', '19304878'] });
    assert.equal(dup.valid, true);
    assert.match(dup.warnings, /^\[duplicate_id\] \$\.ids\[1\]: /);
  });

  test('an unknown tool reads as invalid with a did-you-mean', async () => {
    const r = await validateTool('entrez_qurey', { operation: 'search', term: 'x' });
    assert.equal(r.valid, false);
    assert.equal(r.errors, '[unknown_tool] $.tool: Unknown tool "entrez_qurey". Did you mean "entrez_query"?');
    assert.ok(r.data.suggestions.every((s) => typeof s === 'string'));
  });

  test('a batch reads the same way, each line naming its call', async () => {
    const result = await client.callTool({
      name: method,
      arguments: {
        calls: [
          { tool: 'entrez_query', arguments: { operation: 'fetch', database: 'pmc', ids: ['PMC3531190'] } },
          { tool: 'entrez_query', arguments: { operation: 'fetch', database: 'pubmed', ids: ['NM_000546.6'] } },
          { tool: 'entrez_qurey', arguments: {} },
        ],
      },
    });
    const data = JSON.parse(result.content[0].text);
    assert.equal(data.valid, false);
    const joined = data.errors.join(', ');
    assert.match(joined, /^calls\[1\] \(entrez_query\): \[id_wrong_database\] \$\.ids\[0\]: /);
    assert.match(joined, /, calls\[2\] \(entrez_qurey\): \[unknown_tool\] \$\.tool: /);
    // Each entry of the batch has the protocol's shape too.
    assert.deepEqual(
      data.results.map((r) => [r.valid, r.errors.length, typeof (r.errors[0] ?? '')]),
      [
        [true, 0, 'string'],
        [false, 1, 'string'],
        [false, 1, 'string'],
      ],
    );
  });

  test('a malformed validate call is an error that still parses', async () => {
    const result = await client.callTool({ name: method, arguments: { level: 'semantic' } });
    assert.equal(result.isError, true);
    const data = JSON.parse(result.content[0].text);
    assert.equal(data.valid, false);
    assert.match(data.errors.join(', '), /^\[schema_one_of\] \$: /);
  });
});
