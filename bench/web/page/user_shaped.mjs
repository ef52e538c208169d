// The user-shaped run (bench/js/user_shaped.mjs) on a browser's main thread:
// 200k orders in one insert and one step, then single-row inserts/upserts,
// each stepped and its view's delta awaited, each timed from the write to
// the delta in hand. The same application code as under Node
// (bench/js/app_engines.mjs), over freshet or the plain-JS floor.
//
// performance.now() is coarsened by the browser: 5 µs steps (with jitter)
// on a cross-origin-isolated page such as this one (the e2e server sends
// COOP/COEP for it), 100 µs otherwise. A change of ~8 µs reads as 5 or 10:
// the mean is exact on average, the p50 is a multiple of the step; the
// step is measured and reported (`resolutionUs`).

import * as freshet from '../../../wasm-bindings/js/browser.js';
import { openFloor, openFreshet } from '../../js/app_engines.mjs';
import { slowestChanges, timeFigures } from '../../js/change_times.mjs';
import { WARM_APP_WORKLOAD, compareResults, makeWorkload, referenceResult } from '../../js/workload.mjs';

const SPIKE_MS = 4;

/** The `count` largest of `values` (ms), in change order, as [change, ms]. */
function slowest(values, count) {
  return slowestChanges(values, count).map(([index, ms]) => [index, Math.round(ms * 100) / 100]);
}

window.userShapedRun = async ({ orders = 200000, changes = 100000, warmUp = true, warmApp = false, floor = false } = {}) => {
  let warmUpMs = null;
  if (warmUp && !floor) {
    const started = performance.now();
    await freshet.warmUp();
    warmUpMs = performance.now() - started;
  }
  let warmAppMs = null;
  if (warmApp) {
    const started = performance.now();
    // The application once first (bench/js/user_shaped.mjs --warm-app).
    await application(makeWorkload(WARM_APP_WORKLOAD), floor);
    warmAppMs = performance.now() - started;
  }
  const { loadMs, changeMs, stepMs, memoryBytes } = await application(makeWorkload({ orders, changes }), floor);

  const figures = timeFigures(changeMs, 1000, SPIKE_MS * 1000);
  const sorted = Float64Array.from(changeMs).sort();
  // The clock's step: the smallest gap between two readings' differences
  // (gaps under 0.1 µs are the rounding of a coarsened clock's values).
  let resolutionMs = Infinity;
  for (let i = 1; i < sorted.length; ++i) if (sorted[i] - sorted[i - 1] > 1e-4) resolutionMs = Math.min(resolutionMs, sorted[i] - sorted[i - 1]);
  return {
    engine: floor ? 'plain JS (floor)' : 'freshet',
    crossOriginIsolated: self.crossOriginIsolated,
    resolutionUs: resolutionMs * 1000,
    warmUpMs,
    warmAppMs,
    loadMs,
    p50Us: figures.p50Us,
    meanUs: figures.meanUs,
    p99Us: figures.p99Us,
    maxMs: figures.maxUs / 1000,
    overSpike: figures.overSpike,
    slowest: slowest(changeMs, 8),
    stepMaxMs: stepMs.reduce((a, b) => Math.max(a, b), 0),
    stepsOverSpike: stepMs.filter((ms) => ms > SPIKE_MS).length,
    slowestSteps: slowest(stepMs, 4),
    memoryBytes,
  };
};

/** The application over `workload`: its load, then each change timed (ms), its view checked against the oracle. */
async function application(workload, floor) {
  const run = floor ? await openFloor() : await openFreshet(freshet);
  run.p.insert('customers', workload.customers);
  run.p.step();
  let started = performance.now();
  run.p.insert('orders', workload.orders);
  run.p.step();
  await run.take();
  const loadMs = performance.now() - started;

  const changeMs = new Float64Array(workload.changes.length);
  const stepMs = new Float64Array(workload.changes.length);
  for (const [index, change] of workload.changes.entries()) {
    started = performance.now();
    run.p.insert('orders', [change.order]);  // an insert, or an upsert of an existing id
    const { durationMs } = run.p.step();
    if (change.changesView) await run.take();
    changeMs[index] = performance.now() - started;
    stepMs[index] = durationMs;
  }
  const problems = compareResults(referenceResult(workload), run.mirror.view);
  const memoryBytes = run.p.stats().memoryBytes;
  run.close();
  if (problems.length) throw new Error(`the view disagrees with the oracle: ${problems.join('; ')}`);
  return { loadMs, changeMs, stepMs, memoryBytes };
}
window.userShapedReady = true;
