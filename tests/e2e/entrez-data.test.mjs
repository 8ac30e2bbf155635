// entrez_data through a running edge, with the MCP TypeScript SDK as the client:
// natively that is rusqlite, on the Worker one SQLite Durable Object per dataset.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/entrez-data.test.mjs
//
// Upstream is the NCBI replay server (synthetic PMIDs 90000001.. and the search term
// replay-synthetic[all]). Every call goes through Client.callTool, which checks
// structuredContent against the tool's outputSchema. The SQL corpora are the same
// files the Rust tests run on the native store, so both backends refuse and allow
// exactly the same statements. Expiry is the lifetime suite's (tests/e2e/lifetime), on
// servers whose lifetime is short enough to wait out.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST, listAllTools } from './helpers.mjs';

const corpus = (file, key) =>
  JSON.parse(readFileSync(new URL(`../fixtures/sql/${file}.json`, import.meta.url)))[key];
const REFUSED_CODES = ['sql_not_read_only', 'sql_multiple_statements', 'sql_not_a_query'];
const synthetic = (from, n) => Array.from({ length: n }, (_, i) => String(from + i));

describe(`entrez_data [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;

  const connect = async () => {
    const c = new Client({ name: 'entrez-mcp-e2e-data', version: '1.0.0' }, { capabilities: {} });
    await c.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
    return c;
  };
  const call = (args, options = {}, c = client) =>
    c.callTool({ name: 'entrez_data', arguments: args }, undefined, { timeout: 120_000, ...options });
  const ok = async (args, options, c) => {
    const r = await call(args, options, c);
    assert.equal(r.isError, false, `${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent;
  };
  const fail = async (args, c) => {
    const r = await call(args, {}, c);
    assert.equal(r.isError, true, `${JSON.stringify(args)} should fail`);
    return r.structuredContent.error;
  };
  const sql = (id, q, extra = {}) => ok({ operation: 'query', data_access_id: id, sql: q, ...extra });

  before(async () => {
    client = await connect();
    const tools = await listAllTools(client);
    assert.ok(tools.some((t) => t.name === 'entrez_data'), `${EDGE} does not list entrez_data`);
  });

  after(async () => {
    if (client) await client.close();
  });

  test('staged rows equal what entrez_query parses from the same records', async () => {
    const ids = synthetic(90_000_001, 12);
    // Everything entrez_query parses (detail full), in one result (the largest budget).
    const fetched = await client.callTool(
      {
        name: 'entrez_query',
        arguments: { operation: 'fetch', database: 'pubmed', ids, detail: 'full', max_characters: 200_000 },
      },
      undefined,
      { timeout: 60_000 },
    );
    assert.equal(fetched.isError, false, JSON.stringify(fetched.structuredContent));
    const records = fetched.structuredContent.records;
    assert.equal(records.length, 12);

    const staged = await call({ operation: 'fetch_and_stage', database: 'pubmed', ids: [...ids, ids[0]] });
    assert.equal(staged.isError, false, JSON.stringify(staged.structuredContent));
    const st = staged.structuredContent;
    assert.equal(st.status, 'complete');
    assert.equal(st.layout, 'pubmed');
    assert.equal(st.records, 12, 'a repeated id is staged once');
    assert.match(st.data_access_id, /^[0-9a-f]{32}$/);
    const link = staged.content.find((c) => c.type === 'resource_link');
    assert.equal(link?.uri, `entrez-dataset://${st.data_access_id}/schema`);
    // The link resolves: resources/read serves the dataset's schema, and resources/list shows it.
    const read = await client.readResource({ uri: link.uri });
    const described = JSON.parse(read.contents[0].text);
    assert.equal(read.contents[0].mimeType, 'application/json');
    assert.equal(described.data_access_id, st.data_access_id);
    assert.equal(described.tables[0].name, 'article');
    assert.equal(described.tables[0].row_count, 12);
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === link.uri), JSON.stringify(resources));
    await assert.rejects(
      client.readResource({ uri: 'entrez-dataset://0123456789abcdef0123456789abcdef/schema' }),
      (e) => e.code === -32002,
    );

    const rows = await sql(
      st.data_access_id,
      'SELECT a.pmid, a.title, a.year, (SELECT COUNT(*) FROM author WHERE pmid = a.pmid), (SELECT COUNT(*) FROM mesh WHERE pmid = a.pmid AND qualifier_position <= 1) FROM article a ORDER BY a.pmid',
    );
    assert.equal(rows.row_count, 12);
    assert.equal(rows.total, 12);
    for (const rec of records) {
      const row = rows.rows.find((x) => String(x[0]) === String(rec.pmid));
      assert.ok(row, `pmid ${rec.pmid} staged`);
      assert.equal(row[1], rec.title, `title of ${rec.pmid}`);
      assert.equal(row[2], rec.year ?? null, `year of ${rec.pmid}`);
      assert.equal(row[3], rec.authors.length, `authors of ${rec.pmid}`);
      assert.equal(row[4], rec.mesh.length, `MeSH headings of ${rec.pmid}`);
    }
  });

  test('the dataset templates are listed and completed with the caller\'s own ids only', async () => {
    const SCHEMA = 'entrez-dataset://{data_access_id}/schema';
    const EXPORT = 'entrez-dataset://{data_access_id}/export/{file}{?page}';
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), [SCHEMA, EXPORT]);
    const st = await ok({ operation: 'fetch_and_stage', database: 'pubmed', ids: synthetic(90_000_101, 2) });
    const complete = (c, uri, name, value) =>
      c.complete({ ref: { type: 'ref/resource', uri }, argument: { name, value } });
    const mine = await complete(client, SCHEMA, 'data_access_id', st.data_access_id.slice(0, 8));
    assert.deepEqual(mine.completion.values, [st.data_access_id]);
    // Another session owns no dataset: nothing to offer it.
    const stranger = await connect();
    try {
      const theirs = await complete(stranger, SCHEMA, 'data_access_id', st.data_access_id.slice(0, 8));
      assert.deepEqual(theirs.completion.values, []);
    } finally {
      await stranger.close();
    }
    await assert.rejects(complete(client, EXPORT, 'file', ''), (e) => e.code === -32602);
  });

  test('a search is staged in batches with progress, and every example query runs', async () => {
    const progress = [];
    const st = await ok(
      { operation: 'fetch_and_stage', database: 'pubmed', term: 'replay-synthetic[all]', max_records: 600 },
      { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true },
    );
    assert.equal(st.status, 'complete');
    assert.equal(st.records, 600);
    assert.ok(progress.length >= 2, `progress per batch, got ${JSON.stringify(progress)}`);
    assert.ok(progress.every((p, i) => i === 0 || p.progress > progress[i - 1].progress));

    const schema = await ok({ operation: 'schema', data_access_id: st.data_access_id });
    assert.equal(schema.tables[0].name, 'article');
    assert.deepEqual(schema.tables[0].primary_key, ['pmid']);
    assert.equal(schema.tables[0].row_count, 600);
    assert.ok(schema.tables.some((t) => t.name === 'author' && t.indexes.length > 0), 'indexes after staging');
    assert.equal(schema.example_queries.length, 3);
    for (const e of schema.example_queries) {
      const r = await sql(st.data_access_id, e.sql);
      assert.ok(r.columns.length > 0, e.sql);
    }
    const page = await sql(st.data_access_id, 'SELECT pmid FROM article ORDER BY pmid', { limit: 1000 });
    assert.equal(page.row_count, 600);
    assert.equal(page.rows[0][0], 90000001);
    const capped = await sql(st.data_access_id, 'SELECT pmid FROM article');
    assert.equal(capped.row_count, 100);
    assert.equal(capped.total, 600);
    assert.equal(capped.truncated, true);
  });

  test('10,000 records stage through this edge, and articles join to authors and MeSH', { timeout: 600_000 }, async () => {
    const started = Date.now();
    const st = await ok(
      { operation: 'fetch_and_stage', database: 'pubmed', term: 'replay-synthetic[all]', max_records: 10000 },
      { timeout: 600_000, resetTimeoutOnProgress: true, onprogress: () => {} },
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(`# ${EDGE}: staged ${st.records} records in ${seconds.toFixed(1)} s`);
    assert.equal(st.status, 'complete');
    assert.equal(st.records, 10000);
    const id = st.data_access_id;
    const counts = await sql(
      id,
      'SELECT (SELECT COUNT(*) FROM article), (SELECT COUNT(*) FROM author), ' +
        '(SELECT COUNT(*) FROM author au JOIN article ar ON ar.pmid = au.pmid), ' +
        '(SELECT COUNT(*) FROM mesh), (SELECT COUNT(*) FROM mesh m JOIN article ar ON ar.pmid = m.pmid)',
    );
    const [articles, authors, authorsJoined, mesh, meshJoined] = counts.rows[0];
    assert.equal(articles, 10000);
    assert.ok(authors > articles, `authors ${authors}`);
    assert.equal(authorsJoined, authors, 'every author row joins its article');
    assert.ok(mesh > articles, `mesh ${mesh}`);
    assert.equal(meshJoined, mesh, 'every MeSH row joins its article');
    const top = await sql(
      id,
      'SELECT m.descriptor, COUNT(DISTINCT ar.pmid) AS n, MIN(ar.year) FROM mesh m ' +
        'JOIN article ar ON ar.pmid = m.pmid JOIN author au ON au.pmid = ar.pmid AND au.position = 1 ' +
        'WHERE m.major = 1 GROUP BY m.descriptor ORDER BY n DESC LIMIT 5',
    );
    assert.ok(top.row_count > 0 && top.rows[0][1] > 1, JSON.stringify(top.rows));
    const listed = await ok({ operation: 'list_datasets' });
    const entry = listed.datasets.find((d) => d.data_access_id === id);
    assert.equal(entry.records, 10000);
    assert.ok(entry.bytes > 10_000_000, `bytes ${entry.bytes}`);
    await ok({ operation: 'drop_dataset', data_access_id: id });
  });

  test('the hostile-SQL corpus is refused by SQLite and changes nothing', async () => {
    const st = await ok({ operation: 'fetch_and_stage', database: 'pubmed', ids: synthetic(90_010_001, 5) });
    const id = st.data_access_id;
    const census =
      "SELECT (SELECT COUNT(*) FROM article), (SELECT COUNT(*) FROM author), (SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table')";
    const before = await sql(id, census);
    for (const q of corpus('hostile', 'refused')) {
      const e = await fail({ operation: 'query', data_access_id: id, sql: q });
      assert.ok(REFUSED_CODES.includes(e.code), `${q}: ${JSON.stringify(e)}`);
      assert.ok(e.suggestions.length > 0, q);
    }
    const insert = await fail({ operation: 'query', data_access_id: id, sql: "INSERT INTO article (pmid, kind, title) VALUES (1, 'a', 'b')" });
    assert.match(insert.message, /INSERT into article/);
    const after = await sql(id, census);
    assert.deepEqual(after.rows, before.rows);
    assert.equal(after.rows[0][0], 5);
    for (const q of corpus('legitimate', 'allowed')) {
      const r = await sql(id, q);
      assert.ok(r.columns.length > 0, q);
    }
    const named = await sql(id, 'SELECT pmid AS created_at, year AS last_update, 0 AS deleted FROM article');
    assert.deepEqual(named.columns, ['created_at', 'last_update', 'deleted']);
    const missing = await fail({ operation: 'query', data_access_id: id, sql: 'SELECT titel FROM article' });
    assert.equal(missing.code, 'sql_error');
    assert.match(missing.message, /no such column: titel.*Did you mean "title"/);
    // validate compiles the SQL against the same dataset, without running it.
    const checked = await client.callTool({
      name: 'validate',
      arguments: { tool: 'entrez_data', arguments: { operation: 'query', data_access_id: id, sql: 'SELECT titel FROM article' } },
    });
    assert.equal(checked.structuredContent.valid, false);
    assert.equal(checked.structuredContent.details.errors[0].code, 'sql_error');
    assert.equal(checked.structuredContent.details.errors[0].path, '$.sql');
    const fine = await client.callTool({
      name: 'validate',
      arguments: { tool: 'entrez_data', arguments: { operation: 'query', data_access_id: id, sql: 'SELECT pmid, title FROM article' } },
    });
    assert.equal(fine.structuredContent.valid, true, JSON.stringify(fine.structuredContent));
    const writes = await client.callTool({
      name: 'validate',
      arguments: { tool: 'entrez_data', arguments: { operation: 'query', data_access_id: id, sql: 'DELETE FROM article' } },
    });
    assert.equal(writes.structuredContent.details.errors[0].code, 'sql_not_read_only');
  });

  test('two datasets stage concurrently, list, belong to their session, and drop', async () => {
    const [a, b] = await Promise.all([
      ok({ operation: 'fetch_and_stage', database: 'pubmed', ids: synthetic(90_020_001, 40) }),
      ok({ operation: 'fetch_and_stage', database: 'pubmed', ids: synthetic(90_030_001, 30) }),
    ]);
    assert.notEqual(a.data_access_id, b.data_access_id);
    assert.equal(a.records, 40);
    assert.equal(b.records, 30);
    const countA = await sql(a.data_access_id, 'SELECT COUNT(*) FROM article WHERE pmid BETWEEN 90020001 AND 90020040');
    assert.equal(countA.rows[0][0], 40);
    const countB = await sql(b.data_access_id, 'SELECT COUNT(*) FROM article WHERE pmid BETWEEN 90020001 AND 90020040');
    assert.equal(countB.rows[0][0], 0, 'datasets do not share tables');

    const list = await ok({ operation: 'list_datasets' });
    assert.equal(list.owner_scope, 'session');
    const listed = list.datasets.map((d) => d.data_access_id);
    assert.ok(listed.includes(a.data_access_id) && listed.includes(b.data_access_id), JSON.stringify(listed));
    const entry = list.datasets.find((d) => d.data_access_id === a.data_access_id);
    assert.equal(entry.status, 'complete');
    assert.equal(entry.records, 40);
    assert.ok(entry.bytes > 0);

    // Another session sees neither dataset, and cannot query or drop one.
    const other = await connect();
    try {
      const theirs = await ok({ operation: 'list_datasets' }, {}, other);
      assert.ok(!theirs.datasets.some((d) => listed.includes(d.data_access_id)));
      const e = await fail({ operation: 'query', data_access_id: a.data_access_id, sql: 'SELECT 1' }, other);
      assert.equal(e.code, 'dataset_not_found');
      const d = await fail({ operation: 'drop_dataset', data_access_id: a.data_access_id }, other);
      assert.equal(d.code, 'dataset_not_found');
    } finally {
      await other.close();
    }

    const dropped = await ok({ operation: 'drop_dataset', data_access_id: a.data_access_id });
    assert.equal(dropped.dropped, true);
    const gone = await fail({ operation: 'query', data_access_id: a.data_access_id, sql: 'SELECT 1' });
    assert.equal(gone.code, 'dataset_not_found');
    const after = await ok({ operation: 'list_datasets' });
    assert.ok(!after.datasets.some((d) => d.data_access_id === a.data_access_id));
    assert.ok(after.datasets.some((d) => d.data_access_id === b.data_access_id));
    const guessed = await fail({ operation: 'schema', data_access_id: '0123456789abcdef0123456789abcdef' });
    assert.equal(guessed.code, 'dataset_not_found');
  });
});
