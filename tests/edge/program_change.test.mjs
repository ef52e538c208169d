// A changed program keeps the pipeline's state on real workerd (Feldera's
// bootstrapping, docs.feldera.com "Modifying a Pipeline While Preserving its
// State"; docs/http-api.md "Changing the program"):
// - Freshet's short PUT: views that did not change keep their state (the
//   input pushed before is still counted, nothing is ingested again), a new
//   or changed view is computed from the tables' rows, a removed view's
//   connector prefix is wiped, a changed view's connector holds its new full
//   contents; a restart afterwards resumes; a changed table starts afresh;
// - Feldera's path: a stopped pipeline PATCHed keeps its storage, and
//   /start?bootstrap_policy=reject|await_approval|allow decides, with
//   AwaitingApproval's PipelineDiff in deployment_runtime_status_details
//   and /approve; BootstrapNotAllowed for a view over a table without rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertError, edgeWorker, sortedRows, until } from './support.mjs';

const TABLE = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, x BIGINT);';
const TOTAL = 'CREATE MATERIALIZED VIEW total AS SELECT SUM(x) AS s, COUNT(*) AS n FROM t;';
const big = (over) => `CREATE MATERIALIZED VIEW big AS SELECT id, x FROM t WHERE x > ${over};`;
const SMALL = 'CREATE MATERIALIZED VIEW small AS SELECT id FROM t WHERE x <= 10;';
const output = (view) => ({ view, sink: { type: 'kv' } });

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());

const query = async (pipeline, sql) => {
  const answer = await edge.call('GET', `${pipeline}/query?sql=${encodeURIComponent(sql)}&format=json_array`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return sortedRows(answer.body);
};
async function ingest(pipeline, records) {
  const answer = await edge.call('POST', `${pipeline}/ingress/t?update_format=raw&array=true`, records);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  await until(async () => (await edge.call('GET', `${pipeline}/completion_status?token=${answer.body.token}`)).body.status === 'complete',
              { what: 'the input to be stepped' });
}
/** The rows a KV connector's prefix holds (one key per distinct row: { row, count }). */
async function kvRows(prefix) {
  const kv = await edge.kv();
  const rows = [];
  for (const { name } of (await kv.list({ prefix })).keys) {
    const { row, count } = await kv.get(name, 'json');
    for (let i = 0; i < count; ++i) rows.push(row);
  }
  return sortedRows(rows);
}
const emptyDiff = () => ({
  program_diff: { added_tables: [], removed_tables: [], modified_tables: [], added_views: [], removed_views: [], modified_views: [] },
  program_diff_error: null,
  added_input_connectors: [], modified_input_connectors: [], removed_input_connectors: [],
  added_output_connectors: [], modified_output_connectors: [], removed_output_connectors: [],
});

test('short PUT adding a view: the other views keep their state, the new one is computed from the rows', async () => {
  const created = await edge.call('PUT', 'pc', { program_code: `${TABLE}\n${TOTAL}\n${big(10)}`,
                                                 outputs: { total_kv: output('total'), big_kv: output('big') } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await ingest('pc', [{ id: 1, x: 5 }, { id: 2, x: 20 }, { id: 3, x: 30 }]);
  await until(async () => (await kvRows('outputs/pc/big_kv/')).length === 2, { what: 'big_kv to hold its rows' });

  const put = await edge.call('PUT', 'pc', { program_code: `${TABLE}\n${TOTAL}\n${big(10)}\n${SMALL}`,
                                             outputs: { total_kv: output('total'), big_kv: output('big'), small_kv: output('small') } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const diff = emptyDiff();
  diff.program_diff.added_views = ['small'];
  diff.added_output_connectors = ['small_kv'];
  assert.equal(put.body.program_change.status, 'bootstrapped');
  assert.deepEqual(put.body.program_change.pipeline_diff, diff);
  assert.equal(put.body.state, 'running');

  // Kept: the rows pushed before are still counted (no re-ingest); new: computed from t's rows.
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), sortedRows([{ s: 55, n: 3 }]));
  assert.deepEqual(await query('pc', 'SELECT * FROM small'), sortedRows([{ id: 1 }]));
  const stats = (await edge.call('GET', 'pc/stats')).body;
  assert.equal(stats.global_metrics.total_input_records, 3, 'the input counted before the change, once');
  // The new view's connector gets its full contents; the kept ones keep theirs.
  await until(async () => (await kvRows('outputs/pc/small_kv/')).length === 1, { what: 'small_kv to get the view' });
  assert.deepEqual(await kvRows('outputs/pc/small_kv/'), sortedRows([{ id: 1 }]));
  assert.deepEqual(await kvRows('outputs/pc/big_kv/'), sortedRows([{ id: 2, x: 20 }, { id: 3, x: 30 }]));
  assert.deepEqual(await kvRows('outputs/pc/total_kv/'), sortedRows([{ s: 55, n: 3 }]));

  await ingest('pc', [{ id: 4, x: 7 }]);
  assert.deepEqual(await query('pc', 'SELECT * FROM small'), sortedRows([{ id: 1 }, { id: 4 }]));
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), sortedRows([{ s: 62, n: 4 }]));
});

test('short PUT changing a view and removing one: recomputed from the rows, the removed one\'s prefix wiped; a restart resumes', async () => {
  // t = {1: 5, 2: 20, 3: 30, 4: 7} from the test before.
  const put = await edge.call('PUT', 'pc', { program_code: `${TABLE}\n${TOTAL}\n${big(25)}`,
                                             outputs: { total_kv: output('total'), big_kv: output('big') } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const diff = emptyDiff();
  diff.program_diff.modified_views = ['big'];
  diff.program_diff.removed_views = ['small'];
  assert.deepEqual(put.body.program_change.pipeline_diff, diff, 'small_kv went with its view: not listed (Feldera\'s rule)');
  assert.deepEqual(await query('pc', 'SELECT * FROM big'), sortedRows([{ id: 3, x: 30 }]));
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), sortedRows([{ s: 62, n: 4 }]));
  assert.deepEqual(await kvRows('outputs/pc/small_kv/'), [], 'the removed view\'s connector prefix is wiped');
  // The changed view's connector: reset, then its full new contents (no stale row 2).
  await until(async () => (await kvRows('outputs/pc/big_kv/')).length === 1, { what: 'big_kv to hold the new contents' });
  assert.deepEqual(await kvRows('outputs/pc/big_kv/'), sortedRows([{ id: 3, x: 30 }]));

  await ingest('pc', [{ id: 5, x: 40 }]);
  await until(async () => (await kvRows('outputs/pc/big_kv/')).length === 2, { what: 'big_kv to get the new row' });
  await edge.restart();
  assert.deepEqual(await query('pc', 'SELECT * FROM big'), sortedRows([{ id: 3, x: 30 }, { id: 5, x: 40 }]));
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), sortedRows([{ s: 102, n: 5 }]));
  await ingest('pc', [{ id: 6, x: 50 }]);
  await until(async () => (await kvRows('outputs/pc/big_kv/')).length === 3, { what: 'big_kv after the restart' });
  assert.deepEqual(await kvRows('outputs/pc/big_kv/'), sortedRows([{ id: 3, x: 30 }, { id: 5, x: 40 }, { id: 6, x: 50 }]));
  assert.equal((await edge.call('GET', 'pc')).body.program_change.status, 'bootstrapped', 'GET says what the last change did');
});

test('short PUT that cannot take the new program changes nothing; a changed table starts afresh, saying so', async () => {
  const bad = await edge.call('PUT', 'pc', { program_code: `${TABLE}\nCREATE MATERIALIZED VIEW w AS SELECT nope FROM t;` });
  assert.equal(bad.status, 400);
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), sortedRows([{ s: 152, n: 6 }]));

  const changed = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, x BIGINT, y INT);';
  const put = await edge.call('PUT', 'pc', { program_code: `${changed}\n${TOTAL}`, outputs: { total_kv: output('total') } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.program_change.status, 'fresh_start');
  assert.match(put.body.program_change.reason, /table was added, removed or changed \('t'\)/);
  assert.deepEqual(put.body.program_change.pipeline_diff.program_diff.modified_tables, ['t']);
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), [], 'no step yet over the empty table');
  assert.deepEqual(await kvRows('outputs/pc/big_kv/'), [], 'every connector of the old program is wiped');
  await ingest('pc', [{ id: 1, x: 3, y: 1 }]);
  assert.deepEqual(await query('pc', 'SELECT * FROM total'), sortedRows([{ s: 3, n: 1 }]), 'nothing of the old rows');
  await until(async () => (await kvRows('outputs/pc/total_kv/')).length === 1, { what: 'total_kv after the fresh start' });
  assert.deepEqual(await kvRows('outputs/pc/total_kv/'), sortedRows([{ s: 3, n: 1 }]));
});

// ------------------------------------------------------------ Feldera's path

const feldera = (name, program_code) => ({ name, program_code, runtime_config: {}, program_config: {}, description: '', tags: [],
                                          udf_rust: '', udf_toml: '' });
const status = async (name) => (await edge.call('GET', `${name}?selector=status`)).body;
// big_n's text stays, but it reads big, which changes: it is changed too (Feldera's rule).
const BIG_N = 'CREATE MATERIALIZED VIEW big_n AS SELECT COUNT(*) AS n FROM big;';
const V1 = `${TABLE}\n${TOTAL}\n${big(10)}\n${BIG_N}`;
const V2 = `${TABLE}\n${TOTAL}\n${big(25)}\n${BIG_N}\n${SMALL}`;

test('Feldera: PATCH keeps the storage; start?bootstrap_policy=reject stops with the changes listed, state kept', async () => {
  assert.equal((await edge.call('PUT', 'fb', feldera('fb', V1))).status, 201);
  assert.equal((await edge.call('POST', 'fb/start')).status, 202);
  await ingest('fb', [{ id: 1, x: 5 }, { id: 2, x: 20 }, { id: 3, x: 30 }]);
  assert.equal((await edge.call('POST', 'fb/stop?force=false')).status, 202);
  const patched = await edge.call('PATCH', 'fb', { program_code: V2 });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.equal(patched.body.storage_status, 'InUse', 'a changed program keeps the storage');

  assert.equal((await edge.call('POST', 'fb/start?bootstrap_policy=reject')).status, 202);
  const rejected = await status('fb');
  assert.equal(rejected.deployment_status, 'Stopped');
  assert.equal(rejected.storage_status, 'InUse');
  assert.equal(rejected.deployment_error.error_code, 'BootstrapRejected');
  assert.equal(rejected.deployment_error.message, 'Bootstrapping of the modified pipeline was rejected by the user.\n' +
               "Program changes:\n  Added views: 'small'\n  Modified views: 'big', 'big_n'");
  assertError(await edge.call('POST', 'fb/approve'), 503, 'PipelineInteractionNotDeployed');
});

test('Feldera: start (await_approval) waits in AwaitingApproval with the diff; /approve bootstraps from the kept state', async () => {
  assertError(await edge.call('POST', 'fb/start?silent_bootstrap=true'), 400, 'InvalidBootstrapConfig', /silent_bootstrap/);
  assert.equal((await edge.call('POST', 'fb/start')).status, 202);
  const waiting = await status('fb');
  assert.deepEqual([waiting.deployment_status, waiting.deployment_runtime_status, waiting.deployment_desired_status,
                    waiting.deployment_error], ['AwaitingApproval', 'AwaitingApproval', 'Running', null]);
  const diff = emptyDiff();
  diff.program_diff.added_views = ['small'];
  diff.program_diff.modified_views = ['big', 'big_n'];
  assert.deepEqual(waiting.deployment_runtime_status_details, diff);
  assertError(await edge.call('POST', 'fb/ingress/t', '{"insert":{"id":9,"x":9}}'), 503, 'AwaitingApproval');
  assertError(await edge.call('PATCH', 'fb', { description: 'x' }), 400, 'UpdateRestrictedToStopped');

  // Stopping there applies nothing: starting again awaits again (also after a restart of workerd).
  assert.equal((await edge.call('POST', 'fb/stop?force=true')).status, 202);
  assert.equal((await status('fb')).deployment_status, 'Stopped');
  assert.equal((await edge.call('POST', 'fb/start?bootstrap_policy=await_approval')).status, 202);
  await edge.restart();
  assert.equal((await status('fb')).deployment_status, 'AwaitingApproval');

  const approved = await edge.call('POST', 'fb/approve');
  assert.deepEqual([approved.status, approved.body], [200, 'Bootstrap approved']);
  const running = await status('fb');
  assert.deepEqual([running.deployment_status, running.deployment_runtime_status_details], ['Running', null]);
  assert.deepEqual(await query('fb', 'SELECT * FROM total'), sortedRows([{ s: 55, n: 3 }]));
  assert.deepEqual(await query('fb', 'SELECT * FROM big'), sortedRows([{ id: 3, x: 30 }]));
  assert.deepEqual(await query('fb', 'SELECT * FROM small'), sortedRows([{ id: 1 }]));
  assert.deepEqual(await query('fb', 'SELECT * FROM big_n'), sortedRows([{ n: 1 }]), 'recomputed over the changed view');
  assert.deepEqual((await edge.call('POST', 'fb/approve')).body, 'Bootstrap approved', 'a running pipeline has nothing to approve');
});

test('Feldera: start?bootstrap_policy=allow bootstraps at once; a view over a table that keeps no rows is BootstrapNotAllowed', async () => {
  assert.equal((await edge.call('POST', 'fb/stop')).status, 202);
  assert.equal((await edge.call('PATCH', 'fb', { program_code: `${V2}\nCREATE MATERIALIZED VIEW most AS SELECT MAX(x) AS m FROM t;` })).status, 200);
  assert.equal((await edge.call('POST', 'fb/start?bootstrap_policy=allow')).status, 202);
  assert.equal((await status('fb')).deployment_status, 'Running');
  assert.deepEqual(await query('fb', 'SELECT * FROM most'), sortedRows([{ m: 30 }]));
  assert.deepEqual(await query('fb', 'SELECT * FROM total'), sortedRows([{ s: 55, n: 3 }]));

  const heap = 'CREATE TABLE h (x BIGINT);\nCREATE MATERIALIZED VIEW hs AS SELECT SUM(x) AS s FROM h;';
  assert.equal((await edge.call('PUT', 'heap', feldera('heap', heap))).status, 201);
  assert.equal((await edge.call('POST', 'heap/start')).status, 202);
  const token = (await edge.call('POST', 'heap/ingress/h?update_format=raw', '{"x":4}')).body.token;
  await until(async () => (await edge.call('GET', `heap/completion_status?token=${token}`)).body.status === 'complete');
  assert.equal((await edge.call('POST', 'heap/stop')).status, 202);
  assert.equal((await edge.call('PATCH', 'heap', { program_code: `${heap}\nCREATE MATERIALIZED VIEW hc AS SELECT COUNT(*) AS c FROM h;` })).status, 200);
  assert.equal((await edge.call('POST', 'heap/start?bootstrap_policy=allow')).status, 202);
  const refused = await status('heap');
  assert.deepEqual([refused.deployment_status, refused.storage_status], ['Stopped', 'InUse']);
  assert.equal(refused.deployment_error.error_code, 'BootstrapNotAllowed');
  assert.match(refused.deployment_error.message, /cannot be bootstrapped due to the following reasons:\n- view 'hc' is new or changed and needs the full contents of table 'h'/);
  // The way out, Feldera's: clear the storage, start afresh.
  assert.equal((await edge.call('POST', 'heap/clear')).status, 202);
  assert.equal((await edge.call('POST', 'heap/start')).status, 202);
  const again = (await edge.call('POST', 'heap/ingress/h?update_format=raw', '{"x":6}')).body.token;
  await until(async () => (await edge.call('GET', `heap/completion_status?token=${again}`)).body.status === 'complete');
  assert.deepEqual(await query('heap', 'SELECT * FROM hc'), sortedRows([{ c: 1 }]));
  assert.deepEqual(await query('heap', 'SELECT * FROM hs'), sortedRows([{ s: 6 }]), 'started afresh: the row before is gone');
});
