#!/usr/bin/env node
// Runs the orders workload (workload.mjs) on every engine, one after the
// other in this one Node process, and prints load time, per-change p50/p99,
// memory, ratios, and the JSON-ingest slot. Exits non-zero when an engine
// fails or when the engines' final views disagree with the oracle.
//
//   node bench/js/run.mjs [--orders 200000] [--changes 1000] [--warm-up]
//                         [--engines plain_js,db_ivm,duckdb,freshet] [--no-json-ingest] [--json out.json]
//
// --warm-up has freshet call the package's warmUp() before its load, as
// the package's docs tell an application to: without it V8 compiles the
// engine's hot paths with its optimizing tier during the load and the
// first ~2,000 changes, which are then timed in V8's lower tiers (the
// twenty-eighth session's section of README.md measures both).

import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { EngineUnavailable, settle } from './engine.mjs';
import { runJsonIngest } from './json_ingest.mjs';
import { printReport } from './report.mjs';
import { memoryDelta, memorySnapshot, percentiles, timerFloorNanos } from './stats.mjs';
import { compareResults, makeWorkload, referenceResult } from './workload.mjs';

const { values: options } = parseArgs({
  options: {
    orders: { type: 'string', default: '200000' },
    changes: { type: 'string', default: '1000' },
    engines: { type: 'string', default: 'plain_js,db_ivm,duckdb,freshet' },
    'no-json-ingest': { type: 'boolean', default: false },
    'warm-up': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);

/** Loads, then applies and times every change; the engine stays alive until its memory is read. */
async function measure(moduleName, workload, expected) {
  const before = memorySnapshot();
  const { create } = await import(`./${moduleName}.mjs`);
  const engine = await create({ warmUp: options['warm-up'] });
  try {
    if (engine.warmUpMs !== undefined) log(`${engine.name}: warmUp() took ${engine.warmUpMs.toFixed(0)} ms`);
    log(`${engine.name}: loading ${workload.orders.length} orders`);
    let begin = process.hrtime.bigint();
    await settle(engine.load(workload.customers, workload.orders));
    const loadMs = Number(process.hrtime.bigint() - begin) / 1e6;

    log(`${engine.name}: ${workload.changes.length} changes`);
    const nanos = [];
    const nanosByKind = { insert: [], update: [] };
    let deltas = 0; // keeps each delta observably used
    for (const change of workload.changes) {
      begin = process.hrtime.bigint();
      let delta = engine.apply(change);
      if (settle(delta)) delta = await delta;
      const elapsed = Number(process.hrtime.bigint() - begin);
      nanos.push(elapsed);
      nanosByKind[change.kind].push(elapsed);
      if (delta) deltas += 1;
    }
    const problems = compareResults(expected, await engine.result());
    const memory = memoryDelta(before, memorySnapshot());
    const byKind = { insertP50Us: percentiles(nanosByKind.insert).p50Us, updateP50Us: percentiles(nanosByKind.update).p50Us };
    return { engine: engine.name, module: moduleName, loadMs, ...percentiles(nanos), ...byKind, deltas, memory, ownMemory: engine.memory?.(), problems };
  } finally {
    await engine.close?.();
  }
}

const sizes = { orders: Number(options.orders), changes: Number(options.changes) };
if (!(Number.isInteger(sizes.orders) && sizes.orders > 0 && Number.isInteger(sizes.changes) && sizes.changes >= 0)) {
  log('--orders must be a positive integer and --changes a non-negative one');
  process.exit(2);
}
log(`workload: ${sizes.orders} orders, ${sizes.changes} changes`);
const workload = makeWorkload(sizes);
const expected = referenceResult(workload);

const report = { node: process.version, ...sizes, loadAverage: loadavg()[0], timerFloorNs: timerFloorNanos(), engines: [], skipped: [], failed: [] };
for (const moduleName of options.engines.split(',')) {
  try {
    report.engines.push(await measure(moduleName, workload, expected));
  } catch (error) {
    if (error instanceof EngineUnavailable) report.skipped.push({ module: moduleName, reason: error.message });
    else report.failed.push({ module: moduleName, error: error.stack ?? String(error) });
  }
}

if (!options['no-json-ingest']) {
  try {
    report.jsonIngest = await runJsonIngest(workload.customers, workload.orders);
  } catch (error) {
    if (error instanceof EngineUnavailable) report.jsonIngest = { skipped: error.message };
    else report.failed.push({ module: 'json_ingest', error: error.stack ?? String(error) });
  }
}

printReport(report);
if (options.json) writeFileSync(options.json, JSON.stringify(report, null, 2));
const disagreeing = report.engines.filter((e) => e.problems.length > 0);
process.exitCode = disagreeing.length > 0 || report.failed.length > 0 ? 1 : 0;
