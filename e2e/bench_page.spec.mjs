// The user-shaped benchmark's page (bench/web/page/user_shaped.mjs) in
// Debian's Chromium, small: the page is cross-origin isolated (the clock
// the benchmark's figures need), and freshet and the plain-JS floor, driven
// by the same application code, both end with the view the workload's
// oracle computes (the page throws otherwise). Keeps the benchmark from
// rotting; its figures are bench/web/user_shaped.mjs's.
import { expect, test } from '@playwright/test';

test('the user-shaped page runs freshet and the floor to the oracle\'s view', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto('/bench/web/page/user_shaped.html');
  await page.waitForFunction(() => window.userShapedReady, null, { timeout: 20_000 });
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  for (const floor of [false, true]) {
    // freshet's run with the application run once first (--warm-app).
    const result = await page.evaluate((args) => window.userShapedRun(args), { orders: 2000, changes: 300, warmUp: false, warmApp: !floor, floor });
    expect(result.engine).toBe(floor ? 'plain JS (floor)' : 'freshet');
    if (floor) expect(result.warmAppMs).toBeNull();
    else expect(result.warmAppMs).toBeGreaterThan(0);
    expect(result.p99Us).toBeGreaterThanOrEqual(result.p50Us);
    expect(result.maxMs * 1000).toBeGreaterThanOrEqual(result.p99Us);
    expect(result.loadMs).toBeGreaterThan(0);
  }
  expect(errors).toEqual([]);
});
