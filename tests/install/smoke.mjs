// A server's first words, with the official SDK client: initialize, then tools/list.
//   node tests/install/smoke.mjs stdio COMMAND [ARGS...]
//   node tests/install/smoke.mjs http URL
// SMOKE_ENV (a JSON object) adds variables to the stdio server's environment; with
// SMOKE_NO_KEY set, system_api_key_status must say that no NCBI key is in effect.
// Prints the listed tool names, one a line; exits non-zero if anything fails.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, target, ...args] = process.argv.slice(2);
const transport = mode === 'http'
  ? new StreamableHTTPClientTransport(new URL(target))
  : new StdioClientTransport({ command: target, args, env: { PATH: process.env.PATH, HOME: process.env.HOME, ENTREZ_DATA_DIR: ':memory:', ...JSON.parse(process.env.SMOKE_ENV || '{}') } });
const client = new Client({ name: 'entrez-mcp-install-check', version: '1.0.0' }, { capabilities: {} });
try {
  await client.connect(transport, { timeout: 30_000 });
  const { tools } = await client.listTools();
  if (!tools.length) throw new Error('tools/list is empty');
  console.log(tools.map((t) => t.name).join('\n'));
  if (process.env.SMOKE_NO_KEY) {
    // Empty settings must read as unset: no key is in effect.
    const status = await client.callTool({ name: 'system_api_key_status', arguments: {} });
    if (status.structuredContent?.api_key_configured !== false && !/not configured/.test(status.content[0].text)) {
      throw new Error(`an empty NCBI_API_KEY was taken for a key: ${status.content[0].text}`);
    }
  }
  await client.close();
} catch (e) {
  console.error(`smoke ${mode} ${target}: ${e.message}`);
  process.exit(1);
}
