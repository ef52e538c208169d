// The dashboard's figures (issue 8, "Measure"), in Debian's Chromium:
//   - time from navigation to the first full view (every view's snapshot
//     drawn): on a first visit (empty IndexedDB) and on a reload that resumes
//     from the checkpoint;
//   - while ingesting 10,000 records/s: the page's frame rate (frames drawn by
//     requestAnimationFrame), long tasks on the main thread (PerformanceObserver
//     'longtask', > 50 ms), ingest rate reached, steps/s, ingest → on-screen
//     latency.
// It starts the e2e static server on its own port and uses e2e/chromium.mjs's
// launch options. Wall-clock figures vary run to run on a shared machine.
//
//   node bench/web/run.mjs [--seconds 10] [--rate 10000] [--runs 3]
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';

import { launchOptions, root, runDir } from '../../e2e/chromium.mjs';
import { startServer } from './e2e_server.mjs';

const { values: args } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, rate: { type: 'string', default: '10000' }, runs: { type: 'string', default: '3' }, 'skip-load': { type: 'boolean', default: false } },
});
const SECONDS = Number(args.seconds);
const RATE = Number(args.rate);
const RUNS = Number(args.runs);
const PORT = 8797;
const URL = `http://127.0.0.1:${PORT}/web-demo/index.html`;

// Counts frames and long tasks from the first moment of the page.
function observe() {
  window.__bench = { frames: 0, longTasks: [] };
  const count = () => {
    window.__bench.frames += 1;
    requestAnimationFrame(count);
  };
  requestAnimationFrame(count);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const firstFullView = (page) => page.waitForFunction(() => window.freshetDemo?.firstFullViewMs != null, null, { timeout: 30_000 })
  .then(() => page.evaluate(() => freshetDemo.firstFullViewMs));

async function main() {
  const server = await startServer(PORT);
  const profile = join(runDir, 'profiles', 'bench-web');
  const result = { coldMs: [], reloadMs: [] };
  try {
    for (let run = 0; run < (args['skip-load'] ? 0 : RUNS); ++run) {
      rmSync(profile, { recursive: true, force: true });
      const context = await chromium.launchPersistentContext(profile, { ...launchOptions, viewport: { width: 1440, height: 1000 } });
      const page = context.pages()[0];
      await page.goto(URL);
      result.coldMs.push(await firstFullView(page));
      await page.waitForFunction(() => freshetDemo.status?.checkpoint.sequenceNumber !== null, null, { timeout: 20_000 });
      await page.reload();
      result.reloadMs.push(await firstFullView(page));
      await context.close();
    }

    const context = await chromium.launchPersistentContext(profile, { ...launchOptions, viewport: { width: 1440, height: 1000 } });
    const page = context.pages()[0];
    await page.addInitScript(observe);
    await page.goto(URL);
    await firstFullView(page);
    await page.evaluate(() => freshetDemo.call('resume'));  // a profile paused earlier comes back paused
    await page.evaluate((rate) => freshetDemo.call('setRate', rate), RATE);
    await page.waitForTimeout(2000);  // warm-up: the rate reached, the first automatic checkpoint
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const before = await metrics();
    const start = await page.evaluate(() => ({ frames: __bench.frames, at: performance.now(), tasks: __bench.longTasks.length }));
    await page.waitForTimeout(SECONDS * 1000);
    const after = await metrics();
    const end = await page.evaluate(() => ({
      frames: __bench.frames, at: performance.now(), longTasks: __bench.longTasks,
      status: freshetDemo.status, latency: freshetDemo.latency(),
    }));
    await context.close();
    const seconds = (end.at - start.at) / 1000;
    const longTasks = end.longTasks.slice(start.tasks);
    Object.assign(result, {
      rate: RATE,
      seconds: Math.round(seconds * 10) / 10,
      fps: Math.round(((end.frames - start.frames) / seconds) * 10) / 10,
      longTasks: longTasks.length,
      longestTaskMs: longTasks.length ? Math.round(Math.max(...longTasks.map((t) => t.duration))) : 0,
      ingestRate: Math.round(end.status.ingestRate),
      stepsPerSecond: Math.round(end.status.stepsPerSecond * 10) / 10,
      latencyP50Ms: Math.round(end.latency?.p50 ?? NaN),
      latencyP95Ms: Math.round(end.latency?.p95 ?? NaN),
      memoryBytes: end.status.memoryBytes,
      wasmMemoryBytes: end.status.wasmMemoryBytes,
      liveOrders: end.status.liveOrders,
      // The main thread's busy time (CDP Performance metrics), per second of the window.
      mainThread: Object.fromEntries(['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration']
        .map((name) => [name, Math.round(((after[name] - before[name]) / seconds) * 1000)])),
    });
  } finally {
    server.kill();
  }
  if (result.coldMs.length) console.log(`first full view, first visit:   median ${Math.round(median(result.coldMs))} ms  (${result.coldMs.map(Math.round).join(', ')})`);
  if (result.reloadMs.length) console.log(`first full view, resumed reload: median ${Math.round(median(result.reloadMs))} ms  (${result.reloadMs.map(Math.round).join(', ')})`);
  console.log(`ingesting ${result.rate}/s for ${result.seconds} s: ${result.fps} frames/s, ${result.longTasks} long tasks (longest ${result.longestTaskMs} ms)`);
  console.log(`  reached ${result.ingestRate} records/s, ${result.stepsPerSecond} steps/s, latency p50 ${result.latencyP50Ms} ms, p95 ${result.latencyP95Ms} ms`);
  const busy = result.mainThread;
  console.log(`  main thread busy ${busy.TaskDuration} ms/s (script ${busy.ScriptDuration}, layout ${busy.LayoutDuration}, style ${busy.RecalcStyleDuration})`);
  console.log(`  engine memory ${(result.memoryBytes / 2 ** 20).toFixed(1)} MiB, wasm memory ${(result.wasmMemoryBytes / 2 ** 20).toFixed(0)} MiB, ${result.liveOrders} live orders`);
  writeFileSync(join(root, 'build', 'bench-web.json'), `${JSON.stringify(result, null, 2)}\n`);
}

await main();
