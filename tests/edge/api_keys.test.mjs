// API keys on the edge worker, on real workerd over HTTP, as Feldera's
// clients send them: `Authorization: Bearer <key>` (python/feldera/rest/
// _httprequests.py, _headers_with_auth). Without a valid key every /v0 route
// but GET /v0/config answers 401 with Feldera's AuthenticationFailed
// (crates/pipeline-manager/src/auth.rs, create_authz_json_error: "Unauthorized
// API key"); the static dashboard and CORS preflights need no key.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { startEdgeWorker } from '../../edge-worker/local.mjs';

const KEYS = ['apikey:first-key', 'apikey:second-key'];
let worker, persistDir;
before(async () => {
  persistDir = mkdtempSync(join(tmpdir(), 'freshet-keys-'));
  worker = await startEdgeWorker({ persistDir, apiKey: KEYS.join(', ') });
});
after(async () => {
  await worker?.stop();
  rmSync(persistDir, { recursive: true, force: true });
});

async function call(method, path, key, body) {
  const response = await fetch(`${worker.url}${path}`, {
    method, headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

function assertUnauthorized(answer, message) {
  assert.equal(answer.status, 401, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error_code', 'message']);
  assert.equal(answer.body.error_code, 'AuthenticationFailed');
  assert.match(answer.body.message, message);
}

test('without a key, or with a wrong one, every route but GET /v0/config is 401 AuthenticationFailed', async () => {
  assert.equal((await call('GET', '/v0/config')).status, 200);
  for (const [method, path] of [['GET', '/v0/pipelines'], ['POST', '/v0/pipelines'], ['GET', '/v0/pipelines/p'],
    ['PUT', '/v0/pipelines/p'], ['POST', '/v0/pipelines/p/ingress/t'], ['GET', '/v0/pipelines/p/stats'], ['DELETE', '/v0/pipelines/p']]) {
    assertUnauthorized(await call(method, path), /API key is required/);
    assertUnauthorized(await call(method, path, 'apikey:wrong'), /^Unauthorized API key$/);
    assertUnauthorized(await call(method, path, `${KEYS[0]}x`), /^Unauthorized API key$/);
  }
  // Nothing was created by the refused PUT.
  assert.deepEqual((await call('GET', '/v0/pipelines', KEYS[0])).body, []);
});

test('each configured key opens the API', async () => {
  const created = await call('PUT', '/v0/pipelines/p', KEYS[0], { program_code: 'CREATE TABLE t (id INT); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal((await call('GET', '/v0/pipelines/p', KEYS[1])).body.name, 'p');
  assert.deepEqual((await call('GET', '/v0/pipelines', KEYS[1])).body.map((pipeline) => pipeline.name), ['p']);
});

test('the dashboard\'s files and CORS preflights need no key; preflights allow the authorization header', async () => {
  const page = await fetch(`${worker.url}/web-demo/index.html`);
  assert.equal(page.status, 200);
  await page.arrayBuffer();
  // From the worker's own origin (the dashboard's): every method (cors.js).
  const preflight = await fetch(`${worker.url}/v0/pipelines/p`, {
    method: 'OPTIONS', headers: { origin: worker.url, 'access-control-request-method': 'PATCH' },
  });
  assert.equal(preflight.status, 204);
  assert.match(preflight.headers.get('access-control-allow-headers'), /authorization/);
  assert.match(preflight.headers.get('access-control-allow-methods'), /PATCH/);
});
