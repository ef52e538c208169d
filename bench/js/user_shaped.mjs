#!/usr/bin/env node
// The user-shaped run of issue 21: the orders workload as an application
// drives it, in wasm under Node. 200k orders arrive in ONE insert and ONE
// step (a page that loads its data), then single-row changes alternate an
// insert of a new order and an upsert of an existing one (an insert of its
// key: `orders` has a PRIMARY KEY), each stepped, with the view's egress
// chunk awaited. Every change is timed from the write to its chunk in hand.
// Reports the load (and, on Linux, the main thread's CPU time, its wait for
// a core and its page faults during it: main_thread.mjs), p50 / mean / p99 /
// max per change, how many changes took over 4 ms, and how many collections
// V8 ran meanwhile (a spike with no GC under it is the engine's), and the
// engine's own step times (p.step()'s durationMs: the wasm step alone, where
// a merge spike would show). Each figure is printed next to issue 21's target.
//
// The second part (--big-step) is "big steps as fast as small ones": the
// same 200k orders loaded in one insert + one step and in 20 steps of
// 10,000 rows, into fresh pipelines taking turns (--rounds, order
// alternating), with the ratio of their medians in this one run.
//
// --explain-spikes reads the main thread's counters (main_thread.mjs)
// around every change, outside its timed span, and says for each change
// over 4 ms how long the main thread waited for a core in it, how often it
// faulted, and how much V8 collection overlapped it: whether a slow change
// was our work or the machine's.
//
// --floor runs the same application over the plain-JS floor (plain_js.mjs,
// a hand-written Map updated in place, each change's delta handed over
// through an awaited promise as a chunk is) instead of freshet: the same
// load, changes, timing and counters, so that its changes over 4 ms say how
// often this machine alone stalls an application that does next to nothing.
//
// --live follows the view through p.live('by_region', { key: 'region' }), as
// UI code does (the React and Vue bindings), instead of an egress stream:
// each change awaits the live view's notification and reads its rows.
//
// --phases times each change's parts too (the write, p.step(), the wasm
// step inside it, the wait for the chunk) and reports their p50 for inserts
// and for upserts apart: the p50 of all changes falls between the two kinds
// (half of the changes each), so it moves with whichever is nearer. Its
// two extra clock reads add ~0.2 µs a change (process.hrtime.bigint()
// takes ~0.1 µs here): off unless asked.
//
// --warm-up calls the package's warmUp() first (and reports how long it
// took): V8 then compiles the engine's hot paths with its optimizing tier
// before the load instead of during the load and the first ~1,000 changes,
// where that compilation takes the cores the changes need. With
// --warm-up-lead MS the load starts MS after the warm-up started (an
// application that warms up at startup and loads its data later, after a
// fetch: V8's compiler threads finish meanwhile); without it, at once.
//
// --warm-app runs the same application once before the measured run, on a
// workload of its own (20,000 orders, 5,000 changes) and a pipeline then
// closed, so that V8 has compiled the application's own functions first.
// Without it V8 compiles them (the mirror's apply(), take(), the loop of
// changes, Node's process.hrtime.bigint()) on a helper thread between
// changes ~1,000 and ~2,600 of the measured run, traced with --trace-opt,
// where the changes over 4 ms of most runs fell; with it, what remains
// over 4 ms is the package's or the machine's. Works with --floor too.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/user_shaped.mjs
//       [--orders 200000] [--changes 3000] [--warm-up [--warm-up-lead MS]] [--warm-app] [--explain-spikes] [--phases] [--floor | --live] [--big-step] [--rounds 5] [--json out.json]

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runInNewContext } from 'node:vm';
import { loadFreshet } from './freshet_module.mjs';
import { WARM_APP_WORKLOAD, compareResults, makeWorkload, referenceResult } from './workload.mjs';
import { openFloor, openFreshet, openFreshetLive } from './app_engines.mjs';
import { slowestChanges, timeFigures } from './change_times.mjs';
import { mainThreadNow, mainThreadSince, otherThreadsCpuMs } from './main_thread.mjs';
import './stats.mjs';  // sets --expose-gc

const { values: options } = parseArgs({
  options: {
    orders: { type: 'string', default: '200000' },
    changes: { type: 'string', default: '3000' },
    'warm-up': { type: 'boolean', default: false },
    'warm-up-lead': { type: 'string', default: '0' },
    'warm-app': { type: 'boolean', default: false },
    'explain-spikes': { type: 'boolean', default: false },
    phases: { type: 'boolean', default: false },
    floor: { type: 'boolean', default: false },
    live: { type: 'boolean', default: false },
    'big-step': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '5' },
    json: { type: 'string' },
  },
});
const gc = runInNewContext('gc');
if (options.floor && (options['warm-up'] || options['big-step'] || options.live)) throw new Error('--floor: no --warm-up, --big-step or --live (the floor has none)');
const importStarted = performance.now();
const freshet = options.floor ? null : await loadFreshet();
const importMs = performance.now() - importStarted;
const workload = makeWorkload({ orders: Number(options.orders), changes: Number(options.changes) });
// Right before the first pipeline, as an application that warms up and then
// loads at once would (V8's compiler threads may still be busy after it).
let warmUpMs = null;
if (options['warm-up']) {
  if (typeof freshet.warmUp !== 'function') throw new Error('--warm-up: this build of the package has no warmUp()');
  const started = performance.now();
  await freshet.warmUp();
  warmUpMs = performance.now() - started;
  const rest = Number(options['warm-up-lead']) - warmUpMs;
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
}
const SPIKE_MS = 4;

/**
 * Counts V8's collections while `fn` runs, and how many of the changes
 * `fn` reports as over SPIKE_MS (`spikes`: { start, end } in performance.now()
 * time) overlap one: those pauses are V8's, not the engine's. Marks each
 * spike with the ms of collection that overlapped it (`gcMs`).
 */
async function countingGcs(fn) {
  const collections = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) collections.push([entry.startTime, entry.startTime + entry.duration]);
  });
  observer.observe({ entryTypes: ['gc'] });
  const { spikes, ...result } = await fn();
  await new Promise((resolve) => setTimeout(resolve, 50));  // the observer's entries arrive on a timer
  observer.disconnect();
  for (const spike of spikes) {
    spike.gcMs = collections.reduce((sum, [from, to]) => sum + Math.max(0, Math.min(to, spike.end) - Math.max(from, spike.start)), 0);
  }
  return { ...result, spikes, gcs: collections.length, spikesDuringGc: spikes.filter((spike) => spike.gcMs > 0).length };
}

/** The `count` largest of `values` in change order, as "#change ms" (`toMs` scales a value to ms). */
function slowestByChange(values, count, toMs) {
  return slowestChanges(values, count).map(([i, value]) => `#${i} ${(value * toMs).toFixed(1)}`);
}

/** The application's engine (freshet's egress stream, its live view with --live, or the floor with --floor) with the customers in it. */
async function openPipeline(work) {
  const run = options.floor ? await openFloor() : options.live ? await openFreshetLive(freshet) : await openFreshet(freshet);
  run.p.insert('customers', work.customers);
  run.p.step();  // no orders yet: an empty join, no chunk
  return run;
}

async function userShapedRun(work) {
  gc();
  const run = await openPipeline(work);
  const mainBefore = mainThreadNow();
  let begin = process.hrtime.bigint();
  run.p.insert('orders', work.orders);
  run.p.step();
  await run.take();
  const loadMs = Number(process.hrtime.bigint() - begin) / 1e6;
  const loadMainThread = mainThreadSince(mainBefore);
  const measured = await countingGcs(async () => {
    // Typed arrays of the run's length, as the page's run keeps them: an
    // array grown by push() reallocated its backing store at the same
    // changes in every run (#15044, #22583, #33892, #50855, #76300: each
    // 1.5x the one before), its fresh pages taking 1-4 ms of page faults
    // inside the change being timed, the floor's too.
    const count = work.changes.length;
    const nanos = new Float64Array(count);
    const spikes = [];
    const stepMs = new Float64Array(count);
    const parts = options.phases ? { write: new Float64Array(count), step: new Float64Array(count), take: new Float64Array(count) } : null;
    for (const [index, change] of work.changes.entries()) {
      const counters = options['explain-spikes'] ? { main: mainThreadNow(), othersMs: otherThreadsCpuMs() } : null;
      const startedAt = performance.now();
      begin = process.hrtime.bigint();
      run.p.insert('orders', [change.order]);  // an insert, or an upsert of an existing id
      const written = parts && process.hrtime.bigint();
      const { durationMs } = run.p.step();
      const stepped = parts && process.hrtime.bigint();
      if (change.changesView) await run.take();
      stepMs[index] = durationMs;
      const elapsed = Number(process.hrtime.bigint() - begin);
      if (parts) {
        parts.write[index] = Number(written - begin);
        parts.step[index] = Number(stepped - written);
        parts.take[index] = elapsed - Number(stepped - begin);
      }
      nanos[index] = elapsed;
      if (elapsed > SPIKE_MS * 1e6) {
        spikes.push({ index, ms: elapsed / 1e6, start: startedAt, end: performance.now(), main: counters && mainThreadSince(counters.main),
                      othersMs: counters && otherThreadsCpuMs() - counters.othersMs });
      }
    }
    // A merge spike recurs at regular change indices; a wait for a core
    // (a loaded machine) does not. (process.cpuUsage() cannot tell them
    // apart: it counts V8's compiler and GC threads too.)
    const steps = { maxMs: stepMs.reduce((a, b) => Math.max(a, b), 0), overSpike: stepMs.filter((ms) => ms > SPIKE_MS).length,
                    slowest: slowestByChange(stepMs, 6, 1) };
    return { ...timeFigures(nanos, 1e-3, SPIKE_MS * 1000), slowest: slowestByChange(nanos, 12, 1e-6), spikes, steps,
             phases: parts && phaseFigures(work, { write: parts.write, step: parts.step, wasm: stepMs.map((ms) => ms * 1e6), take: parts.take, change: nanos }) };
  });
  const problems = compareResults(referenceResult(work), run.mirror.view);
  const memoryBytes = run.p.stats().memoryBytes;
  run.close();
  if (problems.length) throw new Error(`the view disagrees with the oracle: ${problems.join('; ')}`);
  return { loadMs, loadMainThread, ...measured, memoryBytes };
}

/**
 * --phases: the p50 in µs of each part of a change (`parts`: name -> ns per
 * change), over the inserts of new orders and over the upserts apart.
 */
function phaseFigures(work, parts) {
  const p50 = (values) => timeFigures(values, 1e-3, Infinity).p50Us;
  const figures = {};
  for (const kind of ['insert', 'update']) {
    const ofKind = (values) => values.filter((_, i) => work.changes[i].kind === kind);
    figures[kind] = Object.fromEntries(Object.entries(parts).map(([name, values]) => [name, p50(ofKind(values))]));
  }
  return figures;
}

/** Loads all orders into a fresh pipeline in steps of `stepRows`; ms from the first insert to the last chunk. */
async function timedLoad(stepRows) {
  gc();
  const run = await openPipeline(workload);
  const begin = process.hrtime.bigint();
  for (let start = 0; start < workload.orders.length; start += stepRows) {
    run.p.insert('orders', workload.orders.slice(start, start + stepRows));
    run.p.step();
    await run.take();
  }
  const ms = Number(process.hrtime.bigint() - begin) / 1e6;
  run.close();
  return ms;
}

async function bigStepRun() {
  const rounds = Number(options.rounds);
  const ms = { one: [], steps: [] };
  for (let round = 0; round < rounds; ++round) {
    for (const kind of round % 2 ? ['steps', 'one'] : ['one', 'steps']) {
      ms[kind].push(await timedLoad(kind === 'one' ? workload.orders.length : 10000));
    }
  }
  const median = (x) => x.slice().sort((a, b) => a - b)[x.length >> 1];
  return { rounds, oneStepMs: ms.one, tenThousandStepsMs: ms.steps, ratio: median(ms.one) / median(ms.steps) };
}

const report = { node: process.version, loadAverage: loadavg()[0], orders: workload.orders.length, changes: workload.changes.length, importMs, warmUpMs };
if (options['warm-app']) {
  const started = performance.now();
  await userShapedRun(makeWorkload(WARM_APP_WORKLOAD));
  report.warmAppMs = performance.now() - started;
}
report.userShaped = await userShapedRun(workload);
if (options['big-step']) report.bigStep = await bigStepRun();

const u = report.userShaped;
const f = (x) => x.toFixed(2);
console.log(`user-shaped run${options.floor ? ' OF THE PLAIN-JS FLOOR (not freshet)' : options.live ? ' following p.live()' : ''}: ${report.orders.toLocaleString('en')} orders in one insert + one step, ${report.changes.toLocaleString('en')} single-row inserts/upserts (load average ${report.loadAverage.toFixed(2)})`);
console.log(`  startup       import ${importMs.toFixed(0)} ms; ${warmUpMs === null ? 'no warm-up (--warm-up calls warmUp())' : `warmUp() ${warmUpMs.toFixed(0)} ms${Number(options['warm-up-lead']) > 0 ? `, the load ${options['warm-up-lead']} ms after its start` : ''}`}${report.warmAppMs === undefined ? '' : `; the application run once first (${WARM_APP_WORKLOAD.orders.toLocaleString('en')} orders, ${WARM_APP_WORKLOAD.changes.toLocaleString('en')} changes): ${report.warmAppMs.toFixed(0)} ms`}`);
console.log(`  load          ${u.loadMs.toFixed(1)} ms            target <= 150 ms`);
if (u.loadMainThread) {
  const m = u.loadMainThread;
  console.log(`                main thread: ${m.cpuMs.toFixed(1)} ms CPU, ${m.waitMs.toFixed(1)} ms waiting for a core, ${m.faults} page faults`);
}
console.log(`  p50           ${f(u.p50Us)} µs         target <= 10 µs`);
console.log(`  mean          ${f(u.meanUs)} µs`);
console.log(`  p99           ${f(u.p99Us)} µs (${f(u.p99Us / u.p50Us)}x p50)   target <= 10x p50`);
console.log(`  max           ${f(u.maxUs / 1000)} ms; ${u.overSpike} changes over ${SPIKE_MS} ms (${u.spikesDuringGc} of them during a V8 collection)   target: none over ${SPIKE_MS} ms`);
console.log(`  slowest (change: ms) ${u.slowest.join(', ')}`);
console.log(`  engine steps  slowest ${f(u.steps.maxMs)} ms; ${u.steps.overSpike} over ${SPIKE_MS} ms (the wasm step alone: a merge spike would be here)   target: none over ${SPIKE_MS} ms`);
console.log(`  slowest steps (change: ms) ${u.steps.slowest.join(', ')}`);
if (options['explain-spikes'] && u.spikes.length && u.spikes[0].main) {
  // Over SPIKE_MS only because the main thread waited for a core: the machine's.
  const waited = u.spikes.filter((s) => s.ms - s.main.waitMs <= SPIKE_MS);
  const collected = u.spikes.filter((s) => !waited.includes(s) && s.gcMs > 0);
  const ours = u.spikes.filter((s) => !waited.includes(s) && !collected.includes(s));
  const byUs = waited.filter((s) => s.othersMs >= s.main.waitMs / 2);
  console.log(`  over ${SPIKE_MS} ms    ${waited.length} only by waiting for a core (in ${byUs.length} of them this process's other threads ran ` +
              `for at least half the wait), ${collected.length} with a V8 collection in them, ${ours.length} neither (the main thread's own work)`);
  for (const s of u.spikes) {
    // Not the CPU counter: Linux updates a running thread's at scheduler
    // ticks (4 ms), while a wait is counted when it ends (within the change).
    console.log(`    #${s.index} ${s.ms.toFixed(1)} ms: the main thread ran ${s.main.cpuMs.toFixed(1)} ms and waited ${s.main.waitMs.toFixed(1)} ms for a core, ` +
                `this process's other threads ran ${s.othersMs.toFixed(1)} ms, ${s.main.faults} page faults, ${s.gcMs.toFixed(1)} ms of V8 collection`);
  }
}
if (u.phases) {
  const row = (kind) => Object.entries(u.phases[kind]).map(([name, us]) => `${name} ${f(us)}`).join(', ');
  console.log('  phases, p50 µs (write: insert(); step: p.step(), wasm: its wasm step; take: the chunk awaited; change: all of it)');
  console.log(`    inserts     ${row('insert')}`);
  console.log(`    upserts     ${row('update')}`);
}
console.log(`  GCs           ${u.gcs} during the changes; engine memory ${(u.memoryBytes / 2 ** 20).toFixed(1)} MiB`);
if (report.bigStep) {
  const b = report.bigStep;
  console.log(`big step: ${report.orders.toLocaleString('en')} orders, ms per load over ${b.rounds} rounds (turns alternate)`);
  console.log(`  one insert + one step   ${b.oneStepMs.map((x) => x.toFixed(0)).join(' ')}`);
  console.log(`  steps of 10,000 rows    ${b.tenThousandStepsMs.map((x) => x.toFixed(0)).join(' ')}`);
  console.log(`  median ratio one / steps ${b.ratio.toFixed(2)}   target <= 1.00`);
}
if (options.json) writeFileSync(options.json, JSON.stringify(report, null, 2));
