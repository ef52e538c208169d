// Small measuring helpers for run.mjs: percentiles, a forced GC, memory snapshots.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** p50 and p99 in µs, indexed as bench/orders_workload.h does (sorted[n/2], sorted[n*99/100]). */
export function percentiles(nanos) {
  const sorted = Float64Array.from(nanos).sort();
  return { p50Us: sorted[Math.floor(sorted.length / 2)] / 1000, p99Us: sorted[Math.floor((sorted.length * 99) / 100)] / 1000 };
}

// A full GC before each memory reading, without asking the user for
// --expose-gc: the flag can be set at run time and gc() fetched from a new context.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

export function memorySnapshot() {
  gc();
  gc(); // a second pass collects what the first one's finalizers released
  return process.memoryUsage();
}

/** What an engine added, in MiB: rss, the JS heap, and ArrayBuffer/external memory (where wasm memories count). */
export function memoryDelta(before, after) {
  const mib = (bytes) => bytes / 2 ** 20;
  return {
    rssMiB: mib(after.rss - before.rss),
    heapUsedMiB: mib(after.heapUsed - before.heapUsed),
    externalMiB: mib(after.external - before.external),
  };
}

/** What one hrtime pair costs: the floor under every per-change figure. */
export function timerFloorNanos() {
  const nanos = [];
  for (let i = 0; i < 1000; ++i) {
    const begin = process.hrtime.bigint();
    nanos.push(Number(process.hrtime.bigint() - begin));
  }
  return percentiles(nanos).p50Us * 1000;
}
