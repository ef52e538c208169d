// Connector: the JS half of an output connector — it hands the chunks the
// core wrote (through the facade's JsSink) to the user's sink, one at a time
// and in order, and tells the core once each is written.
//
// ## Design
// The core keeps a chunk queued until it is acknowledged and offers the next
// one only after that, so nothing is lost whatever the sink does:
//   write returns or resolves → acknowledge → the core offers the next chunk
//   write throws or rejects   → counted as an error, retried (backoff 10 ms … 1 s)
// Writes and resets are jobs run in order by one pump per connector, so a
// sink never sees two calls at once. The pump starts in a microtask (a sink
// is never called from inside p.step()), the one microtask the pipeline's
// connectors share (MicrotaskBatch), and runs synchronous writes back to
// back with no Promise at all, so a fast sink keeps up with a tight loop of
// steps and a step's writes to many views cost little more than the sinks'
// own work. Only an asynchronous write (or a retry) makes the pump wait. A reset (or
// removal) starts a new generation: jobs of older generations are abandoned
// (the core dropped those chunks) and never acknowledged.

const FIRST_RETRY_MS = 10;
const LAST_RETRY_MS = 1000;

export class Connector {
  #jobs = [];               // { chunk (null: a reset), generation }
  #pumping = false;
  #schedule;                // runs a callback in a microtask (MicrotaskBatch.add)
  #pump = () => this.#runJobs();
  #generation = 0;
  #stopped = false;
  #wakeRetry = null;        // ends a backoff wait early (reset, removal, close)
  #resetWaiters = [];       // resolved once the snapshot after a reset is written

  /**
   * @param {string} name
   * @param {{ view: string, index?: string, sendSnapshot: boolean, shape: object }} config
   * @param {{ write: Function, reset?: Function }} sink
   * @param {(sequenceNumber: number) => void} acknowledge tells the core a chunk is written
   * @param {(callback: () => void) => void} schedule runs a callback in a microtask
   */
  constructor(name, config, sink, acknowledge, schedule) {
    this.#schedule = schedule;
    this.name = name;
    this.config = config;
    this.sink = sink;
    this.acknowledge = acknowledge;
    this.errors = 0;
    this.lastError = null;
  }

  /** A write or reset is queued or in flight (close() waits for none to be left). */
  get busy() {
    return this.#pumping || this.#jobs.length > 0;
  }

  /** A reset waits for its fresh snapshot to be written. */
  get resetPending() {
    return this.#resetWaiters.length > 0;
  }

  /** Queues one chunk the core wrote to this connector. */
  deliver(chunk) {
    this.#enqueue(chunk);
  }

  /** After the core reset the connector: wipes the sink, then resolves once the fresh snapshot is written. */
  reset() {
    ++this.#generation;
    this.#wakeRetry?.();
    const written = new Promise((resolve, reject) => this.#resetWaiters.push({ resolve, reject }));
    this.#enqueue(null);
    return written;
  }

  /** Wipes the sink before anything queued after this call (a connector that changed since the checkpoint). */
  wipe() {
    this.#enqueue(null);
  }

  /** Removal or close: abandons what is queued or in flight; pending resets fail with `error`. */
  stop(error) {
    this.#stopped = true;
    ++this.#generation;
    this.#jobs.length = 0;
    this.#wakeRetry?.();
    for (const waiter of this.#resetWaiters.splice(0)) waiter.reject(error);
  }

  /** A failed pipeline steps no more: resets waiting for a snapshot fail with `error`. */
  abandonResets(error) {
    for (const waiter of this.#resetWaiters.splice(0)) waiter.reject(error);
  }

  // `chunk` null: a reset of the sink.
  #enqueue(chunk) {
    this.#jobs.push({ chunk, generation: this.#generation });
    if (this.#pumping) return;
    this.#pumping = true;
    this.#schedule(this.#pump);
  }

  // Runs the jobs in order, synchronous ones back to back; an asynchronous
  // one (or a retry) continues the run once it settled.
  #runJobs() {
    while (this.#jobs.length) {
      const job = this.#jobs.shift();
      const call = job.chunk ? () => this.sink.write(job.chunk) : () => this.sink.reset();
      const done = this.#attempt(call, job.generation, FIRST_RETRY_MS);
      if (typeof done !== 'boolean') {
        done.then((written) => {
          this.#finish(job, written);
          this.#runJobs();
        });
        return;
      }
      this.#finish(job, done);
    }
    this.#pumping = false;
  }

  // After a job: a written chunk is acknowledged (which may queue the next
  // chunk: the run takes it), and a snapshot ends the resets waiting for it.
  #finish(job, done) {
    if (!done || !job.chunk) return;
    try {
      this.acknowledge(job.chunk.sequenceNumber);
      if (job.chunk.snapshotComplete) for (const waiter of this.#resetWaiters.splice(0)) waiter.resolve();
    } catch (error) {
      this.#noteError(error);
    }
  }

  // Calls `call` until it succeeds: true once it did, false when the
  // generation moved on first; a Promise of that when `call` is async or failed.
  #attempt(call, generation, delay) {
    if (this.#stopped || generation !== this.#generation) return false;
    try {
      const result = call();
      if (typeof result?.then !== 'function') return true;
      return Promise.resolve(result).then(
        () => !this.#stopped && generation === this.#generation,
        (error) => this.#retryAfter(error, call, generation, delay));
    } catch (error) {
      return this.#retryAfter(error, call, generation, delay);
    }
  }

  async #retryAfter(error, call, generation, delay) {
    this.#noteError(error);
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.#wakeRetry = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.#wakeRetry = null;
    return this.#attempt(call, generation, Math.min(delay * 2, LAST_RETRY_MS));
  }

  #noteError(error) {
    ++this.errors;
    this.lastError = error instanceof Error ? error.message : String(error);
  }
}
