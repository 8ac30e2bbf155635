"""The official Python MCP client (mcp 2.x) through its OAuth flow, against an edge in oauth mode.

Usage: oauth_client.py URL
The stand-in authorization server approves at once, so the "browser" is one GET whose 302
carries the code, state and iss back. The client discovers the Protected Resource Metadata
from the 401, the authorization server's metadata, registers itself, runs PKCE with the
resource parameter, gets a token and retries; then calls system_api_key_status. Prints one
JSON object: the era it ended in and whom the server took it for.
"""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider, TokenStorage
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata


class MemoryStorage(TokenStorage):
    """Tokens and the registration, for this run only."""

    def __init__(self):
        self.tokens = None
        self.client_info = None

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


async def run(url: str) -> dict:
    callback = {}

    async def redirect_handler(authorize_url: str) -> None:
        async with httpx2.AsyncClient() as http:
            answer = await http.get(authorize_url, follow_redirects=False)
        if answer.status_code != 302:
            raise RuntimeError(f"authorization endpoint answered {answer.status_code}: {answer.text}")
        query = parse_qs(urlparse(answer.headers["location"]).query)
        callback.update(
            code=query["code"][0],
            state=query.get("state", [None])[0],
            iss=query.get("iss", [None])[0],
        )

    async def callback_handler() -> AuthorizationCodeResult:
        return AuthorizationCodeResult(**callback)

    provider = OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(
            client_name="entrez-mcp e2e (python)",
            redirect_uris=["http://127.0.0.1:53682/callback"],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage=MemoryStorage(),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    async with httpx2.AsyncClient(auth=provider, timeout=60) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            status = await client.call_tool("system_api_key_status", {})
            caller = (status.structured_content or {}).get("caller", {})
            return {
                "protocol_version": client.protocol_version,
                "identity": caller.get("identity"),
                "authenticated": caller.get("authenticated"),
                "is_error": status.is_error,
            }


def main() -> int:
    report = asyncio.run(run(sys.argv[1]))
    print(json.dumps(report))
    return 0 if report["authenticated"] and not report["is_error"] else 1


if __name__ == "__main__":
    sys.exit(main())
