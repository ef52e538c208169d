#!/usr/bin/env node
// A/B of two builds of the freshet package in one Node process: both load
// the orders workload and apply its changes with their steps interleaved
// (alternating which goes first), so that this machine's slow spells, which
// last seconds and make whole runs 15-30% slower, hit both builds alike.
// The second build loaded into a process comes out faster per change (0.2-0.9
// µs of a ~13 µs p50 for two copies of one build; load is not affected), so
// the comparison runs twice, in two child processes with the builds in
// either order, and reports each build's figures averaged over both places.
// Two copies of one build then differ by what remains of the noise. Prints,
// per build, the load time per round and the per-change p50 and mean; it
// times no peers and checks no results (run.mjs does).
//
//   cp -r wasm-bindings/js /tmp/before   # a build, before a change
//   ... change, npm run build ...
//   node bench/js/ab.mjs /tmp/before/node.js wasm-bindings/js/node.js [--rounds 3] [--changes 4000] [--view NAME]
//
// --view NAME: instead of the workload's by_region, the program of one view
// of the 20-view dashboard (dashboard20_program.mjs: the tables and that
// view), its deltas taken by a callbackSink; each change is timed until the
// step's sink writes ran (one microtask), whether or not the view changed.

import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SQL } from './freshet_module.mjs';
import { programOf } from './dashboard20_program.mjs';
import { LOAD_CHUNK, makeWorkload } from './workload.mjs';

const { values: options, positionals: entries } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '3' },
    changes: { type: 'string', default: '4000' },
    view: { type: 'string' },
    child: { type: 'boolean', default: false },  // one order only, figures as JSON (the parent's two runs)
  },
});
if (entries.length !== 2) {
  process.stderr.write('usage: node bench/js/ab.mjs A/node.js B/node.js [--rounds 3] [--changes 4000]\n');
  process.exit(2);
}
if (!options.child) {
  const run = (order) => JSON.parse(execFileSync(process.execPath, [
    fileURLToPath(import.meta.url), ...order, '--child', '--rounds', options.rounds, '--changes', options.changes,
    ...(options.view ? ['--view', options.view] : []),
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  const [forward, backward] = [run(entries), run([...entries].reverse())];
  for (const i of [0, 1]) {
    const first = i === 0 ? forward[0] : backward[0];   // this build loaded first
    const second = i === 0 ? backward[1] : forward[1];  // and second
    const average = (key) => (first[key] + second[key]) / 2;
    console.log(`${entries[i]}: load ${average('loadMs').toFixed(0)} ms a round, per change p50 ${average('p50Us').toFixed(2)} µs ` +
                `(loaded first ${first.p50Us.toFixed(2)}, second ${second.p50Us.toFixed(2)}), mean ${average('meanUs').toFixed(2)} µs`);
  }
  process.exit(0);
}

const builds = await Promise.all(entries.map((entry) => import(pathToFileURL(resolve(entry)).href)));
const workload = makeWorkload({ orders: 200000, changes: Number(options.changes) });
const rounds = Number(options.rounds);
const loadMs = [0, 0];
const changeNanos = [[], []];
const inTurn = (n) => (n % 2 ? [0, 1] : [1, 0]);

for (let round = 0; round < rounds; ++round) {
  const pipelines = [], streams = [];
  for (const { Pipeline, callbackSink } of builds) {
    const p = await Pipeline.create({ sql: options.view ? programOf(options.view) : SQL });
    p.pause();
    if (options.view) {
      p.addOutput('view', { view: options.view, sink: callbackSink(() => {}) });
      streams.push({ next: () => null });  // the sink's writes run on the microtask a step queues
    } else {
      streams.push(p.egress('by_region')[Symbol.asyncIterator]());
    }
    p.insert('customers', workload.customers);
    p.step();
    pipelines.push(p);
  }
  for (let start = 0; start < workload.orders.length; start += LOAD_CHUNK) {
    const rows = workload.orders.slice(start, start + LOAD_CHUNK);
    for (const i of inTurn(start / LOAD_CHUNK + round)) {
      const begin = performance.now();
      pipelines[i].insert('orders', rows);
      pipelines[i].step();
      await streams[i].next();
      loadMs[i] += performance.now() - begin;
    }
  }
  for (const [n, change] of workload.changes.entries()) {
    for (const i of inTurn(n + round)) {
      const begin = process.hrtime.bigint();
      if (change.kind === 'insert') pipelines[i].insert('orders', [change.order]);
      else pipelines[i].ingest('orders', [{ delete: change.old }, { insert: change.order }]);
      pipelines[i].step();
      if (change.changesView || options.view) await streams[i].next();
      changeNanos[i].push(Number(process.hrtime.bigint() - begin));
    }
  }
  for (const p of pipelines) p.close();
}

const p50 = (x) => x.slice().sort((a, b) => a - b)[x.length >> 1] / 1000;
const mean = (x) => x.reduce((a, b) => a + b, 0) / x.length / 1000;
console.log(JSON.stringify([0, 1].map((i) => ({ loadMs: loadMs[i] / rounds, p50Us: p50(changeNanos[i]), meanUs: mean(changeNanos[i]) }))));
