// The main thread's own CPU time, time spent waiting for a core, and page
// faults, from Linux's per-thread counters (/proc/self/task/<pid>/). On a
// 2-core machine V8's compiler and GC threads compete with the main thread:
// a phase's wall time is its CPU time plus its wait for a core, and
// process.cpuUsage() cannot tell the two apart (it counts every thread).
// A first touch of a fresh memory page costs ~14 µs on these VMs, so faults
// are time too. null where /proc is not there (not Linux).
//
// The two files stay open and are re-read from offset 0 (~12 µs a reading,
// a third of opening them each time), so that a run can read them around
// every change, outside the change's timed span.

import { closeSync, openSync, readdirSync, readSync } from 'node:fs';

const TASK = `/proc/self/task/${process.pid}`;
const buffer = Buffer.alloc(1024);
let files;  // { schedstat, stat } descriptors, or false where /proc is not there

function read(fd) {
  return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
}

/** @returns {{ cpuMs: number, waitMs: number, faults: number } | null} */
export function mainThreadNow() {
  try {
    files ??= { schedstat: openSync(`${TASK}/schedstat`, 'r'), stat: openSync(`${TASK}/stat`, 'r') };
  } catch {
    files = false;
  }
  if (!files) return null;
  const [cpuNs, waitNs] = read(files.schedstat).split(' ');
  // stat: after "(comm) ", field 10 of stat(5) (minflt) is index 7
  const fields = read(files.stat).split(') ')[1].split(' ');
  return { cpuMs: Number(cpuNs) / 1e6, waitMs: Number(waitNs) / 1e6, faults: Number(fields[7]) };
}

/** What the main thread spent between two mainThreadNow() readings; null if either is. */
export function mainThreadSince(before, after = mainThreadNow()) {
  if (!before || !after) return null;
  return { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs, faults: after.faults - before.faults };
}

const threadFiles = new Map();  // tid -> schedstat descriptor, for this process's other threads

/**
 * CPU ms run so far by this process's threads other than the main one (V8's
 * compiler and GC threads, libuv's pool): a thread's counter is exact when it
 * is not running, so over a span in which the main thread waited, this says
 * whether our own threads took the cores or another process did. null where
 * /proc is not there.
 */
export function otherThreadsCpuMs() {
  let tids;
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  let ns = 0;
  for (const tid of tids) {
    if (tid === String(process.pid)) continue;
    try {
      if (!threadFiles.has(tid)) threadFiles.set(tid, openSync(`/proc/self/task/${tid}/schedstat`, 'r'));
      ns += Number(read(threadFiles.get(tid)).split(' ')[0]);
    } catch {
      // the thread ended since the listing: its time is no longer counted
      if (threadFiles.has(tid)) closeSync(threadFiles.get(tid));
      threadFiles.delete(tid);
    }
  }
  return ns / 1e6;
}
