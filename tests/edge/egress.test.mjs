// Egress on real workerd over HTTP: Feldera's wire format, one complete
// snapshot then deltas that add up to the query answer after every step —
// under continuous ingest, for two clients at once — keepalives, a client
// that disconnects mid-snapshot, and a slow client without backpressure.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { SAMPLE_SQL, SampleGenerator } from '../../web-demo/sample_pipeline.js';
import { RowBag, edgeWorker, ndjsonReader, sleep, sortedRows, until } from './support.mjs';

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());

const egress = async (path) => {
  const response = await fetch(`${edge.url}/v0/pipelines/${path}`, { method: 'POST' });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/x-ndjson');
  return ndjsonReader(response);
};
const query = async (pipeline, view) => sortedRows((await edge.call('GET', `${pipeline}/query?sql=SELECT * FROM ${view}`)).body);

/** Client state: the objects it read, checked for format and numbering, applied to a bag. */
class Client {
  constructor(reader) {
    this.reader = reader;
    this.bag = new RowBag();
    this.nextSequence = 0;
    this.snapshotDone = false;
  }

  async readOne(timeoutMs) {
    const object = await this.reader.next(timeoutMs);
    assert.ok(object, 'the stream ended');
    assert.equal(object.sequence_number, this.nextSequence++, 'sequence numbers count every object from 0');
    if (object.snapshot) {
      assert.ok(!this.snapshotDone, 'one snapshot only');
      assert.deepEqual(Object.keys(object), ['sequence_number', 'snapshot', 'snapshot_complete', 'json_data']);
      this.snapshotDone = object.snapshot_complete;
    } else if (object.json_data) {
      assert.ok(this.snapshotDone, 'deltas follow the complete snapshot');
      assert.deepEqual(Object.keys(object), ['sequence_number', 'snapshot', 'json_data']);
    } else {
      assert.deepEqual(Object.keys(object), ['sequence_number', 'snapshot'], 'a keepalive');
    }
    this.bag.apply(object.json_data ?? []);
    return object;
  }

  async readSnapshot() {
    while (!this.snapshotDone) await this.readOne();
  }

  /** Reads until the rows equal `expected`. */
  async catchUp(expected, what) {
    while (JSON.stringify(this.bag.sorted()) !== JSON.stringify(expected)) {
      await this.readOne(20_000).catch((error) => {
        throw new Error(`${what}: ${error.message}; have ${this.bag.sorted().length} rows, want ${expected.length}`);
      });
    }
  }
}

test('snapshot then deltas under continuous ingest, two clients: the sum equals the query answer after each step', async () => {
  assert.equal((await edge.call('PUT', 'demo', { program_code: SAMPLE_SQL })).status, 201);
  const generator = new SampleGenerator({ seed: 7 });
  await edge.call('POST', 'demo/ingress/customers?update_format=raw', generator.customers());
  await edge.call('POST', 'demo/ingress/orders', generator.next(2000));

  // Continuous ingest while the clients connect and read their snapshots.
  let feeding = true;
  let lastToken = null;
  const feeder = (async () => {
    while (feeding) {
      lastToken = (await edge.call('POST', 'demo/ingress/orders', generator.next(50))).body.token;
      await sleep(5);
    }
  })();
  await sleep(100);
  const first = new Client(await egress('demo/egress/revenue_by_region?format=json&send_snapshot=true&backpressure=true'));
  await first.readSnapshot();
  await sleep(100);
  const second = new Client(await egress('demo/egress/top_products?send_snapshot=true'));
  const third = new Client(await egress('demo/egress/revenue_by_region?send_snapshot=true&backpressure=false'));
  await Promise.all([second.readSnapshot(), third.readSnapshot()]);
  await sleep(300);
  feeding = false;
  await feeder;
  await until(async () => (await edge.call('GET', `demo/completion_status?token=${lastToken}`)).body.status === 'complete');

  // Then step by step: after each step every client's rows equal the query's.
  await edge.call('POST', 'demo/pause');
  for (let round = 0; round < 8; round++) {
    if (round > 0) {
      await edge.call('POST', 'demo/ingress/orders', generator.next(round * 10));
      assert.equal((await edge.call('POST', 'demo/step')).status, 200);
    }
    const revenue = await query('demo', 'revenue_by_region');
    await first.catchUp(revenue, `first client, round ${round}`);
    await third.catchUp(revenue, `third client, round ${round}`);
    await second.catchUp(await query('demo', 'top_products'), `second client, round ${round}`);
  }
  assert.ok(first.nextSequence > 3 && second.nextSequence > 3);
  await edge.call('POST', 'demo/resume');
  for (const client of [first, second, third]) await client.reader.cancel();
});

test('a client that disconnects mid-snapshot does not disturb another; its endpoint is freed', async () => {
  const sql = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT); CREATE MATERIALIZED VIEW everything AS SELECT * FROM t;';
  assert.equal((await edge.call('PUT', 'big', { program_code: sql })).status, 201);
  const rows = Array.from({ length: 25_000 }, (_, id) => ({ id, v: id % 7 }));
  await edge.call('POST', 'big/ingress/t?update_format=raw', rows);

  const leaver = new Client(await egress('big/egress/everything?send_snapshot=true&backpressure=true'));
  const stayer = new Client(await egress('big/egress/everything?send_snapshot=true&backpressure=true'));
  const firstPart = await leaver.readOne();
  assert.equal(firstPart.snapshot, true);
  assert.equal(firstPart.snapshot_complete, false, 'a large snapshot spans several chunks');
  assert.equal(firstPart.json_data.length, 10_000);
  await leaver.reader.cancel();

  await stayer.readSnapshot();
  assert.equal(stayer.nextSequence, 3, '25,000 rows: three snapshot chunks');
  assert.equal(stayer.bag.sorted().length, 25_000);
  // The pipeline keeps stepping (the leaver's blocking endpoint is gone) and the stayer keeps up.
  await until(async () => Object.keys((await edge.call('GET', 'big/stats')).body.egress).length === 1,
              { what: "the disconnected client's endpoint to close" });
  await edge.call('POST', 'big/ingress/t', [{ insert: { id: 1, v: 100 } }, { delete: { id: 2 } }]);
  await stayer.catchUp(await query('big', 'everything'), 'the remaining client');
  await stayer.reader.cancel();
});

test('a silent stream gets a keepalive after 3 s, which takes a sequence number', async () => {
  assert.equal((await edge.call('PUT', 'quiet', { program_code: 'CREATE TABLE t (id INT); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;' })).status, 201);
  const started = Date.now();
  const client = new Client(await egress('quiet/egress/v?send_snapshot=true'));
  await client.readSnapshot();
  assert.deepEqual(client.bag.sorted(), [], 'an empty view sends one empty snapshot chunk');
  const keepalive = await client.readOne(10_000);
  const waited = Date.now() - started;
  assert.deepEqual(keepalive, { sequence_number: 1, snapshot: false });
  assert.ok(waited >= 2900, `the keepalive came after ${waited} ms`);
  await edge.call('POST', 'quiet/ingress/t', [{ insert: { id: 1 } }]);
  const delta = await client.readOne();
  assert.deepEqual(delta, { sequence_number: 2, snapshot: false, json_data: [{ insert: { id: 1 } }] });
  assert.match(client.reader.raw(), /^$/, 'every object ended with \\r\\n');
  await client.reader.cancel();
});

test('a slow client without backpressure gets coalesced deltas that still add up', async () => {
  const sql = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, v INT); CREATE MATERIALIZED VIEW s AS SELECT v, COUNT(*) AS n FROM t GROUP BY v;';
  assert.equal((await edge.call('PUT', 'slow', { program_code: sql })).status, 201);
  const client = new Client(await egress('slow/egress/s?send_snapshot=true&backpressure=false'));
  await client.readSnapshot();
  let token;
  for (let i = 0; i < 60; i++) {
    token = (await edge.call('POST', 'slow/ingress/t', [{ insert: { id: i, v: i % 5 } }])).body.token;
    await edge.call('POST', 'slow/step');
  }
  // The steps were not held back by the client that is not reading.
  assert.equal((await edge.call('GET', `slow/completion_status?token=${token}`)).body.status, 'complete');
  await client.catchUp(await query('slow', 's'), 'the slow client');
  await client.reader.cancel();
});

test('replacing the pipeline with another program ends its egress streams', async () => {
  const client = new Client(await egress('quiet/egress/v?send_snapshot=true'));
  await client.readSnapshot();
  await edge.call('PUT', 'quiet', { program_code: 'CREATE TABLE t (id INT, w INT); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;' });
  assert.equal(await client.reader.next(10_000), null, 'the stream ended');
});
