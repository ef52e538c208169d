// The React example app (examples/react-dashboard/, built by
// scripts/react-dashboard.sh) in Debian's Chromium: its production build
// (dist/) shows rows equal to p.snapshot() after each step, with one egress
// stream per live view, closed on unmount; its development build (dist-dev/,
// React's development build, where StrictMode mounts every component twice)
// shows that the double mount leaves one stream per view. The app's hook
// window.freshetDashboard gives the pipeline and mounts or unmounts the app;
// the screen's rows carry their values in data-row.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';

import { root, runDir } from './chromium.mjs';

const APP = 'examples/react-dashboard';

/** Opens a build of the app and waits for both views' snapshots on screen. */
async function open(page, build) {
  if (!existsSync(join(root, APP, build, 'index.html'))) {
    throw new Error(`${APP}/${build} is not built: run scripts/react-dashboard.sh`);
  }
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  page.on('console', (message) => message.type() === 'error' && errors.push(new Error(message.text())));
  await page.goto(`/${APP}/${build}/index.html`);
  await ready(page);
  return errors;
}

async function ready(page) {
  await page.waitForFunction(() => window.freshetDashboard, null, { timeout: 20_000 });
  await expect(page.locator('#revenue[data-status="ready"]')).toBeVisible();
  await expect(page.locator('#top[data-status="ready"]')).toBeVisible();
}

const screenRows = (page, selector) => page.$$eval(selector, (elements) => elements.map((e) => JSON.parse(e.dataset.row)));
const openStreams = (page) => page.evaluate(() => Object.keys(freshetDashboard.pipeline.stats().egress).length);
const byRegion = (rows) => [...rows].sort((a, b) => a.region.localeCompare(b.region));
const bySpent = (rows) => [...rows].sort((a, b) => b.spent - a.spent || a.name.localeCompare(b.name));

/** The screen equals snapshot() of both views (the pipeline paused, so nothing moves). */
async function expectScreenMatchesEngine(page) {
  const regions = byRegion(await page.evaluate(() => freshetDashboard.pipeline.snapshot('revenue_by_region')));
  const top = bySpent(await page.evaluate(() => freshetDashboard.pipeline.snapshot('top_customers')));
  await expect.poll(() => screenRows(page, '#revenue tr[data-row]')).toEqual(regions);
  await expect.poll(() => screenRows(page, '#top li[data-row]')).toEqual(top);
  // The chart: one bar per region, the longest for the largest revenue.
  const bars = await page.$$eval('#revenue rect[data-region]', (rects) => rects.map((r) => [r.dataset.region, Number(r.getAttribute('width'))]));
  expect(bars.map(([region]) => region)).toEqual(regions.map((row) => row.region));
  if (regions.length > 0) {
    const largest = regions.reduce((a, b) => (b.revenue > a.revenue ? b : a));
    expect(Math.max(...bars.map(([, width]) => width))).toBe(bars.find(([region]) => region === largest.region)[1]);
  }
  return { regions, top };
}

test('production build: rows on screen equal p.snapshot() after each step; unmount closes the streams', async ({ page }) => {
  const errors = await open(page, 'dist');
  expect(await openStreams(page)).toBe(2);
  await page.evaluate(() => freshetDashboard.pipeline.pause());
  await expectScreenMatchesEngine(page);
  let orders = 0;
  for (const count of [1, 20, 7, 100, 3]) {
    await page.fill('input[type="number"]', String(count));
    await page.click('button[type="submit"]');
    await page.evaluate(() => freshetDashboard.pipeline.step());
    orders += count;
    const { regions } = await expectScreenMatchesEngine(page);
    expect(regions.reduce((sum, row) => sum + row.orders, 0)).toBe(orders);
  }
  await page.screenshot({ path: join(runDir, 'react-dashboard.png'), fullPage: true });
  expect(await openStreams(page)).toBe(2);
  await page.evaluate(() => freshetDashboard.unmount());
  expect(await openStreams(page)).toBe(0);
  await page.evaluate(() => freshetDashboard.mount());
  await ready(page);
  expect(await openStreams(page)).toBe(2);
  await expectScreenMatchesEngine(page);
  expect(errors).toEqual([]);
});

test('development build: StrictMode mounts twice and leaves one egress stream per view', async ({ page }) => {
  const errors = await open(page, 'dist-dev');
  await page.evaluate(() => freshetDashboard.unmount());
  expect(await openStreams(page)).toBe(0);
  // Count the live views the app opens while it mounts afresh with the pipeline.
  await page.evaluate(() => {
    const { pipeline } = freshetDashboard;
    const live = pipeline.live.bind(pipeline);
    window.liveOpened = 0;
    pipeline.live = (...args) => (++window.liveOpened, live(...args));
    freshetDashboard.mount();
  });
  await ready(page);
  expect(await page.evaluate(() => window.liveOpened)).toBe(4);  // two views, each mounted twice
  expect(await openStreams(page)).toBe(2);
  await page.evaluate(() => freshetDashboard.pipeline.pause());
  await page.click('button[type="submit"]');
  await page.evaluate(() => freshetDashboard.pipeline.step());
  await expectScreenMatchesEngine(page);
  await page.evaluate(() => freshetDashboard.unmount());
  expect(await openStreams(page)).toBe(0);
  expect(errors).toEqual([]);
});
