// The edge worker's figures, on real workerd (Miniflare) over real HTTP on
// 127.0.0.1, with the sample pipeline (web-demo/sample_pipeline.js):
//   cold start      a new Durable Object creating the pipeline; workerd
//                   restarted until the first answer; the first request to
//                   an object that resumes the pipeline from KV
//   restore         restart, then the first request to a pipeline whose
//                   checkpoint holds 200,000 orders, with the checkpoint in
//                   the Durable Object's storage (the default) and in KV
//   ingress         records/s over HTTP, batches of 1,000 and 10,000
//   egress latency  from sending one order to receiving its delta on a
//                   streaming client, p50/p99 over 300 ingests
//   input log       ingress and egress latency with the durable input log
//                   (the default) against a worker without it
//                   (FRESHET_DURABILITY=none) in the same run; restart to the
//                   first answer with 100,000 records in the log to replay
//   bundle size     the worker's modules + the package's JS + the .wasm, gzip
// Prints figures, never fails on timing. Usage:
//   node bench/edge/run.mjs [--orders 200000] [--latency-samples 300] [--log-records 100000] [--only log]

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

import { REPO_ROOT, startEdgeWorker } from '../../edge-worker/local.mjs';
import { SAMPLE_SQL, SampleGenerator } from '../../web-demo/sample_pipeline.js';

const args = Object.fromEntries(process.argv.slice(2).join(' ').split('--').filter(Boolean).map((part) => part.trim().split(/\s+/)));
const ORDERS = Number(args.orders ?? 200_000);
const LATENCY_SAMPLES = Number(args['latency-samples'] ?? 300);
const LOG_RECORDS = Number(args['log-records'] ?? 100_000);
const ONLY_LOG = args.only === 'log';  // --only log: the input log's figures alone
const persistDir = mkdtempSync(join(tmpdir(), 'freshet-edge-bench-'));
const kvPersistDir = mkdtempSync(join(tmpdir(), 'freshet-edge-bench-kv-'));
const noLogPersistDir = mkdtempSync(join(tmpdir(), 'freshet-edge-bench-nolog-'));
const NO_LOG = { FRESHET_DURABILITY: 'none' };
const KV_CHECKPOINTS = { FRESHET_CHECKPOINT_STORE: 'kv' };
const results = [];

const report = (what, value) => {
  results.push([what, value]);
  console.log(`${what.padEnd(76)} ${value}`);
};
const ms = (value) => `${value.toFixed(1)} ms`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function call(base, method, path, body) {
  const started = performance.now();
  const response = await fetch(`${base}/v0/pipelines/${path}`, {
    method, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return { body: json, ms: performance.now() - started };
}

async function waitComplete(base, pipeline, token) {
  while ((await call(base, 'GET', `${pipeline}/completion_status?token=${token}`)).body.status !== 'complete') {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const definition = { program_code: SAMPLE_SQL, checkpoint_interval_ms: 0 };

async function coldStart() {
  let worker = await startEdgeWorker({ persistDir });
  // A fresh object creating the sample pipeline (compile, checkpoint 0 to KV).
  const started = performance.now();
  await fetch(`${worker.url}/v0/pipelines/nothing-here-either`);
  report('first request to a new object without a pipeline (404)', ms(performance.now() - started));
  const created = await call(worker.url, 'PUT', 'cold', definition);
  report('cold start: PUT of the sample pipeline, first object (loads the engine)', ms(created.ms));
  const second = await call(worker.url, 'PUT', 'cold2', definition);
  report('cold start: PUT of the sample pipeline, another new object', ms(second.ms));
  const generator = new SampleGenerator({ seed: 1 });
  await call(worker.url, 'POST', 'cold/ingress/customers?update_format=raw', generator.customers());
  await waitComplete(worker.url, 'cold', (await call(worker.url, 'POST', 'cold/ingress/orders', generator.next(1000))).body.token);
  await call(worker.url, 'POST', 'cold/checkpoint');
  const warm = [];
  for (let i = 0; i < 21; i++) warm.push((await call(worker.url, 'GET', 'cold/stats')).ms);
  report('a warm request (GET stats, median of 21) for comparison', ms(warm.sort((a, b) => a - b)[10]));
  await worker.stop();

  const restarted = performance.now();
  worker = await startEdgeWorker({ persistDir });
  const ready = performance.now() - restarted;
  const first = await call(worker.url, 'GET', 'cold/stats');
  report('restart of workerd until it listens', ms(ready));
  report('first request to the resumed object (1,200 rows in KV)', ms(first.ms));
  report('restart of workerd until the first answer', ms(performance.now() - restarted));
  return worker;
}

/** `where`: 'Durable Object storage' or 'KV'; `start()` starts workerd on the same folder again. */
async function restore(worker, where, start) {
  const generator = new SampleGenerator({ seed: 2 });
  await call(worker.url, 'PUT', 'big', definition);
  await call(worker.url, 'POST', 'big/ingress/customers?update_format=raw', generator.customers());
  let token;
  generator.nextOrderId = 1;
  for (let loaded = 0; loaded < ORDERS; loaded += 10_000) {
    // Inserts only, so that the table really holds ORDERS orders.
    const batch = Array.from({ length: Math.min(10_000, ORDERS - loaded) }, (_, i) => ({ insert: generator.order(loaded + i + 1) }));
    token = (await call(worker.url, 'POST', 'big/ingress/orders', batch)).body.token;
  }
  await waitComplete(worker.url, 'big', token);
  const checkpoint = await call(worker.url, 'POST', 'big/checkpoint');
  report(`checkpoint of ${ORDERS.toLocaleString('en')} orders to ${where}`, `${ms(checkpoint.ms)}, ${(checkpoint.body.bytes / 2 ** 20).toFixed(1)} MiB`);
  await worker.stop();
  const restarted = performance.now();
  worker = await start();
  const listening = performance.now() - restarted;
  const first = await call(worker.url, 'GET', 'big/stats');
  report(`restore from ${where}: first request after restart (${ORDERS.toLocaleString('en')} orders)`, ms(first.ms));
  report('  (workerd start before it, not included)', ms(listening));
  const memory = (await call(worker.url, 'GET', 'big/stats')).body;
  report('  engine state / wasm memory after the restore (isolate limit: 128 MiB)',
         `${(memory.memory_bytes / 2 ** 20).toFixed(1)} MiB / ${(memory.wasm_memory_bytes / 2 ** 20).toFixed(0)} MiB`);
  const rows = (await call(worker.url, 'GET', 'big/query?sql=SELECT * FROM revenue_by_region')).body;
  const count = rows.reduce((sum, row) => sum + row.orders, 0);
  if (count !== ORDERS) throw new Error(`restored ${count} orders, expected ${ORDERS}`);
  return worker;
}

async function ingress(worker, label, run = '') {
  for (const batchSize of [1_000, 10_000]) {
    const pipeline = `ingress${batchSize}${run}`;
    await call(worker.url, 'PUT', pipeline, definition);
    const generator = new SampleGenerator({ seed: 3 });
    await call(worker.url, 'POST', `${pipeline}/ingress/customers?update_format=raw`, generator.customers());
    const total = batchSize === 1_000 ? 50_000 : 100_000;
    const bodies = [];
    for (let sent = 0; sent < total; sent += batchSize) bodies.push(JSON.stringify(generator.next(batchSize)));
    const started = performance.now();
    let token;
    for (const body of bodies) token = (await call(worker.url, 'POST', `${pipeline}/ingress/orders`, body)).body.token;
    await waitComplete(worker.url, pipeline, token);
    const seconds = (performance.now() - started) / 1000;
    report(`ingress over HTTP, batches of ${batchSize.toLocaleString('en')} (one client, until complete), ${label}`,
           `${Math.round(total / seconds).toLocaleString('en')} records/s`);
    rates[`${batchSize} ${label} ${run}`] = total / seconds;
  }
}
const rates = {};

async function egressLatency(worker, label) {
  await call(worker.url, 'PUT', 'latency', definition);
  const generator = new SampleGenerator({ seed: 4 });
  await call(worker.url, 'POST', 'latency/ingress/customers?update_format=raw', generator.customers());
  await waitComplete(worker.url, 'latency', (await call(worker.url, 'POST', 'latency/ingress/orders', generator.next(1000))).body.token);
  const response = await fetch(`${worker.url}/v0/pipelines/latency/egress/revenue_by_region?send_snapshot=true&backpressure=true`, { method: 'POST' });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const nextObject = async () => {
    for (;;) {
      const cut = buffer.indexOf('\r\n');
      if (cut >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const object = JSON.parse(line);
        if (object.json_data) return object;
        continue;  // a keepalive
      }
      const { value } = await reader.read();
      buffer += decoder.decode(value, { stream: true });
    }
  };
  await nextObject();  // the snapshot
  const samples = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    // A new order always changes its region's revenue: one delta per ingest.
    const started = performance.now();
    await call(worker.url, 'POST', 'latency/ingress/orders', [{ insert: generator.order(1_000_000 + i) }]);
    await nextObject();
    samples.push(performance.now() - started);
  }
  await reader.cancel();
  samples.sort((a, b) => a - b);
  report(`egress latency ingress→delta at a streaming client, p50 (${LATENCY_SAMPLES} ingests), ${label}`, ms(percentile(samples, 50)));
  report(`egress latency, p99, ${label}`, ms(percentile(samples, 99)));
  return percentile(samples, 50);
}

/**
 * The input log's cost, against a worker without it in the same run
 * (FRESHET_DURABILITY=none): egress latency, then ingress throughput, each
 * measured on both workers one after the other.
 */
async function inputLogCost(worker) {
  const noLog = await startEdgeWorker({ persistDir: noLogPersistDir, vars: NO_LOG });
  try {
    const without = await egressLatency(noLog, 'without the log');
    const withLog = await egressLatency(worker, 'with the log');
    report('  egress latency p50 with the log / without (target ≤ 2 × 3.4 ms)', `${(withLog / without).toFixed(2)} ×`);
    // Both orders (the machine's load drifts): without, with, with, without; the better of each pair counts.
    await ingress(noLog, 'without the log', 'a');
    await ingress(worker, 'with the log', 'a');
    await ingress(worker, 'with the log', 'b');
    await ingress(noLog, 'without the log', 'b');
    const best = (label) => Math.max(rates[`1000 ${label} a`], rates[`1000 ${label} b`]);
    report('  batches of 1,000, the better of two runs: with the log / without (target ≥ 50,000 records/s with it)',
           `${Math.round(best('with the log')).toLocaleString('en')} / ${Math.round(best('without the log')).toLocaleString('en')} ` +
           `records/s = ${(best('with the log') / best('without the log')).toFixed(2)} ×`);
  } finally {
    await noLog.stop();
  }
}

/**
 * Restart to the first answer with LOG_RECORDS records in the input log
 * (no checkpoint after the customers), against the same state restored from
 * a checkpoint, on the same folder.
 */
async function logReplay(worker) {
  const generator = new SampleGenerator({ seed: 5 });
  await call(worker.url, 'PUT', 'replay', definition);
  await call(worker.url, 'POST', 'replay/ingress/customers?update_format=raw', generator.customers());
  await call(worker.url, 'POST', 'replay/checkpoint');
  let token;
  for (let sent = 0; sent < LOG_RECORDS; sent += 1000) {
    const batch = Array.from({ length: Math.min(1000, LOG_RECORDS - sent) }, (_, i) => ({ insert: generator.order(sent + i + 1) }));
    token = (await call(worker.url, 'POST', 'replay/ingress/orders', batch)).body.token;
  }
  await waitComplete(worker.url, 'replay', token);
  const count = async (w) => (await call(w.url, 'GET', 'replay/query?sql=SELECT SUM(orders) AS n FROM revenue_by_region')).body[0].n;
  const firstAnswer = async () => {
    await worker.stop();
    const restarted = performance.now();
    worker = await startEdgeWorker({ persistDir });
    await call(worker.url, 'GET', 'replay/stats');
    return performance.now() - restarted;
  };
  const replayed = await firstAnswer();
  if ((await count(worker)) !== LOG_RECORDS) throw new Error(`replayed ${await count(worker)} orders, expected ${LOG_RECORDS}`);
  report(`restart until the first answer, ${LOG_RECORDS.toLocaleString('en')} records in the log to replay`, ms(replayed));
  await call(worker.url, 'POST', 'replay/checkpoint');
  const restored = await firstAnswer();
  report('  the same state from a checkpoint, no log (baseline)', ms(restored));
  await call(worker.url, 'DELETE', 'replay');
  return worker;
}

/** Every module the worker entry imports, transitively (relative imports only: that is all it has). */
function workerModules(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith('.js') && !file.endsWith('.mjs')) return;
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]/g)) {
      if (specifier) visit(resolve(dirname(file), specifier));
    }
  };
  visit(entry);
  return [...seen];
}

function bundleSize() {
  const files = workerModules(join(REPO_ROOT, 'edge-worker/worker.js'));
  let raw = 0;
  let gzipped = 0;
  const parts = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
    parts.push(bytes);
  }
  const wasm = files.find((file) => file.endsWith('.wasm'));
  const wasmGzip = gzipSync(readFileSync(wasm), { level: 9 }).length;
  const whole = gzipSync(Buffer.concat(parts), { level: 9 }).length;
  const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
  report(`bundle: ${files.length} modules (${files.filter((f) => f.includes('/edge-worker/')).length} of the worker, the package, the .wasm)`,
         `${kib(raw)} raw`);
  report('bundle gzip (each module, summed) / one gzip stream', `${kib(gzipped)} / ${kib(whole)}`);
  report('  of which the .wasm, gzip', kib(wasmGzip));
  report('bundle against the free plan limit of 3 MiB compressed', `${((whole / (3 * 2 ** 20)) * 100).toFixed(0)} % of it`);
  console.log(files.map((file) => `    ${relative(REPO_ROOT, file)}`).join('\n'));
}

try {
  if (!ONLY_LOG) bundleSize();
  let worker = ONLY_LOG ? await startEdgeWorker({ persistDir }) : await coldStart();
  await inputLogCost(worker);
  worker = await logReplay(worker);
  if (!ONLY_LOG) worker = await restore(worker, 'Durable Object storage', () => startEdgeWorker({ persistDir }));
  await worker.stop();
  if (!ONLY_LOG) {
    const kvWorker = await startEdgeWorker({ persistDir: kvPersistDir, vars: KV_CHECKPOINTS });
    await (await restore(kvWorker, 'KV', () => startEdgeWorker({ persistDir: kvPersistDir, vars: KV_CHECKPOINTS }))).stop();
  }
} finally {
  for (const dir of [persistDir, kvPersistDir, noLogPersistDir]) rmSync(dir, { recursive: true, force: true });
}
