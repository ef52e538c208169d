// The main thread's own CPU time, time spent waiting for a core, and page
// faults, from Linux's per-thread counters (/proc/self/task/<pid>/). On a
// 2-core machine V8's compiler and GC threads compete with the main thread:
// a phase's wall time is its CPU time plus its wait for a core, and
// process.cpuUsage() cannot tell the two apart (it counts every thread).
// A first touch of a fresh memory page costs ~14 µs on these VMs, so faults
// are time too. null where /proc is not there (not Linux).

import { readFileSync } from 'node:fs';

const TASK = `/proc/self/task/${process.pid}`;

/** @returns {{ cpuMs: number, waitMs: number, faults: number } | null} */
export function mainThreadNow() {
  try {
    const [cpuNs, waitNs] = readFileSync(`${TASK}/schedstat`, 'utf8').split(' ');
    // stat: after "(comm) ", field 10 of stat(5) (minflt) is index 7
    const fields = readFileSync(`${TASK}/stat`, 'utf8').split(') ')[1].split(' ');
    return { cpuMs: Number(cpuNs) / 1e6, waitMs: Number(waitNs) / 1e6, faults: Number(fields[7]) };
  } catch {
    return null;
  }
}

/** What the main thread spent between two mainThreadNow() readings; null if either is. */
export function mainThreadSince(before, after = mainThreadNow()) {
  if (!before || !after) return null;
  return { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs, faults: after.faults - before.faults };
}
