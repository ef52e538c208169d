// A table declared WITH ('materialized' = 'true') on real workerd over HTTP:
// its egress starts with a snapshot of its rows, as a materialized view's
// does (Feldera's wire format, docs/http-api.md), and `SELECT * FROM` it answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { edgeWorker, ndjsonReader, sortedRows } from './support.mjs';

const SQL = `
CREATE TABLE customers (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR)
  WITH ('materialized' = 'true', 'connectors' = '[{"transport": {"name": "http_input"}}]');
CREATE MATERIALIZED VIEW names AS SELECT name FROM customers;
`;

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());

test('a materialized table egresses a snapshot then deltas, and answers SELECT *', async () => {
  assert.equal((await edge.call('PUT', 'mt', { program_code: SQL })).status < 300, true);
  await edge.call('POST', 'mt/ingress/customers?update_format=raw', [{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]);
  const response = await fetch(`${edge.url}/v0/pipelines/mt/egress/customers?send_snapshot=true`, { method: 'POST' });
  assert.equal(response.status, 200);
  const reader = ndjsonReader(response);
  const snapshot = await reader.next();
  assert.equal(snapshot.snapshot, true);
  assert.equal(snapshot.snapshot_complete, true);
  assert.deepEqual(sortedRows(snapshot.json_data.map((change) => change.insert)),
    sortedRows([{ id: 1, name: 'ann' }, { id: 2, name: 'bob' }]));
  await edge.call('POST', 'mt/ingress/customers?update_format=raw', [{ id: 2, name: 'bea' }]);
  let delta = await reader.next();
  while (!delta.json_data) delta = await reader.next();  // past keepalives
  assert.deepEqual(sortedRows(delta.json_data.map((change) => change.insert ?? change.delete)),
    sortedRows([{ id: 2, name: 'bea' }, { id: 2, name: 'bob' }]));
  await reader.cancel();
  const rows = (await edge.call('GET', 'mt/query?sql=SELECT * FROM customers')).body;
  assert.deepEqual(sortedRows(rows), sortedRows([{ id: 1, name: 'ann' }, { id: 2, name: 'bea' }]));
});
