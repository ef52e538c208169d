// CORS on the edge worker (edge-worker/cors.js), on real workerd over HTTP.
// Default: reads (GET, and egress, a POST that changes nothing) open to any
// origin; writes only from the worker's own origin, from no browser (no
// Origin header), or from an origin FRESHET_CORS_ORIGINS lists. A refused
// write is 403 ORIGIN_NOT_ALLOWED with nothing applied, and its preflight
// offers read methods only.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { startEdgeWorker } from '../../edge-worker/local.mjs';
import { assertError, ndjsonReader } from './support.mjs';

const SQL = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;';
const ALLOWED = 'https://dash.example.com';
const OTHER = 'https://elsewhere.example.org';

const workers = [];
const folders = [];
async function start(vars) {
  const persistDir = mkdtempSync(join(tmpdir(), 'freshet-cors-'));
  folders.push(persistDir);
  const worker = await startEdgeWorker({ persistDir, vars });
  workers.push(worker);
  return worker;
}

let worker;
before(async () => {
  worker = await start({ FRESHET_CORS_ORIGINS: `${ALLOWED}, http://localhost:5173` });
  assert.equal((await call(worker, 'PUT', 'p', null, { program_code: SQL })).status, 201);
});
after(async () => {
  for (const w of workers) await w.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function call(on, method, path, origin, body, headers = {}) {
  const response = await fetch(`${on.url}/v0/pipelines${path ? `/${path}` : ''}`, {
    method, headers: { ...(origin ? { origin } : {}), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

const rowCount = async (on) => (await call(on, 'GET', `p/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c FROM v')}`)).body[0].c;

test('a write from an origin that is not allowed is 403 ORIGIN_NOT_ALLOWED, and nothing is applied', async () => {
  const before = await rowCount(worker);
  for (const [method, path, body] of [['POST', 'p/ingress/t?update_format=raw', [{ id: 1 }]], ['PUT', 'q', { program_code: SQL }],
    ['POST', '', { name: 'q', program_code: SQL }], ['PATCH', 'p', { description: 'x' }], ['DELETE', 'p'],
    ['POST', 'p/pause'], ['POST', 'p/step'], ['POST', 'p/checkpoint']]) {
    const answer = await call(worker, method, path, OTHER, body);
    assertError(answer, 403, 'ORIGIN_NOT_ALLOWED', /from origin 'https:\/\/elsewhere\.example\.org' is refused.*FRESHET_CORS_ORIGINS/);
    // The page may read why: the answer carries CORS headers.
    assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  }
  assertError(await call(worker, 'PUT', 'q', 'null', { program_code: SQL }), 403, 'ORIGIN_NOT_ALLOWED');
  assert.equal((await call(worker, 'GET', 'q')).status, 404);
  assert.equal((await call(worker, 'GET', 'p')).body.state, 'running');
  assert.equal(await rowCount(worker), before);
});

test('reads stay open to any origin: GET and egress', async () => {
  const answer = await call(worker, 'GET', 'p/stats', OTHER);
  assert.equal(answer.status, 200);
  assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  const egress = await fetch(`${worker.url}/v0/pipelines/p/egress/v?send_snapshot=true`, { method: 'POST', headers: { origin: OTHER } });
  assert.equal(egress.status, 200);
  assert.equal(egress.headers.get('access-control-allow-origin'), '*');
  const reader = ndjsonReader(egress);
  assert.equal((await reader.next()).snapshot, true);
  await reader.cancel();
});

test('writes from an allowed origin, the same origin, or no browser are accepted; an allowed origin is echoed', async () => {
  const before = await rowCount(worker);
  const allowed = await call(worker, 'POST', 'p/ingress/t?update_format=raw', ALLOWED, [{ id: 100 }]);
  assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
  assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED);
  assert.match(allowed.headers.get('vary'), /Origin/);
  const same = await call(worker, 'POST', 'p/ingress/t?update_format=raw', worker.url, [{ id: 101 }]);
  assert.equal(same.status, 200, JSON.stringify(same.body));
  assert.equal(same.headers.get('access-control-allow-origin'), worker.url);
  const none = await call(worker, 'POST', 'p/ingress/t?update_format=raw', null, [{ id: 102 }]);
  assert.equal(none.status, 200);
  assert.equal((await call(worker, 'POST', 'p/step', 'http://localhost:5173')).status, 200);
  assert.equal(await rowCount(worker), before + 3);
});

test('preflights: write methods only for an allowed origin; POST on an egress path for any', async () => {
  const preflight = async (path, origin, method) => {
    const response = await fetch(`${worker.url}/v0/pipelines/${path}`, {
      method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization' },
    });
    await response.arrayBuffer();
    return { status: response.status, origin: response.headers.get('access-control-allow-origin'),
             methods: response.headers.get('access-control-allow-methods').split(/,\s*/), headers: response.headers.get('access-control-allow-headers') };
  };
  const other = await preflight('p', OTHER, 'PUT');
  assert.equal(other.status, 204);
  assert.equal(other.origin, '*');
  assert.deepEqual(other.methods, ['GET', 'HEAD', 'OPTIONS']);
  assert.ok(!(await preflight('p/ingress/t', OTHER, 'POST')).methods.includes('POST'));
  assert.ok((await preflight('p/egress/v', OTHER, 'POST')).methods.includes('POST'));
  const allowed = await preflight('p', ALLOWED, 'PUT');
  assert.equal(allowed.origin, ALLOWED);
  for (const method of ['PUT', 'POST', 'PATCH', 'DELETE']) assert.ok(allowed.methods.includes(method), method);
  assert.match(allowed.headers, /authorization/);
});

test("FRESHET_CORS_ORIGINS='*' lets any origin write", async () => {
  const open = await start({ FRESHET_CORS_ORIGINS: '*' });
  const created = await call(open, 'PUT', 'p', OTHER, { program_code: SQL });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.headers.get('access-control-allow-origin'), OTHER);
});
