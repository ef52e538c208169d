// Why the local KV answered 500 to checkpoint and connector writes: a
// reproduction. Miniflare's KV namespace is a Durable Object (its
// KVNamespaceObject) storing keys in SQLite under the persistence folder.
// One workerd process serves any load without an error; two processes on one
// folder (two `npm start`s, or a test or benchmark beside `npm start`) fight
// over the SQLite file: a write gets SQLITE_BUSY, which Miniflare's object
// does not catch, so the binding throws "KV PUT failed: 500 Internal Server
// Error". The package's retry wrapper (wasm-bindings/js/retrying.js; the
// edge worker retries every KV call through it) absorbs those.
//
//   node bench/edge/kv_contention.mjs [--calls 300] [--bytes 20000]
// Prints, per scenario, the failed calls by message and what the retries absorbed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { Miniflare } from 'miniflare';

import { REPO_ROOT } from '../../edge-worker/local.mjs';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '300' }, bytes: { type: 'string', default: '20000' } } });
const load = { calls: Number(values.calls), keys: 50, bytes: Number(values.bytes) };

function workerd(kvPersist) {
  return new Miniflare({
    modules: true,
    scriptPath: join(REPO_ROOT, 'bench/edge/kv_contention_worker.mjs'),
    modulesRoot: REPO_ROOT,
    modulesRules: [{ type: 'ESModule', include: ['**/*.js', '**/*.mjs'] }],
    compatibilityDate: '2025-01-01',
    kvNamespaces: ['KV'],
    kvPersist,
    cf: false,
    handleRuntimeStdio: (stdout, stderr) => { stdout.resume(); stderr.resume(); },  // workerd prints each SQLITE_BUSY's stack
  });
}

/** Four clients at once, alternating between the processes given; the sum of what they report. */
async function run(processes, retried) {
  const answers = await Promise.all([0, 1, 2, 3].map(async (i) => {
    const response = await processes[i % processes.length].dispatchFetch('http://bench/', { method: 'POST', body: JSON.stringify({ ...load, retried }) });
    return response.json();
  }));
  const failed = {};
  const retries = { incidents: 0, failures: 0, givenUp: 0 };
  for (const answer of answers) {
    for (const [message, count] of Object.entries(answer.failed)) failed[message] = (failed[message] ?? 0) + count;
    for (const key of Object.keys(retries)) retries[key] += answer.retries[key];
  }
  return { failed, retries };
}

async function scenario(name, count, retried) {
  const folder = mkdtempSync(join(tmpdir(), 'freshet-kv-contention-'));
  const processes = Array.from({ length: count }, () => workerd(folder));
  try {
    await Promise.all(processes.map((mf) => mf.ready));
    const { failed, retries } = await run(processes, retried);
    console.log(`${name}: ${4 * load.calls} KV calls (${load.bytes}-byte values, ${load.keys} keys); failed: ${JSON.stringify(failed)}; ` +
                `retried: ${retries.failures} failures in ${retries.incidents} incidents, ${retries.givenUp} given up`);
  } finally {
    await Promise.all(processes.map((mf) => mf.dispose()));
    rmSync(folder, { recursive: true, force: true });
  }
}

await scenario('one workerd                         ', 1, false);
await scenario('two workerd on one folder           ', 2, false);
await scenario('two workerd on one folder, retried  ', 2, true);
