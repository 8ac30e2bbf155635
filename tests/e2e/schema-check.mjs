// Every tool result an end-to-end suite receives is checked against its tool's output schema as
// schemas/ declares it (the source of truth, read here, not what the server lists), on whichever
// edge: results the SDK 1.x client returns (Client.callTool, stdio included) and every
// tools/call, tasks/get and tasks/result answered over HTTP through fetch (raw JSON-RPC suites
// and the 2026 client line, which the suites use over HTTP only). tools/list must list each tool's outputSchema exactly as schemas/ has it. A result that
// breaks its schema throws where the SDK returns it, and fails its test file at exit whichever
// way it came. helpers.mjs imports this module; scripts/test.sh also preloads it into every
// suite (node --import), so no suite goes unchecked. The Python clients are not covered here.

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
const SCHEMAS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'schemas');
const KEY = Symbol.for('entrez-mcp.e2e.schema-check');

/** The shared state of this process: the validators, what was checked, what broke. */
function state() {
  if (globalThis[KEY]) return globalThis[KEY];
  // ajv is loaded, and each schema compiled, on a tool's first result: a test file pays for
  // what it checks (loading it and compiling every schema cost about half a second a file).
  let ajv;
  const load = () => {
    if (ajv) return ajv;
    const Ajv2020 = require('ajv/dist/2020').default;
    const addFormats = require('ajv-formats').default;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    return ajv;
  };
  const schemas = new Map();
  for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.output.json'))) {
    const tool = file.slice(0, -'.output.json'.length);
    schemas.set(tool, JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')));
  }
  const compiled = new Map();
  const validator = (tool) => {
    if (!schemas.has(tool)) return null;
    if (!compiled.has(tool)) compiled.set(tool, load().compile(schemas.get(tool)));
    return compiled.get(tool);
  };
  const s = { schemas, validator, checked: 0, listed: 0, violations: [], taskTools: new Map(), pending: new Set() };
  globalThis[KEY] = s;
  return s;
}

function violation(where, message) {
  const text = `outputSchema check (${where}): ${message}`;
  state().violations.push(text);
  return text;
}

/** Whether a result is a task's creation (either revision), not yet the tool's result. */
const isTaskCreation = (result) =>
  result && !('content' in result) && (result.resultType === 'task' || typeof result.task?.taskId === 'string' || typeof result.taskId === 'string');

/**
 * What is wrong with one CallToolResult of tool `tool` against schemas/<tool>.output.json, or
 * null. A tool schemas/ does not declare (a typo's name, say) has nothing to check; a task's
 * creation is not its result. Records nothing (checkToolResult does).
 */
export function resultProblem(tool, result) {
  const s = state();
  if (!s.schemas.has(tool) || isTaskCreation(result)) return null;
  const validate = s.validator(tool);
  if (!result || typeof result !== 'object' || !Array.isArray(result.content)) {
    return `${tool}: not a CallToolResult: ${JSON.stringify(result)?.slice(0, 200)}`;
  }
  if (result.structuredContent === undefined || result.structuredContent === null) {
    return `${tool}: no structuredContent (isError ${result.isError})`;
  }
  if (!validate(result.structuredContent)) {
    // The deepest first: under anyOf, the branch that nearly matched says the most.
    const errors = [...validate.errors]
      .sort((a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length)
      .slice(0, 5)
      .map((e) => `${e.instancePath || '$'} ${e.message}`);
    return `${tool}: structuredContent breaks schemas/${tool}.output.json: ${errors.join('; ')}`;
  }
  // The server checks its own results first and answers a broken one with an internal error:
  // valid against the schema, and still a result that broke it.
  if (result.isError && /breaks its own outputSchema/.test(JSON.stringify(result.structuredContent))) {
    return `${tool}: the server found its own result broke the schema: ${JSON.stringify(result.structuredContent).slice(0, 300)}`;
  }
  return null;
}

/**
 * Checks one CallToolResult (resultProblem) and records a problem, so that the test file
 * fails at exit whatever the test does with the result. Returns the problem or null.
 */
export function checkToolResult(tool, result, where = 'tool result') {
  const s = state();
  if (s.schemas.has(tool) && !isTaskCreation(result)) s.checked += 1;
  const problem = resultProblem(tool, result);
  return problem ? violation(where, problem) : null;
}

/** Checks a tools/list page: each declared tool's outputSchema exactly as schemas/ has it. */
export function checkToolList(tools, where = 'tools/list') {
  const s = state();
  for (const tool of tools || []) {
    const schema = s.schemas.get(tool.name);
    if (!schema) continue;
    s.listed += 1;
    if (!isDeepStrictEqual(tool.outputSchema, schema)) {
      violation(where, `${tool.name}: the listed outputSchema is not schemas/${tool.name}.output.json`);
    }
  }
}

/** What was checked in this process so far, and what broke. */
export function schemaCheckReport() {
  const s = state();
  return { checked: s.checked, listed: s.listed, violations: [...s.violations] };
}

/** Waits for the HTTP answers still being read in the background (bounded). */
export async function schemaChecksSettled(ms = 5_000) {
  const s = state();
  await Promise.race([Promise.allSettled([...s.pending]), new Promise((r) => setTimeout(r, ms).unref())]);
}

// ---------------------------------------------------------------- the SDK clients

async function patchClient(specifier) {
  let mod;
  try {
    mod = await import(specifier);
  } catch {
    return; // not installed: nothing of it can run either
  }
  const proto = mod.Client?.prototype;
  if (!proto || typeof proto.callTool !== 'function' || Object.hasOwn(proto, KEY)) return;
  const original = proto.callTool;
  proto.callTool = async function callTool(params, ...rest) {
    const result = await original.call(this, params, ...rest);
    const problem = checkToolResult(params?.name, result, `${specifier} Client.callTool`);
    if (problem) throw new Error(problem);
    return result;
  };
  const listTools = proto.listTools;
  if (typeof listTools === 'function') {
    proto.listTools = async function (...args) {
      const res = await listTools.apply(this, args);
      checkToolList(res?.tools, `${specifier} Client.listTools`);
      return res;
    };
  }
  Object.defineProperty(proto, KEY, { value: true });
}

// ---------------------------------------------------------------- JSON-RPC over fetch

/** The JSON-RPC messages of a response body: JSON (one or a batch) or server-sent events. */
function messagesOf(text, contentType) {
  const out = [];
  const push = (raw) => {
    try {
      const v = JSON.parse(raw);
      out.push(...(Array.isArray(v) ? v : [v]));
    } catch {
      /* not JSON: not a result this check reads */
    }
  };
  if (/text\/event-stream/i.test(contentType || '')) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, ''));
      if (data.length) push(data.join('\n'));
    }
  } else if (text) {
    push(text);
  }
  return out;
}

function onAnswer(asked, message) {
  const s = state();
  const req = asked.get(JSON.stringify(message?.id));
  if (!req || !message.result) return;
  const { method, params } = req;
  const where = `HTTP ${method}`;
  if (method === 'tools/list') return checkToolList(message.result.tools, where);
  if (method === 'tools/call') {
    const result = message.result;
    const taskId = result.task?.taskId ?? result.taskId;
    if (isTaskCreation(result) && taskId) s.taskTools.set(taskId, params?.name);
    return checkToolResult(params?.name, result, where);
  }
  const tool = s.taskTools.get(params?.taskId);
  if (!tool) return;
  if (method === 'tasks/result') return checkToolResult(tool, message.result, where);
  // tasks/get: the 2026-07-28 extension carries a finished task's result inline.
  const inline = message.result.result ?? message.result.task?.result;
  if (method === 'tasks/get' && inline) checkToolResult(tool, inline, where);
}

const WATCHED = new Set(['tools/list', 'tools/call', 'tasks/get', 'tasks/result']);

function watch(init, res) {
  if (typeof init?.body !== 'string' || String(init.method || 'GET').toUpperCase() !== 'POST') return;
  let sent;
  try {
    sent = JSON.parse(init.body);
  } catch {
    return;
  }
  const asked = new Map();
  for (const m of Array.isArray(sent) ? sent : [sent]) {
    if (m && WATCHED.has(m.method) && m.id !== undefined) asked.set(JSON.stringify(m.id), m);
  }
  if (asked.size === 0 || !res.body) return;
  const copy = res.clone();
  const s = state();
  const reading = copy
    .text()
    .then((text) => {
      for (const m of messagesOf(text, copy.headers.get('content-type'))) onAnswer(asked, m);
    })
    .catch(() => {
      /* the caller cut the stream: what arrived is all there is to check */
    })
    .finally(() => s.pending.delete(reading));
  s.pending.add(reading);
}

function patchFetch() {
  if (globalThis.fetch?.[KEY]) return;
  const original = globalThis.fetch;
  const checked = async function fetch(input, init) {
    const res = await original(input, init);
    try {
      watch(init, res);
    } catch {
      /* a request this check cannot read is the test's business */
    }
    return res;
  };
  checked[KEY] = true;
  globalThis.fetch = checked;
}

// ---------------------------------------------------------------- installed once a process

if (!globalThis[KEY]) {
  state();
  patchFetch();
  await patchClient('@modelcontextprotocol/sdk/client/index.js');
  process.on('exit', () => {
    const { violations, checked } = globalThis[KEY];
    if (process.env.E2E_SCHEMA_CHECK_REPORT) {
      process.stderr.write(`outputSchema check: ${checked} result(s) checked, ${violations.length} broke\n`);
    }
    if (violations.length === 0) return;
    process.stderr.write(`${violations.length} result(s) broke their outputSchema:\n${violations.slice(0, 20).map((v) => `  ${v}`).join('\n')}\n`);
    process.exitCode = 1;
  });
}
