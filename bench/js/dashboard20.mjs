#!/usr/bin/env node
// The 20-view dashboard of issue 21 (dashboard20_program.mjs) over the orders
// workload (workload.mjs: 1,000 customers, 200k orders, then single-row
// inserts and updates), on four engines, each in a fresh Node process of its
// own (so each one's memory is its own), one after the other:
//   freshet-one    freshet, the 20 views in one pipeline
//   freshet-each   freshet, 20 pipelines of one view each (one wasm instance)
//   freshet-bare   freshet-one without outputs: the step alone (a breakdown,
//                  not a contender; its views are read by snapshot)
//   db-ivm         @tanstack/db-ivm 0.2.0, the 20 pipelines in one graph
//   tanstack-db    @tanstack/db 0.15.2, the 20 views as live queries
// Each loads the tables (customers, then orders in steps of 10,000), then
// applies the changes one by one, timing each from the write until every
// view's change is in JS hands (a mirror per view is handed its deltas;
// freshet's and db-ivm's fold them in untimed, after the change: the same
// work for every engine, dashboard20_mirror.mjs). After each timed change
// the process yields to the event loop (untimed) and counts as "late" any
// delta that arrived then. Every view's mirror is
// compared with DuckDB's from-scratch answer after the load and after the
// changes. Exits 1 when a view disagrees or an engine fails.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/dashboard20.mjs
//     [--orders 200000] [--changes 1000] [--peer-changes 100]
//     [--engines freshet-one,freshet-each,db-ivm,tanstack-db] [--warm-up] [--rounds 1] [--json out.json]
//
// --peer-changes: the TanStack engines take 0.1-1 s a change at 200k orders,
// so they get the first N changes of the same sequence (their percentiles are
// of those N).
// --warm-up: the freshet engines' processes call the package's warmUp() first,
// as a dashboard that follows docs/js-api.md does at startup (untimed).
// --rounds N: the engines run N times, each time in fresh processes, the
// order reversed every other round; each engine is reported by its median
// round (by p50), the ratios are those medians', and each round's own ratio
// is printed too. On a small shared VM one round's p50 moves by ±30% with
// what else runs in those seconds (the 20 pipelines: 154-303 µs in rounds
// minutes apart), so one round decides little.
// 1,000 changes are few for a steady p50: a fresh process's first ~500 are
// slower for both ways, with or without a warm-up (its JS heap grows then:
// ~4,000 page faults, ~14 µs each on a small VM), which weighs more on the
// faster one (one pipeline 87 µs over 1,000 changes, 77 µs over 3,000; the
// 20 pipelines 166 and 165: README.md, sixteenth session).

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { VIEWS } from './dashboard20_program.mjs';
import { compareView } from './dashboard20_mirror.mjs';
import { memorySnapshot, percentiles } from './stats.mjs';
import { makeWorkload } from './workload.mjs';

const ENGINES = {
  'freshet-one': { module: './dashboard20_freshet.mjs', options: { mode: 'one' }, peer: false },
  'freshet-each': { module: './dashboard20_freshet.mjs', options: { mode: 'each' }, peer: false },
  'freshet-bare': { module: './dashboard20_freshet.mjs', options: { mode: 'bare' }, peer: false },
  'db-ivm': { module: './dashboard20_db_ivm.mjs', options: {}, peer: true },
  'tanstack-db': { module: './dashboard20_tanstack_db.mjs', options: {}, peer: true },
};

const { values: args } = parseArgs({
  options: {
    orders: { type: 'string', default: '200000' },
    changes: { type: 'string', default: '1000' },
    'peer-changes': { type: 'string', default: '100' },
    engines: { type: 'string', default: Object.keys(ENGINES).join(',') },
    'warm-up': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '1' },
    json: { type: 'string' },
    child: { type: 'string' }, // internal: run this engine here, write to --out
    out: { type: 'string' },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);
const mib = (bytes) => bytes / 2 ** 20;

if (args.child) await child(args.child, Number(args.orders), Number(args.changes), args.out, args['warm-up']);
else await parent();

/** One engine in this process: load, changes, memory, views; written to `out` (JSON). */
async function child(engineName, orders, changeCount, out, warmUp) {
  const spec = ENGINES[engineName];
  const workload = makeWorkload({ orders, changes: changeCount });
  let warmUpMs = null;
  if (warmUp && engineName.startsWith('freshet')) {
    const { loadFreshet } = await import('./freshet_module.mjs');
    warmUpMs = (await (await loadFreshet()).warmUp()).ms;
  }
  const before = memorySnapshot();
  const { create } = await import(spec.module);
  const engine = await create(spec.options);
  let begin = process.hrtime.bigint();
  await engine.load(workload.customers, workload.orders);
  const loadMs = Number(process.hrtime.bigint() - begin) / 1e6;
  const afterLoad = memoryOf(engine, before);
  writeFileSync(`${out}.load.json`, JSON.stringify(engine.views()));

  const nanos = [];
  let late = 0;
  for (const change of workload.changes) {
    begin = process.hrtime.bigint();
    const done = engine.apply(change);
    if (done?.then) await done;
    nanos.push(Number(process.hrtime.bigint() - begin));
    const chunks = engine.counts.chunks;
    await new Promise((resolve) => setImmediate(resolve)); // untimed: anything still on its way lands now
    if (engine.counts.chunks !== chunks) late += 1;
    engine.settle?.(); // untimed: the mirrors fold in the deltas they were handed (dashboard20_mirror.mjs)
  }
  const afterChanges = memoryOf(engine, before);
  writeFileSync(`${out}.changes.json`, JSON.stringify(engine.views()));
  const sorted = Float64Array.from(nanos).sort();
  const result = { engine: engine.name, warmUpMs, loadMs, ...percentiles(nanos), maxUs: sorted[sorted.length - 1] / 1000, meanUs: nanos.reduce((a, b) => a + b, 0) / nanos.length / 1000, changes: nanos.length, late, chunks: engine.counts.chunks, afterLoad, afterChanges };
  writeFileSync(out, JSON.stringify(result));
  await engine.close?.();
}

/** Memory the engine added since `before`: JS heap, external (ArrayBuffers, wasm memory), and wasm memory as freshet reports it. */
function memoryOf(engine, before) {
  const now = memorySnapshot();
  const own = engine.memory?.() ?? {};
  const heapMiB = mib(now.heapUsed - before.heapUsed);
  const externalMiB = mib(now.external - before.external);
  const wasmMiB = own.wasmMemoryBytes === undefined ? 0 : mib(own.wasmMemoryBytes);
  // wasm memory counts in `external`; take the larger of the two readings of it.
  return { heapMiB, externalMiB, wasmMiB, stateMiB: own.engineStateBytes === undefined ? null : mib(own.engineStateBytes), totalMiB: heapMiB + Math.max(externalMiB, wasmMiB) };
}

async function parent() {
  const sizes = { orders: Number(args.orders), changes: Number(args.changes), peerChanges: Math.min(Number(args['peer-changes']), Number(args.changes)) };
  const workload = makeWorkload(sizes);
  const report = { node: process.version, ...sizes, loadAverage: loadavg(), engines: [], failed: [] };
  log(`dashboard: ${VIEWS.length} views, ${sizes.orders} orders, ${sizes.changes} changes (${sizes.peerChanges} for the TanStack engines); load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const { oracleViews, ordersAfter } = await import('./dashboard20_oracle.mjs');
  const oracles = new Map(); // changes applied -> views
  const oracle = async (n) => {
    if (!oracles.has(n)) oracles.set(n, await oracleViews(workload.customers, ordersAfter(workload, n)));
    return oracles.get(n);
  };
  const dir = mkdtempSync(join(tmpdir(), 'dashboard20-'));
  const rounds = Number(args.rounds);
  const names = args.engines.split(',');
  const runs = new Map(names.map((name) => [name, []]));  // engine -> its result in each round
  try {
    for (let round = 0; round < rounds; ++round) for (const name of round % 2 ? names.slice().reverse() : names) {
      const changes = ENGINES[name].peer ? sizes.peerChanges : sizes.changes;
      const out = join(dir, `${name}.json`);
      log(`${name}${rounds > 1 ? `, round ${round + 1} of ${rounds}` : ''}: ${sizes.orders} orders, ${changes} changes (load average ${loadavg()[0].toFixed(2)})`);
      try {
        // TanStack DB holds GiBs of JS heap at 200k orders: past Node's default limit.
        const warmUp = args['warm-up'] ? ['--warm-up'] : [];
        execFileSync(process.execPath, ['--max-old-space-size=16384', fileURLToPath(import.meta.url), '--child', name, '--orders', String(sizes.orders), '--changes', String(changes), '--out', out, ...warmUp], { stdio: ['ignore', 'inherit', 'pipe'], maxBuffer: 64 * 2 ** 20 });
      } catch (error) {
        report.failed.push({ engine: name, round: round + 1, error: String(error.stderr ?? error).slice(-2000) });
        continue;
      }
      const result = { name, round: round + 1, ...JSON.parse(readFileSync(out, 'utf8')), problems: [] };
      for (const [when, file, n] of [['after load', `${out}.load.json`, 0], ['after changes', `${out}.changes.json`, changes]]) {
        const views = JSON.parse(readFileSync(file, 'utf8'));
        const expected = await oracle(n);
        for (const view of VIEWS) result.problems.push(...compareView(view, expected[view.name], views[view.name] ?? []).map((p) => `${when}: ${p}`));
      }
      runs.get(name).push(result);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const results of runs.values()) {
    if (!results.length) continue;
    // The median round by p50 stands for the engine; every round's checks count.
    const median = results.slice().sort((a, b) => a.p50Us - b.p50Us)[(results.length - 1) >> 1];
    report.engines.push({ ...median, rounds: results.map(({ round, p50Us }) => ({ round, p50Us })),
                          problems: results.flatMap((r) => r.problems.map((p) => (rounds > 1 ? `round ${r.round}, ${p}` : p))),
                          late: results.reduce((sum, r) => sum + r.late, 0) });
  }
  printReport(report);
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
  process.exitCode = report.failed.length > 0 || report.engines.some((e) => e.problems.length > 0 || e.late > 0) ? 1 : 0;
}

function printReport(report) {
  const f = (x, d = 1) => (x === null || x === undefined ? '-' : x.toFixed(d));
  const rounds = Number(args.rounds);
  console.log(`\n== dashboard: ${VIEWS.length} views, ${report.orders} orders, Node ${report.node}, load average at start ${report.loadAverage.map((x) => x.toFixed(2)).join(' ')}${args['warm-up'] ? '; the freshet engines after warmUp()' : ''}` +
              `${rounds > 1 ? `; each engine's median round of ${rounds} (by p50)` : ''}`);
  console.log('engine'.padEnd(58) + 'changes  load ms   p50 µs    p99 µs    max µs  late  MiB after load (heap+wasm/ext)  after changes  state');
  for (const e of report.engines) {
    const m = (x) => `${f(x.totalMiB)} (${f(x.heapMiB)}+${f(Math.max(x.externalMiB, x.wasmMiB))})`;
    console.log(`${e.engine.padEnd(58)}${String(e.changes).padStart(7)} ${f(e.loadMs, 0).padStart(8)} ${f(e.p50Us, 2).padStart(8)} ${f(e.p99Us, 1).padStart(9)} ${f(e.maxUs, 0).padStart(9)} ${String(e.late).padStart(5)}  ${m(e.afterLoad).padEnd(30)} ${m(e.afterChanges).padEnd(14)} ${f(e.afterChanges.stateMiB)}`);
    for (const p of e.problems.slice(0, 10)) console.log(`  CHECK FAILED: ${p}`);
    if (e.problems.length === 0) console.log(`  every view equals DuckDB's after the load and after ${e.changes} changes${rounds > 1 ? ', in every round' : ''}`);
    if (rounds > 1) console.log(`  p50 by round: ${e.rounds.map((r) => `${r.round}: ${f(r.p50Us, 2)}`).join(', ')} µs`);
  }
  for (const f2 of report.failed) console.log(`FAILED ${f2.engine}: ${f2.error}`);
  const by = Object.fromEntries(report.engines.map((e) => [e.name, e]));
  const one = by['freshet-one'];
  if (!one) return;
  const ratio = (label, other, target) => {
    if (!other) return;
    const r = one.p50Us / other.p50Us;
    console.log(`${label.padEnd(40)} p50 ${r < 0.01 ? r.toExponential(2) : r.toFixed(3)}x  (${(other.p50Us / one.p50Us).toFixed(0)}x faster)   memory after changes ${(one.afterChanges.totalMiB / other.afterChanges.totalMiB).toFixed(3)}x   ${target}`);
    if (rounds < 2) return;
    const byRound = one.rounds.map(({ round, p50Us }) => [round, p50Us / other.rounds.find((o) => o.round === round)?.p50Us]).filter(([, x]) => x);
    console.log(`${''.padEnd(40)} p50 ratio in each round: ${byRound.map(([round, x]) => `${round}: ${x < 0.01 ? x.toExponential(2) : x.toFixed(3)}`).join(', ')}`);
  };
  console.log('\nfreshet, one pipeline, against:');
  ratio('freshet, one pipeline per view', by['freshet-each'], 'targets: memory <= 0.5x, p50 <= 0.5x');
  if (by['freshet-bare']) console.log(`${'(the step alone, no outputs)'.padEnd(40)} p50 ${by['freshet-bare'].p50Us.toFixed(2)} µs of ${one.p50Us.toFixed(2)} µs: the rest is the 20 views' deltas reaching JS`);
  ratio('@tanstack/db-ivm', by['db-ivm'], 'targets: >= 500x faster, memory <= 0.3x');
  ratio('@tanstack/db', by['tanstack-db'], 'targets: >= 500x faster, memory <= 0.3x');
}
