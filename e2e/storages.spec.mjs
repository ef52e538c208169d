// IndexedDBStorage and IndexedDBSink in Debian's Chromium, through the
// package's browser entry on a served page (server.mjs). Each test launches
// a persistent context on its own profile folder, so that "survives a
// reload" and "survives a browser restart" are tested on real IndexedDB.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { baseURL, launchOptions, runDir } from './chromium.mjs';

/** Launches Chromium on `profile` (kept between calls within a test) and opens the test page. */
async function open(profile) {
  const context = await chromium.launchPersistentContext(join(runDir, 'profiles', profile), { ...launchOptions, baseURL });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await gotoPage(page);
  return { context, page, errors };
}

async function gotoPage(page) {
  await page.goto('/e2e/page/index.html');
  await page.waitForFunction(() => window.t !== undefined);
}

let profile;
test.beforeEach(({}, testInfo) => {
  profile = `p${testInfo.testId}`;
  rmSync(join(runDir, 'profiles', profile), { recursive: true, force: true });
});

const CHUNKS = {
  snapshot: {
    sequenceNumber: 0, step: 1, snapshot: true, snapshotComplete: true,
    upserts: [
      { key: { region: 'west' }, row: { region: 'west', orders: 1, total: 10 } },
      { key: { region: 'east' }, row: { region: 'east', orders: 2, total: 5.5 } },
      { key: { region: null }, row: { region: null, orders: 1, total: 1 } },
    ],
    deletes: [],
  },
  delta: {
    sequenceNumber: 1, step: 2, snapshot: false, snapshotComplete: false,
    upserts: [{ key: { region: 'west' }, row: { region: 'west', orders: 2, total: 30 } }],
    deletes: [{ key: { region: 'east' } }, { key: { region: 'west' } }],
  },
};

test('IndexedDBStorage meets the storage contract', async () => {
  const { context, page, errors } = await open(profile);
  const checks = await page.evaluate(() => t.checkStorageContract(new t.freshet.IndexedDBStorage('contract'), "IndexedDBStorage('contract')"));
  expect(checks).toBeGreaterThan(30);
  expect(errors).toEqual([]);
  await context.close();
});

test('IndexedDBStorage: blobs survive a reload and a browser restart; one database freshet:<name>', async () => {
  let { context, page } = await open(profile);
  await page.evaluate(async () => {
    const storage = new t.freshet.IndexedDBStorage('orders');
    await storage.put('manifest-000001', new Uint8Array([1, 2, 3]));
    await storage.put('part-000001-0', new Uint8Array(200_000).fill(9));
    await storage.put('gone', new Uint8Array([0]));
    await storage.delete('gone');
  });
  const read = () => page.evaluate(async () => {
    const storage = new t.freshet.IndexedDBStorage('orders');
    const part = await storage.get('part-000001-0');
    return {
      names: await storage.list(''),
      manifest: [...await storage.get('manifest-000001')],
      part: [part.length, part.every((b) => b === 9)],
      gone: await storage.get('gone'),
      databases: (await indexedDB.databases()).map((d) => d.name).sort(),
    };
  });
  const expected = {
    names: ['manifest-000001', 'part-000001-0'],
    manifest: [1, 2, 3],
    part: [200_000, true],
    gone: undefined,
    databases: ['freshet:orders'],
  };
  await page.reload();
  await page.waitForFunction(() => window.t !== undefined);
  expect(await read()).toEqual(expected);
  await context.close();
  ({ context, page } = await open(profile));
  expect(await read()).toEqual(expected);
  await context.close();
});

test('IndexedDBSink through an index: snapshot, deltas, idempotent rewrite, in the app\'s own database', async () => {
  const { context, page, errors } = await open(profile);
  const result = await page.evaluate(async (chunks) => {
    await t.makeAppDatabase('app');
    const sink = new t.freshet.IndexedDBSink({ database: 'app', store: 'by_region' });
    await sink.write(chunks.snapshot);
    await sink.write(chunks.delta);
    const first = await t.dumpStore('app', 'by_region');
    await sink.write(chunks.snapshot);  // delivered again after a crash
    await sink.write(chunks.delta);
    return {
      first,
      again: await t.dumpStore('app', 'by_region'),
      app: await t.dumpStore('app', 'app'),
      version: await t.databaseVersion('app'),
      describe: sink.describe(),
    };
  }, CHUNKS);
  const expected = {
    '["west"]': { region: 'west', orders: 2, total: 30 },
    '[null]': { region: null, orders: 1, total: 1 },
  };
  expect(result.first).toEqual(expected);
  expect(result.again).toEqual(expected);
  expect(result.app).toEqual({ k: 'mine' });  // the application's store is untouched
  expect(result.version).toBe(2);              // one version up, to create the store
  expect(result.describe).toEqual({ type: 'IndexedDBSink', database: 'app', store: 'by_region' });
  expect(errors).toEqual([]);
  await context.close();
});

test('IndexedDBSink on a view: rows with counts; reset empties the store', async () => {
  const { context, page } = await open(profile);
  const result = await page.evaluate(async () => {
    const sink = new t.freshet.IndexedDBSink({ database: 'mirror', store: 'orders' });
    const row = (id, amount) => ({ id, amount });
    await sink.write({ sequenceNumber: 0, step: 1, snapshot: true, snapshotComplete: true, inserts: [row(1, 5), row(1, 5), row(2, 7)], deletes: [] });
    const afterSnapshot = await t.dumpStore('mirror', 'orders');
    await sink.write({ sequenceNumber: 1, step: 2, snapshot: false, snapshotComplete: false, inserts: [row(3, 1), { amount: 9, id: 4 }], deletes: [row(1, 5), row(2, 7)] });
    const afterDelta = await t.dumpStore('mirror', 'orders');
    await sink.reset();
    return { afterSnapshot, afterDelta, afterReset: await t.dumpStore('mirror', 'orders') };
  });
  expect(result.afterSnapshot).toEqual({
    '{"amount":5,"id":1}': { row: { id: 1, amount: 5 }, count: 2 },
    '{"amount":7,"id":2}': { row: { id: 2, amount: 7 }, count: 1 },
  });
  expect(result.afterDelta).toEqual({
    '{"amount":5,"id":1}': { row: { id: 1, amount: 5 }, count: 1 },
    '{"amount":1,"id":3}': { row: { id: 3, amount: 1 }, count: 1 },
    '{"amount":9,"id":4}': { row: { amount: 9, id: 4 }, count: 1 },  // named by sorted columns
  });
  expect(result.afterReset).toEqual({});
  await context.close();
});

test('IndexedDBSink applies a chunk in one transaction: a failure halfway leaves nothing of it', async () => {
  const { context, page } = await open(profile);
  const result = await page.evaluate(async (chunks) => {
    const index = new t.freshet.IndexedDBSink({ database: 'atomic', store: 'index' });
    await index.write(chunks.snapshot);
    const before = await t.dumpStore('atomic', 'index');
    // The third upsert cannot be stored (a function is not cloneable): the
    // two before it and the delete must not stay either.
    const indexError = await t.errorOf(() => index.write({
      sequenceNumber: 1, step: 2, snapshot: false, snapshotComplete: false,
      upserts: [
        { key: { region: 'north' }, row: { region: 'north', orders: 1, total: 1 } },
        { key: { region: 'west' }, row: { region: 'west', orders: 9, total: 9 } },
        { key: { region: 'bad' }, row: { region: 'bad', orders: () => 1, total: 0 } },
      ],
      deletes: [{ key: { region: 'east' } }],
    }));
    const afterIndex = await t.dumpStore('atomic', 'index');

    // On a view the rows are written from request callbacks (read, then
    // write the count): a failure there aborts the transaction too.
    const view = new t.freshet.IndexedDBSink({ database: 'atomic', store: 'view' });
    await view.write({ sequenceNumber: 0, step: 1, snapshot: true, snapshotComplete: true, inserts: [{ id: 1 }], deletes: [] });
    const viewError = await t.errorOf(() => view.write({
      sequenceNumber: 1, step: 2, snapshot: false, snapshotComplete: false,
      inserts: [{ id: 2 }, { id: 1 }, { id: 3, f: () => 0 }], deletes: [],
    }));
    return { before, indexError, afterIndex, viewError, afterView: await t.dumpStore('atomic', 'view') };
  }, CHUNKS);
  expect(result.indexError).toMatchObject({ name: 'FreshetError', code: 'STORAGE_ERROR' });
  expect(result.indexError.message).toMatch(/^IndexedDBSink\('atomic', 'index'\): cannot write chunk '1': .*could not be cloned/);
  expect(result.afterIndex).toEqual(result.before);
  expect(result.viewError).toMatchObject({ code: 'STORAGE_ERROR' });
  expect(result.afterView).toEqual({ '{"id":1}': { row: { id: 1 }, count: 1 } });
  await context.close();
});

test('a Pipeline in the browser mirrors a view and its index into IndexedDB, and resets one', async () => {
  const { context, page, errors } = await open(profile);
  const result = await page.evaluate(async () => {
    const { Pipeline, IndexedDBSink } = t.freshet;
    const sql = `
      CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
      CREATE TABLE customers (id BIGINT NOT NULL, region VARCHAR, PRIMARY KEY (id));
      CREATE MATERIALIZED VIEW by_region AS
        SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
        FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
      CREATE INDEX by_region_idx ON by_region(region);`;
    // Two sinks in one new database: each creates its store (two upgrades).
    const p = await Pipeline.create({
      sql,
      outputs: {
        keyed: { view: 'by_region', index: 'by_region_idx', sendSnapshot: true, sink: new IndexedDBSink({ database: 'dash', store: 'keyed' }) },
        rows: { view: 'by_region', sendSnapshot: true, sink: new IndexedDBSink({ database: 'dash', store: 'rows' }) },
      },
    });
    await p.waitForCompletion(p.insert('customers', [{ id: 1, region: 'west' }, { id: 2, region: 'east' }]));
    await p.waitForCompletion(p.insert('orders', [{ id: 1, customer: 1, amount: 10 }, { id: 2, customer: 1, amount: 20 }, { id: 3, customer: 2, amount: 5 }]));
    const first = { keyed: await t.dumpStore('dash', 'keyed'), rows: await t.dumpStore('dash', 'rows') };
    await p.waitForCompletion(p.delete('orders', [{ id: 3 }]));
    const second = { keyed: await t.dumpStore('dash', 'keyed'), rows: await t.dumpStore('dash', 'rows') };
    await p.resetOutput('rows');
    const afterReset = await t.dumpStore('dash', 'rows');
    const stats = p.stats().outputs;
    p.close();
    return { first, second, afterReset, resets: stats.rows.resets, errors: stats.rows.errors + stats.keyed.errors };
  });
  expect(result.first.keyed).toEqual({
    '["west"]': { region: 'west', orders: 2, total: 30 },
    '["east"]': { region: 'east', orders: 1, total: 5 },
  });
  expect(result.first.rows).toEqual({
    '{"orders":2,"region":"west","total":30}': { row: { region: 'west', orders: 2, total: 30 }, count: 1 },
    '{"orders":1,"region":"east","total":5}': { row: { region: 'east', orders: 1, total: 5 }, count: 1 },
  });
  expect(result.second.keyed).toEqual({ '["west"]': { region: 'west', orders: 2, total: 30 } });
  expect(result.second.rows).toEqual({ '{"orders":2,"region":"west","total":30}': { row: { region: 'west', orders: 2, total: 30 }, count: 1 } });
  expect(result.afterReset).toEqual(result.second.rows);
  expect(result.resets).toBe(1);
  expect(result.errors).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
});

test('a reload resumes from IndexedDB: same state, and the mirror does not get the snapshot again', async () => {
  const { context, page, errors } = await open(profile);
  const run = () => page.evaluate(async () => {
    const { Pipeline, IndexedDBStorage, IndexedDBSink } = t.freshet;
    const sql = `
      CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer BIGINT, amount DOUBLE);
      CREATE TABLE customers (id BIGINT NOT NULL, region VARCHAR, PRIMARY KEY (id));
      CREATE MATERIALIZED VIEW by_region AS
        SELECT c.region, COUNT(*) AS orders, SUM(o.amount) AS total
        FROM orders o JOIN customers c ON o.customer = c.id GROUP BY c.region;
      CREATE INDEX by_region_idx ON by_region(region);`;
    // The mirror counts the snapshots it is sent in localStorage, which outlives the page.
    const mirror = new IndexedDBSink({ database: 'dash', store: 'mirror' });
    const counting = {
      async write(chunk) {
        if (chunk.snapshotComplete) localStorage.snapshots = Number(localStorage.snapshots ?? 0) + 1;
        await mirror.write(chunk);
      },
      reset: () => mirror.reset(),
      describe: () => mirror.describe(),
    };
    const p = await Pipeline.create({
      sql,
      storage: new IndexedDBStorage('resume'),
      outputs: { mirror: { view: 'by_region', index: 'by_region_idx', sendSnapshot: true, sink: counting } },
    });
    const resumedFrom = p.stats().checkpoint.restoredFrom;
    const id = 1 + p.stats().inputs.orders.totalRecords;
    if (resumedFrom === null) await p.waitForCompletion(p.insert('customers', [{ id: 1, region: 'west' }, { id: 2, region: 'east' }]));
    await p.waitForCompletion(p.insert('orders', [{ id, customer: 1 + (id % 2), amount: 10 * id }]));
    const checkpoint = await p.checkpoint();
    const view = p.snapshot('by_region');
    const dumped = await t.dumpStore('dash', 'mirror');
    const stats = p.stats();
    p.close({ checkpoint: false });  // the checkpoint above is the one to resume from
    return { resumedFrom, checkpoint, view, mirror: Object.values(dumped), snapshots: Number(localStorage.snapshots),
             step: stats.step, sent: stats.outputs.mirror.snapshotSent };
  });
  const first = await run();
  expect(first.resumedFrom).toBe(null);
  expect(first.snapshots).toBe(1);
  for (let reload = 0; reload < 2; ++reload) {
    await page.reload();
    await page.waitForFunction(() => window.t !== undefined);
    const again = await run();
    expect(again.resumedFrom).toBe(first.checkpoint.sequenceNumber + reload);
    expect(again.sent).toBe(true);
    expect(again.snapshots).toBe(1);
    expect(again.step).toBeGreaterThan(first.step);
    const byRegion = (rows) => [...rows].sort((a, b) => (a.region < b.region ? -1 : 1));
    expect(byRegion(again.mirror)).toEqual(byRegion(again.view));
    expect(again.view.reduce((n, row) => n + row.orders, 0)).toBe(2 + reload);
  }
  expect(errors).toEqual([]);
  await context.close();
});
