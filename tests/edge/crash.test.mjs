// Crash tests, the short version of scripts/crash-test.mjs (which runs 50 of
// each kind and prints totals): one kill -9 of workerd of each kind —
// (a) after acknowledged ingress, before the next checkpoint; (b) in the
// middle of a checkpoint write; (c) while the KV connectors deliver — each
// on a fresh state folder, restarted on it and checked
// (tests/edge/crash_harness.mjs).
//
// "Every acknowledged record survives" holds because of the durable input
// log (the package's durability: 'log'); before the log, these three runs
// lost 641 acknowledged records.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { KINDS, crashRun, totals } from './crash_harness.mjs';

const SEED = 20;
const parent = mkdtempSync(join(tmpdir(), 'freshet-crash-test-'));
after(() => rmSync(parent, { recursive: true, force: true }));

const results = [];
before(async () => {
  for (const [i, kind] of KINDS.entries()) results.push(await crashRun(parent, kind, SEED + i));
});

test('after kill -9: no record twice, the view equals its recomputation from the table, the idempotent connector holds exactly the view', () => {
  assert.equal(results.length, KINDS.length);
  const sum = totals(results);
  assert.ok(sum.acknowledged > 0);
  assert.deepEqual({ duplicated: sum.duplicated, viewMismatches: sum.viewMismatches, mirrorMismatches: sum.mirrorMismatches,
                     plainLost: sum.plainLost },
                   { duplicated: 0, viewMismatches: 0, mirrorMismatches: 0, plainLost: 0 }, JSON.stringify(results));
});

test('after kill -9: every acknowledged record survives and every acknowledged token answers', () => {
  const sum = totals(results);
  assert.deepEqual({ lost: sum.lost, tokensUnanswered: sum.tokensUnanswered }, { lost: 0, tokensUnanswered: 0 },
                   JSON.stringify(results));
});
