// The runtime error mode 'null' and error_view on real workerd over HTTP:
// the PUT body's on_runtime_error (Freshet's field; Feldera has no such
// mode), /stats' nulled_errors per view, error_view over the egress route
// (snapshot, then a delta) and the query route; a bad mode is 400.
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
  assert.equal(row.message, 'division by zero');
  assert.equal(JSON.parse(row.metadata).kind, 'runtime_error');

  await edge.call('POST', 'nm/ingress/t?update_format=raw', [{ x: 1 }, { x: 2 }]);
  let delta = await reader.next();
  while (!delta.json_data) delta = await reader.next();  // past keepalives
  // The empty group's row retracts: 36 / 0 again, listed again.
  assert.deepEqual(delta.json_data.map((change) => change.insert?.table_or_view_name), ['r']);
  await reader.cancel();
  assert.deepEqual((await edge.call('GET', 'nm/query?sql=SELECT * FROM r')).body, [{ r: 18 }]);
  const listed = (await edge.call('GET', 'nm/query?sql=SELECT table_or_view_name, message FROM error_view')).body;
  assert.deepEqual(listed, [{ table_or_view_name: 'r', message: 'division by zero' },
                            { table_or_view_name: 'r', message: 'division by zero' }]);
  assert.equal((await edge.call('GET', 'nm/stats')).body.views.r.nulled_errors, 2);
});

test('on_runtime_error other than fail or null is 400', async () => {
  const answer = await edge.call('PUT', 'bad', { program_code: SQL, on_runtime_error: 'ignore' });
  assertError(answer, 400, 'INVALID_REQUEST', /'on_runtime_error' must be "fail" or "null", not "ignore"/);
});
