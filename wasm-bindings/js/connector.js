// Connector: the JS half of an output connector — it hands the chunks the
// core wrote (through the facade's JsSink) to the user's sink, one at a time
// and in order, and tells the core once each is written.
//
// ## Design
// The core keeps a chunk queued until it is acknowledged and offers the next
// one only after that, so nothing is lost whatever the sink does:
//   write resolves  → acknowledge → the core offers the next chunk
//   write rejects   → counted as an error, retried (backoff 10 ms … 1 s)
// Writes and resets run on one promise chain per connector, so a sink never
// sees two calls at once. A reset (or removal) starts a new generation: the
// chunks of older generations are abandoned (the core dropped them) and
// never acknowledged.

const FIRST_RETRY_MS = 10;
const LAST_RETRY_MS = 1000;

export class Connector {
  #chain = Promise.resolve();
  #generation = 0;
  #stopped = false;
  #wakeRetry = null;        // ends a backoff wait early (reset, removal, close)
  #resetWaiters = [];       // resolved once the snapshot after a reset is written

  /**
   * @param {string} name
   * @param {{ view: string, index?: string, sendSnapshot: boolean }} config
   * @param {{ write: Function, reset?: Function }} sink
   * @param {(sequenceNumber: number) => void} acknowledge tells the core a chunk is written
   */
  constructor(name, config, sink, acknowledge) {
    this.name = name;
    this.config = config;
    this.sink = sink;
    this.acknowledge = acknowledge;
    this.errors = 0;
    this.lastError = null;
  }

  /** Queues one chunk the core wrote to this connector. */
  deliver(chunk) {
    const generation = this.#generation;
    this.#chain = this.#chain.then(() => this.#write(chunk, generation)).catch(this.#noteError);
  }

  /** After the core reset the connector: wipes the sink, then resolves once the fresh snapshot is written. */
  reset() {
    const generation = ++this.#generation;
    this.#wakeRetry?.();
    const written = new Promise((resolve, reject) => this.#resetWaiters.push({ resolve, reject }));
    this.#chain = this.#chain.then(() => this.#retry(() => this.sink.reset(), generation)).catch(this.#noteError);
    return written;
  }

  /** Removal or close: abandons what is in flight; pending resets fail with `error`. */
  stop(error) {
    this.#stopped = true;
    ++this.#generation;
    this.#wakeRetry?.();
    for (const waiter of this.#resetWaiters.splice(0)) waiter.reject(error);
  }

  // The chain must never reject, or the chunks after it would be skipped.
  #noteError = (error) => {
    ++this.errors;
    this.lastError = error instanceof Error ? error.message : String(error);
  };

  async #write(chunk, generation) {
    if (!(await this.#retry(() => this.sink.write(chunk), generation))) return;
    this.acknowledge(chunk.sequenceNumber);
    if (chunk.snapshotComplete) for (const waiter of this.#resetWaiters.splice(0)) waiter.resolve();
  }

  // Calls `attempt` until it succeeds; false when the generation moved on first.
  async #retry(attempt, generation) {
    for (let delay = FIRST_RETRY_MS; ; delay = Math.min(delay * 2, LAST_RETRY_MS)) {
      if (this.#stopped || generation !== this.#generation) return false;
      try {
        await attempt();
        return !this.#stopped && generation === this.#generation;
      } catch (error) {
        this.#noteError(error);
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.#wakeRetry = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wakeRetry = null;
    }
  }
}
