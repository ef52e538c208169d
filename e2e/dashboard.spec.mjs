// The web demo (web-demo/) in Debian's Chromium: the dashboard served by the
// e2e server, its engine in a Web Worker, its state in IndexedDB. Each test
// runs on a fresh persistent profile, so "survives a reload" is real
// IndexedDB. The page's hook window.freshetDemo (web-demo/app.js) gives the
// engine's snapshot() of a view once every chunk before it is on screen;
// the screen's rows carry their values in data-row.
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { SAMPLE_SQL } from '../web-demo/sample_pipeline.js';
import { baseURL, launchOptions, runDir } from './chromium.mjs';

const VIEWPORT = { width: 1440, height: 1000 };

async function open(profile, path = '/web-demo/index.html') {
  const context = await chromium.launchPersistentContext(join(runDir, 'profiles', profile), { ...launchOptions, baseURL, viewport: VIEWPORT });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto(path);
  await fullView(page);
  return { context, page, errors };
}

/** Waits until every view of the program has its snapshot on screen. */
async function fullView(page) {
  await page.waitForFunction(() => window.freshetDemo?.firstFullViewMs != null, null, { timeout: 20_000 });
}

let profile;
test.beforeEach(({}, testInfo) => {
  profile = `dashboard-${testInfo.testId}`;
  rmSync(join(runDir, 'profiles', profile), { recursive: true, force: true });
});

/** The rows a card shows, from their data-row attributes, in screen order. */
const screenRows = (page, selector) => page.$$eval(selector, (elements) => elements.map((e) => JSON.parse(e.dataset.row)));
const byKey = (key) => (rows) => [...rows].sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0));

/** The screen against snapshot() of each view (the pipeline must be paused). */
async function expectScreenMatchesEngine(page) {
  const engine = {
    regions: await page.evaluate(() => freshetDemo.snapshot('revenue_by_region')),
    top: await page.evaluate(() => freshetDemo.snapshot('top_products')),
    large: await page.evaluate(() => freshetDemo.snapshot('large_orders')),
  };
  expect(engine.regions.length).toBe(8);
  expect(byKey('region')(await screenRows(page, '#card-revenue [data-row]'))).toEqual(byKey('region')(engine.regions));
  // The top-k in rank order.
  expect(await screenRows(page, '#card-top li[data-row]')).toEqual([...engine.top].sort((a, b) => b.revenue - a.revenue));
  // Large orders: the newest 40 by id, and the count.
  const newest = [...engine.large].sort((a, b) => b.id - a.id).slice(0, 40);
  expect(await screenRows(page, '#card-large tr[data-row]')).toEqual(newest);
  await expect(page.locator('#card-large .caption')).toContainText(engine.large.length.toLocaleString('en-US'));
  // The total line sums what the bars show.
  const orders = engine.regions.reduce((sum, row) => sum + row.orders, 0);
  await expect(page.locator('#card-revenue .caption')).toContainText(`${orders.toLocaleString('en-US')} orders`);
  return engine;
}

test('the views fill from their snapshot, then move with deltas; the screen matches snapshot(); screenshot', async ({}, testInfo) => {
  const { context, page, errors } = await open(profile);
  for (const view of ['revenue_by_region', 'top_products', 'large_orders']) {
    expect((await page.evaluate((v) => freshetDemo.chunkCounts(v), view)).snapshot).toBe(1);
  }
  const ordersOnScreen = () => page.locator('#card-revenue .caption').textContent();
  const first = await ordersOnScreen();
  await page.waitForFunction(() => freshetDemo.chunkCounts('revenue_by_region').delta >= 5);
  await expect.poll(ordersOnScreen).not.toBe(first);

  await page.evaluate(() => freshetDemo.call('pause'));
  await expectScreenMatchesEngine(page);
  for (const view of ['revenue_by_region', 'top_products', 'large_orders']) {
    expect((await page.evaluate((v) => freshetDemo.chunkCounts(v), view)).snapshot).toBe(1);  // deltas only after it
  }
  // A single step while paused moves the views by one step's delta, still equal.
  const before = await page.evaluate(() => freshetDemo.status.step);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => page.evaluate(() => freshetDemo.status.step)).toBeGreaterThan(before);
  await expectScreenMatchesEngine(page);

  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('button', { name: 'Checkpoint now' }).click();
  await expect(page.locator('#toast')).toContainText(/checkpoint #\d+ written/);
  await page.waitForFunction(() => freshetDemo.status.state === 'running' && freshetDemo.latency()?.n > 10);
  await page.waitForTimeout(2000);  // a few seconds in the throughput chart, for the person looking at the picture
  const path = join(runDir, 'dashboard.png');
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach('dashboard', { path, contentType: 'image/png' });
  expect(errors).toEqual([]);
  await context.close();
});

test('a reload resumes from IndexedDB: same state, paused as it was, and no snapshot re-sent to the mirror', async () => {
  const { context, page, errors } = await open(profile);
  await page.waitForFunction(() => freshetDemo.status?.mirrorWritten?.deltaChunks >= 5);
  await page.evaluate(() => freshetDemo.call('pause'));
  const checkpoint = await page.evaluate(() => freshetDemo.call('checkpoint'));
  const before = await expectScreenMatchesEngine(page);
  const statusBefore = await page.evaluate(() => freshetDemo.call('status'));
  expect(statusBefore.mirrorWritten.snapshotChunks).toBe(1);

  await page.reload();
  await fullView(page);
  const status = await page.evaluate(() => freshetDemo.call('status'));
  expect(status.checkpoint.restoredFrom).toBe(checkpoint.sequenceNumber);
  expect(status.state).toBe('paused');
  expect(status.step).toBeGreaterThanOrEqual(checkpoint.step);
  expect(status.liveOrders).toBe(statusBefore.liveOrders);  // the feed's position came back too
  expect(status.mirrorWritten.snapshotChunks).toBe(0);      // this page load wrote no snapshot
  expect(status.outputs.mirror.snapshotSent).toBe(true);
  expect(status.outputs.mirror.resets).toBe(0);
  expect(await expectScreenMatchesEngine(page)).toEqual(before);
  expect(await page.evaluate(() => freshetDemo.call('checkMirror'))).toMatchObject({ equal: true });

  // Running again: the mirror gets deltas, still no snapshot; new orders follow the old ones.
  await page.evaluate(() => freshetDemo.call('resume'));
  await page.waitForFunction(() => freshetDemo.status.mirrorWritten?.deltaChunks >= 3);
  expect((await page.evaluate(() => freshetDemo.call('status'))).mirrorWritten.snapshotChunks).toBe(0);
  const maxId = (rows) => Math.max(...rows.map((row) => row.id));
  await expect.poll(async () => maxId(await page.evaluate(() => freshetDemo.rows('large_orders'))), { timeout: 10_000 })
    .toBeGreaterThan(maxId(before.large));
  expect(await page.evaluate(() => freshetDemo.call('checkMirror'))).toMatchObject({ equal: true });
  expect(errors).toEqual([]);
  await context.close();
});

test('resetting the mirror shows its progress and ends with mirror = view', async () => {
  const { context, page, errors } = await open(profile);
  await page.waitForFunction(() => freshetDemo.rows('large_orders').length >= 20, null, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Reset connector' }).click();
  const verdict = page.locator('#card-mirror .mirror-verdict');
  await expect(verdict).toHaveAttribute('data-equal', 'true', { timeout: 15_000 });
  await expect(verdict).toContainText('mirror = view ✓');
  const phases = await page.evaluate(() => freshetDemo.resetLog.map((p) => p.phase));
  expect(phases[0]).toBe('wiping');
  expect(phases.slice(-2)).toEqual(['verifying', 'done']);
  const verifying = await page.evaluate(() => freshetDemo.resetLog.find((p) => p.phase === 'verifying'));
  expect(verifying.sent).toBe(verifying.total);  // the whole snapshot was written
  expect(verifying.total).toBeGreaterThan(0);
  await expect(page.locator('#card-mirror .progress-fill')).toHaveAttribute('style', /width: 100%/);
  const status = await page.evaluate(() => freshetDemo.call('status'));
  expect(status.outputs.mirror.resets).toBe(1);
  expect(status.mirrorWritten.snapshotChunks).toBe(2);  // the first snapshot, and the reset's

  // A reload while running: the mirror may have taken steps after the last
  // checkpoint, whose input the reload loses; it still ends equal to the view.
  await page.evaluate(() => freshetDemo.call('checkpoint'));
  const written = status.mirrorWritten.deltaChunks;
  await page.waitForFunction((n) => freshetDemo.status.mirrorWritten.deltaChunks > n + 3, written);
  await page.reload();
  await fullView(page);
  expect(await page.evaluate(() => freshetDemo.call('checkMirror'))).toMatchObject({ equal: true });
  expect(errors).toEqual([]);
  await context.close();
});

test('a bad SQL program shows its error at its line and column; the old program keeps running; a new program gets tables', async () => {
  const { context, page, errors } = await open(profile);
  const editor = page.getByRole('textbox', { name: 'SQL program' });
  const bad = SAMPLE_SQL.replace('SUM(quantity) AS units', 'SUM(qty) AS units');
  const lines = bad.split('\n');
  const line = lines.findIndex((text) => text.includes('SUM(qty)')) + 1;
  const column = lines[line - 1].indexOf('qty') + 1;
  await editor.fill(bad);
  const stepBefore = await page.evaluate(() => freshetDemo.status.step);
  await page.getByRole('button', { name: 'Apply program' }).click();
  const message = page.locator('#card-sql .sql-message');
  await expect(message).toHaveClass(/error/);
  await expect(message).toContainText(`line ${line}, column ${column}`);
  await expect(message).toContainText("unknown column 'qty'");
  await expect(page.locator('#card-sql')).toHaveAttribute('data-error-line', String(line));
  await expect(page.locator('#card-sql .sql-gutter .error')).toHaveText(String(line));
  await expect(page.locator('#card-sql .sql-highlight mark')).toHaveText(/^qty/);
  // The old pipeline still runs and the views still move.
  const deltas = await page.evaluate(() => freshetDemo.chunkCounts('revenue_by_region').delta);
  await expect.poll(() => page.evaluate(() => freshetDemo.status.step)).toBeGreaterThan(stepBefore + 5);
  await expect.poll(() => page.evaluate(() => freshetDemo.chunkCounts('revenue_by_region').delta)).toBeGreaterThan(deltas);

  // A valid program with other views: the sample's cards it lacks say so, its own views get tables.
  const other = `${SAMPLE_SQL.split('-- Revenue per region')[0]}
CREATE MATERIALIZED VIEW units_by_product AS
  SELECT product, SUM(quantity) AS units FROM orders GROUP BY product;`;
  await editor.fill(other);
  await page.getByRole('button', { name: 'Apply program' }).click();
  await expect(message).toContainText('applied', { timeout: 15_000 });
  await fullView(page);
  await expect(page.locator('#card-revenue')).toHaveClass(/absent/);
  const table = page.locator('[data-view="units_by_product"] tr[data-row]');
  await expect.poll(() => table.count()).toBeGreaterThan(3);
  await page.evaluate(() => freshetDemo.call('pause'));
  const engine = await page.evaluate(() => freshetDemo.snapshot('units_by_product'));
  expect(byKey('product')(await screenRows(page, '[data-view="units_by_product"] tr[data-row]'))).toEqual(byKey('product')(engine));
  expect(errors).toEqual([]);
  await context.close();
});

// ------------------------------------------------------------ edge mode

// A stand-in for the edge worker's HTTP API (docs/http-api.md): the sample's
// program, an egress per view (a snapshot in two chunks, then a delta and a
// keepalive, written with line breaks split across writes), stats, pause.
const EDGE_PORT = 8796;
const REGION_ROWS = [
  { region: 'North', orders: 3, revenue: 1200.5 },
  { region: 'South', orders: 1, revenue: 99.25 },
  { region: 'East', orders: 2, revenue: 450 },
];
const REGION_AFTER = { region: 'South', orders: 2, revenue: 1099.25 };
const EDGE_VIEWS = {
  revenue_by_region: [
    { sequence_number: 0, snapshot: true, snapshot_complete: false, json_data: REGION_ROWS.slice(0, 2).map((row) => ({ insert: row })) },
    { sequence_number: 1, snapshot: true, snapshot_complete: true, json_data: [{ insert: REGION_ROWS[2] }] },
    { sequence_number: 2, snapshot: false, json_data: [{ delete: REGION_ROWS[1] }, { insert: REGION_AFTER }] },
    { sequence_number: 3, snapshot: false },
  ],
  top_products: [
    { sequence_number: 0, snapshot: true, snapshot_complete: true, json_data: [{ insert: { product: 'mug', units: 7, revenue: 300 } }] },
  ],
  large_orders: [
    { sequence_number: 0, snapshot: true, snapshot_complete: true, json_data: [] },
    { sequence_number: 1, snapshot: false, json_data: [{ insert: { id: 12, customer: 'Ada A.1', region: 'North', product: 'kettle', amount: 950 } }] },
  ],
};

function startFakeEdge(calls) {
  const server = createServer(async (request, response) => {
    const url = new URL(request.url, 'http://x');
    calls.push(`${request.method} ${url.pathname}${url.search}`);
    const headers = { 'access-control-allow-origin': '*' };
    const json = (body) => response.writeHead(200, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
    const egress = /^\/v0\/pipelines\/demo\/egress\/(\w+)$/.exec(url.pathname);
    if (egress && request.method === 'POST' && EDGE_VIEWS[egress[1]]) {
      response.writeHead(200, { ...headers, 'content-type': 'application/x-ndjson' });
      for (const chunk of EDGE_VIEWS[egress[1]]) {
        const line = `${JSON.stringify(chunk)}\r\n`;
        response.write(line.slice(0, -1));  // "\r" and "\n" in different writes
        await new Promise((resolve) => setTimeout(resolve, 150));
        response.write(line.slice(-1));
      }
      return;  // stays open, as a live egress does
    }
    if (url.pathname === '/v0/pipelines/demo' && request.method === 'GET') return json({ name: 'demo', program_code: SAMPLE_SQL, state: 'running', step: 42 });
    if (url.pathname === '/v0/pipelines/demo/stats') {
      return json({ step: 42, state: 'running', memory_bytes: 123456, tables: { orders: { total_records: 5000 } }, connectors: {}, checkpoint: { sequence_number: 7, step: 40 } });
    }
    if (url.pathname === '/v0/pipelines/demo/pause' && request.method === 'POST') return json({});
    response.writeHead(404, headers).end('{"message":"not found","error_code":"UNKNOWN"}');
  });
  return new Promise((resolve) => server.listen(EDGE_PORT, '127.0.0.1', () => resolve(server)));
}

test('edge mode follows the views over the HTTP egress (NDJSON) and drives the step loop over HTTP', async () => {
  const calls = [];
  const server = await startFakeEdge(calls);
  try {
    const { context, page, errors } = await open(profile, `/web-demo/index.html?source=edge&base=http://127.0.0.1:${EDGE_PORT}&pipeline=demo`);
    const expected = byKey('region')([REGION_ROWS[0], REGION_ROWS[2], REGION_AFTER]);
    await expect.poll(async () => byKey('region')(await screenRows(page, '#card-revenue [data-row]'))).toEqual(expected);
    await expect.poll(() => screenRows(page, '#card-large tr[data-row]')).toHaveLength(1);
    await expect(page.locator('#card-top li[data-row]')).toHaveCount(1);
    await expect(page.locator('[data-metric="step"] .metric-value')).toHaveText('42');
    await expect(page.locator('#source-badge')).toContainText('edge worker');
    await expect(page.locator('#rate')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Reset connector' })).toBeDisabled();
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => calls.includes('POST /v0/pipelines/demo/pause')).toBe(true);
    for (const view of Object.keys(EDGE_VIEWS)) {
      // A named egress of the page's own, with a snapshot (edge_source.js).
      expect(calls.filter((c) => new RegExp(`^POST /v0/pipelines/demo/egress/${view}\\?format=json&name=dashboard-\\w+-${view}&send_snapshot=true$`).test(c))).toHaveLength(1);
    }
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
