// A stand-in OAuth 2.1 authorization server for the authorization suites, on 127.0.0.1 only.
//
//   node tests/e2e/auth/authorization-server.mjs [--port N]
//
// Prints `listening on http://127.0.0.1:PORT` first; that URL is the issuer. It serves what
// an MCP client and the MCP server (as resource server) need from a real one:
//   GET  /.well-known/oauth-authorization-server   RFC 8414 metadata (no offline_access)
//   POST /register                                 RFC 7591 dynamic registration (public clients)
//   GET  /authorize                                auto-approves: 302 to redirect_uri with code, state, iss
//   POST /token                                    authorization_code (PKCE S256, resource bound),
//                                                  client_credentials (Basic), refresh_token (rotated)
//   GET  /jwks                                     RS256 key rs1 and ES256 key es1
//   POST /introspect                               RFC 7662, for the opaque tokens it issues
// and, for the tests only:
//   POST /test/mint   {claims, alg, kid, key, opaque}  a token with any claims: key "rogue" signs
//                     with a key the JWK Set does not hold; opaque gives an introspectable handle
//   GET  /test/log    what it saw: authorization requests (their resource), token grants, JWKS fetches
//
// Access tokens are JWTs with typ at+jwt, aud the `resource` the client asked for, sub the
// user (or the client, for client_credentials), scope what was asked ∩ what is supported.

import http from 'node:http';
import crypto from 'node:crypto';

const SCOPES = ['entrez.read', 'entrez.data'];
/** A confidential client for client_credentials, and the resource server's introspection login. */
export const SERVICE_CLIENT = { id: 'e2e-service', secret: 'e2e-service-secret-0123456789' };
export const INTROSPECTION_CLIENT = { id: 'entrez-mcp', secret: 'introspection-secret-0123456789' };
const USER = 'researcher-1';
const TOKEN_SECONDS = 300;

const b64u = (buf) => Buffer.from(buf).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

function keys() {
  const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rogue = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = (pair, kid, alg) => ({ ...pair.publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' });
  return {
    rs1: { alg: 'RS256', pair: rsa },
    es1: { alg: 'ES256', pair: ec },
    rogue: { alg: 'RS256', pair: rogue },
    jwks: { keys: [jwk(rsa, 'rs1', 'RS256'), jwk(ec, 'es1', 'ES256')] },
  };
}

function sign(keyring, { alg = 'RS256', kid, key, typ = 'at+jwt', header = {} }, claims) {
  const k = key === 'rogue' ? keyring.rogue : alg === 'ES256' ? keyring.es1 : keyring.rs1;
  const head = { alg, kid: kid ?? (key === 'rogue' ? 'rs1' : alg === 'ES256' ? 'es1' : 'rs1'), typ, ...header };
  const input = `${b64u(JSON.stringify(head))}.${b64u(JSON.stringify(claims))}`;
  const sig =
    k.alg === 'ES256'
      ? crypto.sign('sha256', Buffer.from(input), { key: k.pair.privateKey, dsaEncoding: 'ieee-p1363' })
      : crypto.sign('sha256', Buffer.from(input), k.pair.privateKey);
  return `${input}.${b64u(sig)}`;
}

async function body(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res, status, value, headers = {}) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': typeof value === 'string' ? 'text/plain' : 'application/json',
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Starts the server; resolves to { issuer, close }. */
export function startAuthorizationServer({ port = 0 } = {}) {
  const keyring = keys();
  const clients = new Map([[SERVICE_CLIENT.id, { client_id: SERVICE_CLIENT.id, secret: SERVICE_CLIENT.secret }]]);
  const codes = new Map(); // code → {client_id, redirect_uri, challenge, resource, scope}
  const refresh = new Map(); // refresh token → {client_id, resource, scope, sub}
  const opaque = new Map(); // opaque token → claims
  const log = { authorizations: [], grants: [], jwks_fetches: 0, introspections: 0 };
  let issuer = '';

  const grantScope = (asked) => {
    const want = String(asked || SCOPES.join(' ')).split(/\s+/).filter(Boolean);
    return want.filter((s) => SCOPES.includes(s)).join(' ');
  };
  const accessToken = (sub, client_id, resource, scope) =>
    sign(keyring, {}, {
      iss: issuer,
      sub,
      aud: resource,
      client_id,
      scope,
      iat: now(),
      nbf: now(),
      exp: now() + TOKEN_SECONDS,
      jti: crypto.randomUUID(),
    });
  const tokenAnswer = (res, sub, client_id, resource, scope, withRefresh) => {
    const answer = { access_token: accessToken(sub, client_id, resource, scope), token_type: 'Bearer', expires_in: TOKEN_SECONDS, scope };
    if (withRefresh) {
      const r = b64u(crypto.randomBytes(24));
      refresh.set(r, { client_id, resource, scope, sub });
      answer.refresh_token = r;
    }
    log.grants.push({ sub, client_id, resource, scope });
    send(res, 200, answer);
  };
  const basic = (req) => {
    const h = req.headers.authorization || '';
    if (!h.startsWith('Basic ')) return null;
    const [id, secret] = Buffer.from(h.slice(6), 'base64').toString().split(':');
    return { id: decodeURIComponent(id), secret: decodeURIComponent(secret ?? '') };
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, issuer);
      const route = `${req.method} ${url.pathname}`;
      if (route === 'GET /.well-known/oauth-authorization-server') {
        return send(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          jwks_uri: `${issuer}/jwks`,
          introspection_endpoint: `${issuer}/introspect`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          scopes_supported: SCOPES,
          authorization_response_iss_parameter_supported: true,
        });
      }
      if (route === 'GET /jwks') {
        log.jwks_fetches++;
        return send(res, 200, keyring.jwks, { 'Cache-Control': 'max-age=300' });
      }
      if (route === 'POST /register') {
        const meta = JSON.parse((await body(req)) || '{}');
        if (!Array.isArray(meta.redirect_uris) || meta.redirect_uris.length === 0) {
          return send(res, 400, { error: 'invalid_redirect_uri' });
        }
        const client = { ...meta, client_id: `dyn-${crypto.randomUUID()}`, client_id_issued_at: now(), token_endpoint_auth_method: 'none' };
        clients.set(client.client_id, client);
        return send(res, 201, client);
      }
      if (route === 'GET /authorize') {
        const q = url.searchParams;
        const client = clients.get(q.get('client_id'));
        const problem =
          q.get('response_type') !== 'code' ? 'unsupported_response_type'
          : !client ? 'unauthorized_client'
          : !(client.redirect_uris || []).includes(q.get('redirect_uri')) ? 'invalid_request'
          : !q.get('code_challenge') || q.get('code_challenge_method') !== 'S256' ? 'invalid_request'
          : !q.get('resource') ? 'invalid_target'
          : null;
        log.authorizations.push({ client_id: q.get('client_id'), resource: q.get('resource'), scope: q.get('scope'), problem });
        if (problem) return send(res, 400, { error: problem });
        const code = b64u(crypto.randomBytes(24));
        codes.set(code, {
          client_id: client.client_id,
          redirect_uri: q.get('redirect_uri'),
          challenge: q.get('code_challenge'),
          resource: q.get('resource'),
          scope: grantScope(q.get('scope')),
        });
        const back = new URL(q.get('redirect_uri'));
        back.searchParams.set('code', code);
        if (q.get('state') !== null) back.searchParams.set('state', q.get('state'));
        back.searchParams.set('iss', issuer);
        res.writeHead(302, { Location: back.toString() });
        return res.end();
      }
      if (route === 'POST /token') {
        const f = new URLSearchParams(await body(req));
        const grant = f.get('grant_type');
        if (grant === 'authorization_code') {
          const c = codes.get(f.get('code'));
          codes.delete(f.get('code'));
          if (!c) return send(res, 400, { error: 'invalid_grant', error_description: 'unknown or used code' });
          const verifier = f.get('code_verifier') || '';
          const challenge = b64u(crypto.createHash('sha256').update(verifier).digest());
          if (challenge !== c.challenge) return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE' });
          if (f.get('redirect_uri') !== c.redirect_uri) return send(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri' });
          if ((f.get('resource') || c.resource) !== c.resource) return send(res, 400, { error: 'invalid_target' });
          return tokenAnswer(res, USER, c.client_id, c.resource, c.scope, true);
        }
        if (grant === 'client_credentials') {
          const who = basic(req) || { id: f.get('client_id'), secret: f.get('client_secret') };
          const client = clients.get(who.id);
          if (!client || client.secret !== who.secret) return send(res, 401, { error: 'invalid_client' });
          if (!f.get('resource')) return send(res, 400, { error: 'invalid_target', error_description: 'resource is required' });
          return tokenAnswer(res, `service:${who.id}`, who.id, f.get('resource'), grantScope(f.get('scope')), false);
        }
        if (grant === 'refresh_token') {
          const r = refresh.get(f.get('refresh_token'));
          refresh.delete(f.get('refresh_token'));
          if (!r) return send(res, 400, { error: 'invalid_grant' });
          return tokenAnswer(res, r.sub, r.client_id, f.get('resource') || r.resource, r.scope, true);
        }
        return send(res, 400, { error: 'unsupported_grant_type' });
      }
      if (route === 'POST /introspect') {
        log.introspections++;
        const who = basic(req);
        if (!who || who.id !== INTROSPECTION_CLIENT.id || who.secret !== INTROSPECTION_CLIENT.secret) {
          return send(res, 401, { error: 'invalid_client' });
        }
        const claims = opaque.get(new URLSearchParams(await body(req)).get('token'));
        return send(res, 200, claims ? { active: true, token_type: 'Bearer', ...claims } : { active: false });
      }
      if (route === 'POST /test/mint') {
        const spec = JSON.parse((await body(req)) || '{}');
        const claims = {
          iss: issuer,
          sub: USER,
          scope: SCOPES.join(' '),
          iat: now(),
          nbf: now(),
          exp: now() + TOKEN_SECONDS,
          jti: crypto.randomUUID(),
          ...spec.claims,
        };
        for (const [k, v] of Object.entries(claims)) if (v === null) delete claims[k];
        if (spec.opaque) {
          const handle = b64u(crypto.randomBytes(32));
          opaque.set(handle, claims);
          return send(res, 200, { token: handle });
        }
        return send(res, 200, { token: sign(keyring, spec, claims) });
      }
      if (route === 'GET /test/log') return send(res, 200, log);
      return send(res, 404, { error: 'not_found' });
    } catch (e) {
      return send(res, 500, { error: 'server_error', error_description: String(e) });
    }
  });

  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      issuer = `http://127.0.0.1:${server.address().port}`;
      resolve({ issuer, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--port');
  const { issuer } = await startAuthorizationServer({ port: i > 0 ? Number(process.argv[i + 1]) : 0 });
  console.log(`listening on ${issuer}`);
}
