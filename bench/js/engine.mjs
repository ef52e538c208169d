// What run.mjs expects of an engine module, and a helper the delta-producing
// engines share.
//
// An engine module exports `async function create(options)` (options:
// `{ warmUp }`, run.mjs --warm-up; an engine with no warm-up ignores it)
// returning:
//   {
//     name: string,
//     warmUpMs?: number  // how long the warm-up that create() ran took, if any
//     load(customers, orders): void | Promise<void>
//         // customers first, then orders in LOAD_CHUNK steps; returns once
//         // the view is up to date (timed as the load)
//     apply(change): delta | Promise<delta>
//         // one Change of workload.mjs; returns once the view's delta (or,
//         // for an engine that recomputes, its new result) is in JS hands
//     result(): ViewResult | Promise<ViewResult>   // the view now
//     memory?(): { [label]: bytes }                 // the engine's own accounting
//     close?(): void | Promise<void>
//   }
// apply() is awaited only when it returns a promise, so a synchronous engine
// is not charged a microtask per change.

/**
 * A view kept in JS from deltas: deletes first, then inserts, as rows
 * `{ region, orders, total }`. Engines that hand out deltas keep one of these
 * so result() checks the deltas themselves, not a separate query.
 */
export class DeltaMirror {
  constructor() {
    /** @type {import('./workload.mjs').ViewResult} */
    this.view = new Map();
  }

  apply(deletes, inserts) {
    for (const row of deletes) this.view.delete(row.region);
    for (const row of inserts) this.view.set(row.region, { orders: Number(row.orders), total: Number(row.total) });
  }
}

/** Thrown by create() when the engine cannot be had here (its package is not installed): the runner skips it. */
export class EngineUnavailable extends Error {}

/** Awaits `value` only when it is a promise, so synchronous APIs stay synchronous in timed code. */
export function settle(value) {
  return value !== null && typeof value === 'object' && typeof value.then === 'function' ? value : undefined;
}
