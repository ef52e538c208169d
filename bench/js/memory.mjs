// The memory budget of issue 22 (maxMemoryBytes, docs/js-api.md):
//   cost     — what the accounting costs per step: the orders workload's
//              changes on two pipelines in one process, budget on (a budget
//              the workload never reaches, so every step runs metered) and
//              off (maxMemoryBytes: 0), changes interleaved, the order of
//              the two alternating; medians and their ratio.
//   largest  — the largest step a 128 MiB isolate survives: a fresh process
//              per size (wasm memory never shrinks), one step that loads N
//              orders (the orders program) or squares N rows (a cross join),
//              with no budget; the figure is the wasm memory plus the JS
//              heap after the step, against 128 MiB. Then the default budget
//              on the same steps: where OUT_OF_MEMORY starts, and the wasm
//              memory of the largest step it let through.
// FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/memory.mjs [--only cost,largest] [--orders N] [--changes N]

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

import { loadFreshet, SQL } from './freshet_module.mjs';
import { makeWorkload } from './workload.mjs';

const MiB = 1024 * 1024;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : fallback;
};

const SQUARE_SQL = `CREATE TABLE t (id BIGINT NOT NULL, name VARCHAR);
CREATE MATERIALIZED VIEW square AS SELECT a.id AS x, b.name AS y FROM t a, t b;`;

async function cost() {
  const { Pipeline } = await loadFreshet();
  const orders = Number(option('orders', 100000)), changeCount = Number(option('changes', 20000));
  const { customers, orders: rows, changes } = makeWorkload({ orders, changes: changeCount });
  const make = async (maxMemoryBytes) => {
    const p = await Pipeline.create({ sql: SQL, maxMemoryBytes });
    p.pause();
    p.insert('customers', customers);
    for (let i = 0; i < rows.length; i += 10000) p.insert('orders', rows.slice(i, i + 10000)), p.step();
    return p;
  };
  // The pipeline made first runs faster or slower (where its memory lies), by about as much as is
  // measured here: both orders are run, and their ratios' geometric mean is the figure.
  const budget = Number(option('budget', 1024 * MiB));  // --budget 0: an A/A run, the noise
  const ratios = [];
  for (const onFirst of [true, false]) ratios.push(await round(onFirst));
  console.log(`  on / off, both orders (geometric mean of the medians' ratios): ${Math.sqrt(ratios[0] * ratios[1]).toFixed(3)}`);

  async function round(onFirst) {
  const [on, off] = onFirst ? [await make(budget), await make(0)] : [await make(0), await make(budget)].reverse();
  const times = { on: [], off: [] };
  const apply = (p, change) => {
    const started = process.hrtime.bigint();
    if (change.kind === 'insert') p.insert('orders', [change.order]);
    else p.ingest('orders', [{ delete: change.old }, { insert: change.order }]);
    p.step();
    return Number(process.hrtime.bigint() - started);
  };
  changes.forEach((change, i) => {
    const order = i % 2 ? [['on', on], ['off', off]] : [['off', off], ['on', on]];
    for (const [name, p] of order) times[name].push(apply(p, change));
  });
  const median = (list) => list.sort((a, b) => a - b)[list.length >> 1] / 1000;
  const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length / 1000;
  console.log(`cost: ${changes.length} changes after ${orders} orders, interleaved; the pipeline with the budget made ${onFirst ? 'first' : 'second'}`);
  console.log(`  budget on : median ${median(times.on).toFixed(2)} µs, mean ${mean(times.on).toFixed(2)} µs a change`);
  console.log(`  budget off: median ${median(times.off).toFixed(2)} µs, mean ${mean(times.off).toFixed(2)} µs a change`);
  console.log(`  on / off  : ${(median(times.on) / median(times.off)).toFixed(3)} (median), ${(mean(times.on) / mean(times.off)).toFixed(3)} (mean)`);
  on.close();
  off.close();
  return median(times.on) / median(times.off);
  }
}

/** In a child: one step of `size` (orders or square), prints JSON { ok, code, wasm, heap, state }. */
async function child(kind, size, maxMemoryBytes) {
  const { Pipeline } = await loadFreshet();
  const gc = (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc'));
  let p;
  if (kind === 'orders') {
    const { customers, orders } = makeWorkload({ orders: size, changes: 0 });
    p = await Pipeline.create({ sql: SQL, maxMemoryBytes });
    p.pause();
    p.insert('customers', customers);
    p.step();
    p.insert('orders', orders);
  } else {
    p = await Pipeline.create({ sql: SQUARE_SQL, maxMemoryBytes });
    p.pause();
    p.insert('t', Array.from({ length: size }, (_, id) => ({ id, name: `row number ${id}` })));
  }
  let outcome = { ok: true };
  try {
    p.step();
  } catch (error) {
    outcome = { ok: false, code: error.code, message: error.message };
  }
  gc();
  const stats = p.stats();
  console.log(JSON.stringify({ ...outcome, wasm: stats.wasmMemoryBytes, heap: process.memoryUsage().heapUsed, state: stats.memoryBytes }));
}

function runChild(kind, size, budget) {
  const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, String(size), String(budget)],
                        { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 });
  const line = out.stdout.trim().split('\n').pop();
  try {
    return JSON.parse(line);
  } catch {
    return { ok: false, code: 'CRASH', message: (out.stderr || out.stdout).slice(-300) };
  }
}

function largest() {
  const mib = (bytes) => (bytes / MiB).toFixed(1);
  const series = { orders: [100000, 200000, 250000, 300000, 350000, 400000, 800000],
                   square: [500, 600, 700, 800, 1000, 2000, 4000] };
  for (const [kind, sizes] of Object.entries(series)) {
    console.log(`largest: one step of ${kind === 'orders' ? 'N orders loaded (the orders program)' : 'N rows squared (a cross join: N² rows)'}`);
    console.log('  N          | no budget: wasm + JS heap (MiB), fits 128 MiB | default budget (40 MiB): outcome, wasm MiB');
    for (const size of sizes) {
      const free = runChild(kind, size, 0);
      const budgeted = runChild(kind, size, 40 * MiB);
      const total = free.ok ? free.wasm + free.heap : null;
      const freeText = free.ok ? `${mib(free.wasm)} + ${mib(free.heap)} = ${mib(total)} ${total <= 128 * MiB ? 'yes' : 'NO'}` : free.code;
      const budgetText = budgeted.ok ? `ok, ${mib(budgeted.wasm)}` : `${budgeted.code}, ${mib(budgeted.wasm ?? 0)}`;
      console.log(`  ${String(size).padEnd(10)} | ${freeText.padEnd(44)} | ${budgetText}`);
    }
  }
}

if (args[0] === '--child') {
  await child(args[1], Number(args[2]), Number(args[3]));
} else {
  const only = option('only', 'cost,largest').split(',');
  if (only.includes('cost')) await cost();
  if (only.includes('largest')) largest();
}
