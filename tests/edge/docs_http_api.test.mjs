// docs/http-api.md is checked against the edge worker:
// - its route table lists exactly the router's routes (edge-worker/routes.js
//   ROUTES), each with a `### \`METHOD path\`` section;
// - each section's `parameter` table lists exactly the query parameters its
//   handler reads (PipelineObject in edge-worker/pipeline_object.js), and
//   the PUT section's `body field` table the fields definition.js accepts;
// - its error table lists every error code with the status the worker
//   answers it with (http_errors.js), and nothing else;
// - "A session" runs: each ```sh block against the real worker on workerd,
//   its output compared with the ```json block after it ("…" matches any
//   value); every other ```json block parses (one document, or one a line).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import '../js/compiled_wasm_hooks.mjs';
import { ERROR_CODES } from '../../wasm-bindings/js/node.js';
import { matches } from '../js/support.mjs';
import { edgeWorker } from './support.mjs';

// The router imports the package's workerd entry, which imports the .wasm as
// a compiled module: loaded after the hooks above are registered.
const { ROUTES } = await import('../../edge-worker/routes.js');
const { HTTP_ERROR_STATUS, HttpError } = await import('../../edge-worker/http_errors.js');

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT), 'utf8');
const PAGE = read('docs/http-api.md');
const LOCAL = 'http://127.0.0.1:8787';

/** The rows (arrays of cells) of every table whose header's first cell is `first`, by the h3 section above it. */
function tables(text, first) {
  const found = [];
  let section = null;
  let rows = null;
  for (const line of text.split('\n')) {
    const h3 = /^### `(.+)`$/.exec(line);
    if (h3) section = h3[1];
    else if (/^##? /.test(line)) section = null;
    if (!line.startsWith('|')) {
      rows = null;
      continue;
    }
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    if (cells[0] === first) found.push({ section, rows: (rows = []) });
    else if (rows && !/^-+$/.test(cells[0])) rows.push(cells);
  }
  return found;
}

const unquote = (cell) => /^`(.*)`$/.exec(cell)?.[1] ?? cell;

/** "METHOD /v0/pipelines/{p}/..." for each route of the router. */
function routerRoutes() {
  return ROUTES.flatMap(([pattern, methods]) => {
    const path = ['/v0/pipelines/{p}', ...pattern.map((part) => (part.startsWith(':') ? `{${part.slice(1)}}` : part))].join('/');
    return Object.keys(methods).map((method) => `${method} ${path}`);
  });
}

/** Handler name → the query parameters its method of PipelineObject reads. */
function handlerParameters() {
  const source = read('edge-worker/pipeline_object.js');
  const parameters = new Map();
  for (const [, methods] of ROUTES) {
    for (const handler of Object.values(methods)) {
      const start = source.search(new RegExp(`\\n  async ${handler}\\(`));
      assert.ok(start >= 0, `PipelineObject has no method ${handler}`);
      const end = source.indexOf('\n  }\n', start);
      const body = source.slice(start, end);
      const names = [...body.matchAll(/(?:oneOf|required)\(url, '(\w+)'|searchParams\.get\('(\w+)'\)/g)].map((m) => m[1] ?? m[2]);
      parameters.set(handler, new Set(names));
    }
  }
  return parameters;
}

test('the route table lists exactly the routes of the router, each with a section', () => {
  const [routeTable] = tables(PAGE, 'route');
  const documented = routeTable.rows.map((cells) => unquote(cells[0]));
  assert.deepEqual([...documented].sort(), routerRoutes().sort());
  const sections = new Set([...PAGE.matchAll(/^### `(.+)`$/gm)].map((m) => m[1]));
  for (const route of documented) assert.ok(sections.has(route), `no \`### \\\`${route}\\\`\` section`);
  for (const row of routeTable.rows) assert.match(row[2], /^(Feldera|Freshet)\b/, `'from' of ${row[0]}`);
});

test('each route documents exactly the query parameters its handler reads', () => {
  const byRoute = new Map(tables(PAGE, 'parameter').map(({ section, rows }) => [section, rows.map((cells) => unquote(cells[0]))]));
  const read = handlerParameters();
  for (const [pattern, methods] of ROUTES) {
    for (const [method, handler] of Object.entries(methods)) {
      const route = routerRoutes().find((r) => r.startsWith(`${method} `) && r.endsWith(pattern.length ? `/${pattern.map((p) => (p.startsWith(':') ? `{${p.slice(1)}}` : p)).join('/')}` : '{p}'));
      assert.deepEqual((byRoute.get(route) ?? []).sort(), [...read.get(handler)].sort(), `parameters of ${route}`);
    }
  }
});

test('the PUT body table lists exactly the fields a definition accepts', () => {
  const fields = /const FIELDS = new Set\(\[([^\]]*)\]\)/.exec(read('edge-worker/definition.js'));
  assert.ok(fields, 'definition.js declares FIELDS');
  const accepted = [...fields[1].matchAll(/'(\w+)'/g)].map((m) => m[1]).sort();
  const [body] = tables(PAGE, 'body field');
  assert.equal(body.section, 'PUT /v0/pipelines/{p}');
  assert.deepEqual(body.rows.map((cells) => unquote(cells[0])).sort(), accepted);
});

test('the error table lists every code with the status the worker answers', () => {
  const [errors] = tables(PAGE, 'status');
  const documented = errors.rows.map(([status, code]) => `${status} ${unquote(code)}`).sort();
  const codes = [...ERROR_CODES, ...Object.keys(HTTP_ERROR_STATUS)];
  assert.deepEqual(documented, codes.map((code) => `${new HttpError(code, '').status} ${code}`).sort());
});

/** [{ kind, text }] of the page's code blocks, in order. */
function blocks(text) {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ kind: m[1], text: m[2] }));
}

/** Parses a json block: one document, or one document a line. */
function parseJson(text) {
  try {
    return [JSON.parse(text)];
  } catch {
    return text.trim().split('\n').map((line) => JSON.parse(line));
  }
}

test('every json block of the page parses', () => {
  const json = blocks(PAGE).filter((b) => b.kind === 'json');
  assert.ok(json.length >= 5);
  for (const block of json) assert.doesNotThrow(() => parseJson(block.text), block.text);
  assert.deepEqual([...new Set(blocks(PAGE).map((b) => b.kind))].sort(), ['json', 'sh']);
});

let worker;
before(async () => {
  worker = await edgeWorker();
});
after(async () => {
  await worker?.stop();
});

test('the session runs as the page shows', () => {
  const session = PAGE.slice(PAGE.indexOf('\n## A session'));
  const list = blocks(session);
  assert.ok(list.length >= 8, 'the session has its blocks');
  // curl prints no newline after a JSON answer: add one, so each answer is a line.
  const prelude = 'curl() { command curl "$@"; echo; }\n';
  for (let i = 0; i < list.length; i += 2) {
    const [command, answer] = [list[i], list[i + 1]];
    assert.equal(command.kind, 'sh');
    assert.equal(answer?.kind, 'json', `the answer after:\n${command.text}`);
    const script = prelude + command.text.replaceAll(LOCAL, worker.url);
    const output = execFileSync('bash', ['-e', '-c', script], { encoding: 'utf8' });
    const got = output.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
    const want = parseJson(answer.text);
    assert.ok(matches(got, want), `${command.text}\ngave ${JSON.stringify(got)}\nthe page says ${JSON.stringify(want)}`);
  }
});
