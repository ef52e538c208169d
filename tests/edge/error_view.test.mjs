// The runtime error mode 'null' and error_view on real workerd over HTTP:
// the PUT body's on_runtime_error (Freshet's field; Feldera has no such
// mode), /stats' nulled_errors per view, error_view over the egress route
// (its snapshot) and the query route; a bad mode is 400.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertError, edgeWorker, ndjsonReader, until } from './support.mjs';

const SQL = `
CREATE TABLE t (x INT) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW r AS SELECT 36 / COUNT(*) AS r FROM t;
`;

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());

test("on_runtime_error 'null': NULL, counted in /stats, listed in error_view over egress and query", async () => {
  assert.ok((await edge.call('PUT', 'nm', { program_code: SQL, on_runtime_error: 'null' })).status < 300);
  await edge.call('POST', 'nm/step');
  await until(async () => (await edge.call('GET', 'nm/query?sql=SELECT * FROM r')).body?.length === 1,
    { what: 'the first step' });
  assert.deepEqual((await edge.call('GET', 'nm/query?sql=SELECT * FROM r')).body, [{ r: null }]);
  const stats = (await edge.call('GET', 'nm/stats')).body;
  assert.equal(stats.views.r.nulled_errors, 1);
  assert.equal(stats.error_view.rows, 1);

  const response = await fetch(`${edge.url}/v0/pipelines/nm/egress/error_view?send_snapshot=true`, { method: 'POST' });
  assert.equal(response.status, 200);
  const reader = ndjsonReader(response);
  const snapshot = await reader.next();
  assert.equal(snapshot.snapshot, true);
  assert.equal(snapshot.json_data.length, 1);
  const row = snapshot.json_data[0].insert;
  assert.equal(row.table_or_view_name, 'r');
  assert.equal(row.message, 'division by zero in (36 / COUNT(*))');
  assert.equal(JSON.parse(row.metadata).kind, 'runtime_error');

  await reader.cancel();
  await edge.call('POST', 'nm/ingress/t?update_format=raw', [{ x: 1 }, { x: 2 }]);
  await until(async () => (await edge.call('GET', 'nm/query?sql=SELECT * FROM r')).body?.[0]?.r === 18,
    { what: 'the rows of t to be stepped' });
  // The NULL row's retraction is no new error: error_view and the count hold the one error seen.
  const listed = (await edge.call('GET', 'nm/query?sql=SELECT table_or_view_name, message FROM error_view')).body;
  assert.deepEqual(listed, [{ table_or_view_name: 'r', message: 'division by zero in (36 / COUNT(*))' }]);
  assert.equal((await edge.call('GET', 'nm/stats')).body.views.r.nulled_errors, 1);
});

test('on_runtime_error other than fail or null is 400', async () => {
  const answer = await edge.call('PUT', 'bad', { program_code: SQL, on_runtime_error: 'ignore' });
  assertError(answer, 400, 'INVALID_REQUEST', /'on_runtime_error' must be "fail" or "null", not "ignore"/);
});
