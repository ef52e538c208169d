// Every error is a FreshetError with a stable code and a message naming
// what went wrong; a failed call applies nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ERROR_CODES, FreshetError, MapSink, Pipeline } from 'freshet';

import { ORDERS_SQL } from './support.mjs';

test('bad SQL: SQL_ERROR with the line and column', async () => {
  await assert.rejects(Pipeline.create({ sql: 'CREATE TABLE t (x INT);\nCREATE VIEW v AS SELEC x FROM t;' }), (error) => {
    assert.ok(error instanceof FreshetError);
    assert.equal(error.code, 'SQL_ERROR');
    assert.equal(error.details.line, 2);
    assert.equal(typeof error.details.column, 'number');
    assert.match(error.message, /line 2, column \d+/);
    return true;
  });
});

test('create without sql or with an unknown option: INVALID_ARGUMENT', async () => {
  await assert.rejects(Pipeline.create({}), { code: 'INVALID_ARGUMENT' });
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, nope: 1 }), { code: 'INVALID_ARGUMENT' });
});

test('bad JSON: PARSE_ERROR naming the record and the column; nothing of the call is applied', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  const bad = '[{"insert": {"id": 1, "customer": 1}}, {"insert": {"id": 2, "amount": "lots"}}]';
  assert.throws(() => p.ingest('orders', bad), (error) => {
    assert.equal(error.code, 'PARSE_ERROR');
    assert.equal(error.details.record, 1);
    assert.equal(error.details.column, 'amount');
    assert.match(error.message, /record 1/);
    return true;
  });
  assert.throws(() => p.ingest('orders', '[{"insert": {"id": 1,'), { code: 'PARSE_ERROR' });
  assert.throws(() => p.insert('orders', [{ id: 3, colour: 'red' }]), { code: 'PARSE_ERROR' });
  assert.throws(() => p.insert('orders', [{ id: null }]), { code: 'TYPE_ERROR' });
  p.step();
  assert.equal(p.stats().inputs.orders.totalRecords, 0);
  assert.equal(p.stats().inputs.orders.parseErrors, 4);
  p.close();
});

test('unknown table, view, index and output', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  assert.throws(() => p.insert('nope', [{ id: 1 }]), { code: 'UNKNOWN_TABLE' });
  assert.throws(() => p.snapshot('nope'), { code: 'UNKNOWN_VIEW' });
  assert.throws(() => p.egress('nope'), { code: 'UNKNOWN_VIEW' });
  assert.throws(() => p.egress('by_region', { index: 'nope' }), { code: 'UNKNOWN_INDEX' });
  assert.throws(() => p.lookup('nope', [1]), { code: 'UNKNOWN_INDEX' });
  assert.throws(() => p.addOutput('o', { view: 'nope', sink: new MapSink() }), { code: 'UNKNOWN_VIEW' });
  assert.throws(() => p.removeOutput('nope'), { code: 'UNKNOWN_OUTPUT' });
  await assert.rejects(p.resetOutput('nope'), { code: 'UNKNOWN_OUTPUT' });
  p.close();
});

test('DUPLICATE_OUTPUT, and an output without a sink', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.addOutput('o', { view: 'by_region', sink: new MapSink() });
  assert.throws(() => p.addOutput('o', { view: 'by_region', sink: new MapSink() }), { code: 'DUPLICATE_OUTPUT' });
  assert.throws(() => p.addOutput('p', { view: 'by_region' }), { code: 'INVALID_ARGUMENT' });
  p.removeOutput('o');
  p.addOutput('o', { view: 'by_region', sink: new MapSink() });  // the name is free again
  p.close();
});

test('UNKNOWN_TOKEN', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  assert.throws(() => p.completionStatus('12'), { code: 'UNKNOWN_TOKEN' });
  assert.throws(() => p.completionStatus('not a token'), { code: 'UNKNOWN_TOKEN' });
  await assert.rejects(p.waitForCompletion('99'), { code: 'UNKNOWN_TOKEN' });
  p.close();
});

test('NOT_MATERIALIZED: snapshot, egress with a snapshot, outputs with a snapshot, reset', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  assert.throws(() => p.snapshot('big'), { code: 'NOT_MATERIALIZED' });
  assert.throws(() => p.egress('big', { sendSnapshot: true }), { code: 'NOT_MATERIALIZED' });
  assert.throws(() => p.addOutput('o', { view: 'big', sendSnapshot: true, sink: new MapSink() }),
                { code: 'NOT_MATERIALIZED' });
  p.addOutput('deltas', { view: 'big', sink: new MapSink() });   // deltas of it are fine
  await assert.rejects(p.resetOutput('deltas'), { code: 'NOT_MATERIALIZED' });
  const changes = p.egress('big');
  p.insert('orders', [{ id: 1, customer: 1, amount: 500 }]);
  assert.deepEqual((await changes.next()).value.inserts, [{ id: 1, customer: 1, amount: 500 }]);
  p.close();
});

test('NOT_RESETTABLE: a sink without reset()', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.addOutput('o', { view: 'by_region', sink: { write() {} } });
  await assert.rejects(p.resetOutput('o'), { code: 'NOT_RESETTABLE' });
  p.close();
});

test('CLOSED: every use after close()', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const changes = p.egress('by_region');
  const pending = changes.next();
  p.close();
  p.close();  // closing twice is harmless
  assert.equal(p.state, 'closed');
  await assert.rejects(pending, { code: 'CLOSED' });
  await assert.rejects(changes.next(), { code: 'CLOSED' });
  const uses = [
    () => p.step(), () => p.start(), () => p.pause(), () => p.insert('orders', []), () => p.ingest('orders', '[]'),
    () => p.delete('orders', []), () => p.completionStatus('0'), () => p.egress('by_region'), () => p.snapshot('by_region'),
    () => p.lookup('by_region_idx', ['x']), () => p.addOutput('o', { view: 'by_region', sink: new MapSink() }),
    () => p.removeOutput('o'), () => p.stats(),
  ];
  for (const use of uses) assert.throws(use, { code: 'CLOSED' });
  await assert.rejects(p.waitForCompletion('0'), { code: 'CLOSED' });
  await assert.rejects(p.resetOutput('o'), { code: 'CLOSED' });
  changes.close();  // harmless too
});

test('a runtime error fails the view, not the pipeline: the step and later calls go on (view_failure.test.mjs)', async () => {
  const p = await Pipeline.create({
    sql: 'CREATE TABLE t (x INT); CREATE MATERIALIZED VIEW v AS SELECT 10 / x AS y FROM t;',
  });
  p.pause();
  p.insert('t', [{ x: 0 }]);
  p.step();
  const { code, message } = p.stats().views.v.failed;
  assert.equal(code, 'INVALID_ARGUMENT');
  assert.equal(message, "view 'v' failed at step 0: map: division by zero in (10 / x)");
  p.insert('t', [{ x: 1 }]);
  p.step();
  assert.equal(p.stats().failure, null);
  assert.throws(() => p.snapshot('v'), (error) => error instanceof FreshetError && error.code === code);
  p.addOutput('o', { view: 'v', sink: new MapSink() });
  await assert.rejects(p.resetOutput('o'), { code, message });
  p.close();
});

test('the error codes mirror the core', () => {
  for (const code of ['SQL_ERROR', 'PARSE_ERROR', 'UNKNOWN_TABLE', 'UNKNOWN_VIEW', 'UNKNOWN_INDEX', 'UNKNOWN_OUTPUT',
                      'DUPLICATE_OUTPUT', 'UNKNOWN_TOKEN', 'NOT_MATERIALIZED', 'NOT_RESETTABLE', 'PROGRAM_MISMATCH',
                      'CHECKPOINT_CORRUPT', 'STORAGE_ERROR', 'CLOSED']) {
    assert.ok(ERROR_CODES.includes(code), code);
  }
});

test('arguments of the wrong type: INVALID_ARGUMENT, never a bare Embind error', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const calls = [
    () => p.ingest(undefined, '[]'), () => p.ingest('orders', 42), () => p.ingest('orders', '[]', { format: 'xml' }),
    () => p.ingest('orders', '[]', { updateFormat: 'upsert' }), () => p.ingest('orders', [{}], { format: 'csv' }),
    () => p.snapshot(7), () => p.egress(null), () => p.egress('by_region', { onLag: 'wait' }),
    () => p.egress('by_region', { maxQueuedChunks: 0 }), () => p.lookup({}, ['x']),
    () => p.addOutput('o', { view: 1, sink: new MapSink() }), () => p.addOutput(1, { view: 'by_region', sink: new MapSink() }),
    () => p.removeOutput(undefined),
  ];
  for (const call of calls) assert.throws(call, { code: 'INVALID_ARGUMENT' }, String(call));
  p.close();
});
