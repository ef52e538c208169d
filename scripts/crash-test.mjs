#!/usr/bin/env node
// Crash tests of the edge worker on real workerd: each run starts workerd on
// a fresh state folder (as edge-worker/local.mjs does), ingests over HTTP,
// kill -9s workerd at a random point of one kind, restarts it on the same
// folder and checks what survived (tests/edge/crash_harness.mjs says what).
//
//   node scripts/crash-test.mjs [runs per kind, 50] [seed] [kinds, comma-separated: ack,checkpoint,connector]
//
// Prints each run that lost or doubled anything, then the totals; exits 1
// unless nothing acknowledged was lost or duplicated, the view matched the
// table, the idempotent connector held exactly the view, and every
// acknowledged token answered. State folders go under $TMPDIR.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { KINDS, crashRun, totals } from '../tests/edge/crash_harness.mjs';

const runs = Number(process.argv[2] ?? 50);
const seed = Number(process.argv[3] ?? Date.now() % 1e9);
const kinds = process.argv[4] ? process.argv[4].split(',') : KINDS;
const parent = mkdtempSync(join(tmpdir(), 'freshet-crash-'));

console.log(`crash test: ${runs} run(s) of each of ${kinds.join(', ')}; seed ${seed}`);
const byKind = {};
try {
  for (const kind of kinds) {
    byKind[kind] = [];
    for (let run = 0; run < runs; ++run) {
      const result = await crashRun(parent, kind, seed + run);
      byKind[kind].push(result);
      const bad = result.lost || result.duplicated || !result.viewMatchesTable || !result.mirrorExact || result.tokensUnanswered;
      if (bad) console.log(`  ${kind} run ${run} (seed ${seed + run}): ${JSON.stringify(result)}`);
    }
    console.log(`${kind.padEnd(10)} ${JSON.stringify(totals(byKind[kind]))}`);
  }
} finally {
  rmSync(parent, { recursive: true, force: true });
}
const all = totals(Object.values(byKind).flat());
console.log(`total      ${JSON.stringify(all)}`);
const clean = !all.lost && !all.duplicated && !all.viewMismatches && !all.mirrorMismatches && !all.tokensUnanswered;
process.exit(clean ? 0 : 1);
