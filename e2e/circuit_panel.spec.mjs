// The web demo's circuit card (web-demo/page/circuit_panel.js) in Debian's
// Chromium: it draws the running program's operators (p.explain) with edges,
// and its figures (p.inspect) move when input is stepped.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, expect, test } from '@playwright/test';

import { baseURL, launchOptions, runDir } from './chromium.mjs';

test('the circuit card shows the operators and their figures follow the input', async () => {
  const profile = join(runDir, 'profiles', 'circuit-panel');
  rmSync(profile, { recursive: true, force: true });
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL, viewport: { width: 1440, height: 1000 } });
  const page = context.pages()[0] ?? await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error));
  await page.goto('/web-demo/index.html');
  await page.waitForFunction(() => window.freshetDemo?.firstFullViewMs != null, null, { timeout: 20_000 });
  await page.evaluate(() => freshetDemo.call('pause'));

  // One box per operator of the engine's explain(), with edges between them.
  const engine = await page.evaluate(() => freshetDemo.status.circuit.operators.map((op) => ({ id: op.id, kind: op.kind })));
  expect(engine.length).toBeGreaterThan(5);
  await expect(page.locator('#card-circuit g.operator')).toHaveCount(engine.length);
  const boxes = await page.$$eval('#card-circuit g.operator', (gs) => gs.map((g) => ({ id: g.dataset.id, kind: g.dataset.kind })));
  expect(boxes).toEqual(engine);
  expect(await page.locator('#card-circuit path.edge').count()).toBeGreaterThan(engine.length / 2);
  expect(boxes.map((b) => b.kind)).toContain('join');

  // A step of new orders changes the state the join reads, its sides'
  // arrangements: their entries and bytes. Not always to more entries: the
  // orders are inserts, updates and cancellations, and a merge the step
  // completes may consolidate an order's insert with its cancellation (the
  // rows went from 535 to 515 in one run).
  expect(boxes.map((b) => b.kind)).toContain('arrange');
  const arranged = () => page.$$eval('#card-circuit g.operator[data-kind="arrange"]',
    (gs) => gs.map((g) => `${g.dataset.rows} rows, ${g.dataset.bytes} B`).join('; '));
  const before = await arranged();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(arranged).not.toBe(before);
  await expect(page.locator('#card-circuit g.operator[data-kind="arrange"] text.op-figure').first()).toContainText('rows');
  expect(errors).toEqual([]);
  await context.close();
});
