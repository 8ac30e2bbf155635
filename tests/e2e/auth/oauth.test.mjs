// An edge configured as an OAuth 2.1 resource server (MCP_AUTH_MODE=oauth), against the
// stand-in authorization server (authorization-server.mjs) on 127.0.0.1.
//
//   E2E_OAUTH_URL  the edge's MCP endpoint, equal to its MCP_AUTH_RESOURCE
//   E2E_AS         the authorization server's issuer URL
//   E2E_EDGE       native or worker
//   E2E_PYTHON     a Python with mcp 2.x (optional: its OAuth flow runs when set)
//
// What the MCP authorization specification asks of a resource server, over the wire: 401 with
// a challenge that points at the Protected Resource Metadata, the metadata itself, tokens
// checked for signature, issuer, audience and time, 403 insufficient_scope naming the scopes,
// opaque tokens through introspection; and the official clients completing their flows.

import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as Unauthorized1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider as ClientCredentials1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2, UnauthorizedError as Unauthorized2 } from '@modelcontextprotocol/client';
import { initializeBody, post, request } from '../helpers.mjs';
import { SERVICE_CLIENT } from './authorization-server.mjs';

const URL_ = process.env.E2E_OAUTH_URL || '';
const AS = process.env.E2E_AS || '';
const EDGE = process.env.E2E_EDGE || 'edge';
const PYTHON = process.env.E2E_PYTHON || '';
const ORIGIN = URL_ && new URL(URL_).origin;
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));
const now = () => Math.floor(Date.now() / 1000);

/** A token from the stand-in's test hook: any claims, any key. */
async function mint(spec = {}) {
  const claims = { aud: URL_, ...spec.claims };
  const res = await post(`${AS}/test/mint`, { ...spec, claims });
  assert.equal(res.status, 200, res.text);
  return res.json.token;
}
const auth = (token) => ({ Authorization: `Bearer ${token}` });

/** Where the challenge sends a client, and the challenge's parameters. */
function challenge(res) {
  const h = res.headers.get('www-authenticate') || '';
  assert.match(h, /^Bearer /, `WWW-Authenticate: ${h}`);
  const params = {};
  for (const m of h.slice(7).matchAll(/(\w+)="([^"]*)"/g)) params[m[1]] = m[2];
  return params;
}

/** A client of the 2025 line holding one token. */
async function connect1(token) {
  const c = new Client1({ name: 'e2e-oauth', version: '1.0.0' }, { capabilities: {} });
  await c.connect(new Transport1(new URL(URL_), { requestInit: { headers: auth(token) } }), { timeout: 15_000 });
  return c;
}
const data = (c, args) => c.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 120_000 });

/** The interactive client of the SDKs' examples, with the browser replaced by one GET. */
class HeadlessProvider {
  constructor() {
    this.redirect = 'http://127.0.0.1:53682/callback'; // never listened on: the code is read from the 302
  }
  get redirectUrl() { return this.redirect; }
  get clientMetadata() {
    return { client_name: 'entrez-mcp e2e', redirect_uris: [this.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state() { return (this.s ??= crypto.randomUUID()); }
  clientInformation() { return this.info; }
  saveClientInformation(i) { this.info = i; }
  tokens() { return this.saved; }
  saveTokens(t) { this.saved = t; }
  codeVerifier() { return this.verifier; }
  saveCodeVerifier(v) { this.verifier = v; }
  discoveryState() { return this.discovery; }
  saveDiscoveryState(d) { this.discovery = d; }
  async redirectToAuthorization(url) {
    const res = await fetch(url, { redirect: 'manual' });
    assert.equal(res.status, 302, `the authorization endpoint answered ${res.status}: ${await res.text()}`);
    this.callback = new URL(res.headers.get('location')).searchParams;
  }
}

describe(`oauth resource server [${EDGE}]`, { skip: (!URL_ || !AS) && 'E2E_OAUTH_URL and E2E_AS are not set' }, () => {
  before(async () => {
    const meta = await request(`${AS}/.well-known/oauth-authorization-server`);
    assert.equal(meta.status, 200, 'the stand-in authorization server is up');
  });

  test('no token: 401 whose challenge points at the metadata, and the metadata names the issuer and scopes', async () => {
    for (const body of [initializeBody(1, '2025-11-25'), { jsonrpc: '2.0', id: 2, method: 'server/discover', params: {} }]) {
      const res = await post(URL_, body);
      assert.equal(res.status, 401, res.text);
      const c = challenge(res);
      assert.equal(c.resource_metadata, `${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
      assert.equal(c.scope, 'entrez.read');
      assert.equal(c.error, undefined, 'no error code when no token came');
    }
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const prm = await request(`${ORIGIN}${path}`);
      assert.equal(prm.status, 200, `${path}: ${prm.text}`);
      assert.equal(prm.json.resource, URL_);
      assert.deepEqual(prm.json.authorization_servers, [AS]);
      assert.deepEqual(prm.json.scopes_supported, ['entrez.read', 'entrez.data']);
      assert.deepEqual(prm.json.bearer_methods_supported, ['header']);
    }
  });

  test('RS256 and ES256 tokens for this resource are served and name their subject', async () => {
    for (const alg of ['RS256', 'ES256']) {
      const c = await connect1(await mint({ alg, claims: { scope: 'entrez.read' } }));
      const r = await c.callTool({ name: 'system_api_key_status', arguments: {} });
      assert.equal(r.isError, false);
      assert.equal(r.structuredContent.caller.authenticated, true, alg);
      assert.equal(r.structuredContent.caller.identity, 'researcher-1');
      assert.equal(r.structuredContent.caller.auth_mode, 'oauth');
      assert.deepEqual(r.structuredContent.caller.scopes, ['entrez.read']);
      await c.close();
    }
  });

  test('expired, early, foreign-audience, foreign-issuer, badly signed and unsigned tokens: 401 invalid_token', async () => {
    const cases = {
      expired: await mint({ claims: { exp: now() - 600, iat: now() - 900, nbf: now() - 900 } }),
      'not yet valid': await mint({ claims: { nbf: now() + 900 } }),
      'another audience': await mint({ claims: { aud: 'http://127.0.0.1:1/mcp' } }),
      'no audience': await mint({ claims: { aud: null } }),
      'another issuer': await mint({ claims: { iss: 'http://127.0.0.1:2' } }),
      'a key the issuer does not publish': await mint({ key: 'rogue' }),
      'an unknown key id': await mint({ kid: 'rs9' }),
      'alg none': `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: AS, aud: URL_, sub: 'x', exp: now() + 300 })).toString('base64url')}.`,
    };
    const good = await mint();
    const [h, , s] = good.split('.');
    cases['a changed payload'] = `${h}.${Buffer.from(JSON.stringify({ iss: AS, aud: URL_, sub: 'admin', scope: 'entrez.read entrez.data', exp: now() + 300 })).toString('base64url')}.${s}`;
    for (const [label, token] of Object.entries(cases)) {
      const res = await post(URL_, initializeBody(1, '2025-11-25'), auth(token));
      assert.equal(res.status, 401, `${label}: ${res.status} ${res.text}`);
      const c = challenge(res);
      assert.equal(c.error, 'invalid_token', label);
      assert.equal(c.resource_metadata, `${ORIGIN}/.well-known/oauth-protected-resource/mcp`, label);
      assert.ok(!res.text.includes(token) && !(res.headers.get('www-authenticate') || '').includes(token), `${label}: the token is never echoed`);
    }
    const twoWords = await post(URL_, initializeBody(), { Authorization: 'Bearer two words' });
    assert.equal(twoWords.status, 400);
  });

  test('a token without the data scope reads but may not stage: 403 insufficient_scope naming every scope needed', async () => {
    const readOnly = await mint({ claims: { scope: 'entrez.read' } });
    const open = await post(URL_, initializeBody(1, '2025-11-25'), auth(readOnly));
    assert.equal(open.status, 200, open.text);
    const headers = { ...auth(readOnly), 'Mcp-Session-Id': open.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
    const call = (args, id) => post(URL_, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'entrez_data', arguments: args } }, headers);
    const listed = await call({ operation: 'list_datasets' }, 2);
    assert.equal(listed.status, 200, listed.text);
    const staged = await call({ operation: 'fetch_and_stage', database: 'pubmed', ids: ['90096001'] }, 3);
    assert.equal(staged.status, 403, staged.text);
    const c = challenge(staged);
    assert.equal(c.error, 'insufficient_scope');
    assert.equal(c.scope, 'entrez.read entrez.data');
    // The tool reads an operation's name leniently; so does the scope check.
    for (const sly of [{ operation: 'FETCH_AND_STAGE', ids: ['90096001'] }, { Operation: ' drop_dataset ', data_access_id: '0'.repeat(32) }]) {
      assert.equal((await call(sly, 4)).status, 403, JSON.stringify(sly));
    }
    // A token with neither scope is refused everything.
    const none = await mint({ claims: { scope: 'profile' } });
    const refused = await post(URL_, initializeBody(1, '2025-11-25'), auth(none));
    assert.equal(refused.status, 403, refused.text);
    assert.equal(challenge(refused).scope, 'entrez.read');
  });

  test('an identity owns its datasets from any session and era; another identity sees none of them', async () => {
    const full = { scope: 'entrez.read entrez.data' };
    const first = await connect1(await mint({ claims: { ...full, sub: `owner-${EDGE}` } }));
    const staged = await data(first, { operation: 'fetch_and_stage', database: 'pubmed', ids: synthetic(90_096_101, 3) });
    assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
    const id = staged.structuredContent.data_access_id;
    await first.close();

    // Another session of the same subject, with a new token: the dataset is there.
    const again = await connect1(await mint({ claims: { ...full, sub: `owner-${EDGE}` } }));
    const listed = await data(again, { operation: 'list_datasets' });
    assert.equal(listed.structuredContent.owner_scope, 'identity');
    assert.ok(listed.structuredContent.datasets.some((d) => d.data_access_id === id), JSON.stringify(listed.structuredContent));
    await again.close();

    // The 2026-07-28 era, stateless: the same subject still owns it.
    const token = await mint({ claims: { ...full, sub: `owner-${EDGE}` } });
    const modern = new Client2({ name: 'e2e-oauth-modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new Transport2(new URL(URL_), { authProvider: { token: async () => token } }));
    assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    const q = await modern.callTool({ name: 'entrez_data', arguments: { operation: 'query', data_access_id: id, sql: 'SELECT count(*) AS n FROM article' } });
    assert.equal(q.isError ?? false, false, JSON.stringify(q.structuredContent));
    assert.deepEqual(q.structuredContent.rows, [[3]]);
    await modern.close();

    // Someone else: not listed, not readable by its id.
    const other = await connect1(await mint({ claims: { ...full, sub: `stranger-${EDGE}` } }));
    const theirs = await data(other, { operation: 'list_datasets' });
    assert.ok(!theirs.structuredContent.datasets.some((d) => d.data_access_id === id));
    const peek = await data(other, { operation: 'query', data_access_id: id, sql: 'SELECT count(*) FROM article' });
    assert.equal(peek.isError, true, 'a stranger cannot read the dataset');
    const drop = await data(other, { operation: 'drop_dataset', data_access_id: id });
    assert.equal(drop.isError, true, 'nor drop it');
    await other.close();
  });

  test('a session is bound to its caller: another identity presenting it is refused', async () => {
    const a = await mint({ claims: { sub: `alice-${EDGE}` } });
    const open = await post(URL_, initializeBody(1, '2025-11-25'), auth(a));
    const headers = { 'Mcp-Session-Id': open.headers.get('mcp-session-id'), 'MCP-Protocol-Version': '2025-11-25' };
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    assert.equal((await post(URL_, list, { ...headers, ...auth(a) })).status, 200);
    const b = await mint({ claims: { sub: `bob-${EDGE}` } });
    assert.equal((await post(URL_, list, { ...headers, ...auth(b) })).status, 404);
    assert.equal((await post(URL_, list, headers)).status, 401, 'a session id is no credential');
  });

  test('opaque tokens are judged by introspection', async () => {
    const opaque = await mint({ opaque: true, claims: { scope: 'entrez.read', client_id: 'x' } });
    const c = await connect1(opaque);
    const r = await c.callTool({ name: 'system_api_key_status', arguments: {} });
    assert.equal(r.structuredContent.caller.identity, 'researcher-1');
    await c.close();
    const unknown = await post(URL_, initializeBody(1, '2025-11-25'), auth('notAJwtAndUnknownToTheIntrospectionEndpoint'));
    assert.equal(unknown.status, 401);
    assert.equal(challenge(unknown).error, 'invalid_token');
    const foreign = await mint({ opaque: true, claims: { aud: 'http://127.0.0.1:1/mcp' } });
    assert.equal((await post(URL_, initializeBody(1, '2025-11-25'), auth(foreign))).status, 401, 'an active token for another resource');
  });

  test('the TypeScript SDK 1.x completes the authorization-code flow (discovery, registration, PKCE, resource) and calls a tool', async () => {
    const provider = new HeadlessProvider();
    const transport = new Transport1(new URL(URL_), { authProvider: provider });
    const client = new Client1({ name: 'e2e-oauth-sdk1', version: '1.0.0' }, { capabilities: {} });
    await assert.rejects(client.connect(transport), (e) => e instanceof Unauthorized1, 'the first connect ends in the redirect');
    assert.ok(provider.callback?.get('code'), 'the authorization endpoint gave a code');
    await transport.finishAuth(provider.callback.get('code'));
    const authed = new Client1({ name: 'e2e-oauth-sdk1', version: '1.0.0' }, { capabilities: {} });
    await authed.connect(new Transport1(new URL(URL_), { authProvider: provider }));
    const r = await authed.callTool({ name: 'system_api_key_status', arguments: {} });
    assert.equal(r.structuredContent.caller.identity, 'researcher-1');
    assert.equal(r.structuredContent.caller.authenticated, true);
    await authed.close();
    const log = (await request(`${AS}/test/log`)).json;
    const mine = log.authorizations.filter((a) => a.client_id === provider.info.client_id);
    assert.ok(mine.length > 0 && mine.every((a) => a.resource === URL_ && !a.problem), JSON.stringify(mine));
  });

  test('the 2026 client (@modelcontextprotocol/client 2.x) completes the flow, checks iss, and ends in 2026-07-28', async () => {
    const provider = new HeadlessProvider();
    const options = { versionNegotiation: { mode: 'auto' } };
    const transport = new Transport2(new URL(URL_), { authProvider: provider });
    await assert.rejects(new Client2({ name: 'e2e-oauth-sdk2', version: '1.0.0' }, options).connect(transport), (e) => e instanceof Unauthorized2);
    await transport.finishAuth(provider.callback);
    const client = new Client2({ name: 'e2e-oauth-sdk2', version: '1.0.0' }, options);
    await client.connect(new Transport2(new URL(URL_), { authProvider: provider }));
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const r = await client.callTool({ name: 'entrez_data', arguments: { operation: 'list_datasets' } });
    assert.equal(r.isError ?? false, false, JSON.stringify(r.structuredContent));
    assert.equal(r.structuredContent.owner_scope, 'identity');
    await client.close();
  });

  test('a service with client credentials (the SDK\'s ClientCredentialsProvider) gets a token for this resource and is its own identity', async () => {
    const provider = new ClientCredentials1({ clientId: SERVICE_CLIENT.id, clientSecret: SERVICE_CLIENT.secret, expectedIssuer: AS, scope: 'entrez.read' });
    const client = new Client1({ name: 'e2e-oauth-service', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new Transport1(new URL(URL_), { authProvider: provider }));
    const r = await client.callTool({ name: 'system_api_key_status', arguments: {} });
    assert.equal(r.structuredContent.caller.identity, `service:${SERVICE_CLIENT.id}`);
    await client.close();
  });

  test('the Python mcp client completes its OAuth flow and calls a tool', { skip: !PYTHON && 'E2E_PYTHON is not set' }, async () => {
    const script = new URL('../python/oauth_client.py', import.meta.url).pathname;
    const out = await new Promise((resolve, reject) => {
      const child = spawn(PYTHON, [script, URL_], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`python exited ${code}: ${stderr.slice(-2000)}`))));
    });
    const result = JSON.parse(out.trim().split('\n').pop());
    assert.equal(result.protocol_version, '2026-07-28');
    assert.equal(result.identity, 'researcher-1');
    assert.equal(result.authenticated, true);
  });
});
