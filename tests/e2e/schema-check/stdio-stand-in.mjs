// A stand-in MCP server over stdio for schema-check.test.mjs: answers initialize, and every
// tools/call with the result in FIXTURE_RESULT (JSON); nothing else.
import { createInterface } from 'node:readline';

const result = JSON.parse(process.env.FIXTURE_RESULT || '{}');
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  if (msg.id === undefined) continue;
  const answer =
    msg.method === 'initialize'
      ? { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stand-in', version: '0' } }
      : msg.method === 'tools/call'
        ? result
        : {};
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer })}\n`);
}
