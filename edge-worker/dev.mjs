// `npm start`: the edge worker on http://127.0.0.1:8787 (PORT overrides) in
// real workerd, with the built-in sample pipeline 'demo' (web-demo/
// sample_pipeline.js) created if missing, resumed if present, and fed by its
// order generator over HTTP so that views and the dashboard keep moving.
// State lives in build/edge-state/ (FRESHET_EDGE_STATE overrides), locked
// while it runs (state_lock.mjs: a second `npm start` on the folder fails at
// once). Ctrl-C (SIGINT), SIGTERM or SIGHUP stop gracefully (graceful_stop.mjs):
// the generator first, then every pipeline takes a last checkpoint, then
// workerd; starting again resumes with nothing lost.
//
// Environment: PORT (8787), FRESHET_DEMO_RATE (orders a second, 200; 0 stops
// the generator), FRESHET_EDGE_STATE (the persistence folder),
// FRESHET_API_KEY (the API keys, comma-separated: without it the API on
// loopback needs no key; with it every client, this generator and the
// dashboard included, sends `Authorization: Bearer <key>`),
// FRESHET_STOP_TIMEOUT_MS (how long the last checkpoints may take, 15000).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

import { SAMPLE_PIPELINE_NAME, SAMPLE_SQL, SampleGenerator } from '../web-demo/sample_pipeline.js';
import { STOP_TIMEOUT_MS, onStopSignals, shutDownPipelines } from './graceful_stop.mjs';
import { REPO_ROOT, startEdgeWorker, workerVarsFromEnv } from './local.mjs';
import { StateFolderLocked } from './state_lock.mjs';

const port = Number(process.env.PORT ?? 8787);
const rate = Number(process.env.FRESHET_DEMO_RATE ?? 200);
const persistDir = process.env.FRESHET_EDGE_STATE ?? join(REPO_ROOT, 'build/edge-state');
const TICKS_PER_SECOND = 4;
const stopTimeoutMs = Number(process.env.FRESHET_STOP_TIMEOUT_MS ?? STOP_TIMEOUT_MS);
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

/** Feeds orders; returns a stop() that resolves once the request in flight, if any, is answered. */
function feed(base, generator) {
  if (!(rate > 0)) return async () => {};
  const perTick = Math.max(1, Math.round(rate / TICKS_PER_SECOND));
  let inFlight = null;
  const timer = setInterval(() => {
    if (inFlight) return;  // the worker is behind: skip a tick rather than pile up requests
    inFlight = call(base, 'POST', '/ingress/orders?array=true', generator.next(perTick)).then((answer) => {
      if (answer.status !== 200) console.error('generator: ingest failed:', JSON.stringify(answer.body));
    }, (error) => console.error('generator:', error.message)).finally(() => (inFlight = null));
  }, 1000 / TICKS_PER_SECOND);
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}

mkdirSync(persistDir, { recursive: true });
let worker;
try {
  worker = await startEdgeWorker({ persistDir, port, apiKey, detached: true, vars: workerVarsFromEnv() });
} catch (error) {
  if (!(error instanceof StateFolderLocked)) throw error;
  console.error(`npm start: ${error.message}`);
  process.exit(1);
}
if (worker.staleLock) {
  console.log(`took over the state folder from process ${worker.staleLock.pid}, which had ended without releasing it` +
              `${worker.staleLock.workerdPid ? ` (its workerd ${worker.staleLock.workerdPid} was stopped if still running)` : ''}`);
}
const generator = await ensureDemo(worker.url);
const stopFeeding = feed(worker.url, generator);
console.log(`Freshet edge worker on ${worker.url}  (state in ${persistDir})`);
console.log(`  dashboard:  ${worker.url}/web-demo/index.html`);
console.log(`  API:        ${worker.url}/v0/pipelines/${SAMPLE_PIPELINE_NAME}/stats`);
console.log(`  generator:  ${rate > 0 ? `${rate} orders/s` : 'off'} (FRESHET_DEMO_RATE); Ctrl-C stops`);
console.log(apiKey
  ? '  API keys:   required (FRESHET_API_KEY): send Authorization: Bearer <key>; the dashboard asks for one'
  : '  API keys:   none — the API is open to anyone who can reach this port (set FRESHET_API_KEY to require a key)');

// Ctrl-C reaches the whole process group, but not workerd, which runs in a
// session of its own (local.mjs): it answers the last checkpoints, then
// stop() kills it.
async function shutdown(signal) {
  const started = Date.now();
  console.log(`${signal}: stopping (last checkpoints, at most ${stopTimeoutMs} ms; again to stop at once)`);
  // Whatever hangs (the generator's request, workerd itself), the stop is bounded;
  // exiting kills workerd (Miniflare's exit hook).
  setTimeout(() => {
    console.error('  the stop took too long: stopping at once');
    process.exit(1);
  }, stopTimeoutMs + 5_000).unref();
  await stopFeeding();
  let status = 0;
  try {
    for (const { name, ok, answer } of await shutDownPipelines(worker.url, { headers: authorization, timeoutMs: stopTimeoutMs })) {
      if (ok) console.log(`  pipeline '${name}': ${answer.checkpointed ? `checkpoint at step ${answer.step}` : 'stopped, nothing to save'}` +
                          `${answer.checkpointed && !answer.flushed ? ' (connectors not all flushed: they resume from the checkpoint)' : ''}`);
      else console.error(`  pipeline '${name}': no last checkpoint: ${typeof answer === 'string' ? answer : JSON.stringify(answer)}`);
      if (!ok) status = 1;
    }
  } catch (error) {
    console.error(`  no last checkpoints: ${error.message}`);
    status = 1;
  }
  await worker.stop().catch(() => {});
  console.log(`stopped in ${Date.now() - started} ms`);
  process.exit(status);
}
onStopSignals(shutdown);
