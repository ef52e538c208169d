// The edge worker's bounds (edge-worker/limits.js, record_count.js, and the
// engine's own: LIMIT_EXCEEDED), on real workerd over HTTP, set small
// through the Worker's variables. Each bound is answered with its status and
// code in Feldera's error shape, and nothing of the refused request is
// applied: no row ingested, no pipeline created or replaced.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { startEdgeWorker } from '../../edge-worker/local.mjs';
import { assertError, ndjsonReader, until } from './support.mjs';

const VARS = {
  FRESHET_MAX_BODY_BYTES: String(128 * 1024),
  FRESHET_MAX_PROGRAM_BYTES: String(64 * 1024),
  FRESHET_MAX_INGRESS_RECORDS: '50',
  FRESHET_MAX_EGRESS_CONNECTIONS: '2',
  FRESHET_MAX_PIPELINES: '3',
  FRESHET_MAX_QUERY_ROWS: '10',
};
const SQL = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;';

let worker, persistDir;
before(async () => {
  persistDir = mkdtempSync(join(tmpdir(), 'freshet-limits-'));
  worker = await startEdgeWorker({ persistDir, vars: VARS });
  assert.equal((await call('PUT', 'p', { program_code: SQL })).status, 201);
});
after(async () => {
  await worker?.stop();
  if (persistDir) rmSync(persistDir, { recursive: true, force: true });
});

async function call(method, path, body, init = {}) {
  const response = await fetch(`${worker.url}/v0/pipelines${path ? `/${path}` : ''}`, {
    method, ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof ReadableStream ? body : JSON.stringify(body) }),
    ...init,
  });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, body: json, headers: response.headers };
}

const rows = (n, from = 0) => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `n${from + i}` }));
const count = async () => (await call('GET', `p/query?sql=${encodeURIComponent('SELECT COUNT(*) AS c FROM v')}`)).body[0].c;

async function ingestAndWait(body, query = '') {
  const answer = await call('POST', `p/ingress/t${query}`, body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  await until(async () => (await call('GET', `p/completion_status?token=${answer.body.token}`)).body.status === 'complete',
              { what: 'the ingress to complete' });
}

test('a body over FRESHET_MAX_BODY_BYTES is 413 PAYLOAD_TOO_LARGE, declared or chunked, and nothing is applied', async () => {
  const before = await count();
  const big = JSON.stringify([{ insert: { id: 1_000_000, name: 'x'.repeat(128 * 1024) } }]);
  assertError(await call('POST', 'p/ingress/t', big), 413, 'PAYLOAD_TOO_LARGE', /has \d+ bytes; the limit is 131072 \(FRESHET_MAX_BODY_BYTES\)/);
  // Without a Content-Length (chunked): read up to the limit, then refused.
  const chunks = [big.slice(0, 100_000), big.slice(100_000)];
  const stream = new ReadableStream({ pull: (controller) => (chunks.length ? controller.enqueue(new TextEncoder().encode(chunks.shift())) : controller.close()) });
  assertError(await call('POST', 'p/ingress/t', stream, { duplex: 'half' }), 413, 'PAYLOAD_TOO_LARGE', /or more/);
  // A PUT is bounded the same way, before its program is looked at.
  assertError(await call('PUT', 'huge', big), 413, 'PAYLOAD_TOO_LARGE');
  assert.equal((await call('GET', 'huge')).status, 404);
  assert.equal(await count(), before);
  // Within the bound, chunked too, it is accepted.
  const small = JSON.stringify([{ insert: { id: 7, name: 'seven' } }]);
  const one = new ReadableStream({ start: (controller) => { controller.enqueue(new TextEncoder().encode(small)); controller.close(); } });
  const accepted = await call('POST', 'p/ingress/t', one, { duplex: 'half' });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
});

test('program_code over FRESHET_MAX_PROGRAM_BYTES is 413 PROGRAM_TOO_LARGE; nothing is created or replaced', async () => {
  const padding = `-- ${'x'.repeat(64 * 1024)}\n`;
  const big = padding + SQL;
  assertError(await call('PUT', 'big', { program_code: big }), 413, 'PROGRAM_TOO_LARGE', /program_code has \d+ bytes; the limit is 65536/);
  assertError(await call('POST', '', { name: 'big', program_code: big }), 413, 'PROGRAM_TOO_LARGE');
  assert.equal((await call('GET', 'big')).status, 404);
  // Replacing an existing pipeline: refused, and the old program runs on.
  assertError(await call('PUT', 'p', { program_code: `${big} CREATE TABLE extra (x INT);` }), 413, 'PROGRAM_TOO_LARGE');
  const described = await call('GET', 'p');
  assert.equal(described.body.program_code, SQL);
  assert.equal(described.body.state, 'running');
  // Multi-byte characters count as their UTF-8 bytes.
  const wide = `-- ${'é'.repeat(33 * 1024)}\n${SQL}`;
  assert.ok(wide.length < 64 * 1024);
  assertError(await call('PUT', 'big', { program_code: wide }), 413, 'PROGRAM_TOO_LARGE');
});

test("the engine's compile bounds: a program of more than 1,000 statements is 413 LIMIT_EXCEEDED", async () => {
  const program = Array.from({ length: 1001 }, (_, i) => `CREATE TABLE t${i} (x INT);`).join('\n');
  assert.ok(program.length < 64 * 1024, 'within the edge bound, so the engine answers');
  assertError(await call('PUT', 'many', { program_code: program }), 413, 'LIMIT_EXCEEDED', /1001 statements; the limit is 1000/);
  assert.equal((await call('GET', 'many')).status, 404);
});

test('an ingress of more than FRESHET_MAX_INGRESS_RECORDS is 413 TOO_MANY_RECORDS in each format; nothing is applied', async () => {
  const before = await count();
  const tooMany = rows(51, 100);
  const array = JSON.stringify(tooMany.map((row) => ({ insert: row })));
  assertError(await call('POST', 'p/ingress/t', array), 413, 'TOO_MANY_RECORDS', /more than 50 records/);
  const lines = tooMany.map((row) => JSON.stringify(row)).join('\n');
  assertError(await call('POST', 'p/ingress/t?update_format=raw&array=false', lines), 413, 'TOO_MANY_RECORDS');
  const csv = tooMany.map((row) => `${row.id},"a ""quoted"", name"`).join('\r\n');
  assertError(await call('POST', 'p/ingress/t?format=csv', csv), 413, 'TOO_MANY_RECORDS');
  assert.equal(await count(), before);
  // Exactly the bound is accepted, in each format (strings holding ',', '[', '"' and newlines are one record each).
  const fifty = rows(50, 200).map((row) => ({ ...row, name: 'a, [b] {"c"}\n' }));
  await ingestAndWait(JSON.stringify(fifty.map((row) => ({ insert: row }))));
  await ingestAndWait(fifty.map((row) => JSON.stringify({ ...row, id: row.id + 100 })).join('\n'), '?update_format=raw&array=false');
  await ingestAndWait(fifty.map((row) => `${row.id + 200},"x,""y""\nz"`).join('\n'), '?format=csv');
  assert.equal(await count(), before + 150);
});

test('more than FRESHET_MAX_EGRESS_CONNECTIONS egress streams on a pipeline is 429 ApiConnectionLimit', async () => {
  const open = async () => fetch(`${worker.url}/v0/pipelines/p/egress/v?send_snapshot=true`, { method: 'POST' });
  const first = await open();
  const second = await open();
  assert.equal(first.status, 200);
  assert.equal(second.status, 200);
  const readers = [ndjsonReader(first), ndjsonReader(second)];
  for (const reader of readers) assert.equal((await reader.next()).snapshot, true);
  const third = await open();
  if (third.status === 200) await third.body.cancel();  // a stream: its body never ends
  const refused = { status: third.status, body: third.status === 200 ? null : await third.json() };
  assertError(refused, 429, 'ApiConnectionLimit', /API connections limit has been exceded.*limit is 2/);
  // A stream that ends frees its place.
  await readers[0].cancel();
  await until(async () => Object.keys((await call('GET', 'p/stats')).body.egress).length === 1, { what: 'the stream to close' });
  const again = await open();
  assert.equal(again.status, 200);
  const reader = ndjsonReader(again);
  assert.equal((await reader.next()).snapshot, true);
  await reader.cancel();
  await readers[1].cancel();
});

test('creating more than FRESHET_MAX_PIPELINES pipelines is 429 TOO_MANY_PIPELINES; replacing one is not', async () => {
  const names = async () => (await call('GET', '')).body.map((pipeline) => pipeline.name).sort();
  const existing = await names();
  for (let i = existing.length; i < 3; ++i) assert.equal((await call('PUT', `extra${i}`, { program_code: SQL })).status, 201);
  const full = await names();
  assert.equal(full.length, 3);
  assertError(await call('PUT', 'one-more', { program_code: SQL }), 429, 'TOO_MANY_PIPELINES', /has 3 pipelines; the limit is 3/);
  assertError(await call('POST', '', { name: 'one-more', program_code: SQL }), 429, 'TOO_MANY_PIPELINES');
  assert.deepEqual(await names(), full);
  // An existing one may be replaced; after a delete there is room again.
  assert.equal((await call('PUT', full.at(-1), { program_code: SQL })).status, 200);
  const victim = full.find((name) => name !== 'p');
  assert.equal((await call('DELETE', victim)).status, 200);
  assert.equal((await call('PUT', 'one-more', { program_code: SQL })).status, 201);
  assert.equal((await call('DELETE', 'one-more')).status, 200);
});

test("an ad-hoc query's answer over FRESHET_MAX_QUERY_ROWS is 413 LIMIT_EXCEEDED", async () => {
  await ingestAndWait(JSON.stringify(rows(20, 5000).map((row) => ({ insert: row }))));
  const query = (sql) => call('GET', `p/query?sql=${encodeURIComponent(sql)}`);
  assertError(await query('SELECT * FROM v'), 413, 'LIMIT_EXCEEDED', /more than 10 rows/);
  const limited = await query('SELECT * FROM v ORDER BY id LIMIT 10');
  assert.equal(limited.status, 200, JSON.stringify(limited.body));
  assert.equal(limited.body.length, 10);
  // A row repeated by its weight counts as often as it occurs.
  assertError(await query('SELECT a.id FROM v a, v b WHERE a.id = 5000'), 413, 'LIMIT_EXCEEDED');
  // The pipeline is untouched and answers on.
  assert.equal((await call('GET', 'p/stats')).status, 200);
});
