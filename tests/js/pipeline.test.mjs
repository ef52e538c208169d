// Pipeline: create, stepping (explicit, automatic, paused), every input
// shape, completion tokens, queries and values.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Pipeline } from 'freshet';

import { ORDERS_SQL, bag, tick } from './support.mjs';

test('step() runs one step and reports it', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 1, amount: 7 }]);
  const result = p.step();
  assert.equal(result.step, 0);
  assert.equal(result.inputRecords, 3);
  assert.equal(typeof result.durationMs, 'number');
  assert.deepEqual(p.snapshot('by_region'), [{ region: 'north', orders: 2, total: 12 }]);
  assert.equal(p.step().step, 1);
  assert.equal(p.stats().step, 2);
  p.close();
});

test('automatic steps coalesce the ingests of one turn into one step', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  assert.equal(p.state, 'running');
  for (let i = 0; i < 50; ++i) p.insert('orders', [{ id: i, customer: 1, amount: i }]);
  await tick(5);
  assert.equal(p.stats().step, 1);
  assert.equal(p.stats().inputs.orders.totalRecords, 50);
  p.close();
});

test('pause() stops automatic steps and start() resumes them', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  assert.equal(p.state, 'paused');
  assert.equal(p.stats().state, 'paused');
  p.insert('customers', [{ id: 1, region: 'north' }]);
  await tick(5);
  assert.equal(p.stats().step, 0);
  p.start();
  assert.equal(p.state, 'running');
  await tick(5);
  assert.equal(p.stats().step, 1);
  p.close();
});

test('a snapshot requested while paused is delivered by a forced step, with the pending input', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 3 }]);
  const changes = p.egress('by_region', { sendSnapshot: true });
  const { value } = await changes.next();
  assert.equal(value.snapshot, true);
  assert.deepEqual(value.inserts, [{ region: 'north', orders: 1, total: 3 }]);
  assert.equal(p.state, 'paused');
  changes.close();
  p.close();
});

test('ingest takes JSON text, bytes, arrays, newline-delimited JSON, raw records and CSV', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.ingest('customers', '[{"insert": {"id": 1, "region": "a"}}]');
  p.ingest('customers', new TextEncoder().encode('[{"insert": {"id": 2, "region": "b"}}]'));
  p.ingest('customers', new TextEncoder().encode('[{"insert": {"id": 3, "region": "c"}}]').buffer);
  p.ingest('customers', [{ insert: { id: 4, region: 'd' } }]);
  p.ingest('customers', '{"insert": {"id": 5, "region": "e"}}\n{"insert": {"id": 6, "region": "f"}}\n', { array: false });
  p.ingest('customers', '[{"id": 7, "region": "g"}]', { updateFormat: 'raw' });
  p.ingest('customers', '8,h\n9,"i, j"\n', { format: 'csv' });
  p.ingest('customers', Buffer.from('10,k\n'), { format: 'csv' });
  p.ingest('orders', [{ id: 1, customer: 9, amount: 1 }, { id: 2, customer: 10, amount: 2 }], { updateFormat: 'raw' });
  p.step();
  assert.deepEqual(bag(p.snapshot('by_region')),
                   bag([{ region: 'i, j', orders: 1, total: 1 }, { region: 'k', orders: 1, total: 2 }]));
  assert.equal(p.stats().inputs.customers.totalRecords, 10);
  p.close();
});

test('ingest names input it cannot take (a number, an object, an array as CSV), keeping what it accepted; any typed view of bytes is bytes', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'a' }]);
  const what = { code: 'INVALID_ARGUMENT', message: /ingest takes JSON or CSV text, bytes, or an array of objects/ };
  assert.throws(() => p.ingest('customers', 42), what);
  assert.throws(() => p.ingest('customers', { id: 2, region: 'b' }), what);
  assert.throws(() => p.ingest('customers', [{ id: 3, region: 'c' }], { format: 'csv' }),
                { code: 'INVALID_ARGUMENT', message: /an array of objects is JSON input, not csv/ });
  const bytes = new TextEncoder().encode('4,d\n');
  p.ingest('customers', new DataView(bytes.buffer, 0, bytes.length), { format: 'csv' });
  p.step();
  assert.equal(p.stats().inputs.customers.totalRecords, 2);  // the insert before the refusals, and the DataView's row
  p.close();
});

// Text crosses into wasm through the engine's input buffer (engine_fast_path.js),
// which grows for large input, is freed after a bulk load, and must take
// characters of any width; chunks come back through wasm memory.
test('ingest of text of any size and alphabet, and chunks back, through the input buffer', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  const changes = p.egress('by_region')[Symbol.asyncIterator]();
  const regions = ['nörd', '東京', 'emoji 🚀'.repeat(800), 'x'.repeat(5000)];  // 2- to 4-byte characters, ~12 KB
  p.ingest('customers', '');  // before any buffer exists
  p.insert('customers', regions.map((region, id) => ({ id, region })));
  const bulk = Array.from({ length: 40000 }, (_, id) => ({ id, customer: id % 4, amount: 1 }));  // ~1.6 MB of JSON
  assert.ok(JSON.stringify(bulk).length > 1 << 20);
  p.insert('orders', bulk);
  p.ingest('orders', '');  // after the bulk load freed the buffer: blank input, no records
  p.ingest('orders', new Uint8Array(0), { format: 'csv' });
  p.ingest('orders', new TextEncoder().encode('[{"id": 40000, "customer": 1, "amount": 2}]'), { updateFormat: 'raw' });
  p.delete('orders', { id: 0 });
  assert.throws(() => p.ingest('Orders', '[]'), { code: 'UNKNOWN_TABLE', message: "unknown table 'Orders'" });
  p.insert('orders', [{ id: 40001, customer: 1, amount: 0.5 }]);
  assert.equal(p.step().inputRecords, 4 + 40000 + 3);
  const { value } = await changes.next();
  assert.deepEqual(bag(value.inserts), bag([
    { region: 'nörd', orders: 9999, total: 9999 },
    { region: '東京', orders: 10002, total: 10002.5 },
    { region: regions[2], orders: 10000, total: 10000 },
    { region: regions[3], orders: 10000, total: 10000 },
  ]));
  assert.deepEqual(bag(p.snapshot('by_region')), bag(value.inserts));
  assert.throws(() => p.insert('orders', [{ id: 1, customer: 'ü' }]), (error) => error.code === 'PARSE_ERROR' &&
                /table 'orders': record 0/.test(error.message));
  p.close();
});

test('insert() and delete(): by key for a table with a PRIMARY KEY, inserting a key again replaces the row', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  p.insert('customers', { id: 1, region: 'north' });
  p.insert('orders', [{ id: 1, customer: 1, amount: 10 }, { id: 2, customer: 1, amount: 20 }]);
  p.step();
  p.insert('orders', { id: 1, customer: 1, amount: 15 });
  p.delete('orders', { id: 2 });
  p.step();
  assert.deepEqual(p.snapshot('by_region'), [{ region: 'north', orders: 1, total: 15 }]);
  p.close();
});

test('delete() of a whole row removes one copy from a table without a key', async () => {
  const p = await Pipeline.create({
    sql: 'CREATE TABLE t (x INT, y VARCHAR); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;',
  });
  p.pause();
  p.insert('t', [{ x: 1, y: 'a' }, { x: 1, y: 'a' }, { x: 2, y: 'b' }]);
  p.step();
  assert.equal(p.snapshot('v').length, 3);
  p.delete('t', { x: 1, y: 'a' });
  p.step();
  assert.deepEqual(bag(p.snapshot('v')), bag([{ x: 1, y: 'a' }, { x: 2, y: 'b' }]));
  p.close();
});

test('completion tokens: inprogress until the step ran and every connector took the output', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  p.addOutput('slow', { view: 'by_region', sink: { write: () => gate } });
  p.insert('customers', { id: 1, region: 'north' });
  const token = p.insert('orders', { id: 1, customer: 1, amount: 1 });
  assert.equal(typeof token, 'string');
  assert.equal(p.completionStatus(token), 'inprogress');
  p.step();
  await tick(5);
  assert.equal(p.completionStatus(token), 'inprogress');
  const done = p.waitForCompletion(token);
  release();
  await done;
  assert.equal(p.completionStatus(token), 'complete');
  p.close();
});

test('waitForCompletion resolves after an automatic step with an egress stream attached', async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  const changes = p.egress('by_region');
  const token = p.insert('customers', { id: 1, region: 'north' });
  await p.waitForCompletion(token);
  assert.equal(p.completionStatus(token), 'complete');
  changes.close();
  p.close();
});

test('snapshot() and lookup() by object, array or single value', async () => {
  const p = await Pipeline.create({
    sql: `${ORDERS_SQL} CREATE MATERIALIZED VIEW pairs AS SELECT customer, id, amount FROM orders;
          CREATE INDEX pairs_idx ON pairs(customer, id);`,
  });
  p.pause();
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }]);
  p.insert('orders', [{ id: 1, customer: 1, amount: 1 }, { id: 2, customer: 2, amount: 2 }]);
  p.step();
  assert.deepEqual(p.lookup('by_region_idx', { region: 'south' }), [{ region: 'south', orders: 1, total: 2 }]);
  assert.deepEqual(p.lookup('by_region_idx', ['north']), [{ region: 'north', orders: 1, total: 1 }]);
  assert.deepEqual(p.lookup('by_region_idx', 'north'), [{ region: 'north', orders: 1, total: 1 }]);
  assert.deepEqual(p.lookup('by_region_idx', 'east'), []);
  assert.deepEqual(p.lookup('pairs_idx', [2, 2]), [{ customer: 2, id: 2, amount: 2 }]);
  assert.deepEqual(p.lookup('pairs_idx', { id: 1, customer: 1 }), [{ customer: 1, id: 1, amount: 1 }]);
  assert.throws(() => p.lookup('pairs_idx', [1]), { code: 'INVALID_ARGUMENT' });
  assert.throws(() => p.lookup('pairs_idx', { id: 1 }), { code: 'INVALID_ARGUMENT' });
  p.close();
});

test('values: BIGINT beyond 2^53 as BigInt, DATE and TIMESTAMP strings, DECIMAL, BOOLEAN, NULL', async () => {
  const p = await Pipeline.create({
    sql: `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, big BIGINT, d DATE, ts TIMESTAMP, price DECIMAL(10, 2),
                         ok BOOLEAN, note VARCHAR, x DOUBLE);
          CREATE MATERIALIZED VIEW v AS SELECT * FROM t;
          CREATE INDEX v_big ON v(big);`,
  });
  p.pause();
  const huge = 2n ** 62n + 1n;
  p.insert('t', [
    { id: 1, big: huge, d: '2024-02-29', ts: '2024-02-29 13:45:01.250', price: 12.5, ok: true, note: null, x: 1e16 },
    { id: 2, big: -huge, d: '1970-01-01', ts: '1970-01-01 00:00:00', price: 0, ok: false, note: '\u0000zero', x: 0.5 },
    { id: 3, big: 42, d: null, ts: null, price: null, ok: null, note: '12345678901234567890', x: null },
  ]);
  p.step();
  const rows = new Map(p.snapshot('v').map((row) => [row.id, row]));
  assert.equal(rows.get(1).big, huge);
  assert.equal(rows.get(1).d, '2024-02-29');
  assert.equal(rows.get(1).ts, '2024-02-29 13:45:01.250');
  assert.equal(rows.get(1).price, 12.5);
  assert.equal(rows.get(1).ok, true);
  assert.equal(rows.get(1).note, null);
  assert.equal(rows.get(1).x, 1e16);   // a DOUBLE stays a number however many digits it prints
  assert.equal(rows.get(2).big, -huge);
  assert.equal(rows.get(2).note, '\u0000zero');
  assert.equal(rows.get(3).big, 42);    // inside ±(2^53 − 1): a number
  assert.equal(rows.get(3).note, '12345678901234567890');
  assert.deepEqual(p.lookup('v_big', huge).map((row) => row.id), [1]);
  p.close();
});

test('values: TIME as a string in and out, intervals as their CAST text', async () => {
  const p = await Pipeline.create({
    sql: `CREATE TABLE shifts (id BIGINT NOT NULL PRIMARY KEY, starts TIME, ends TIME);
          CREATE MATERIALIZED VIEW v AS SELECT id, starts, (ends - starts) MINUTE AS length,
            starts + INTERVAL '1:30' HOUR TO MINUTE AS later FROM shifts;`,
  });
  p.pause();
  p.insert('shifts', [
    { id: 1, starts: '08:00:00', ends: '16:30:00.25' },
    { id: 2, starts: '23:00:00', ends: '23:59:59' },
    { id: 3, starts: null, ends: null },
  ]);
  p.step();
  const rows = new Map(p.snapshot('v').map((row) => [row.id, row]));
  assert.deepEqual(rows.get(1), { id: 1, starts: '08:00:00', length: '+510', later: '09:30:00' });
  assert.deepEqual(rows.get(2), { id: 2, starts: '23:00:00', length: '+59', later: '00:30:00' });
  assert.deepEqual(rows.get(3), { id: 3, starts: null, length: null, later: null });
  p.close();
});

test('stats: updates dropped by a LATENESS column are lateRecords; TUMBLE windows in a view', async () => {
  const p = await Pipeline.create({
    sql: `CREATE TABLE ev (ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' MINUTE, n INT);
          CREATE TABLE plain (n INT);
          CREATE MATERIALIZED VIEW per_minute AS SELECT window_start, SUM(n) AS total
            FROM TABLE(TUMBLE(TABLE ev, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start;`,
  });
  p.pause();
  p.insert('ev', [{ ts: '2024-01-01 10:00:30', n: 1 }]);
  p.step();
  // The watermark is 09:59:30: 09:59:29 is late, 09:59:30 is on time.
  p.insert('ev', [{ ts: '2024-01-01 09:59:29', n: 2 }, { ts: '2024-01-01 09:59:30', n: 4 }]);
  p.step();
  const stats = p.stats();
  assert.equal(stats.inputs.ev.totalRecords, 3);
  assert.equal(stats.inputs.ev.lateRecords, 1);
  assert.equal(stats.inputs.plain.lateRecords, 0);
  const rows = new Map(p.snapshot('per_minute').map((row) => [row.window_start, row.total]));
  assert.deepEqual([...rows.entries()].sort(), [['2024-01-01 09:59:00', 4], ['2024-01-01 10:00:00', 1]]);
  p.close();
});
