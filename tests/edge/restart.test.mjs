// Restarts of real workerd on the same persistence folder: the pipeline comes
// back from its checkpoint (state, step, connectors' snapshot state) and its
// input log (input after the checkpoint, its tokens), the definition and the
// paused state are remembered; automatic checkpoints; a KV connector's reset
// wipes and refills its prefix. Kill -9: durable_ingress.test.mjs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';

import { edgeWorker, sortedRows, until } from './support.mjs';

const SQL = `
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR, amount DOUBLE);
CREATE MATERIALIZED VIEW totals AS SELECT name, COUNT(*) AS n, SUM(amount) AS total FROM t GROUP BY name;
CREATE INDEX totals_by_name ON totals(name);
`;
const PREFIX = 'outputs/r/by_name/';

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());

const totals = async () => sortedRows((await edge.call('GET', 'r/query?sql=SELECT * FROM totals')).body);
const complete = (token) => until(async () => (await edge.call('GET', `r/completion_status?token=${token}`)).body.status === 'complete',
                                  { what: `token ${token}` });
const ingest = async (records) => (await edge.call('POST', 'r/ingress/t', records)).body.token;

/** Every key under `prefix` in the worker's KV namespace, with its JSON value. */
async function kvDump(prefix) {
  const kv = await edge.kv();
  const entries = {};
  for (const { name } of (await kv.list({ prefix })).keys) entries[name] = await kv.get(name, 'json');
  return entries;
}

/** What a KVSink through index totals_by_name holds for these rows. */
const mirrorOf = (rows) => Object.fromEntries(rows.map((row) => [`${PREFIX}${JSON.stringify([row.name])}`, row]));

test('a restart resumes from the checkpoint: state, step, definition, and no connector gets its snapshot again', async () => {
  const created = await edge.call('PUT', 'r', {
    program_code: SQL,
    outputs: { by_name: { view: 'totals', index: 'totals_by_name', send_snapshot: true, sink: { type: 'kv', prefix: PREFIX } } },
    checkpoint_interval_ms: 0,  // checkpoints only on request here
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const kept = await ingest([{ insert: { id: 1, name: 'a', amount: 1 } }, { insert: { id: 2, name: 'b', amount: 2 } }]);
  await complete(kept);
  const checkpoint = (await edge.call('POST', 'r/checkpoint')).body.checkpoint_sequence_number;
  const before = await totals();
  const statsBefore = (await edge.call('GET', 'r/stats')).body;
  assert.equal(statsBefore.connectors.by_name.snapshot_sent, true);
  assert.deepEqual(await kvDump(PREFIX), mirrorOf([{ name: 'a', n: 1, total: 1 }, { name: 'b', n: 1, total: 2 }]));

  await edge.restart();
  const described = (await edge.call('GET', 'r')).body;
  assert.equal(described.program_code, SQL, 'the definition survived');
  assert.equal(described.step, statsBefore.step, 'the step count resumed');
  assert.equal(described.checkpoint.restored_from, checkpoint);
  assert.deepEqual(await totals(), before, "the state is the checkpoint's");
  const stats = (await edge.call('GET', 'r/stats')).body;
  assert.equal(stats.connectors.by_name.snapshot_sent, true);
  assert.equal(stats.connectors.by_name.transmitted_batches, statsBefore.connectors.by_name.transmitted_batches, 'no snapshot was sent again');
  assert.equal(stats.connectors.by_name.resets, 0);
  assert.deepEqual((await edge.call('GET', `r/completion_status?token=${kept}`)).body, { status: 'complete' },
                   'a token the checkpoint covers is complete');

  // The connector carries on with deltas from where it was.
  await complete(await ingest([{ insert: { id: 4, name: 'a', amount: 10 } }]));
  await until(async () => isDeepStrictEqual(await kvDump(PREFIX), mirrorOf([{ name: 'a', n: 2, total: 11 }, { name: 'b', n: 1, total: 2 }])),
              { what: 'the KV mirror to take the delta' });
  assert.equal((await edge.call('GET', 'r/stats')).body.connectors.by_name.transmitted_batches, stats.connectors.by_name.transmitted_batches + 1);
});

test('input acknowledged after the last checkpoint survives a restart (the input log): its token answers, the connector is not reset', async () => {
  await edge.call('POST', 'r/checkpoint');
  const kept = await ingest([{ insert: { id: 3, name: 'c', amount: 3 } }, { insert: { id: 5, name: 'b', amount: 5 } }]);
  await complete(kept);
  const before = await totals();
  await until(async () => Object.keys(await kvDump(PREFIX)).length === 3, { what: 'the input to reach the mirror' });
  const resets = (await edge.call('GET', 'r/stats')).body.connectors.by_name.resets;

  await edge.restart();
  assert.deepEqual(await totals(), before, 'the checkpoint and the replayed log');
  await complete(kept);  // the replayed step's output is written to the connector again (an idempotent KV sink)
  const rows = (await edge.call('GET', 'r/query?sql=SELECT * FROM totals')).body;
  assert.deepEqual(await kvDump(PREFIX), mirrorOf(rows), 'the mirror holds the view');
  assert.equal((await edge.call('GET', 'r/stats')).body.connectors.by_name.resets, resets, 'nothing to rewrite');
});

test('automatic checkpoints every N steps and every T ms; the paused state survives a restart', async () => {
  assert.equal((await edge.call('PUT', 'r', { program_code: SQL, checkpoint_interval_steps: 2, checkpoint_interval_ms: 0 })).status, 200);
  const sequence = async () => (await edge.call('GET', 'r/stats')).body.checkpoint.sequence_number;
  const start = await sequence();
  await edge.call('POST', 'r/pause');
  await edge.call('POST', 'r/ingress/t', [{ insert: { id: 10, name: 'x', amount: 1 } }]);
  await edge.call('POST', 'r/step');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(await sequence(), start, 'one step: not yet');
  await edge.call('POST', 'r/step');
  await until(async () => (await sequence()) > start, { what: 'a checkpoint after two steps' });

  assert.equal((await edge.call('PUT', 'r', { program_code: SQL, checkpoint_interval_ms: 300 })).status, 200);
  const timed = await sequence();
  await complete(await ingest([{ insert: { id: 11, name: 'y', amount: 1 } }]));
  await until(async () => (await sequence()) > timed, { what: 'a checkpoint within 300 ms of a step' });
  const state = await totals();
  await edge.call('POST', 'r/pause');

  await edge.restart();
  assert.equal((await edge.call('GET', 'r')).body.state, 'paused');
  assert.deepEqual(await totals(), state, 'the timed checkpoint held the last input');
  await edge.call('POST', 'r/resume');
});

test('reset of a KV connector wipes its prefix and writes a fresh snapshot', async () => {
  // The connector is new to the definition again (the last PUT had none): its prefix starts empty.
  await (await edge.kv()).put(`${PREFIX}["gone"]`, '{"name":"gone","n":1,"total":1}');
  const created = await edge.call('PUT', 'r', {
    program_code: SQL,
    outputs: { by_name: { view: 'totals', index: 'totals_by_name', send_snapshot: true, sink: { type: 'kv', prefix: PREFIX } } },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await complete(await ingest([{ insert: { id: 20, name: 'z', amount: 5 } }]));
  const rows = (await edge.call('GET', 'r/query?sql=SELECT * FROM totals')).body;
  await until(async () => isDeepStrictEqual(await kvDump(PREFIX), mirrorOf(rows)), { what: 'the mirror, without the old row' });
  const kv = await edge.kv();
  await kv.put(`${PREFIX}stray`, '"left over"');
  await kv.put(`${PREFIX}["x"]`, '{"name":"x","n":99,"total":0}');

  const reset = await edge.call('POST', 'r/views/totals/connectors/by_name/reset');
  assert.equal(reset.status, 202);
  const status = await until(async () => {
    const answer = (await edge.call('GET', `r/reset_status?token=${reset.body.token}`)).body;
    return answer.status === 'complete' && answer;
  }, { what: 'the reset' });
  assert.equal(status.snapshot_records_sent, rows.length);
  assert.deepEqual(await kvDump(PREFIX), mirrorOf(rows), 'exactly the view, nothing left over');
  assert.ok((await edge.call('GET', 'r/stats')).body.connectors.by_name.resets >= 1);
});
