// Storage faults and checkpoint versions in real workerd: the worker's KV
// namespace fails every 4th call (FRESHET_FAULTS through local.mjs, one way
// or the other: before the call, or after it with the answer lost), and
// still every acknowledged record is in the views once, the KV connectors
// hold exactly the view, checkpoints resume, and /stats counts the faults as
// incidents. Then a checkpoint of a format version this build does not read:
// a pipeline error saying the way out, which works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { edgeWorker } from './support.mjs';

const SQL = `CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, region VARCHAR, amount BIGINT);
CREATE MATERIALIZED VIEW by_region AS SELECT region, COUNT(*) AS orders, SUM(amount) AS total FROM orders GROUP BY region;
CREATE INDEX by_region_idx ON by_region(region);`;
const OUTPUTS = {
  plain: { view: 'by_region', send_snapshot: true, sink: { type: 'kv', prefix: 'out/plain/' } },
  keyed: { view: 'by_region', index: 'by_region_idx', send_snapshot: true, sink: { type: 'kv', prefix: 'out/keyed/' } },
};

let worker;
before(async () => {
  worker = await edgeWorker({ faults: 'fail_every=4' });
});
after(() => worker?.stop());

const sorted = (rows) => rows.map((row) => JSON.stringify(row)).sort();

/** What a KV connector holds, as rows (a plain sink's entries carry a count). */
async function kvRows(prefix) {
  const kv = await worker.kv();
  const rows = [];
  for (const { name } of (await kv.list({ prefix })).keys) {
    const value = JSON.parse(await kv.get(name));
    if ('count' in value) for (let i = 0; i < value.count; ++i) rows.push(value.row);
    else rows.push(value);
  }
  return rows;
}

async function until(condition, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

test('KV failing every 4th call: nothing lost or doubled in views, connectors and checkpoints; /stats counts incidents', async () => {
  assert.equal((await worker.call('PUT', 'faulty', { program_code: SQL, outputs: OUTPUTS, checkpoint_interval_ms: 0 })).status, 201);
  const expected = new Map();
  let token;
  for (let batch = 0; batch < 24; ++batch) {
    const records = Array.from({ length: 10 }, (_, i) => {
      const id = batch * 10 + i;
      return { insert: { id, region: `r${id % 4}`, amount: id } };
    });
    for (const { insert } of records) {
      const now = expected.get(insert.region) ?? { region: insert.region, orders: 0, total: 0 };
      expected.set(insert.region, { ...now, orders: now.orders + 1, total: now.total + insert.amount });
    }
    const answer = await worker.call('POST', 'faulty/ingress/orders', records);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    token = answer.body.token;
    if (batch % 6 === 5) assert.equal((await worker.call('POST', 'faulty/checkpoint')).status, 200);
  }
  await until(async () => (await worker.call('GET', `faulty/completion_status?token=${token}`)).body.status === 'complete');
  const want = sorted([...expected.values()]);
  assert.deepEqual(sorted((await worker.call('GET', 'faulty/query?sql=SELECT * FROM by_region')).body), want);
  assert.deepEqual(sorted(await kvRows('out/plain/')), want, 'the plain connector: each row once');
  assert.deepEqual(sorted(await kvRows('out/keyed/')), want, 'the keyed connector');
  const stats = (await worker.call('GET', 'faulty/stats')).body;
  // Each failed KV call was retried on its own (kv_retries.js), all recovered; concurrent
  // failures of one operation are one incident.
  assert.ok(stats.kv_incidents.failures > 10, JSON.stringify(stats.kv_incidents));
  assert.equal(stats.kv_incidents.given_up, 0, JSON.stringify(stats.kv_incidents));
  assert.ok(stats.kv_incidents.incidents > 0 && stats.kv_incidents.incidents <= stats.kv_incidents.failures);
  assert.ok(stats.kv_incidents.recent.every((incident) => incident.outcome === 'recovered' && incident.target === 'KV'));
  assert.equal(stats.incidents.failures, 0, `nothing reached the pipeline's own retries: ${JSON.stringify(stats.incidents)}`);
  assert.deepEqual(stats.connectors.plain.errors + stats.connectors.keyed.errors, 0, 'retried faults are not connector errors');
  assert.equal(stats.checkpoint.failed_writes, 0, JSON.stringify(stats.checkpoint));
  const status = (await worker.call('GET', 'faulty/checkpoint_status')).body;
  assert.equal(status.failure, null);
  // Resumes from what was written through the faults (still failing every 4th call).
  assert.equal((await worker.call('POST', 'faulty/checkpoint')).status, 200);
  await worker.restart();
  assert.deepEqual(sorted((await worker.call('GET', 'faulty/query?sql=SELECT * FROM by_region')).body), want);
  assert.deepEqual(sorted(await kvRows('out/plain/')), want);
});

test('a checkpoint of a format version this build does not read: a pipeline error with the way out, which works', async (t) => {
  // Checkpoints in KV (FRESHET_CHECKPOINT_STORE=kv), where Node can rewrite
  // one; the object's own storage is read through the same package code.
  const worker = await edgeWorker({ vars: { FRESHET_CHECKPOINT_STORE: 'kv' } });
  t.after(() => worker.stop());
  assert.equal((await worker.call('PUT', 'future', { program_code: SQL, outputs: {} })).status, 201);
  await worker.call('POST', 'future/ingress/orders', [{ insert: { id: 1, region: 'north', amount: 5 } }]);
  const written = await worker.call('POST', 'future/checkpoint');
  assert.equal(written.status, 200);
  // As a newer build would have written it: the manifest's version (bytes 8..11) is 99.
  const kv = await worker.kv();
  const key = `pipelines/future/checkpoints/checkpoint-${String(written.body.checkpoint_sequence_number).padStart(20, '0')}.manifest`;
  const manifest = new Uint8Array(await kv.get(key, 'arrayBuffer'));
  new DataView(manifest.buffer).setUint32(8, 99, true);
  await kv.put(key, manifest);
  await worker.restart();
  const refused = await worker.call('POST', 'future/ingress/orders', [{ insert: { id: 2, region: 'north', amount: 1 } }]);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error_code, 'CHECKPOINT_VERSION');
  assert.match(refused.body.message, /format version 99.*reads formats 4, 5, 6, 7.*POST \/v0\/pipelines\/future\/clear, then POST \/v0\/pipelines\/future\/start/);
  assert.deepEqual(refused.body.details, { sequence_number: written.body.checkpoint_sequence_number, version: 99, readable_versions: [4, 5, 6, 7] });
  const described = (await worker.call('GET', 'future')).body;
  assert.equal(described.deployment_status, 'Stopped');
  assert.equal(described.deployment_error.error_code, 'CHECKPOINT_VERSION');
  // The way out: clear the storage, start afresh.
  assert.equal((await worker.call('POST', 'future/clear')).status, 202);
  assert.equal((await worker.call('POST', 'future/start')).status, 202);
  assert.deepEqual((await worker.call('GET', 'future/query?sql=SELECT * FROM by_region')).body, []);
  assert.equal((await worker.call('POST', 'future/ingress/orders', [{ insert: { id: 2, region: 'north', amount: 1 } }])).status, 200);
});
