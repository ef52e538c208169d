// `npm start`: the edge worker on http://127.0.0.1:8787 (PORT overrides) in
// real workerd, with the built-in sample pipeline 'demo' (web-demo/
// sample_pipeline.js) created if missing, resumed if present, and fed by its
// order generator over HTTP so that views and the dashboard keep moving.
// State lives in build/edge-state/ (FRESHET_EDGE_STATE overrides): stop with
// Ctrl-C and start again to resume from the last automatic checkpoint.
//
// Environment: PORT (8787), FRESHET_DEMO_RATE (orders a second, 200; 0 stops
// the generator), FRESHET_EDGE_STATE (the persistence folder),
// FRESHET_API_KEY (the API keys, comma-separated: without it the API on
// loopback needs no key; with it every client, this generator and the
// dashboard included, sends `Authorization: Bearer <key>`).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { SAMPLE_PIPELINE_NAME, SAMPLE_SQL, SampleGenerator } from '../web-demo/sample_pipeline.js';
import { REPO_ROOT, startEdgeWorker, workerVarsFromEnv } from './local.mjs';

const port = Number(process.env.PORT ?? 8787);
const rate = Number(process.env.FRESHET_DEMO_RATE ?? 200);
const persistDir = process.env.FRESHET_EDGE_STATE ?? join(REPO_ROOT, 'build/edge-state');
const TICKS_PER_SECOND = 4;
const apiKey = process.env.FRESHET_API_KEY ?? '';
/** The generator's own requests use the first key. */
const authorization = apiKey ? { authorization: `Bearer ${apiKey.split(/[\s,]+/).filter(Boolean)[0]}` } : {};

/** The demo's definition: the sample program, and a KV connector mirroring revenue by region. */
const DEMO_DEFINITION = {
  program_code: SAMPLE_SQL,
  outputs: {
    revenue_kv: { view: 'revenue_by_region', send_snapshot: true, sink: { type: 'kv', prefix: 'outputs/demo/revenue_by_region/' } },
  },
  checkpoint_interval_ms: 5_000,
};

async function call(base, method, path, body) {
  const response = await fetch(`${base}/v0/pipelines/${SAMPLE_PIPELINE_NAME}${path}`, {
    method,
    headers: authorization,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Creates the demo pipeline unless it exists with the same program; returns the generator to feed it. */
async function ensureDemo(base) {
  const existing = await call(base, 'GET', '');
  const generator = new SampleGenerator({ seed: Date.now() % 2 ** 31 });
  if (existing.status === 200 && existing.body.program_code === SAMPLE_SQL) {
    // Outputs or intervals changed since it was created: the same program
    // resumes its state under the new definition.
    const current = { outputs: existing.body.outputs, checkpoint_interval_ms: existing.body.checkpoint_interval_ms };
    // (DEMO_DEFINITION spells every field of its outputs, as GET returns them.)
    const wanted = { outputs: DEMO_DEFINITION.outputs, checkpoint_interval_ms: DEMO_DEFINITION.checkpoint_interval_ms };
    if (!isDeepStrictEqual(current, wanted)) await call(base, 'PUT', '', DEMO_DEFINITION);
    // Stopped through Feldera's /stop since: the demo runs again.
    if (existing.body.deployment_status === 'Stopped') await call(base, 'POST', '/start');
    // Resumed: carry on with order ids above every id used so far.
    const stats = await call(base, 'GET', '/stats');
    generator.nextOrderId = (stats.body.tables?.orders?.total_records ?? 0) + 1;
    console.log(`resumed pipeline '${SAMPLE_PIPELINE_NAME}' at step ${existing.body.step}`);
    return generator;
  }
  const created = await call(base, 'PUT', '', DEMO_DEFINITION);
  if (created.status >= 300) throw new Error(`could not create the demo pipeline: ${JSON.stringify(created.body)}`);
  const customers = await call(base, 'POST', '/ingress/customers?update_format=raw&array=true', generator.customers());
  if (customers.status !== 200) throw new Error(`could not load customers: ${JSON.stringify(customers.body)}`);
  console.log(`created pipeline '${SAMPLE_PIPELINE_NAME}' with the sample program`);
  return generator;
}

function feed(base, generator) {
  if (!(rate > 0)) return () => {};
  const perTick = Math.max(1, Math.round(rate / TICKS_PER_SECOND));
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;  // the worker is behind: skip a tick rather than pile up requests
    busy = true;
    try {
      const answer = await call(base, 'POST', '/ingress/orders?array=true', generator.next(perTick));
      if (answer.status !== 200) console.error('generator: ingest failed:', JSON.stringify(answer.body));
    } catch (error) {
      console.error('generator:', error.message);
    } finally {
      busy = false;
    }
  }, 1000 / TICKS_PER_SECOND);
  return () => clearInterval(timer);
}

mkdirSync(persistDir, { recursive: true });
const worker = await startEdgeWorker({ persistDir, port, apiKey, vars: workerVarsFromEnv() });
const generator = await ensureDemo(worker.url);
const stopFeeding = feed(worker.url, generator);
console.log(`Freshet edge worker on ${worker.url}  (state in ${persistDir})`);
console.log(`  dashboard:  ${worker.url}/web-demo/index.html`);
console.log(`  API:        ${worker.url}/v0/pipelines/${SAMPLE_PIPELINE_NAME}/stats`);
console.log(`  generator:  ${rate > 0 ? `${rate} orders/s` : 'off'} (FRESHET_DEMO_RATE); Ctrl-C stops`);
console.log(apiKey
  ? '  API keys:   required (FRESHET_API_KEY): send Authorization: Bearer <key>; the dashboard asks for one'
  : '  API keys:   none — the API is open to anyone who can reach this port (set FRESHET_API_KEY to require a key)');

// A signal reaches workerd too (one process group), so no last checkpoint can
// be written here: what the pipeline took in after its last automatic
// checkpoint (at most checkpoint_interval_ms ago) is not resumed.
let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  stopFeeding();
  await worker.stop().catch(() => {});
  process.exit(0);
}
// Miniflare's exit hook exits at once on a signal; take the signals over so
// that the generator stops before workerd goes.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.removeAllListeners(signal);
  process.on(signal, () => shutdown(signal));
}
