// p.query(sql, limits): the engine's bounds on an ad-hoc query (QueryLimits
// in core/include/freshet/pipeline/pipeline.h). A runaway cross join fails
// with LIMIT_EXCEEDED instead of taking the memory, the answer is bounded by
// rows (counted by weight) and bytes, and the pipeline answers on.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FreshetError, Pipeline } from 'freshet';

const PROGRAM = `CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW v AS SELECT * FROM t;`;

async function pipelineWith(count) {
  const p = await Pipeline.create({ sql: PROGRAM });
  p.insert('t', Array.from({ length: count }, (_, i) => ({ id: i, name: `row ${i}` })));
  p.step();
  return p;
}

async function assertLimit(promise, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof FreshetError);
    assert.equal(error.code, 'LIMIT_EXCEEDED');
    assert.match(error.message, message);
    return true;
  });
}

test('a cross join of two 3,000-row relations stops at the default work bound; the bound, not the query, refuses', async () => {
  const p = await pipelineWith(3000);
  await assertLimit(p.query('SELECT a.id, b.id AS other FROM v a, t b'), /on the way/);
  // 9,000,000 pairs to compare (COUNT(*) alone would not: its empty rows consolidate to one of weight 3,000 each side).
  await assertLimit(p.query('SELECT COUNT(*) AS n FROM v a, t b WHERE a.name <> b.name'), /more than 4000000 rows on the way/);
  // A join fused with its aggregate builds no entry per pair: its pairs are counted as they are matched.
  // (An inner equi-join without residual is fused; every id / 3000 is 0: 9,000,000 pairs.)
  const fused = 'SELECT a.id, SUM(b.id) AS s FROM v a JOIN t b ON a.id / 3000 = b.id / 3000 GROUP BY a.id';
  await assertLimit(p.query(fused), /more than 4000000 rows on the way/);
  // 900,000 pairs: within the default bound, not within a bound of 100,000.
  const narrower = 'SELECT COUNT(*) AS n FROM v a, t b WHERE a.name <> b.name AND a.id < 300';
  assert.deepEqual(await p.query(narrower), [{ n: 300 * 3000 - 300 }]);
  await assertLimit(p.query(narrower, { maxWorkRows: 100_000 }), /more than 100000 rows on the way/);
  assert.equal((await p.query('SELECT * FROM v')).length, 3000);
  p.close();
});

test('the answer is bounded by rows, counted by weight, and by bytes', async () => {
  const p = await pipelineWith(100);
  await assertLimit(p.query('SELECT * FROM v', { maxRows: 99 }), /more than 99 rows/);
  assert.equal((await p.query('SELECT * FROM v', { maxRows: 100 })).length, 100);
  await assertLimit(p.query('SELECT 1 AS one FROM v', { maxRows: 10 }), /more than 10 rows/);
  await assertLimit(p.query('SELECT * FROM v', { maxBytes: 500 }), /more than 500 bytes/);
  await assertLimit(p.query('SELECT * FROM v WHERE id >= 0', { maxWorkBytes: 1000 }), /1000 bytes on the way/);
  await assert.rejects(p.query('SELECT * FROM v', { maxRows: -1 }), { code: 'INVALID_ARGUMENT' });
  p.close();
});
