// freshet on the 20-view dashboard (dashboard20_program.mjs), two ways:
//   'one'   the 20 views in one program, one pipeline;
//   'each'  each view in a program of its own: 20 pipelines, each with both
//           tables, all on the realm's one wasm instance (the package loads
//           the engine once per JS realm, engine_loader.js);
//   'bare'  as 'one' with no outputs: the step alone, to tell the engine's
//           share of a change from the delivery's (not a way to run a
//           dashboard: nothing reaches JS; the views are read by snapshot).
// Pipelines are paused and stepped by hand; each view's changes go to a
// callbackSink that keeps a mirror of the view, so the final check tests the
// deltas themselves. Sinks are written on a microtask queued by the step:
// apply() awaits one microtask, after which every chunk of the step is in
// the mirrors (dashboard20.mjs checks that none arrives later).

import { loadFreshet } from './freshet_module.mjs';
import { PROGRAM_SQL, VIEWS, programOf } from './dashboard20_program.mjs';
import { RowMirror } from './dashboard20_mirror.mjs';
import { LOAD_CHUNK } from './workload.mjs';

const NAMES = {
  one: 'freshet, 20 views in one pipeline',
  each: 'freshet, 20 pipelines of one view (one wasm instance)',
  bare: 'freshet, one pipeline, step only (no outputs)',
};

export async function create({ mode }) {
  const freshet = await loadFreshet();
  const programs = mode !== 'each' ? [{ sql: PROGRAM_SQL, views: VIEWS }] : VIEWS.map((v) => ({ sql: programOf(v.name), views: [v] }));
  const mirrors = new Map(VIEWS.map((v) => [v.name, new RowMirror()]));
  const counts = { chunks: 0 };
  const pipelines = [];
  for (const program of programs) {
    // No memory budget: the bench measures memory, it does not bound it.
    const p = await freshet.Pipeline.create({ sql: program.sql, maxMemoryBytes: 0 });
    p.pause();
    for (const view of mode === 'bare' ? [] : program.views) {
      const mirror = mirrors.get(view.name);
      p.addOutput(view.name, {
        view: view.name,
        sink: freshet.callbackSink((chunk) => {
          counts.chunks += 1;
          mirror.apply(chunk.deletes, chunk.inserts);
        }),
      });
    }
    pipelines.push(p);
  }

  return {
    name: NAMES[mode],
    counts,
    async load(customers, orders) {
      for (const p of pipelines) {
        p.insert('customers', customers);
        p.step();
      }
      for (let start = 0; start < orders.length; start += LOAD_CHUNK) {
        const chunk = orders.slice(start, start + LOAD_CHUNK);
        for (const p of pipelines) {
          p.insert('orders', chunk);
          p.step();
        }
        await null;
      }
    },
    async apply(change) {
      for (const p of pipelines) {
        if (change.kind === 'insert') p.insert('orders', [change.order]);
        else p.ingest('orders', [{ delete: change.old }, { insert: change.order }]);
        p.step();
      }
      await null; // the sinks' microtasks, queued by the steps, run before this
    },
    settle() {
      for (const mirror of mirrors.values()) mirror.fold();
    },
    views() {
      if (mode === 'bare') return Object.fromEntries(VIEWS.map((v) => [v.name, pipelines[0].snapshot(v.name)]));
      return Object.fromEntries([...mirrors].map(([name, mirror]) => [name, mirror.rows()]));
    },
    memory() {
      return { wasmMemoryBytes: pipelines[0].stats().wasmMemoryBytes, engineStateBytes: pipelines.reduce((s, p) => s + p.stats().memoryBytes, 0) };
    },
    async close() {
      for (const p of pipelines) await p.close();
    },
  };
}
