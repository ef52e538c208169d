// The web demo in edge mode against the real edge worker, as `npm start`
// serves it: workerd through Miniflare (edge-worker/local.mjs) on a free
// port, the sample pipeline 'demo' created over HTTP (as edge-worker/dev.mjs
// does) and fed orders by a generator over HTTP while the test runs, and the
// dashboard served by the worker itself (its ASSETS binding) at
// /web-demo/index.html?source=edge&pipeline=demo, in Debian's Chromium.
// The screen's rows (data-row) are compared with the worker's own answer to
// GET .../query?sql=SELECT * FROM <view> once the pipeline is paused and the
// page has drawn everything its egress streams sent.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { startEdgeWorker } from '../edge-worker/local.mjs';
import { SAMPLE_PIPELINE_NAME, SAMPLE_SQL, SampleGenerator } from '../web-demo/sample_pipeline.js';
import { launchOptions, runDir } from './chromium.mjs';
import { openRecordedPage } from './recorded_page.mjs';

const VIEWPORT = { width: 1440, height: 1000 };
const VIEWS = ['revenue_by_region', 'top_products', 'large_orders'];
const LARGE_ORDERS_SHOWN = 40;     // web-demo/app.js
const FEED_EVERY_MS = 100;         // 30 orders every 100 ms: 300 orders a second
const FEED_PER_TICK = 30;
const INITIAL_ORDERS = 5000;   // about 2 % are large orders: the table is truncated

// As dev.mjs's DEMO_DEFINITION (the KV connector included, so that the
// pipeline the page follows is the one `npm start` runs).
const DEMO_DEFINITION = {
  program_code: SAMPLE_SQL,
  outputs: {
    revenue_kv: { view: 'revenue_by_region', send_snapshot: true, sink: { type: 'kv', prefix: 'outputs/demo/revenue_by_region/' } },
  },
  checkpoint_interval_ms: 5_000,
};

let worker;
let persistDir;
let stopFeeding = () => {};
let feedErrors = [];

async function call(method, path, body) {
  const response = await fetch(`${worker.url}/v0/pipelines/${SAMPLE_PIPELINE_NAME}${path}`, {
    method,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The worker's rows of `view` (GET .../query). */
async function query(view) {
  const answer = await call('GET', `/query?sql=${encodeURIComponent(`SELECT * FROM ${view}`)}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Orders over HTTP every FEED_EVERY_MS, skipping a tick while one is in flight (as dev.mjs). */
function feed(generator) {
  let busy = false;
  let stopped = false;
  const timer = setInterval(async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const answer = await call('POST', '/ingress/orders?array=true', generator.next(FEED_PER_TICK));
      if (answer.status !== 200 && !stopped) feedErrors.push(JSON.stringify(answer.body));
    } catch (error) {
      if (!stopped) feedErrors.push(error.message);
    } finally {
      busy = false;
    }
  }, FEED_EVERY_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

test.beforeAll(async () => {
  test.setTimeout(30_000);
  mkdirSync(runDir, { recursive: true });
  persistDir = mkdtempSync(join(runDir, 'edge-state-'));
  worker = await startEdgeWorker({ persistDir, port: 0, host: '127.0.0.1' });
  expect(worker.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(worker.url).not.toMatch(/:(8787|8791)$/);
  const generator = new SampleGenerator({ seed: 7 });
  const created = await call('PUT', '', DEMO_DEFINITION);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const customers = await call('POST', '/ingress/customers?update_format=raw&array=true', generator.customers());
  expect(customers.status, JSON.stringify(customers.body)).toBe(200);
  const orders = await call('POST', '/ingress/orders?array=true', generator.next(INITIAL_ORDERS));
  expect(orders.status, JSON.stringify(orders.body)).toBe(200);
  feedErrors = [];
  stopFeeding = feed(generator);
});

test.afterAll(async () => {
  stopFeeding();
  await worker?.stop().catch(() => {});
  if (persistDir) rmSync(persistDir, { recursive: true, force: true });
});

let browser;
test.beforeAll(async () => {
  browser = await chromium.launch(launchOptions);
});
test.afterAll(async () => {
  await browser?.close();
});

/** A fresh context (in-memory profile) and page, recording page errors and error toasts. */
async function openPage() {
  const { context, page, errors } = await openRecordedPage(browser, VIEWPORT);
  return { page, errors, close: () => context.close() };
}

/** The rows a card shows, from their data-row attributes, in screen order. */
const screenRows = (page, selector) => page.$$eval(selector, (elements) => elements.map((e) => JSON.parse(e.dataset.row)));
const byKey = (key) => (rows) => [...rows].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));

/** Rows equal column by column; the `floats` columns (sums of doubles) within 1e-9 relative. */
function expectRowsClose(actual, expected, floats, what) {
  expect(actual.length, `${what}: row count`).toBe(expected.length);
  actual.forEach((row, i) => {
    const want = expected[i];
    expect(Object.keys(row), `${what}: columns of row ${i}`).toEqual(Object.keys(want));
    for (const column of Object.keys(want)) {
      if (floats.includes(column)) {
        const tolerance = 1e-9 * Math.max(1, Math.abs(want[column]));
        expect(Math.abs(row[column] - want[column]), `${what}: row ${i} ${column} ${row[column]} vs ${want[column]}`)
          .toBeLessThanOrEqual(tolerance);
      } else {
        expect(row[column], `${what}: row ${i} ${column}`).toEqual(want[column]);
      }
    }
  });
}

/** The page's chunk counts per view and the step it shows. */
const pageProgress = (page) => page.evaluate((views) => ({
  chunks: Object.fromEntries(views.map((view) => [view, freshetDemo.chunkCounts(view)])),
  step: freshetDemo.status?.step ?? null,
}), VIEWS);

/** Waits until the page's progress stays the same for a second (the pipeline is paused). */
async function settled(page, timeout) {
  let progress = await pageProgress(page);
  await expect.poll(async () => {
    const before = JSON.stringify(progress);
    await page.waitForTimeout(1000);
    progress = await pageProgress(page);
    return JSON.stringify(progress) === before;
  }, { timeout }).toBe(true);
}

test('GET / on the worker redirects to the dashboard, which loads without errors', async () => {
  const response = await fetch(`${worker.url}/`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  expect(new URL(response.headers.get('location'), worker.url).href).toBe(`${worker.url}/web-demo/index.html`);

  const { page, errors, close } = await openPage();
  const loaded = await page.goto(`${worker.url}/`);
  expect(loaded.status()).toBe(200);
  expect(page.url()).toBe(`${worker.url}/web-demo/index.html`);
  await page.waitForFunction(() => document.body.dataset.started === 'yes' && window.freshetDemo?.firstFullViewMs != null, null, { timeout: 20_000 });
  await expect(page.locator('#source-badge')).toContainText('local engine');
  await expect(page.locator('#card-revenue [data-row]')).toHaveCount(8);  // the page's own engine, fed by its own feed
  expect(await page.evaluate(() => window.errorToasts)).toEqual([]);
  expect(errors).toEqual([]);
  await close();
});

test('edge mode on the real worker: snapshot then deltas; paused, the screen equals the worker\'s query answers', async () => {
  const { page, errors, close } = await openPage();
  const egressCalls = [];
  page.on('request', (request) => {
    if (request.url().includes('/egress/')) egressCalls.push(`${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`);
  });
  await page.goto(`${worker.url}/web-demo/index.html?source=edge&pipeline=${SAMPLE_PIPELINE_NAME}`);
  await page.waitForFunction(() => window.freshetDemo?.firstFullViewMs != null, null, { timeout: 20_000 });
  await expect(page.locator('#source-badge')).toContainText(`edge worker · ${worker.url}/v0/pipelines/demo`);
  await expect(page.locator('#rate')).toBeDisabled();

  // From the snapshot: every view's rows, one snapshot chunk each.
  await expect(page.locator('#card-revenue [data-row]')).toHaveCount(8);
  await expect(page.locator('#card-top li[data-row]')).toHaveCount(5);
  await expect.poll(() => page.locator('#card-large tr[data-row]').count()).toBeGreaterThan(5);
  for (const view of VIEWS) {
    expect((await page.evaluate((v) => freshetDemo.chunkCounts(v), view)).snapshot, view).toBe(1);
  }

  // Then deltas: every view moves, and so does the screen.
  const caption = () => page.locator('#card-revenue .caption').textContent();
  const firstCaption = await caption();
  const firstLarge = await screenRows(page, '#card-large tr[data-row]');
  await page.waitForFunction(() => freshetDemo.chunkCounts('revenue_by_region').delta >= 5
    && freshetDemo.chunkCounts('top_products').delta >= 5
    && freshetDemo.chunkCounts('large_orders').delta >= 2, null, { timeout: 15_000 });
  await expect.poll(caption).not.toBe(firstCaption);
  await expect.poll(async () => (await screenRows(page, '#card-large tr[data-row]'))[0].id).toBeGreaterThan(firstLarge[0].id);
  await expect.poll(() => page.evaluate(() => freshetDemo.status?.state)).toBe('running');

  // Pause over HTTP (the generator keeps ingesting: paused means no step).
  const paused = await call('POST', '/pause');
  expect(paused.status, JSON.stringify(paused.body)).toBe(202);  // Feldera's 202 Accepted
  expect(paused.body.state).toBe('paused');
  // The worker's last step, once it stops moving.
  let stats = (await call('GET', '/stats')).body;
  await expect.poll(async () => {
    const before = stats.step;
    await new Promise((resolve) => setTimeout(resolve, 300));
    stats = (await call('GET', '/stats')).body;
    return stats.step === before;
  }).toBe(true);
  // The page: its stats poll shows the pause and that step, and its streams
  // have delivered everything (no chunk for a second).
  await expect.poll(() => page.evaluate(() => freshetDemo.status?.state), { timeout: 5_000 }).toBe('paused');
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  await expect(page.locator('[data-metric="step"] .metric-value')).toHaveText(stats.step.toLocaleString('en-US'));
  await settled(page, 10_000);
  await page.evaluate(() => freshetDemo.nextFrame());
  expect((await call('GET', '/stats')).body.step).toBe(stats.step);

  const worked = {};
  for (const view of VIEWS) worked[view] = await query(view);

  // revenue_by_region: every region, the same orders and revenue.
  expect(worked.revenue_by_region.length).toBe(8);
  expectRowsClose(byKey('region')(await screenRows(page, '#card-revenue [data-row]')),
    byKey('region')(worked.revenue_by_region), ['revenue'], 'revenue_by_region');
  const orders = worked.revenue_by_region.reduce((sum, row) => sum + row.orders, 0);
  await expect(page.locator('#card-revenue .caption')).toContainText(`${orders.toLocaleString('en-US')} orders`);

  // top_products: the five, in rank order.
  expect(worked.top_products.length).toBe(5);
  expectRowsClose(await screenRows(page, '#card-top li[data-row]'),
    [...worked.top_products].sort((a, b) => b.revenue - a.revenue), ['revenue'], 'top_products');

  // large_orders: the newest 40 by id, and the count in the caption.
  expect(worked.large_orders.length).toBeGreaterThan(LARGE_ORDERS_SHOWN);
  expectRowsClose(await screenRows(page, '#card-large tr[data-row]'),
    [...worked.large_orders].sort((a, b) => b.id - a.id).slice(0, LARGE_ORDERS_SHOWN), ['amount'], 'large_orders');
  await expect(page.locator('#card-large .caption')).toContainText(`of ${worked.large_orders.length.toLocaleString('en-US')}`);
  // The page's whole copy of the view, not only what it draws.
  const pageLarge = await page.evaluate(() => freshetDemo.rows('large_orders'));
  expectRowsClose(byKey('id')(pageLarge), byKey('id')(worked.large_orders), ['amount'], 'large_orders (page state)');

  // One stream per view, never reconnected (a reconnect is a second snapshot).
  for (const view of VIEWS) {
    expect((await page.evaluate((v) => freshetDemo.chunkCounts(v), view)).snapshot, view).toBe(1);
    expect(egressCalls.filter((c) => c.startsWith(`POST /v0/pipelines/demo/egress/${view}?`)), view).toHaveLength(1);
    expect(egressCalls.find((c) => c.includes(`/egress/${view}?`))).toMatch(/\?format=json&name=dashboard-\w+-\w+&send_snapshot=true$/);
  }
  expect(await page.evaluate(() => window.errorToasts)).toEqual([]);
  expect(errors).toEqual([]);
  expect(feedErrors).toEqual([]);
  await close();
});

test('edge mode: dropped egress connections resume with resume_from, without a new snapshot; the screen equals the worker', async () => {
  expect((await call('POST', '/resume')).status).toBe(202);
  const { page, errors, close } = await openPage();
  const egressCalls = [];
  page.on('request', (request) => {
    if (request.url().includes('/egress/')) egressCalls.push(`${new URL(request.url()).pathname}${new URL(request.url()).search}`);
  });
  await page.goto(`${worker.url}/web-demo/index.html?source=edge&pipeline=${SAMPLE_PIPELINE_NAME}`);
  await page.waitForFunction(() => window.freshetDemo?.firstFullViewMs != null, null, { timeout: 20_000 });
  await page.waitForFunction(() => freshetDemo.chunkCounts('revenue_by_region').delta >= 3, null, { timeout: 15_000 });

  // Cut every stream, as a network failure would; each comes back resuming.
  expect(await page.evaluate(() => freshetDemo.call('dropConnections'))).toBe(VIEWS.length);
  const resumed = () => VIEWS.every((view) => egressCalls.some((c) => c.includes(`/egress/${view}?`) && /&resume_from=\d+$/.test(c)));
  await expect.poll(resumed, { timeout: 10_000 }).toBe(true);
  const afterDrop = await page.evaluate(() => freshetDemo.chunkCounts('revenue_by_region').delta);
  await page.waitForFunction((n) => freshetDemo.chunkCounts('revenue_by_region').delta >= n + 3, afterDrop, { timeout: 15_000 });

  // Paused and settled: the page's copy of every view equals the worker's.
  expect((await call('POST', '/pause')).status).toBe(202);
  await settled(page, 15_000);
  const revenue = await query('revenue_by_region');
  expectRowsClose(byKey('region')(await screenRows(page, '#card-revenue [data-row]')), byKey('region')(revenue), ['revenue'], 'revenue_by_region');
  const large = await query('large_orders');
  expectRowsClose(byKey('id')(await page.evaluate(() => freshetDemo.rows('large_orders'))), byKey('id')(large), ['amount'], 'large_orders (page state)');
  for (const view of VIEWS) {
    expect((await page.evaluate((v) => freshetDemo.chunkCounts(v), view)).snapshot, `${view}: one snapshot, not sent again`).toBe(1);
    const calls = egressCalls.filter((c) => c.includes(`/egress/${view}?`));
    expect(calls[0], view).toMatch(/&send_snapshot=true$/);
    expect(calls.slice(1).every((c) => /&resume_from=\d+$/.test(c)), `${view}: ${calls.join(', ')}`).toBe(true);
  }
  // The only error toasts are the drops themselves.
  expect((await page.evaluate(() => window.errorToasts)).every((t) => /reconnecting/.test(t))).toBe(true);
  expect(errors).toEqual([]);
  expect(feedErrors).toEqual([]);
  await close();
});
