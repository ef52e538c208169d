// Resumable egress on real workerd over HTTP: POST .../egress/{view}?name=…
// &resume_from=N continues with chunk N+1 — a client that drops its
// connection at 100 random points of a long stream under continuous ingest
// (seeded) reconstructs the view exactly; past the retention, for an egress
// closed or never opened: 410 RESUME_UNAVAILABLE; after a restart from a
// checkpoint the stream resumes from the chunks the checkpoint kept.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { random, seed } from '../js/support.mjs';
import { RowBag, assertError, edgeWorker, ndjsonReader, sleep, sortedRows, until } from './support.mjs';

const SQL = `
CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, g BIGINT NOT NULL);
CREATE MATERIALIZED VIEW everything AS SELECT * FROM t;
CREATE MATERIALIZED VIEW groups AS SELECT g, COUNT(*) AS n, SUM(id) AS s FROM t GROUP BY g;
`;

let edge;
before(async () => {
  edge = await edgeWorker();
});
after(() => edge?.stop());

const rowsOf = async (pipeline, view) => sortedRows((await edge.call('GET', `${pipeline}/query?sql=SELECT * FROM ${view}`)).body);
const complete = (pipeline, token) => until(
  async () => (await edge.call('GET', `${pipeline}/completion_status?token=${token}`)).body.status === 'complete', { what: `token ${token}` });

/** Opens an egress connection; resolves to its reader, or to the error answer when not 200. */
async function connect(path) {
  const response = await fetch(`${edge.url}/v0/pipelines/${path}`, { method: 'POST' });
  if (response.status !== 200) return { status: response.status, body: await response.json() };
  return ndjsonReader(response);
}

/** A client of a named egress: applies chunks in order, checking their numbers; remembers the last one it has. */
class Client {
  bag = new RowBag();
  last = undefined;
  chunks = 0;

  /** Reads the next chunk (skipping keepalives) and applies it when `keep`. */
  async read(reader, keep = true) {
    for (;;) {
      const object = await reader.next(20_000);
      assert.ok(object, 'the stream ended');
      if (!object.json_data) {
        assert.equal(object.sequence_number, this.last, 'a keepalive repeats the last chunk number');
        continue;
      }
      if (!keep) return object;
      if (this.last !== undefined) assert.equal(object.sequence_number, this.last + 1, 'no gap, no duplicate');
      this.bag.apply(object.json_data);
      this.last = object.sequence_number;
      ++this.chunks;
      return object;
    }
  }
}

test('100 random drops of a long stream under continuous ingest: the resumed client holds the view exactly', async () => {
  assert.equal((await edge.call('PUT', 'long', { program_code: SQL })).status, 201);
  const rng = random(seed('edge egress resume'));
  const pick = (n) => Math.floor(rng() * n);
  // 25,000 rows first: the snapshot spans three lines, and drops fall inside it too.
  await edge.call('POST', 'long/ingress/t?update_format=raw', Array.from({ length: 25_000 }, (_, id) => ({ id, g: id % 13 })));
  const live = new Map(Array.from({ length: 25_000 }, (_, id) => [id, id % 13]));
  let nextId = 25_000;
  let feeding = true;
  let lastToken;
  const feeder = (async () => {
    while (feeding) {
      const records = [];
      const gone = pick(nextId);  // an earlier row (a key appears once per request)
      if (live.has(gone)) records.push({ delete: { id: gone, g: live.get(gone) } });
      live.delete(gone);
      for (let n = 1 + pick(20); n > 0; --n) {
        const g = pick(13);
        records.push({ insert: { id: nextId, g } });
        live.set(nextId++, g);
      }
      const answer = await edge.call('POST', 'long/ingress/t', records);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      lastToken = answer.body.token;
      await sleep(2);
    }
  })();

  const client = new Client();
  let snapshotLines = 0;
  for (let drop = 0; drop < 100; ++drop) {
    const path = client.last === undefined ? 'long/egress/everything?name=dash&send_snapshot=true'
      : `long/egress/everything?name=dash&resume_from=${client.last}`;
    const reader = await connect(path);
    assert.ok(reader.next, JSON.stringify(reader.body));
    for (let n = pick(4); n > 0; --n) snapshotLines += (await client.read(reader)).snapshot ? 1 : 0;
    if (pick(2)) await client.read(reader, false);  // written to the client, lost before it applied it
    await reader.cancel();
  }
  feeding = false;
  await feeder;
  await complete('long', lastToken);
  const reader = await connect(`long/egress/everything?name=dash&resume_from=${client.last}`);
  const expected = await rowsOf('long', 'everything');
  while (JSON.stringify(client.bag.sorted()) !== JSON.stringify(expected)) await client.read(reader);
  await reader.cancel();
  assert.equal(snapshotLines, 3, 'one snapshot (three lines), never sent again');
  assert.ok(client.chunks > 100, `${client.chunks} chunks`);
  assert.ok(expected.length > 25_000);
});

/**
 * A paused pipeline `pipeline` with one table and its view v, whose egress
 * (`parameters`) took `chunks` chunks, one row each, then disconnected.
 * @returns {Promise<Client>} the client that took them
 */
async function chunksTaken(pipeline, parameters, chunks) {
  const sql = 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY); CREATE MATERIALIZED VIEW v AS SELECT * FROM t;';
  assert.equal((await edge.call('PUT', pipeline, { program_code: sql })).status, 201);
  await edge.call('POST', `${pipeline}/pause`);
  const client = new Client();
  const reader = await connect(`${pipeline}/egress/v?${parameters}`);
  for (let id = 0; id < chunks; ++id) {
    await edge.call('POST', `${pipeline}/ingress/t`, [{ insert: { id } }]);
    await edge.call('POST', `${pipeline}/step`);
    await client.read(reader);
  }
  await reader.cancel();
  return client;
}

test('resume_from past the retention, of a closed or unknown egress, or without a name: the errors', async () => {
  // 1,002 chunks taken: the default retention (1,000 chunks) no longer holds chunks 0 and 1.
  const client = await chunksTaken('gone', 'name=dash', 1002);
  assert.equal(client.last, 1001);
  const past = await connect('gone/egress/v?name=dash&resume_from=0');
  assertError(past, 410, 'RESUME_UNAVAILABLE', /egress 'dash' cannot resume after chunk 0: it retains chunks from 2 on .*start again with a snapshot/);
  assert.deepEqual(past.body.details, { name: 'dash', resume_from: 0, retry_with: 'send_snapshot=true without resume_from' });
  const fine = await connect('gone/egress/v?name=dash&resume_from=1');
  assert.equal((await client.read(fine, false)).sequence_number, 2);
  await fine.cancel();

  assertError(await connect('gone/egress/v?name=other&resume_from=3'), 410, 'RESUME_UNAVAILABLE', /no egress named 'other'/);
  assertError(await connect('gone/egress/v?resume_from=3'), 400, 'INVALID_REQUEST', /'resume_from' needs 'name'/);
  assertError(await connect('gone/egress/v?name=dash&resume_from=x'), 400, 'INVALID_REQUEST');
  assert.equal((await edge.call('DELETE', 'gone/egress/v?name=dash')).status, 200);
  assertError(await connect('gone/egress/v?name=dash&resume_from=1001'), 410, 'RESUME_UNAVAILABLE');
  assertError(await edge.call('DELETE', 'gone/egress/v?name=dash'), 404, 'UNKNOWN_OUTPUT');
});

test('after a restart from a checkpoint the named egress resumes with the chunk after the last one received', async () => {
  const created = await edge.call('PUT', 'again', { program_code: SQL, checkpoint_interval_ms: 0 });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await edge.call('POST', 'again/pause');
  const client = new Client();
  const reader = await connect('again/egress/groups?name=dash&send_snapshot=true');
  await client.read(reader);  // the (empty) snapshot
  for (let id = 0; id < 6; ++id) {
    await edge.call('POST', 'again/ingress/t', [{ insert: { id, g: id % 2 } }]);
    await edge.call('POST', 'again/step');
  }
  await client.read(reader);
  await client.read(reader);
  await client.read(reader, false);  // chunk 3: lost in flight
  await reader.cancel();
  assert.equal((await edge.call('POST', 'again/checkpoint')).status, 200);

  await edge.restart();
  const resumed = await connect(`again/egress/groups?name=dash&resume_from=${client.last}`);
  assert.ok(resumed.next, JSON.stringify(resumed.body));
  const next = await client.read(resumed);
  assert.equal(next.sequence_number, 3, 'chunk 3 came back from the checkpoint');
  assert.equal(next.snapshot, false, 'no snapshot again');
  await edge.call('POST', 'again/ingress/t', [{ insert: { id: 100, g: 0 } }, { delete: { id: 0, g: 0 } }]);
  await edge.call('POST', 'again/step');
  const expected = await rowsOf('again', 'groups');
  while (JSON.stringify(client.bag.sorted()) !== JSON.stringify(expected)) await client.read(resumed);
  await resumed.cancel();
});

test('retention_chunks and retention_bytes set what a named egress keeps; past FRESHET_MAX_EGRESS_RETENTION_BYTES, 413', async () => {
  const client = await chunksTaken('kept', 'name=dash&retention_chunks=3', 5);
  assert.equal(client.last, 4);
  // Three chunks kept (2, 3, 4): after chunk 1 it resumes, after chunk 0 it cannot.
  assertError(await connect('kept/egress/v?name=dash&resume_from=0'), 410, 'RESUME_UNAVAILABLE', /retains chunks from 2 on/);
  const fine = await connect('kept/egress/v?name=dash&resume_from=1');
  assert.equal((await client.read(fine, false)).sequence_number, 2);
  await fine.cancel();

  assertError(await connect(`kept/egress/v?name=big&retention_bytes=${4 * 1024 * 1024 + 1}`), 413, 'LIMIT_EXCEEDED',
              /'retention_bytes' is 4194305; the limit is 4194304 \(FRESHET_MAX_EGRESS_RETENTION_BYTES\)/);
  assertError(await connect('kept/egress/v?retention_chunks=3'), 400, 'INVALID_REQUEST', /need 'name'/);
  assertError(await connect('kept/egress/v?name=dash&retention_chunks=0'), 400, 'INVALID_REQUEST', /positive integer/);
});
