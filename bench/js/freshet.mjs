// freshet through its JS API (docs/js-api.md): one paused pipeline, stepped by
// hand so a change is timed from the write to the view's delta arriving on
// the egress iterator. Deltas feed a DeltaMirror, so the final check tests
// the deltas themselves.

import { DeltaMirror, settle } from './engine.mjs';
import { loadFreshet, SQL } from './freshet_module.mjs';
import { LOAD_CHUNK } from './workload.mjs';

// With `warmUp`, the package's warmUp() runs first (run.mjs --warm-up; a
// stand-in without one skips it).
export async function create({ warmUp = false } = {}) {
  const freshet = await loadFreshet();
  const warmUpMs = warmUp && freshet.warmUp ? (await freshet.warmUp()).ms : undefined;
  const pipeline = await freshet.Pipeline.create({ sql: SQL });
  pipeline.pause(); // steps only when we say, so each timed change is one step
  // Opened before any input: the deltas alone rebuild the whole view.
  const changes = pipeline.egress('by_region', { sendSnapshot: false });
  const chunks = changes[Symbol.asyncIterator]();
  const mirror = new DeltaMirror();

  // One step, then its chunk. A step that leaves the view unchanged yields no
  // chunk at all, so waiting for one then would hang: the workload says which.
  async function stepAndTakeDelta(expectDelta) {
    await settle(pipeline.step());
    if (!expectDelta) return null;
    const { value: chunk, done } = await chunks.next();
    if (done) throw new Error('freshet: the egress iterator ended');
    mirror.apply(chunk.deletes, chunk.inserts);
    return chunk;
  }

  return {
    name: freshet.FAKE ? 'freshet (FAKE stand-in, not the engine)' : 'freshet',
    warmUpMs,
    async load(customers, orders) {
      pipeline.insert('customers', customers);
      await settle(pipeline.step()); // no orders yet: the join is empty, no chunk
      for (let start = 0; start < orders.length; start += LOAD_CHUNK) {
        pipeline.insert('orders', orders.slice(start, start + LOAD_CHUNK));
        await stepAndTakeDelta(true);
      }
    },
    // The whole old row is deleted, which is right whether or not the table
    // treats an insert of an existing key as an upsert.
    apply(change) {
      if (change.kind === 'insert') pipeline.insert('orders', [change.order]);
      else pipeline.ingest('orders', [{ delete: change.old }, { insert: change.order }]);
      return stepAndTakeDelta(change.changesView);
    },
    result() {
      return new Map([...mirror.view].map(([k, v]) => [k, { ...v }]));
    },
    memory() {
      return { freshetMemoryBytes: pipeline.stats().memoryBytes };
    },
    close() {
      changes.close();
      pipeline.close();
    },
  };
}
