// onRuntimeError and error_view through the package: 'null' makes a failing
// expression NULL (counted in stats().views, listed in error_view) and the
// view is right once rows arrive; a view's WITH ('on_runtime_error' = ...)
// overrides the pipeline's both ways; error_view reads through snapshot,
// query and egress, is bounded by errorViewRetention and survives a
// checkpoint. The option is validated.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FreshetError, MemoryStorage, Pipeline } from 'freshet';

const SQL = `
CREATE TABLE t (x INT);
CREATE MATERIALIZED VIEW r AS SELECT 36 / COUNT(*) AS r FROM t;
`;

const listed = (p) => p.snapshot('error_view').map((row) => `${row.table_or_view_name}: ${row.message}`).sort();

test("onRuntimeError 'null': NULL on the empty table, counted and listed, right once rows arrive", async () => {
  const p = await Pipeline.create({ sql: SQL, onRuntimeError: 'null' });
  p.pause();
  p.step();
  assert.deepEqual(p.snapshot('r'), [{ r: null }]);
  assert.equal(p.stats().views.r.nulledErrors, 1);
  assert.deepEqual(listed(p), ['r: division by zero in (36 / COUNT(*))']);
  const [row] = p.snapshot('error_view');
  const metadata = JSON.parse(row.metadata);
  assert.equal(metadata.kind, 'runtime_error');
  assert.equal(metadata.step, 0);
  assert.equal(metadata.error_code, 'INVALID_ARGUMENT');
  assert.equal(metadata.expression, '(36 / COUNT(*))');  // over the operator's input's column names

  p.insert('t', [{ x: 1 }, { x: 2 }]);
  p.step();
  assert.deepEqual(p.snapshot('r'), [{ r: 18 }]);
  // From scratch: the same rows in a fresh pipeline give the same answer.
  const fresh = await Pipeline.create({ sql: SQL, onRuntimeError: 'null' });
  fresh.pause();
  fresh.insert('t', [{ x: 1 }, { x: 2 }]);
  fresh.step();
  assert.deepEqual(fresh.snapshot('r'), p.snapshot('r'));
  fresh.close();
  assert.deepEqual(await p.query("SELECT COUNT(*) AS n FROM error_view WHERE table_or_view_name = 'r'"), [{ n: 1 }]);  // the NULL row's retraction is no new error
  assert.deepEqual(p.program.systemViews.map((view) => view.name), ['error_view']);
  assert.ok(!p.program.views.some((view) => view.name === 'error_view'));
  p.close();
});

test("the default 'fail' mode still fails the view; a view's WITH ('on_runtime_error' = 'null') overrides it", async () => {
  const p = await Pipeline.create({ sql: `
    CREATE TABLE t (a INT, b INT);
    CREATE MATERIALIZED VIEW n WITH ('on_runtime_error' = 'null') AS SELECT a / b AS q FROM t;
    CREATE MATERIALIZED VIEW plain AS SELECT a FROM t;` });
  p.pause();
  p.insert('t', [{ a: 1, b: 0 }, { a: 6, b: 3 }]);
  p.step();
  assert.deepEqual(p.snapshot('n').map((row) => row.q).sort(), [2, null]);
  assert.deepEqual(p.stats().views, { n: { failed: null, nulledErrors: 1 }, plain: { failed: null, nulledErrors: 0 } });
  p.close();

  const q = await Pipeline.create({ sql: `
    CREATE TABLE t (a INT, b INT);
    CREATE MATERIALIZED VIEW f WITH ('on_runtime_error' = 'fail') AS SELECT a / b AS q FROM t;`, onRuntimeError: 'null' });
  q.pause();
  q.insert('t', [{ a: 1, b: 0 }]);
  q.step();  // the step succeeds; the view fails (and would take its dependents with it), never NULL
  assert.equal(q.stats().views.f.failed?.code, 'INVALID_ARGUMENT');
  assert.throws(() => q.snapshot('f'), (error) => error instanceof FreshetError && /division by zero/.test(error.message));
  assert.equal(q.stats().views.f.nulledErrors, 0);
  q.close();
});

test('error_view through egress, bounded by errorViewRetention, kept by a checkpoint', async () => {
  const storage = new MemoryStorage();
  const sql = 'CREATE TABLE t (a INT, b INT);\nCREATE MATERIALIZED VIEW q AS SELECT a / b AS q FROM t;';
  const p = await Pipeline.create({ sql, storage, onRuntimeError: 'null', errorViewRetention: 2 });
  p.pause();
  const changes = p.egress('error_view', { sendSnapshot: true });
  p.insert('t', [{ a: 1, b: 0 }, { a: 2, b: 0 }, { a: 3, b: 0 }]);
  p.step();
  const iterator = changes[Symbol.asyncIterator]();
  const first = (await iterator.next()).value;
  assert.equal(first.snapshot, true);
  assert.equal(first.inserts.length, 2);  // 3 listed, the retention keeps 2
  assert.deepEqual(p.stats().errorView, { rows: 2, retention: 2, evicted: 1 });
  assert.equal(p.stats().views.q.nulledErrors, 3);
  changes.close();
  await p.checkpoint();
  const before = p.snapshot('error_view');
  p.close();
  const again = await Pipeline.create({ sql, storage, onRuntimeError: 'null', errorViewRetention: 2 });
  assert.deepEqual(again.snapshot('error_view'), before);
  assert.equal(again.stats().views.q.nulledErrors, 3);
  again.close();
});

test('onRuntimeError and errorViewRetention are validated; error_view is a reserved name', async () => {
  await assert.rejects(Pipeline.create({ sql: SQL, onRuntimeError: 'ignore' }),
    (error) => error.code === 'INVALID_ARGUMENT' && /onRuntimeError is 'fail' or 'null', not 'ignore'/.test(error.message));
  await assert.rejects(Pipeline.create({ sql: SQL, errorViewRetention: -1 }), (error) => error.code === 'INVALID_ARGUMENT');
  await assert.rejects(Pipeline.create({ sql: 'CREATE TABLE t (x INT);\nCREATE VIEW error_view AS SELECT x FROM t;' }),
    (error) => error.code === 'SQL_ERROR' && /'error_view' is the name of the system view/.test(error.message));
  await assert.rejects(Pipeline.create({ sql: "CREATE TABLE t (x INT);\nCREATE VIEW v WITH ('on_runtime_error' = 'x') AS SELECT x FROM t;" }),
    (error) => error.code === 'SQL_ERROR' && /property 'on_runtime_error' of view 'v' must be 'fail' or 'null'/.test(error.message));
});
