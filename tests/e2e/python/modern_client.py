"""The official Python MCP client (mcp 2.x, default mode="auto") against this server.

Usage: modern_client.py --http URL | --stdio BINARY
Connects with the client's defaults, which probe server/discover and fall back to
initialize only on a legacy server; prints one JSON object describing what happened
(the era it ended in, the tools, a validated call to every tool) and exits non-zero
if anything a 2026-07-28 client relies on is missing.
"""

import argparse
import asyncio
import json
import os
import sys

from mcp import Client, StdioServerParameters

CALLS = {
    "entrez_capabilities": {},
    "entrez_tool_info": {"tool": "entrez_query"},
    "system_api_key_status": {},
    "validate": {"tool": "entrez_query", "arguments": {"operation": "search", "database": "pubmed", "term": "asthma", "retmax": "5"}},
    "entrez_query": {"operation": "search", "database": "pubmed", "term": "asthma", "retmax": 3},
    "entrez_external": {"service": "pubchem", "operation": "compound", "namespace": "name", "identifier": "aspirin"},
    "entrez_data": {"operation": "list_datasets"},
}


async def run(target) -> dict:
    report = {"calls": {}}
    async with Client(target, log_level="info") as client:
        report["protocol_version"] = client.protocol_version
        report["server"] = client.server_info.name if client.server_info else None
        caps = client.server_capabilities
        report["capabilities"] = sorted(k for k, v in caps.model_dump(exclude_none=True).items())
        tools = await client.list_tools()
        report["tools"] = [t.name for t in tools.tools]
        for name in report["tools"]:
            result = await client.call_tool(name, CALLS.get(name, {}))
            report["calls"][name] = {
                "is_error": result.is_error,
                "structured": result.structured_content is not None,
            }
        prompts = await client.list_prompts()
        report["prompts"] = [p.name for p in prompts.prompts]
        got = await client.get_prompt("compound_profile", {"compound": "aspirin"})
        report["prompt_text"] = got.messages[0].content.text[:60]
    return report


def main() -> int:
    parser = argparse.ArgumentParser()
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--http")
    group.add_argument("--stdio")
    args = parser.parse_args()
    target = args.http if args.http else StdioServerParameters(command=args.stdio, args=["stdio"], env=dict(os.environ))
    report = asyncio.run(run(target))
    print(json.dumps(report))
    ok = report["protocol_version"] == "2026-07-28" and all(
        c["structured"] for c in report["calls"].values()
    ) and len(report["tools"]) >= 6
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
