// Memory stays flat over a long run: 100,000 steps with an egress consumer
// and a connector attached; the wasm heap (and the JS heap) do not grow after warm-up, and
// closing the pipeline leaves no live Embind handle behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';

import { MapSink, Pipeline } from 'freshet';

import { ORDERS_SQL, bag } from './support.mjs';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

function jsHeapUsed() {
  gc();
  return process.memoryUsage().heapUsed;
}

const STEPS = 100_000;
const WARM_UP = 5_000;
const KEYS = 50;  // the view's state is bounded: orders cycle through a few ids

test(`the wasm heap stays flat over ${STEPS} steps with an egress consumer`, async () => {
  const p = await Pipeline.create({ sql: ORDERS_SQL });
  p.pause();
  const mirror = new MapSink();
  p.addOutput('mirror', { view: 'by_region', sendSnapshot: true, sink: mirror });
  p.insert('customers', Array.from({ length: 10 }, (_, id) => ({ id, region: `r${id % 4}` })));
  const changes = p.egress('by_region', { sendSnapshot: true });
  let chunks = 0;
  let heapAfterWarmUp = 0;
  let stateAfterWarmUp = 0;
  let jsHeapAfterWarmUp = 0;
  for (let i = 0; i < STEPS; ++i) {
    // Odd steps delete the order the step before inserted: every step changes the view.
    const id = Math.floor(i / 2) % KEYS;
    if (i % 2) p.delete('orders', { id });
    else p.insert('orders', { id, customer: id % 10, amount: 1 + (i % 100) });
    // Half of the time the consumer is already waiting when the step runs.
    const next = i % 2 ? changes.next() : null;
    p.step();
    // The view changes at every step, so exactly one chunk comes.
    const { value } = await (next ?? changes.next());
    chunks += value.inserts.length + value.deletes.length > 0 ? 1 : 0;
    if (i === WARM_UP) {
      heapAfterWarmUp = p.stats().wasmMemoryBytes;
      stateAfterWarmUp = p.stats().memoryBytes;
      jsHeapAfterWarmUp = jsHeapUsed();
    }
  }
  const stats = p.stats();
  const jsHeap = jsHeapUsed();
  console.log(`wasm heap ${heapAfterWarmUp} → ${stats.wasmMemoryBytes} bytes; engine state ${stateAfterWarmUp} → ` +
              `${stats.memoryBytes} bytes; JS heap ${jsHeapAfterWarmUp} → ${jsHeap} bytes`);
  // 20 bytes kept per step would be 2 MB: JS keeps nothing per step either.
  assert.ok(jsHeap < jsHeapAfterWarmUp + 2_000_000, 'the JS heap grew');
  assert.equal(chunks, STEPS);
  assert.equal(stats.outputs.mirror.queuedChunks, 0);  // the connector kept up
  assert.deepEqual(bag(mirror.rows()), bag(p.snapshot('by_region')));
  assert.equal(stats.wasmMemoryBytes, heapAfterWarmUp);
  assert.ok(stats.memoryBytes < 4 * stateAfterWarmUp + 65536, `engine state grew: ${stateAfterWarmUp} → ${stats.memoryBytes}`);
  changes.close();
  p.close();
});

test('create and close many pipelines: no Embind handle or heap growth is left behind', async () => {
  const first = await Pipeline.create({ sql: ORDERS_SQL });
  first.close();
  const { loadEngineModule } = await import('../../wasm-bindings/js/engine_loader.js');
  const module = await loadEngineModule();
  const handles = module.count_emval_handles();
  const engines = module.liveEngines();
  const heap = module.wasmMemoryBytes();
  for (let i = 0; i < 200; ++i) {
    const p = await Pipeline.create({ sql: ORDERS_SQL });
    const changes = p.egress('by_region', { sendSnapshot: true });
    p.insert('customers', { id: 1, region: 'north' });
    p.step();
    await changes.next();
    if (i % 2) changes.close();  // p.close() frees an open stream too
    p.close();
  }
  await assert.rejects(Pipeline.create({ sql: 'CREATE TABLE' }), { code: 'SQL_ERROR' });  // the failed engine is freed
  assert.equal(module.count_emval_handles(), handles);
  assert.equal(module.liveEngines(), engines);
  assert.equal(module.wasmMemoryBytes(), heap);
});

test('a pipeline dropped without close() frees its engine once collected', async () => {
  const { loadEngineModule } = await import('../../wasm-bindings/js/engine_loader.js');
  const module = await loadEngineModule();
  const before = module.liveEngines();
  for (let i = 0; i < 20; ++i) await Pipeline.create({ sql: ORDERS_SQL });
  assert.equal(module.liveEngines(), before + 20);
  for (let i = 0; i < 20 && module.liveEngines() > before; ++i) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(module.liveEngines(), before);
});
