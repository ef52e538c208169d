// The dashboard in edge mode served from another origin than the worker's
// (the e2e static server, http://127.0.0.1:8791, following a real worker on
// another port: ?source=edge&base=<worker>), in Debian's Chromium. Reads
// cross origins (the egress streams fill the cards); writes do not unless
// the worker lists the page's origin in FRESHET_CORS_ORIGINS
// (edge-worker/cors.js): Pause is then refused with 403 ORIGIN_NOT_ALLOWED,
// the page says why, and the pipeline keeps running. With the origin
// listed, Pause pauses it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { startEdgeWorker } from '../edge-worker/local.mjs';
import { SAMPLE_SQL, SampleGenerator } from '../web-demo/sample_pipeline.js';
import { baseURL, launchOptions, runDir } from './chromium.mjs';
import { openRecordedPage } from './recorded_page.mjs';

let browser;
const started = [];
test.beforeAll(async () => {
  mkdirSync(runDir, { recursive: true });
  browser = await chromium.launch(launchOptions);
});
test.afterAll(async () => {
  await browser?.close();
  for (const { worker, persistDir } of started) {
    await worker.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
});

/** A worker with `vars`, running the sample pipeline 'demo' with a few hundred orders. */
async function workerWithDemo(vars) {
  const persistDir = mkdtempSync(join(runDir, 'edge-cors-'));
  const worker = await startEdgeWorker({ persistDir, vars });
  started.push({ worker, persistDir });
  const call = async (method, path, body) => {
    const response = await fetch(`${worker.url}/v0/pipelines/demo${path}`, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: response.status, body: await response.json().catch(() => null) };
  };
  expect((await call('PUT', '', { program_code: SAMPLE_SQL })).status).toBe(201);
  const generator = new SampleGenerator({ seed: 3 });
  expect((await call('POST', '/ingress/customers?update_format=raw', generator.customers())).status).toBe(200);
  expect((await call('POST', '/ingress/orders', generator.next(300))).status).toBe(200);
  return { worker, call };
}

async function openDashboard(worker) {
  const { context, page, errors } = await openRecordedPage(browser, { width: 1440, height: 1000 });
  await page.goto(`${baseURL}/web-demo/index.html?source=edge&base=${encodeURIComponent(worker.url)}&pipeline=demo`);
  // The egress streams (POSTs that only read) cross origins: the regions appear.
  await expect.poll(() => page.locator('#card-revenue [data-row]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  return { page, errors, close: () => context.close() };
}

test('from another origin the dashboard follows the streams, and its Pause is refused with the reason', async () => {
  const { worker, call } = await workerWithDemo({});
  expect(new URL(worker.url).origin).not.toBe(new URL(baseURL).origin);
  const { page, errors, close } = await openDashboard(worker);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(() => page.evaluate(() => window.errorToasts.join('\n'))).toMatch(/is refused.*FRESHET_CORS_ORIGINS/);
  expect((await call('GET', '')).body.state).toBe('running');
  expect(errors).toEqual([]);
  await close();
});

test('with the page\'s origin in FRESHET_CORS_ORIGINS, its Pause pauses the pipeline', async () => {
  const { worker, call } = await workerWithDemo({ FRESHET_CORS_ORIGINS: new URL(baseURL).origin });
  const { page, errors, close } = await openDashboard(worker);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect.poll(async () => (await call('GET', '')).body.state).toBe('paused');
  expect(await page.evaluate(() => window.errorToasts)).toEqual([]);
  expect(errors).toEqual([]);
  await close();
});
