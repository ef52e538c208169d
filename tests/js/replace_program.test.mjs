// Program changes through the package: p.replaceProgram(sql) recovers a
// view failed on a transient state (issue 22) and keeps what did not
// change, streams included; a checkpoint resumes a changed program with the
// new view bootstrapped, or says PROGRAM_MISMATCH naming the view, the table
// and the fix.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryStorage, Pipeline } from 'freshet';

const SQL = `CREATE TABLE t(x INT);
CREATE MATERIALIZED VIEW q AS SELECT 36 / COUNT(*) AS r FROM t;
CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) c FROM t;`;

test('replaceProgram with the same SQL recovers a failed view; the others keep their state and streams', async () => {
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: SQL, storage });
  p.pause();
  const onW = p.egress('w', { sendSnapshot: true });
  p.step();  // t is empty: 36 / 0 fails q, w steps on
  assert.equal(p.stats().views.q.failed.code, 'INVALID_ARGUMENT');
  assert.equal(p.stats().views.w.failed, null);
  p.insert('t', [{ x: 1 }, { x: 2 }, { x: 3 }]);
  p.step();
  assert.deepEqual((await onW.next()).value.inserts, [{ c: 0 }]);
  assert.deepEqual((await onW.next()).value.inserts, [{ c: 3 }]);

  const replaced = await p.replaceProgram(SQL);
  assert.deepEqual(replaced.rebuiltViews, ['q'], 'w is not recomputed');
  assert.ok(replaced.restoredOperators > 0 && replaced.rebuiltOperators > 0, JSON.stringify(replaced));
  assert.equal(p.stats().views.q.failed, null);
  assert.deepEqual(p.snapshot('q'), [{ r: 12 }]);
  assert.deepEqual(p.snapshot('w'), [{ c: 3 }]);

  // w's stream goes on: nothing from the replacement, then the next step's change.
  p.insert('t', { x: 4 });
  p.step();
  const next = (await onW.next()).value;
  assert.deepEqual([next.deletes, next.inserts], [[{ c: 3 }], [{ c: 4 }]]);
  assert.deepEqual(p.snapshot('q'), [{ r: 9 }]);

  await p.checkpoint();
  await p.close({ checkpoint: false });
  const resumed = await Pipeline.create({ sql: SQL, storage });
  assert.deepEqual(resumed.snapshot('q'), [{ r: 9 }]);
  assert.equal(resumed.stats().views.q.failed, null);
  await resumed.close();
});

test('a removed view ends its streams with UNKNOWN_VIEW; a bad program changes nothing', async () => {
  const p = await Pipeline.create({ sql: SQL });
  p.pause();
  p.insert('t', { x: 1 });
  p.step();
  const onQ = p.egress('q');
  await assert.rejects(p.replaceProgram('CREATE TABLE t(x INT); CREATE VIEW oops AS SELECT nope FROM t;'),
    (error) => error.code === 'SQL_ERROR');
  assert.deepEqual(p.snapshot('q'), [{ r: 36 }]);
  await assert.rejects(p.replaceProgram('CREATE TABLE t(x INT, y INT);'), (error) => error.code === 'PROGRAM_MISMATCH');
  const replaced = await p.replaceProgram('CREATE TABLE t(x INT); CREATE MATERIALIZED VIEW w AS SELECT COUNT(*) c FROM t;');
  assert.deepEqual(replaced.rebuiltViews, []);
  await assert.rejects(onQ.next(), (error) => error.code === 'UNKNOWN_VIEW');
  assert.deepEqual(p.snapshot('w'), [{ c: 1 }]);
  await p.close();
});

test('a checkpoint resumes a changed program: the new view is bootstrapped, or PROGRAM_MISMATCH says why', async () => {
  const base = 'CREATE TABLE k (id INT NOT NULL PRIMARY KEY, v INT); CREATE TABLE e (v INT);' +
    'CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS n FROM k;';
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: base, storage });
  p.pause();
  p.insert('k', [{ id: 1, v: 10 }, { id: 2, v: 20 }]);
  p.step();
  await p.close();  // checkpoints

  const bootstrapped = await Pipeline.create({ sql: base + 'CREATE MATERIALIZED VIEW big AS SELECT id FROM k WHERE v > 15;', storage });
  assert.deepEqual(bootstrapped.snapshot('big'), [{ id: 2 }]);
  assert.deepEqual(bootstrapped.snapshot('n'), [{ n: 2 }]);
  assert.equal(bootstrapped.stats().step, 1);
  await bootstrapped.close({ checkpoint: false });

  const overE = base + 'CREATE MATERIALIZED VIEW ev AS SELECT DISTINCT v FROM e;';
  await assert.rejects(Pipeline.create({ sql: overE, storage }), (error) => {
    assert.equal(error.code, 'PROGRAM_MISMATCH');
    assert.match(error.message, /view 'ev'.*table 'e'.*PRIMARY KEY.*'materialized' = 'true'/s);
    return true;
  });
  const fresh = await Pipeline.create({ sql: overE, storage, onProgramChange: 'restart' });
  assert.equal(fresh.stats().step, 0);
  await fresh.close({ checkpoint: false });
});
