// OrderFeed: the sample stream of orders (sample_pipeline.js) ingested into
// the pipeline at a chosen rate, in batches on a timer.
//
// - Rate: records per second; each tick ingests what the elapsed time calls
//   for (at most one second's worth, so a stalled tab does not flood).
// - Retention: only the newest MAX_LIVE_ORDERS orders stay; older ones are
//   deleted, so that a dashboard left open all day keeps a bounded state.
// - Hold: nothing is ingested while held (a checkpoint being written, a
//   mirror check): the generator's position then matches the engine's input.
// - Latency: each ingest notes when it happened for the step that will take
//   it (the pipeline's next step takes all buffered input), so a chunk of
//   step s can say when its oldest input arrived.

import { SampleGenerator } from '../sample_pipeline.js';

const TICK_MS = 50;
export const MAX_LIVE_ORDERS = 200_000;

export class OrderFeed {
  #pipeline;
  #generator;
  #seed;
  #timer = null;
  #last = 0;
  #holds = 0;
  #ingestedAt = new Map();  // step → epoch ms of the first ingest that step takes
  #window = [];             // [epoch ms, records] of recent ingests, for the measured rate
  rate;
  lastToken = null;

  /**
   * @param {import('../../wasm-bindings/js/index.js').Pipeline} pipeline
   * @param {{ rate: number, seed: number, position?: { nextOrderId: number, live: number[] } | null }} options
   */
  constructor(pipeline, { rate, seed, position = null }) {
    this.#pipeline = pipeline;
    this.#seed = seed;
    this.#generator = new SampleGenerator({ seed });
    if (position) {
      this.#generator.nextOrderId = position.nextOrderId;
      this.#generator.live = position.live;
    }
    this.rate = rate;
  }

  /** The customers, once, for a pipeline that starts empty. */
  insertCustomers() {
    this.lastToken = this.#pipeline.insert('customers', this.#generator.customers());
  }

  /** Where the stream stands: enough to continue it after a reload. */
  position() {
    return { seed: this.#seed, nextOrderId: this.#generator.nextOrderId, live: [...this.#generator.live] };
  }

  get liveOrders() {
    return this.#generator.live.length;
  }

  start() {
    if (this.#timer) return;
    this.#last = performance.now();
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
  }

  stop() {
    clearInterval(this.#timer);
    this.#timer = null;
  }

  get running() {
    return this.#timer !== null;
  }

  /** Holds ingestion until the returned function is called. */
  hold() {
    ++this.#holds;
    let released = false;
    return () => {
      if (!released) --this.#holds;
      released = true;
    };
  }

  get held() {
    return this.#holds > 0;
  }

  /** Ingests `count` records now (a single step's worth when paused). */
  ingest(count) {
    // stats().step counts the steps run, which is the number the next step
    // will carry (chunk.step): the step that takes this input.
    const step = this.#pipeline.stats().step;
    const now = performance.timeOrigin + performance.now();
    if (!this.#ingestedAt.has(step)) this.#ingestedAt.set(step, now);
    for (const old of this.#ingestedAt.keys()) {
      if (old > step - 1000) break;
      this.#ingestedAt.delete(old);
    }
    const records = this.#generator.next(count);
    this.lastToken = this.#pipeline.ingest('orders', records);
    const live = this.#generator.live;
    if (live.length > MAX_LIVE_ORDERS) {
      // A separate call: the generator may have touched these ids in this batch.
      const expired = live.splice(0, live.length - MAX_LIVE_ORDERS);
      this.lastToken = this.#pipeline.ingest('orders', expired.map((id) => ({ delete: { id } })));
    }
    this.#window.push([now, count]);
  }

  /** Epoch ms of the first ingest taken by `step` (undefined when none was noted). */
  ingestedAt(step) {
    return this.#ingestedAt.get(step);
  }

  /** Records per second over the last two seconds. */
  measuredRate() {
    const now = performance.timeOrigin + performance.now();
    while (this.#window.length && this.#window[0][0] < now - 2000) this.#window.shift();
    return this.#window.reduce((sum, [, n]) => sum + n, 0) / 2;
  }

  #tick() {
    const now = performance.now();
    if (this.#holds > 0) return;  // elapsed time accrues: the next tick catches up
    const due = Math.min(this.rate, (this.rate * (now - this.#last)) / 1000);
    const count = Math.floor(due);
    if (count === 0) return;
    this.#last = now - ((due - count) * 1000) / this.rate;  // keep the fraction
    this.ingest(count);
  }
}
