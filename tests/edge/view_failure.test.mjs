// A runtime error fails one view over HTTP, on real workerd: /stats shows it
// (views.{name}.failed, snake_case), a query or a new egress of it answers
// 503 with its error in Feldera's shape, an egress open when it failed ends
// with an error line, and the pipeline stays Running for the other views.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertError, edgeWorker, ndjsonReader, sortedRows, until } from './support.mjs';

const SQL = `
CREATE TABLE t (x INT);
CREATE TABLE u (y INT);
CREATE MATERIALIZED VIEW ratio AS SELECT 36 / COUNT(*) AS r FROM t;
CREATE MATERIALIZED VIEW doubled AS SELECT r * 2 AS d FROM ratio;
CREATE MATERIALIZED VIEW u_big AS SELECT y FROM u WHERE y > 1;
`;
const RATIO_ERROR = "view 'ratio' failed at step 0: map: division by zero in (36 / COUNT(*))";

let edge;
before(async () => {
  edge = await edgeWorker();
  assert.equal((await edge.call('PUT', 'vf', { program_code: SQL })).status, 201);
});
after(() => edge?.stop());

async function ingest(table, rows) {
  const { body } = await edge.call('POST', `vf/ingress/${table}?update_format=raw`, rows);
  await until(async () => (await edge.call('GET', `vf/completion_status?token=${body.token}`)).body.status === 'complete',
              { what: `the rows of ${table} to be stepped` });
}

test('a failed view answers its error; the other views and the pipeline go on', async () => {
  const response = await fetch(`${edge.url}/v0/pipelines/vf/egress/doubled`, { method: 'POST' });
  assert.equal(response.status, 200);
  const open = ndjsonReader(response);
  await ingest('u', [{ y: 1 }, { y: 5 }]);

  let line;
  do line = await open.next(); while (line && !line.error);
  assert.deepEqual(line.error, {
    message: "view 'doubled' failed at step 0: map: division by zero in (36 / COUNT(*)) (in view 'ratio', which it reads)",
    error_code: 'INVALID_ARGUMENT',
    details: { view: 'doubled', step: 0, view_failed: true },
  });

  const stats = (await edge.call('GET', 'vf/stats')).body;
  assert.deepEqual(stats.views, {
    ratio: { failed: { code: 'INVALID_ARGUMENT', message: RATIO_ERROR, step: 0 }, nulled_errors: 0 },
    doubled: { failed: { code: 'INVALID_ARGUMENT', message: "view 'doubled' failed at step 0: map: division by zero in (36 / COUNT(*)) (in view 'ratio', which it reads)", step: 0 }, nulled_errors: 0 },
    u_big: { failed: null, nulled_errors: 0 },
  });
  assert.equal(stats.global_metrics.state, 'Running');
  assert.equal(stats.failure, null);

  const query = await edge.call('GET', `vf/query?sql=${encodeURIComponent('SELECT * FROM ratio')}&format=json`);
  assertError(query, 503, 'INVALID_ARGUMENT', /^view 'ratio' failed at step 0: map: division by zero in \(36 \/ COUNT\(\*\)\)$/);
  assert.deepEqual(query.body.details, { view: 'ratio', step: 0, view_failed: true });
  const egress = await edge.call('POST', 'vf/egress/ratio?send_snapshot=true');
  assertError(egress, 503, 'INVALID_ARGUMENT', /^view 'ratio' failed/);

  await ingest('t', [{ x: 3 }]);
  await ingest('u', [{ y: 7 }]);
  const rows = await edge.call('GET', `vf/query?sql=${encodeURIComponent('SELECT * FROM u_big')}&format=json_array`);
  assert.equal(rows.status, 200, JSON.stringify(rows.body));
  assert.deepEqual(sortedRows(rows.body), sortedRows([{ y: 5 }, { y: 7 }]));
  const later = (await edge.call('GET', 'vf/stats')).body;
  assert.equal(later.views.ratio.failed.step, 0);
  assert.equal(later.global_metrics.state, 'Running');
});

test('a PUT of the same program recovers the failed views; the others keep their state', async () => {
  // The first test left t = {3} (36 / 1), u = {1, 5, 7}, and ratio, doubled failed.
  const put = await edge.call('PUT', 'vf', { program_code: SQL });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const stats = (await edge.call('GET', 'vf/stats')).body;
  assert.deepEqual(stats.views, {
    ratio: { failed: null, nulled_errors: 0 },
    doubled: { failed: null, nulled_errors: 0 },
    u_big: { failed: null, nulled_errors: 0 },
  });
  const query = async (view) =>
    (await edge.call('GET', `vf/query?sql=${encodeURIComponent(`SELECT * FROM ${view}`)}&format=json_array`)).body;
  assert.deepEqual(await query('ratio'), [{ r: 36 }]);
  assert.deepEqual(await query('doubled'), [{ d: 72 }]);
  assert.deepEqual(sortedRows(await query('u_big')), sortedRows([{ y: 5 }, { y: 7 }]));
  await ingest('t', [{ x: 4 }]);
  assert.deepEqual(await query('ratio'), [{ r: 18 }]);
});
