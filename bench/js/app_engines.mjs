// The application of the user-shaped runs (user_shaped.mjs under Node,
// bench/web/ in Chromium): the orders workload's engine as the application
// holds it: `p` with insert() and step() (step() reports its own ms as
// `durationMs`), `take()` awaiting the view's next delta into `mirror`, and
// close(). Either freshet (a paused pipeline and the by_region egress
// stream, or its live view) or the plain-JS floor (plain_js.mjs, each
// change's delta handed over through a promise as a chunk is), so that both
// are driven and timed alike. No Node API here: the browser page imports it
// too.

import { DeltaMirror } from './engine.mjs';
import { create as createFloor } from './plain_js.mjs';
import { SQL } from './workload.mjs';

/** A paused pipeline whose by_region deltas feed a mirror; take() awaits the next chunk. */
export async function openFreshet(freshet) {
  const p = await freshet.Pipeline.create({ sql: SQL });
  p.pause();
  const chunks = p.egress('by_region', { sendSnapshot: false })[Symbol.asyncIterator]();
  const mirror = new DeltaMirror();
  const take = async () => {
    const { value, done } = await chunks.next();
    if (done) throw new Error('the egress iterator ended');
    mirror.apply(value.deletes, value.inserts);
  };
  return { p, mirror, take, close: () => { chunks.return(); p.close(); } };
}

/**
 * The same, following the view as UI code does (--live): p.live('by_region',
 * { key: 'region' }), what the React and Vue bindings wrap; take() awaits the
 * live view's next notification and reads its current rows, as a render
 * would.
 */
export async function openFreshetLive(freshet) {
  const pipeline = await freshet.Pipeline.create({ sql: SQL });
  pipeline.pause();
  const view = pipeline.live('by_region', { key: 'region' });
  let wake = null;
  view.subscribe(() => {
    const notified = wake;
    wake = null;
    notified?.();
  });
  let stepped = -1;  // the last step's number: take() waits for the view's rows of it
  const p = {
    insert: (table, rows) => pipeline.insert(table, rows),
    step() {
      const result = pipeline.step();
      stepped = result.step;
      return result;
    },
    stats: () => pipeline.stats(),
  };
  const mirror = new DeltaMirror();
  const take = async () => {
    // Status notifications (loading, ready) carry no changes: wait for the step's own.
    while (view.status !== 'error' && view.changes?.step !== stepped) await new Promise((resolve) => { wake = resolve; });
    if (view.status === 'error') throw view.error;
    mirror.view.clear();
    mirror.apply([], view.current);
  };
  return { p, mirror, take, close: () => { view.close(); pipeline.close(); } };
}

/**
 * The floor as the application's engine: insert() and step() as a
 * pipeline's (step() applies what was inserted and reports its own ms), its
 * delta handed to take() through a promise, as a pipeline's chunk is.
 */
export async function openFloor() {
  const floor = await createFloor();
  let pending = [];
  let delta = null;
  const p = {
    insert(table, rows) {
      if (table === 'customers') floor.load(rows, []);
      else pending = rows;
    },
    step() {
      const started = performance.now();
      if (pending.length > 1) floor.load([], pending);
      else if (pending.length === 1) delta = Promise.resolve(floor.apply({ order: pending[0] }));
      pending = [];
      return { durationMs: performance.now() - started };
    },
    stats: () => ({ memoryBytes: 0 }),
  };
  const mirror = new DeltaMirror();
  const take = async () => {
    const rows = delta ? await delta : [...floor.result()].map(([region, v]) => ({ region, ...v }));
    delta = null;
    mirror.apply([], rows);
  };
  return { p, mirror, take, close: () => {} };
}
