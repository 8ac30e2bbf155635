// 2026-07-28 requests for the restart suite: stateless, declaring the tasks extension, under
// one caller key (which owns the dataset, from before the restart and after it).

const EXTENSION = 'io.modelcontextprotocol/tasks';
export const CALLER_KEY = 'e2e-restart-caller-key';

export async function modern(url, method, params, name) {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION]: {} } },
      },
    },
  };
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      'Mcp-Name': name,
      'X-NCBI-API-Key': CALLER_KEY,
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return res.json();
}

/** The PMIDs the suite stages: a range of the replay's synthetic ones, its own. */
export const IDS = Array.from({ length: 1000 }, (_, i) => String(90_040_001 + i));
