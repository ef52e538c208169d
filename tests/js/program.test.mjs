// p.program: the program's description from the engine — its exact shape,
// deep-frozen, and in agreement with what the pipeline does (snapshots of
// materialized views only, lookups by each index's key, deletes by primary
// key, late rows dropped by the LATENESS column), for a sample program and
// for every program of the SQL scenario files (tests/sql/*.test).
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';

import { Pipeline } from 'freshet';

const SQL = `
CREATE TABLE orders (id BIGINT PRIMARY KEY, region VARCHAR(20) NOT NULL, amount DECIMAL(10, 2),
                     ts TIMESTAMP NOT NULL LATENESS INTERVAL '1' HOUR);
CREATE TABLE "Events" (n INT LATENESS 10, w DOUBLE);
CREATE MATERIALIZED VIEW totals AS SELECT region, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY region;
CREATE VIEW big AS SELECT id, amount FROM orders WHERE amount > 100;
CREATE VIEW by_n AS SELECT n, w FROM "Events";
CREATE INDEX by_n_key ON by_n(n);
`;

const column = (name, type, nullable, extra = {}) => ({ name, type, nullable, ...extra });

test('p.program describes tables, views and indexes as the compiler knows them', async () => {
  const p = await Pipeline.create({ sql: SQL });
  assert.deepEqual(p.program, {
    tables: [
      {
        name: 'orders',
        columns: [column('id', 'BIGINT', false), column('region', 'VARCHAR(20)', false, { length: 20 }),
                  column('amount', 'DECIMAL(10, 2)', true, { precision: 10, scale: 2 }), column('ts', 'TIMESTAMP', false)],
        primaryKey: ['id'],
        materialized: false,
        properties: {},
        connectors: [],
        lateness: [{ column: 'ts', lateness: "INTERVAL '1' HOUR" }],
      },
      {
        name: 'Events',
        columns: [column('n', 'INTEGER', true), column('w', 'DOUBLE', true)],
        primaryKey: [],
        materialized: false,
        properties: {},
        connectors: [],
        lateness: [{ column: 'n', lateness: '10' }],
      },
    ],
    views: [
      {
        name: 'totals',
        columns: [column('region', 'VARCHAR(20)', false, { length: 20 }),
                  column('total', 'DECIMAL(38, 2)', true, { precision: 38, scale: 2 }), column('n', 'BIGINT', false)],
        materialized: true,
        properties: {},
        connectors: [],
        indexes: [],
      },
      {
        name: 'big',
        columns: [column('id', 'BIGINT', false), column('amount', 'DECIMAL(10, 2)', true, { precision: 10, scale: 2 })],
        materialized: false,
        properties: {},
        connectors: [],
        indexes: [],
      },
      {
        name: 'by_n',
        columns: [column('n', 'INTEGER', true), column('w', 'DOUBLE', true)],
        materialized: true,  // not declared MATERIALIZED, but indexed
        properties: {},
        connectors: [],
        indexes: [{ name: 'by_n_key', view: 'by_n', key: ['n'] }],
      },
    ],
    systemViews: [
      {
        name: 'error_view',
        columns: [column('table_or_view_name', 'VARCHAR', false), column('message', 'VARCHAR', false),
                  column('metadata', 'VARCHAR', false)],
        materialized: true,
        properties: {},
        connectors: [],
        indexes: [],
      },
    ],
    readsNow: false,
    warnings: [],
  });
  p.close();
});

/** Every object and array inside `value`, itself included. */
function* everything(value) {
  yield value;
  for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') yield* everything(inner);
}

test('p.program is deep-frozen, read once, and still there after close()', async () => {
  const p = await Pipeline.create({ sql: SQL });
  const program = p.program;
  assert.equal(p.program, program, 'the same object on every read');
  let count = 0;
  for (const part of everything(program)) {
    assert.ok(Object.isFrozen(part), JSON.stringify(part));
    count += 1;
  }
  assert.ok(count > 20, `${count} objects and arrays`);
  assert.throws(() => { program.views[0].name = 'renamed'; }, TypeError);
  assert.throws(() => { program.tables.push({}); }, TypeError);
  assert.throws(() => { program.views[2].indexes[0].key[0] = 'w'; }, TypeError);
  assert.throws(() => { program.tables[0].columns[1].nullable = true; }, TypeError);
  const reading = await Pipeline.create({ sql: SQL });
  assert.deepEqual(reading.program, program, "the engine's description does not depend on what a reader did");
  p.close();
  assert.equal(p.program, program);
  reading.close();
});

test('p.program agrees with the pipeline: snapshots, keys, lookups, LATENESS, NOW()', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  const [orders, events] = p.program.tables;
  p.insert(orders.name, [{ id: 1, region: 'n', amount: 150, ts: '2024-01-01 10:00:00' },
                         { id: 2, region: 'n', amount: 5, ts: '2024-01-01 10:00:00' }]);
  p.insert(events.name, [{ n: 100, w: 1.5 }]);
  p.step();
  p.delete(orders.name, Object.fromEntries(orders.primaryKey.map((key) => [key, 2])));  // by key alone
  p.insert(orders.name, [{ id: 3, region: 'n', amount: 1, ts: '2024-01-01 08:59:59' }]);  // more than an hour late
  p.insert(events.name, [{ n: 89, w: 0 }]);  // more than 10 behind 100
  p.step();
  assert.equal(p.stats().inputs.orders.lateRecords, 1);
  assert.equal(p.stats().inputs.Events.lateRecords, 1);
  for (const view of p.program.views) {
    if (!view.materialized) {
      assert.throws(() => p.snapshot(view.name), { code: 'NOT_MATERIALIZED' }, view.name);
      continue;
    }
    const rows = p.snapshot(view.name);
    assert.equal(rows.length, 1, view.name);
    assert.deepEqual(Object.keys(rows[0]), view.columns.map((c) => c.name), `${view.name}: columns in order`);
    for (const index of view.indexes) {
      assert.deepEqual(p.lookup(index.name, index.key.map((key) => rows[0][key])), rows);
    }
  }
  assert.deepEqual(p.snapshot('totals'), [{ region: 'n', total: 150, n: 1 }]);
  p.close();
  const clocked = await Pipeline.create({ sql: 'CREATE TABLE t (ts TIMESTAMP); CREATE VIEW v AS SELECT ts FROM t WHERE ts > NOW();' });
  assert.equal(clocked.program.readsNow, true);
  clocked.close();
});

/** The `program` blocks of tests/sql/*.test (format in tests/sql/README.md). */
function scenarioPrograms() {
  const folder = new URL('../sql/', import.meta.url);
  const programs = [];
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.test')).sort()) {
    const lines = readFileSync(new URL(file, folder), 'utf8').split('\n');
    lines.forEach((line, at) => {
      if (line !== 'program') return;
      const end = lines.indexOf('----', at);
      programs.push({ where: `${file}:${at + 1}`, sql: lines.slice(at + 1, end).join('\n') });
    });
  }
  return programs;
}

test('every scenario program: the description names what the pipeline has, and nothing else', async () => {
  const programs = scenarioPrograms();
  assert.ok(programs.length >= 100, `${programs.length} programs`);
  for (const { where, sql } of programs) {
    const p = await Pipeline.create({ sql });
    p.pause();
    const { tables, views } = p.program;
    for (const table of tables) p.insert(table.name, []);  // every table takes input under its name
    assert.throws(() => p.insert('no_such_table', []), { code: 'UNKNOWN_TABLE' }, where);
    for (const view of views) {
      assert.ok(view.columns.length > 0, `${where}: ${view.name}`);
      if (view.materialized) assert.deepEqual(p.snapshot(view.name), [], `${where}: ${view.name}`);
      else assert.throws(() => p.snapshot(view.name), { code: 'NOT_MATERIALIZED' }, `${where}: ${view.name}`);
      for (const index of view.indexes) p.egress(view.name, { index: index.name }).close();
      assert.throws(() => p.egress(view.name, { index: `${view.name}_none` }), { code: 'UNKNOWN_INDEX' }, where);
    }
    assert.throws(() => p.snapshot('no_such_view'), { code: 'UNKNOWN_VIEW' }, where);
    let stepped = true;
    try {
      p.step();
    } catch (error) {
      stepped = false;  // a scenario about a runtime error (1/0 in a view over no table)
      assert.equal(error.code, 'INVALID_ARGUMENT', `${where}: ${error.message}`);
    }
    if (stepped) assert.equal(p.now !== null, p.program.readsNow, `${where}: NOW() has a value after a step only when a view reads it`);
    p.close();
  }
});
