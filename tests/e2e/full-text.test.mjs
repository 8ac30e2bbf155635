// Full text and PMC's Cloud Service through a running edge (#55), with the MCP TypeScript SDK
// as the client: a PMID, a PMCID and a DOI come back as sectioned text from the cloud
// stand-in, a `sections` filter keeps only what was asked, a budget cut names the parts left
// out and the call for them, an article without open full text answers its abstract and
// why, and oa_service answers from the Cloud Service.
// Run: E2E_URL=http://127.0.0.1:PORT/mcp node --test tests/e2e/full-text.test.mjs
//
// Expected values are read here from the fixtures the stand-ins serve
// (tests/fixtures/external/pmc/cloud/, tests/fixtures/ncbi/eutils/), not from the server.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDGE, URL_UNDER_TEST } from './helpers.mjs';

const fixture = (path) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');
const JATS = fixture('external/pmc/cloud/PMC3531190.xml');
const CLOUD = JSON.parse(fixture('external/pmc/cloud/articles.json')).versions;
const PUBMED1 = fixture('ncbi/eutils/pubmed1.xml');

const plain = (xml) => xml.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
const texts = (xml, tag) => [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => plain(m[1]));
const between = (xml, from, to) => xml.slice(xml.indexOf(from), xml.indexOf(to, xml.indexOf(from)));

describe(`full text from PMC's Cloud Service [${EDGE}]`, { skip: !URL_UNDER_TEST && 'E2E_URL is not set' }, () => {
  let client;
  const call = async (args) => {
    const r = await client.callTool({ name: 'entrez_external', arguments: { service: 'pmc', ...args } }, undefined, { timeout: 120_000 });
    assert.equal(r.isError, false, `${JSON.stringify(args)} → ${JSON.stringify(r.structuredContent)}`);
    return [r.structuredContent, r.content[0].text];
  };

  before(async () => {
    client = new Client({ name: 'entrez-mcp-e2e-full-text', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(URL_UNDER_TEST)), { timeout: 15_000 });
  });

  after(async () => {
    if (client) await client.close();
  });

  test('a PMID, a PMCID and a DOI come back as sectioned full text from the cloud', async () => {
    const headings = texts(between(JATS, '<body>', '</body>'), 'title').filter((t) => t !== 'Illustrative hazard ratios');
    const [r, text] = await call({ operation: 'full_text', ids: ['23193287', 'PMC5334499', '10.1093/nar/gks1195'] });
    assert.equal(r.count, 3);
    for (const a of r.articles) {
      assert.equal(a.source, 'pmc_cloud', JSON.stringify(a).slice(0, 300));
      assert.equal(a.full_text, true);
      assert.ok(a.license);
    }
    assert.deepEqual(r.articles[0].sections.map((s) => s.heading), headings);
    assert.equal(r.articles[2].pmcid, 'PMC3531190');
    assert.equal(r.articles[1].pmcid, 'PMC5334499');
    assert.equal(r.articles[1].retracted, CLOUD.find((v) => v.pmcid === 'PMC5334499').is_retracted);
    const newest = CLOUD.filter((v) => v.pmcid === 'PMC3531190').at(-1);
    assert.equal(r.articles[0].version, newest.version);
    assert.equal(r.articles[0].license, newest.license_code);
    assert.match(text, new RegExp(`## ${headings[1]} > ${headings[2]}`));
  });

  test('sections ["methods"] returns only those, and a budget cut names the rest and the call', async () => {
    const methods = texts(between(JATS, 'sec-type="materials|methods"', '</sec>'), 'title')[0];
    const [r] = await call({ operation: 'full_text', ids: ['PMC3531190'], sections: ['methods'] });
    const paths = r.articles[0].sections.map((s) => s.path);
    assert.ok(paths.length > 0);
    assert.ok(paths.every((p) => p.startsWith(methods)), JSON.stringify(paths));
    const [cut, text] = await call({ operation: 'full_text', ids: ['PMC3531190'], max_characters: 2000 });
    const a = cut.articles[0];
    assert.equal(a.cut, true);
    assert.ok(a.parts_left_out.length > 0);
    assert.deepEqual(a.next_call.arguments.ids, ['PMC3531190']);
    assert.ok(text.length <= 2000);
  });

  test('an article without open full text answers its abstract and says why', async () => {
    const article = PUBMED1.split('<PubmedArticle>').find((x) => x.includes('<PMID Version="1">9997</PMID>'));
    const [r] = await call({ operation: 'full_text', ids: ['9997'] });
    const a = r.articles[0];
    assert.equal(a.full_text, false);
    assert.equal(a.source, 'pubmed_abstract');
    assert.equal(a.abstract, texts(article, 'AbstractText')[0]);
    assert.match(a.reason, /not in PMC/);
  });

  test('oa_service answers from the Cloud Service', async () => {
    const versions = CLOUD.filter((v) => v.pmcid === 'PMC3531190');
    const [r] = await call({ operation: 'oa_service', ids: ['PMC3531190'] });
    assert.equal(r.source, 'pmc_cloud');
    assert.deepEqual(r.records[0].versions, versions.map((v) => v.version));
    const key = versions.at(-1).xml_url.replace('s3://pmc-oa-opendata/', '');
    assert.equal(r.records[0].links[0].href, `https://pmc-oa-opendata.s3.amazonaws.com/${key}`);
  });
});
