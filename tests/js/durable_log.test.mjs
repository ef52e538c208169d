// durability: 'log' — every acknowledged ingest survives a crash exactly
// once (a child process killed with SIGKILL mid-burst, FileStorage), replay
// re-runs the same steps, only durable input is stepped, checkpoints
// truncate the log, damaged logs and failed writes are errors; and the
// graceful close().
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { FileStorage, MemoryStorage, Pipeline, callbackSink } from 'freshet';
import { decodeRecords } from '../../wasm-bindings/js/input_log.js';

import { DURABLE_SQL, random, seed, tick } from './support.mjs';

const WRITER = new URL('./durable_log_writer.mjs', import.meta.url).pathname;

/** Runs the writer until it acknowledged something, then kills it with SIGKILL after `afterMs`. @returns acknowledged batches */
function runAndKill(dir, runSeed, firstId, afterMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, dir, String(runSeed), String(firstId)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '', timer = null;
    child.stdout.on('data', (data) => {
      out += data;
      timer ??= setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.stderr.on('data', (data) => (err += data));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') return reject(new Error(`the writer exited by itself (${code}): ${err}`));
      const acked = out.split('\n').filter((line) => /^\d+ \d+ \S+$/.test(line)).map((line) => {
        const [first, count, token] = line.split(' ');
        return { first: Number(first), count: Number(count), token };
      });
      resolve(acked);
    });
  });
}

test('SIGKILL mid-burst (FileStorage, child process): every acknowledged record is there exactly once, its token answers', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'freshet-durable-log-'));
  const next = random(seed('durable log kill'));
  const acknowledged = [];
  try {
    for (let round = 0; round < 6; ++round) {
      const acked = await runAndKill(dir, Math.floor(next() * 2 ** 31), round * 1_000_000, 50 + Math.floor(next() * 400));
      assert.ok(acked.length > 0, 'the writer acknowledged something before the kill');
      acknowledged.push(...acked);
      const p = await Pipeline.create({ sql: DURABLE_SQL, storage: new FileStorage(dir), durability: 'log' });
      for (const { token } of acknowledged) await p.waitForCompletion(token);  // tokens of every earlier run answer
      const ids = p.snapshot('all_rows').map((row) => row.id);
      const counts = new Map();
      for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      assert.deepEqual([...counts].filter(([, n]) => n > 1), [], 'no record twice');
      let missing = 0;
      for (const { first, count } of acknowledged) for (let id = first; id < first + count; ++id) if (!counts.has(id)) ++missing;
      assert.equal(missing, 0, 'no acknowledged record lost');
      // The incremental totals against a recomputation from the rows.
      const want = new Map();
      for (const row of p.snapshot('all_rows')) want.set(row.v, (want.get(row.v) ?? 0) + 1);
      assert.deepEqual(new Map(p.snapshot('totals').map((row) => [row.v, row.n])), want);
      // Half the rounds end gracefully (a last checkpoint), half like a crash.
      if (round % 2) await p.close();
      else p.pause();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A storage a pipeline "crashes" on: after crash() its writes never land
 * (as in a process that died), while the next pipeline uses `storage` itself.
 */
function mortal(storage) {
  let dead = false;
  return {
    crash: () => (dead = true),
    storage: {
      put: (name, bytes) => (dead ? new Promise(() => {}) : storage.put(name, bytes)),
      get: (name) => storage.get(name),
      list: (prefix) => storage.list(prefix),
      delete: (name) => (dead ? new Promise(() => {}) : storage.delete(name)),
    },
  };
}

/** A sink keeping every chunk it got, as plain data. */
function recorder() {
  const chunks = [];
  const sink = callbackSink((chunk) => chunks.push(JSON.stringify(chunk)), { description: 'recorder' });
  return { chunks, sink };
}

test('replay re-runs the same steps: the same step numbers and connector chunks as before the crash', async () => {
  const storage = new MemoryStorage();
  const before = recorder();
  const first = mortal(storage);
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage: first.storage, durability: 'log',
                                    outputs: { rec: { view: 'totals', sendSnapshot: true, sink: before.sink } } });
  await p.waitForCompletion(await p.insert('t', [{ id: 1, v: 1 }]));
  await p.checkpoint();
  const covered = before.chunks.length;
  const next = random(7);
  let last;
  for (let i = 0; i < 20; ++i) {
    const rows = Array.from({ length: 1 + Math.floor(next() * 5) }, (_, k) => ({ id: 100 * i + k, v: Math.floor(next() * 4) }));
    last = p.insert('t', rows);
    if (i % 3 === 0) await last;  // some ingests share a step, some do not
    if (i % 5 === 0) await p.step();
  }
  await p.waitForCompletion(await last);
  const step = p.stats().step;
  p.pause();
  first.crash();  // p is dropped without close(), its last step's record maybe not written

  const after = recorder();
  const q = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log',
                                    outputs: { rec: { view: 'totals', sendSnapshot: true, sink: after.sink } } });
  await q.waitForCompletion(await last);
  assert.equal(q.stats().step, step);
  assert.ok(before.chunks.length - covered > 3);
  assert.deepEqual(after.chunks, before.chunks.slice(covered));
  assert.deepEqual(q.snapshot('totals'), p.snapshot('totals'));
  await q.close();
});

test('a crash before the last step\'s record was written: create resolves with that input in the views (paused: after a step)', async () => {
  const storage = new MemoryStorage();
  const first = mortal(storage);
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage: first.storage, durability: 'log' });
  await p.waitForCompletion(await p.insert('t', [{ id: 1, v: 1 }]));
  await p.checkpoint();
  const token = await p.insert('t', [{ id: 2, v: 2 }]);
  await p.waitForCompletion(token);  // stepped, its output delivered
  first.crash();  // the step's record is written lazily: it never reaches the storage
  p.pause();
  const logged = [];
  for (const name of await storage.list('inputlog-')) logged.push(...decodeRecords(name, await storage.get(name)).map((r) => r.header.kind));
  assert.equal(logged.at(-1), 'ingest', 'the log ends with the ingest, no step record after it');
  const image = new MemoryStorage();  // the crash image again, for the paused resume (the next create writes the step's record)
  for (const name of await storage.list('')) await image.put(name, await storage.get(name));

  const q = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  assert.deepEqual(q.snapshot('all_rows'), [{ id: 1, v: 1 }, { id: 2, v: 2 }], 'in the view as create resolves, no tick later');
  assert.equal(q.stats().step, p.stats().step, 'the same step ran again');
  await q.close({ checkpoint: false });

  const paused = await Pipeline.create({ sql: DURABLE_SQL, storage: image, durability: 'log', paused: true });
  assert.equal(paused.state, 'paused');
  await tick(20);
  assert.deepEqual(paused.snapshot('all_rows'), [{ id: 1, v: 1 }], 'paused: buffered until a step');
  await paused.step();
  assert.deepEqual(paused.snapshot('all_rows'), [{ id: 1, v: 1 }, { id: 2, v: 2 }]);
  await paused.close({ checkpoint: false });
  await assert.rejects(Pipeline.create({ sql: DURABLE_SQL, paused: 'yes' }), { code: 'INVALID_ARGUMENT', message: /paused is true or false/ });
});

/** A storage whose puts of log blobs can be held (never resolve) or made to fail. */
class GatedStorage {
  inner = new MemoryStorage();
  hold = false;
  fail = false;
  put(name, bytes) {
    if (name.startsWith('inputlog-') && this.fail) return Promise.reject(new Error('disk full'));
    if (name.startsWith('inputlog-') && this.hold) return new Promise(() => {});
    return this.inner.put(name, bytes);
  }
  get(name) { return this.inner.get(name); }
  list(prefix) { return this.inner.list(prefix); }
  delete(name) { return this.inner.delete(name); }
}

test('only durable input is stepped; an ingest never acknowledged is not in the resumed state', async () => {
  const storage = new GatedStorage();
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  const kept = await p.insert('t', [{ id: 1, v: 1 }]);
  await p.waitForCompletion(kept);
  storage.hold = true;
  let lostToken = null;
  p.insert('t', [{ id: 2, v: 1 }]).then((token) => (lostToken = token));
  p.insert('t', [{ id: 3, v: 1 }]);
  await tick(20);
  assert.equal(lostToken, null, 'not acknowledged while its write is pending');
  assert.deepEqual(p.snapshot('all_rows'), [{ id: 1, v: 1 }], 'input not yet durable is not stepped');
  assert.equal(p.stats().step, 1);
  p.pause();  // the crash

  storage.hold = false;
  const q = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  await q.waitForCompletion(kept);
  assert.deepEqual(q.snapshot('all_rows'), [{ id: 1, v: 1 }]);
  const other = await q.insert('t', [{ id: 4, v: 1 }]);
  await q.waitForCompletion(other);
  await q.close();
});

test('a checkpoint truncates the log up to the checkpoint before it; resuming from the older one still replays', async () => {
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  for (let i = 0; i < 3; ++i) await p.waitForCompletion(await p.insert('t', [{ id: i, v: 0 }]));
  await p.checkpoint();
  const logged = await storage.list('inputlog-');
  assert.ok(logged.length >= 3);
  await p.waitForCompletion(await p.insert('t', [{ id: 10, v: 0 }]));
  await p.checkpoint();
  const left = await storage.list('inputlog-');
  assert.ok(logged.every((name) => !left.includes(name)), 'what the first checkpoint holds is gone');
  assert.ok(left.length >= 1, 'what only the second holds stays');
  await p.waitForCompletion(await p.insert('t', [{ id: 11, v: 0 }]));
  p.pause();  // a crash (its log writes after this are never needed: the test's storage is read as it is now)
  // The newest checkpoint damaged: the older one and the log still give every row.
  const manifests = (await storage.list('checkpoint-')).filter((name) => name.endsWith('.manifest'));
  await storage.put(manifests.at(-1), new Uint8Array([1, 2, 3]));
  const q = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  assert.deepEqual(q.stats().checkpoint.skippedDamaged.length, 1);
  await tick(5);
  assert.deepEqual(q.snapshot('all_rows').map((row) => row.id).sort((a, b) => a - b), [0, 1, 2, 10, 11]);
  await q.close({ checkpoint: false });
});

test('a damaged log is CHECKPOINT_CORRUPT naming the blob; a failed log write fails the pipeline and rejects the token', async () => {
  const storage = new GatedStorage();
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  await p.insert('t', [{ id: 1, v: 1 }]);
  storage.fail = true;
  await assert.rejects(p.insert('t', [{ id: 2, v: 1 }]), { code: 'STORAGE_ERROR', message: /input log: cannot write 'inputlog-/ });
  assert.equal(p.stats().failure.code, 'STORAGE_ERROR');
  await assert.rejects(p.insert('t', [{ id: 3, v: 1 }]), { code: 'STORAGE_ERROR' });
  await p.close();
  storage.fail = false;

  const [first] = await storage.list('inputlog-');
  await storage.put(first, new Uint8Array([9, 0, 0, 0, 1]));
  await assert.rejects(Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' }),
                       { code: 'CHECKPOINT_CORRUPT', message: new RegExp(`input log: blob '${first}'`) });
});

test('a poison record (the program changed under a log without checkpoint) fails create naming the record', async () => {
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage, durability: 'log' });
  await p.insert('t', [{ id: 1, v: 1 }]);
  p.pause();
  const other = 'CREATE TABLE t (id BIGINT NOT NULL, w VARCHAR NOT NULL); CREATE MATERIALIZED VIEW a AS SELECT * FROM t;';
  await assert.rejects(Pipeline.create({ sql: other, storage, durability: 'log' }), (error) => {
    assert.equal(error.details.logRecord, 0);
    assert.match(error.message, /replaying the input log, record 0/);
    return true;
  });
});

test('durability: option checks; with the log CLOSED is a rejected Promise', async () => {
  await assert.rejects(Pipeline.create({ sql: DURABLE_SQL, durability: 'log' }), { code: 'INVALID_ARGUMENT', message: /needs a storage/ });
  await assert.rejects(Pipeline.create({ sql: DURABLE_SQL, durability: 'sync' }), { code: 'INVALID_ARGUMENT' });
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage: new MemoryStorage(), durability: 'log' });
  const closed = p.close();
  await assert.rejects(p.insert('t', [{ id: 1, v: 1 }]), { code: 'CLOSED' }, 'with the log every ingest error is a rejection');
  await closed;
});

test('close(): refuses input at once, waits for the connectors, takes a last checkpoint', async () => {
  const storage = new MemoryStorage();
  const written = [];
  const slow = callbackSink(async (chunk) => {
    await tick(30);
    written.push(chunk.sequenceNumber);
  }, { description: 'slow' });
  const p = await Pipeline.create({ sql: DURABLE_SQL, storage, outputs: { slow: { view: 'totals', sink: slow } } });
  p.insert('t', [{ id: 1, v: 1 }]);
  await tick(1);
  p.insert('t', [{ id: 2, v: 2 }]);  // buffered, not stepped: the checkpoint keeps it
  const closed = p.close();
  assert.throws(() => p.insert('t', [{ id: 3, v: 3 }]), { code: 'CLOSED' });
  assert.equal(p.close(), closed);
  await closed;
  assert.equal(written.length, 1, 'the write in flight finished before the checkpoint');
  assert.throws(() => p.stats(), { code: 'CLOSED' });
  const again = [];
  const q = await Pipeline.create({ sql: DURABLE_SQL, storage, outputs: { slow: { view: 'totals', sink: callbackSink((c) => again.push(c)) } } });
  await tick(5);
  assert.deepEqual(q.snapshot('all_rows').map((row) => row.id).sort(), [1, 2]);
  q.close({ checkpoint: false });

  // A sink that never finishes: close() gives up after timeoutMs and frees the engine anyway.
  const stuck = await Pipeline.create({ sql: DURABLE_SQL, storage: new MemoryStorage(),
                                        outputs: { stuck: { view: 'totals', sink: callbackSink(() => new Promise(() => {})) } } });
  stuck.insert('t', [{ id: 1, v: 1 }]);
  await tick(5);
  await stuck.close({ timeoutMs: 50 });
  assert.equal(stuck.state, 'closed');
});

test('a step where a view failed (overflow) is a step: replay fails the same view again, the others go on', async () => {
  const sql = 'CREATE TABLE t (x BIGINT NOT NULL); CREATE MATERIALIZED VIEW s AS SELECT SUM(x) AS s FROM t;' +
              'CREATE MATERIALIZED VIEW n AS SELECT COUNT(*) AS n FROM t;';
  const storage = new MemoryStorage();
  const p = await Pipeline.create({ sql, storage, durability: 'log' });
  const fine = await p.insert('t', [{ x: 1 }]);
  await p.waitForCompletion(fine);
  const poison = await p.insert('t', [{ x: 9223372036854775807n }]);
  await p.waitForCompletion(poison);  // the step ran: only the view s failed
  const failed = p.stats().views.s.failed;
  assert.equal(failed.code, 'OVERFLOW');
  p.pause();  // a crash: replay runs the same steps

  const q = await Pipeline.create({ sql, storage, durability: 'log' });
  await q.waitForCompletion(poison);  // replayed, or stepped again if the crash lost its step record
  assert.deepEqual(q.stats().views.s.failed, failed);
  assert.throws(() => q.snapshot('s'), { code: 'OVERFLOW', message: failed.message });
  const later = await q.insert('t', [{ x: 2 }]);
  await q.waitForCompletion(later);
  assert.deepEqual(q.snapshot('n'), [{ n: 3 }]);
  await q.close();
});
