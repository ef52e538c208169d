// durability: 'log' on IndexedDBStorage in Chromium: a page reloaded in the
// middle of a burst of ingests (the page's pipeline dropped without close)
// loses none of the acknowledged records and doubles none; their tokens
// answer after the reload. Also prints what the log costs per ingest on
// IndexedDB against the same pipeline without it (a figure, not a test).
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { baseURL, launchOptions, runDir } from './chromium.mjs';

const SQL = `CREATE TABLE t (id BIGINT NOT NULL, v BIGINT);
CREATE MATERIALIZED VIEW all_rows AS SELECT * FROM t;
CREATE MATERIALIZED VIEW totals AS SELECT v, COUNT(*) AS n FROM t GROUP BY v;`;

let profile;
test.beforeEach(({}, testInfo) => {
  profile = `p${testInfo.testId}`;
  rmSync(join(runDir, 'profiles', profile), { recursive: true, force: true });
});

async function open() {
  const context = await chromium.launchPersistentContext(join(runDir, 'profiles', profile), { ...launchOptions, baseURL });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  return { context, page, errors };
}

async function gotoPage(page) {
  await page.goto('/e2e/page/index.html');
  await page.waitForFunction(() => window.t !== undefined);
}

test('a reload mid-burst: every acknowledged record is there once after it, and its token answers', async () => {
  test.setTimeout(90_000);
  const { context, page, errors } = await open();
  const acknowledged = [];  // { first, count, token }
  page.on('console', (message) => {
    const match = /^acked (\d+) (\d+) (\S+)$/.exec(message.text());
    if (match) acknowledged.push({ first: Number(match[1]), count: Number(match[2]), token: match[3] });
  });
  for (let reload = 0; reload < 3; ++reload) {
    await gotoPage(page);
    // The burst runs on in the page after evaluate returns: ingests in flight, acknowledged as their log writes land.
    await page.evaluate(({ sql, firstId }) => {
      (async () => {
        const p = await t.freshet.Pipeline.create({ sql, storage: new t.freshet.IndexedDBStorage('durable'), durability: 'log' });
        let id = firstId;
        for (let batch = 0; ; ++batch) {
          const inFlight = [];
          for (let i = 0; i < 3; ++i) {
            const count = 1 + ((batch * 7 + i) % 20);
            const rows = Array.from({ length: count }, (_, k) => ({ id: id + k, v: (id + k) % 5 }));
            const first = id;
            id += count;
            inFlight.push(p.insert('t', rows).then((token) => console.log(`acked ${first} ${count} ${token}`)));
          }
          await Promise.all(inFlight);
          if (batch % 25 === 24) await p.checkpoint();
          await new Promise((resolve) => setTimeout(resolve, 2));  // a producer over time, not one synchronous burst
        }
      })();
    }, { sql: SQL, firstId: reload * 1_000_000 });
    const before = acknowledged.length;
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(before + 15 + reload * 10);
    await page.reload();  // mid-burst: the page's pipeline is gone without close()
    await page.waitForFunction(() => window.t !== undefined);
    const result = await page.evaluate(async ({ sql, tokens }) => {
      const p = await t.freshet.Pipeline.create({ sql, storage: new t.freshet.IndexedDBStorage('durable'), durability: 'log' });
      for (const token of tokens) await p.waitForCompletion(token);
      const rows = p.snapshot('all_rows');
      const totals = p.snapshot('totals');
      await p.close();
      return { ids: rows.map((row) => row.id), rows, totals };
    }, { sql: SQL, tokens: acknowledged.map((ack) => ack.token) });
    const counts = new Map();
    for (const id of result.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
    const lost = acknowledged.flatMap(({ first, count }) => Array.from({ length: count }, (_, k) => first + k)).filter((id) => !counts.has(id));
    expect(lost).toEqual([]);
    const want = new Map();
    for (const row of result.rows) want.set(row.v, (want.get(row.v) ?? 0) + 1);
    expect(new Map(result.totals.map((row) => [row.v, row.n]))).toEqual(want);
  }
  expect(errors).toEqual([]);
  await context.close();
});

test('figure: what the log costs per ingest on IndexedDBStorage (printed)', async () => {
  const { context, page, errors } = await open();
  await gotoPage(page);
  const figures = await page.evaluate(async (sql) => {
    const measure = async (options, n) => {
      const p = await t.freshet.Pipeline.create({ sql, ...options });
      let id = 0;
      for (let i = 0; i < 20; ++i) await p.waitForCompletion(await p.insert('t', [{ id: id++, v: 1 }]));
      let started = performance.now();
      for (let i = 0; i < n; ++i) await p.waitForCompletion(await p.insert('t', [{ id: id++, v: 1 }]));
      const single = ((performance.now() - started) * 1000) / n;
      started = performance.now();
      for (let b = 0; b < n / 100; ++b) {
        const tokens = await Promise.all(Array.from({ length: 100 }, () => p.insert('t', [{ id: id++, v: 1 }])));
        await p.waitForCompletion(tokens.at(-1));
      }
      const burst = ((performance.now() - started) * 1000) / n;
      await p.close({ checkpoint: false });
      return { single: Math.round(single), burst: Math.round(burst * 10) / 10 };
    };
    return {
      withoutLog: await measure({ storage: new t.freshet.IndexedDBStorage('plain') }, 300),
      withLog: await measure({ storage: new t.freshet.IndexedDBStorage('logged'), durability: 'log' }, 300),
    };
  }, SQL);
  console.log(`IndexedDBStorage, µs per ingest of one row until complete (awaited one by one | bursts of 100): ` +
              `without the log ${figures.withoutLog.single} | ${figures.withoutLog.burst}; ` +
              `with durability 'log' ${figures.withLog.single} | ${figures.withLog.burst}`);
  expect(figures.withLog.single).toBeGreaterThan(0);
  expect(errors).toEqual([]);
  await context.close();
});
