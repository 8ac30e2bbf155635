// A short session over stdio with the official SDK client, printed as a transcript
// (scripts/transcript.sh starts the stand-ins and gives the calls; "$ID" in a call is the
// data_access_id the last staging returned).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const env = { PATH: process.env.PATH, HOME: process.env.HOME, ENTREZ_DATA_DIR: process.env.DATA_DIR,
  EUTILS_BASE_URL: process.env.EUTILS_BASE_URL, PUBCHEM_BASE_URL: process.env.PUBCHEM_BASE_URL,
  PMC_IDCONV_URL: process.env.PMC_IDCONV_URL, ENTREZ_CACHE: 'off' };
const transport = new StdioClientTransport({ command: process.env.BIN, args: ['stdio'], env });
const client = new Client({ name: 'transcript', version: '1.0.0' }, { capabilities: {} });
await client.connect(transport);
const v = client.getServerVersion();
console.log(`# connected: ${v.name} ${v.version}`);
const tools = (await client.listTools()).tools.map((t) => t.name);
console.log(`# tools/list: ${tools.join(', ')}`);
const calls = JSON.parse(process.env.CALLS);
let lastId = '';
for (const c0 of calls) {
  const c = JSON.parse(JSON.stringify(c0).replaceAll('$ID', lastId));
  console.log(`\n> ${c.name} ${JSON.stringify(c.arguments)}`);
  const r = await client.callTool(c, undefined, { timeout: 120000 });
  const text = r.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  console.log(text);
  if (c.name === 'entrez_data' && r.structuredContent?.data_access_id) lastId = r.structuredContent.data_access_id;
  if (process.env.SC) console.log('SC ' + JSON.stringify(r.structuredContent));
}
await client.close();
