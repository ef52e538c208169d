#!/usr/bin/env node
// Where V8 compiles the engine with its optimizing tier (TurboFan) during
// the user-shaped run: the import, an optional warmUp(), the create, the
// load of 200k orders in one step, and windows of the single-row changes.
// Prints, per phase, how many functions TurboFan finished and the ms they
// took (its own figure: CPU on a compiler thread, stretched when the
// machine is busy), then the slowest functions (wasm function index; the
// names need a build linked with --profiling-funcs: see the README).
// Compilation that finishes during the changes ran on a helper thread
// while they did: on a machine with few cores, it took the cores they needed.
//
//   FRESHET_MODULE=wasm-bindings/js/node.js node bench/js/tier_up_phases.mjs [--warm-up] [--changes 20000]
//
// The run is a child `node --trace-wasm-compilation-times` whose stdout is
// line-buffered by `stdbuf -oL` (V8 prints with C stdio), so that the
// child's phase marks and V8's lines arrive in the order they happened.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    'warm-up': { type: 'boolean', default: false },
    changes: { type: 'string', default: '20000' },
    orders: { type: 'string', default: '200000' },
    child: { type: 'boolean', default: false },
  },
});

if (options.child) await child();
else parent();

function parent() {
  const args = ['-oL', process.execPath, '--trace-wasm-compilation-times', fileURLToPath(import.meta.url), '--child',
                '--changes', options.changes, '--orders', options.orders, ...(options['warm-up'] ? ['--warm-up'] : [])];
  const run = spawnSync('stdbuf', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`the child failed (${run.error?.message ?? run.status}): ${run.stderr}`);
  let functions = 0, ms = 0;
  const phases = [], slowest = [];
  for (const line of run.stdout.split('\n')) {
    const compiled = /^Compiled function .*#(\d+) using TurboFan, took (\d+) ms/.exec(line);
    if (compiled) {
      functions += 1;
      ms += Number(compiled[2]);
      slowest.push([Number(compiled[2]), `#${compiled[1]}`]);
    }
    const mark = /PHASE (\S+) (\d+)/.exec(line);  // V8 may have printed half a line before it
    if (mark) {
      phases.push(`${mark[1].replaceAll('_', ' ').padEnd(22)} at ${mark[2].padStart(6)} ms: ${String(functions).padStart(3)} functions, ${String(ms).padStart(5)} ms`);
      functions = 0;
      ms = 0;
    }
  }
  phases.push(`${'after the run'.padEnd(22)}            ${String(functions).padStart(3)} functions, ${String(ms).padStart(5)} ms`);
  console.log(`TurboFan compilations finished in each phase (${options['warm-up'] ? 'with' : 'without'} warmUp()):`);
  for (const phase of phases) console.log(`  ${phase}`);
  slowest.sort((a, b) => b[0] - a[0]);
  console.log(`  slowest: ${slowest.slice(0, 10).map(([took, index]) => `${index} ${took} ms`).join(', ')}`);
}

async function child() {
  const { writeSync } = await import('node:fs');
  const { loadFreshet, SQL } = await import('./freshet_module.mjs');
  const { makeWorkload } = await import('./workload.mjs');
  const mark = (phase) => writeSync(1, `PHASE ${phase.replaceAll(' ', '_')} ${performance.now().toFixed(0)}\n`);
  const freshet = await loadFreshet();
  mark('import');
  const workload = makeWorkload({ orders: Number(options.orders), changes: Number(options.changes) });
  mark('workload built');
  if (options['warm-up']) {
    await freshet.warmUp();
    mark('warmUp()');
  }
  const p = await freshet.Pipeline.create({ sql: SQL });
  mark('create');
  p.pause();
  const chunks = p.egress('by_region', { sendSnapshot: false })[Symbol.asyncIterator]();
  p.insert('customers', workload.customers);
  p.step();
  p.insert('orders', workload.orders);
  p.step();
  await chunks.next();
  mark('load (one step)');
  const marks = new Set([500, 1000, 2000, 5000, 10000, 20000, 50000, 100000]);
  for (let i = 0; i < workload.changes.length; ++i) {
    const change = workload.changes[i];
    p.insert('orders', [change.order]);
    p.step();
    if (change.changesView) await chunks.next();
    if (marks.has(i + 1)) mark(`changes to ${i + 1}`);
  }
  chunks.return();
  await p.close();
}
