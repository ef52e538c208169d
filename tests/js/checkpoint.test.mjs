// Checkpoints from JS: resume with nothing lost and nothing sent twice,
// damaged checkpoints skipped, program changes, tokens across restarts.
// close({ checkpoint: false }): these tests count the checkpoints they write themselves.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FileStorage, MapSink, MemoryStorage, Pipeline, callbackSink } from 'freshet';

import { ORDERS_SQL, bag, random, seed, until } from './support.mjs';

// The storage contract over a Map (the package's storages have their own tests).
class BlobStore {
  blobs = new Map();
  failPuts = false;
  async put(name, bytes) {
    if (this.failPuts) throw new Error('disk full');
    this.blobs.set(name, new Uint8Array(bytes));
  }
  async get(name) {
    return this.blobs.get(name);
  }
  async list(prefix) {
    return [...this.blobs.keys()].filter((name) => name.startsWith(prefix)).sort();
  }
  async delete(name) {
    this.blobs.delete(name);
  }
}

// A destination that outlives pipelines, counting the snapshots it received.
function mirror() {
  const map = new MapSink();
  const counts = { snapshots: 0, chunks: 0 };
  const sink = callbackSink((chunk) => {
    counts.chunks += 1;
    if (chunk.snapshotComplete) counts.snapshots += 1;
    map.write(chunk);
  }, { reset: () => map.reset(), description: 'mirror' });
  return { sink, map, counts };
}

async function settle(p, token) {
  await p.waitForCompletion(token);
}

test('a resumed pipeline has the same state and does not resend the snapshot', async () => {
  const storage = new BlobStore();
  const dest = mirror();
  const outputs = () => ({ dash: { view: 'by_region', sendSnapshot: true, sink: dest.sink } });
  let p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs: outputs() });
  p.insert('customers', [{ id: 1, region: 'north' }, { id: 2, region: 'south' }]);
  await settle(p, p.insert('orders', [{ id: 1, customer: 1, amount: 5 }, { id: 2, customer: 2, amount: 7 }]));
  const written = await p.checkpoint();
  assert.equal(written.sequenceNumber, 0);
  assert.ok(written.bytes > 0);
  const before = p.snapshot('by_region');
  const step = p.stats().step;
  p.close({ checkpoint: false });

  for (let restart = 0; restart < 3; ++restart) {
    p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs: outputs() });
    assert.equal(p.stats().step, step + restart);
    assert.equal(p.stats().checkpoint.restoredFrom, restart);
    assert.deepEqual(bag(p.snapshot('by_region')), bag(restart === 0 ? before : p.snapshot('by_region')));
    assert.equal(p.stats().outputs.dash.snapshotSent, true);
    await settle(p, p.insert('orders', [{ id: 10 + restart, customer: 1, amount: 1 }]));
    assert.deepEqual(bag(dest.map.rows()), bag(p.snapshot('by_region')));
    await p.checkpoint();
    p.close({ checkpoint: false });
  }
  assert.equal(dest.counts.snapshots, 1, 'one snapshot across three restarts');
});

test('snapshot plus deltas equal the view across random restarts', async () => {
  const next = random(seed('checkpoint oracle'));
  const storage = new BlobStore();
  const dest = mirror();
  const open = () => Pipeline.create({
    sql: ORDERS_SQL, storage, outputs: { dash: { view: 'by_region', sendSnapshot: true, sink: dest.sink } },
  });
  let p = await open();
  p.insert('customers', [1, 2, 3].map((id) => ({ id, region: `r${id % 2}` })));
  const orders = new Set();
  for (let round = 0; round < 60; ++round) {
    const id = Math.floor(next() * 30);
    let token;
    if (orders.has(id) && next() < 0.3) {
      orders.delete(id);
      token = p.delete('orders', { id });
    } else {
      orders.add(id);
      token = p.insert('orders', [{ id, customer: 1 + Math.floor(next() * 3), amount: Math.floor(next() * 100) }]);
    }
    await settle(p, token);
    assert.deepEqual(bag(dest.map.rows()), bag(p.snapshot('by_region')), `round ${round}`);
    if (next() < 0.2) {
      await p.checkpoint();
      p.close({ checkpoint: false });
      p = await open();
    }
  }
  assert.equal(dest.counts.snapshots, 1);
  p.close({ checkpoint: false });
});

test('a damaged checkpoint is skipped for the previous one; none valid is CHECKPOINT_CORRUPT', async () => {
  const storage = new BlobStore();
  let p = await Pipeline.create({ sql: ORDERS_SQL, storage });
  await settle(p, p.insert('customers', [{ id: 1, region: 'north' }]));
  await p.checkpoint();
  await settle(p, p.insert('customers', [{ id: 2, region: 'south' }]));
  const second = await p.checkpoint();
  p.close({ checkpoint: false });
  const part = [...storage.blobs.keys()].find((name) => name.startsWith(`checkpoint-${String(second.sequenceNumber).padStart(20, '0')}.part`));
  storage.blobs.get(part)[10] ^= 0xff;
  p = await Pipeline.create({ sql: ORDERS_SQL, storage });
  const status = p.stats().checkpoint;
  assert.equal(status.restoredFrom, 0);
  assert.deepEqual(status.skippedDamaged, [1]);
  assert.match(status.lastError, /checksum mismatch/);
  assert.equal(p.stats().inputs.customers.totalRecords, 1);
  p.close({ checkpoint: false });
  storage.blobs.delete('checkpoint-00000000000000000000.part-0000');
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage }), { code: 'CHECKPOINT_CORRUPT' });
});

test('another program: a new view is bootstrapped; a changed table is PROGRAM_MISMATCH unless onProgramChange is restart', async () => {
  const storage = new BlobStore();
  let p = await Pipeline.create({ sql: ORDERS_SQL, storage });
  await settle(p, p.insert('customers', [{ id: 1, region: 'north' }]));
  await settle(p, p.insert('orders', [{ id: 1, customer: 1, amount: 3 }]));
  await p.checkpoint();
  p.close({ checkpoint: false });
  // A view added: the others keep their state, the new one is computed from orders' rows.
  const added = `${ORDERS_SQL}\nCREATE MATERIALIZED VIEW everything AS SELECT * FROM orders;`;
  p = await Pipeline.create({ sql: added, storage });
  assert.equal(p.stats().inputs.customers.totalRecords, 1);
  assert.deepEqual(p.snapshot('everything'), [{ id: 1, customer: 1, amount: 3 }]);
  assert.deepEqual(p.snapshot('by_region'), [{ region: 'north', orders: 1, total: 3 }]);
  p.close({ checkpoint: false });
  p = await Pipeline.create({ sql: `-- comments do not matter\n${ORDERS_SQL}`, storage });
  assert.equal(p.stats().inputs.customers.totalRecords, 1);
  p.close({ checkpoint: false });
  // A table changed: its rows cannot follow.
  const changed = ORDERS_SQL.replace('region VARCHAR,', 'region VARCHAR, since DATE,');
  await assert.rejects(Pipeline.create({ sql: changed, storage }), { code: 'PROGRAM_MISMATCH' });
  p = await Pipeline.create({ sql: changed, storage, onProgramChange: 'restart' });
  assert.equal(p.stats().step, 0);
  assert.equal((await p.checkpoint()).sequenceNumber, 1);
  p.close({ checkpoint: false });
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage }), { code: 'PROGRAM_MISMATCH' });
});

test('tokens from before the checkpoint are answered after a resume; later ones are unknown', async () => {
  const storage = new BlobStore();
  const dest = mirror();
  const outputs = { dash: { view: 'by_region', sink: dest.sink } };
  let p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs });
  p.pause();
  const stepped = p.insert('customers', [{ id: 1, region: 'north' }]);
  p.step();
  const buffered = p.insert('orders', [{ id: 1, customer: 1, amount: 3 }]);  // not stepped yet
  await p.checkpoint();
  const lost = p.insert('orders', [{ id: 2, customer: 1, amount: 4 }]);
  p.close({ checkpoint: false });  // a crash: `lost` never reached a checkpoint

  p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs });
  assert.equal(p.completionStatus(stepped), 'complete');
  await p.waitForCompletion(buffered);  // its input was in the checkpoint and steps now
  assert.deepEqual(p.snapshot('by_region'), [{ region: 'north', orders: 1, total: 3 }]);
  assert.throws(() => p.completionStatus(lost), { code: 'UNKNOWN_TOKEN', message: /ingest it again/ });
  const fresh = p.insert('orders', [{ id: 2, customer: 1, amount: 4 }]);
  assert.notEqual(fresh, lost);
  await p.waitForCompletion(fresh);
  p.close({ checkpoint: false });
});

test('checkpoint() needs a storage; a storage that fails is STORAGE_ERROR and the previous checkpoint stays', async () => {
  const plain = await Pipeline.create({ sql: ORDERS_SQL });
  await assert.rejects(plain.checkpoint(), { code: 'INVALID_ARGUMENT' });
  plain.close({ checkpoint: false });
  await assert.rejects(Pipeline.create({ sql: ORDERS_SQL, storage: {} }), { code: 'INVALID_ARGUMENT' });

  const storage = new BlobStore();
  let p = await Pipeline.create({ sql: ORDERS_SQL, storage });
  await settle(p, p.insert('customers', [{ id: 1, region: 'north' }]));
  await p.checkpoint();
  await settle(p, p.insert('customers', [{ id: 2, region: 'south' }]));
  storage.failPuts = true;
  await assert.rejects(p.checkpoint(), { code: 'STORAGE_ERROR', message: /disk full/ });
  assert.match(p.stats().checkpoint.lastError, /disk full/);
  p.close({ checkpoint: false });
  storage.failPuts = false;
  p = await Pipeline.create({ sql: ORDERS_SQL, storage });
  assert.equal(p.stats().checkpoint.restoredFrom, 0);
  assert.equal(p.stats().inputs.customers.totalRecords, 1);
  await until(() => true);
  p.close({ checkpoint: false });
});

test('MemoryStorage and FileStorage hold checkpoints to resume from', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'freshet-checkpoints-'));
  try {
    for (const storage of [new MemoryStorage(), new FileStorage(dir)]) {
      const dest = mirror();
      const outputs = { dash: { view: 'by_region', index: 'by_region_idx', sendSnapshot: true, sink: dest.sink } };
      let p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs });
      p.insert('customers', [{ id: 1, region: 'north' }]);
      await settle(p, p.insert('orders', [{ id: 1, customer: 1, amount: 2 }]));
      await p.checkpoint();
      await p.checkpoint();
      await p.checkpoint();
      assert.equal((await storage.list('checkpoint-')).filter((name) => name.endsWith('.manifest')).length, 2);
      p.close({ checkpoint: false });
      p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs });
      assert.equal(p.stats().checkpoint.restoredFrom, 2);
      await settle(p, p.insert('orders', [{ id: 2, customer: 1, amount: 3 }]));
      assert.deepEqual(dest.map.get({ region: 'north' }), { region: 'north', orders: 2, total: 5 });
      assert.equal(dest.counts.snapshots, 1);
      p.close({ checkpoint: false });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an output configured otherwise after a resume is new: its sink is reset, then gets a snapshot', async () => {
  const storage = new BlobStore();
  const dest = mirror();
  let resets = 0;
  const sink = { write: (chunk) => dest.sink.write(chunk), reset: () => { ++resets; dest.map.reset(); }, describe: () => 'mirror' };
  let p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs: { dash: { view: 'by_region', sink } } });
  p.insert('customers', [{ id: 1, region: 'north' }]);
  await settle(p, p.insert('orders', [{ id: 1, customer: 1, amount: 2 }]));
  assert.equal(dest.counts.snapshots, 0);
  await p.checkpoint();
  p.close({ checkpoint: false });
  // send_snapshot false → true: a new connector (one reset, one snapshot).
  p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs: { dash: { view: 'by_region', sendSnapshot: true, sink } } });
  await until(() => dest.counts.snapshots === 1);
  assert.equal(resets, 1);
  assert.deepEqual(bag(dest.map.rows()), bag(p.snapshot('by_region')));
  assert.equal(p.stats().outputs.dash.transmittedBatches, 2, 'statistics carry over');
  await p.checkpoint();
  p.close({ checkpoint: false });
  // The same again: carries on, no reset, no snapshot.
  p = await Pipeline.create({ sql: ORDERS_SQL, storage, outputs: { dash: { view: 'by_region', sendSnapshot: true, sink } } });
  await settle(p, p.insert('orders', [{ id: 2, customer: 1, amount: 3 }]));
  assert.equal(resets, 1);
  assert.equal(dest.counts.snapshots, 1);
  assert.deepEqual(bag(dest.map.rows()), bag(p.snapshot('by_region')));
  p.close({ checkpoint: false });
});
