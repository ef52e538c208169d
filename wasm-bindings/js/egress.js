// EgressStream: the async iterator p.egress() returns — one consumer of a
// view's changes, pulling chunks the core queued for it.
//
// Chunks stay in the core's queue until next() takes them, one per call, so
// the endpoint's lag policy (block, coalesce, drop; maxQueuedChunks) sees how
// far behind this consumer really is. close(), return() (a `break` out of
// `for await`) and p.close() release the core's endpoint.

import { errorOf } from './errors.js';
import { parseChunk } from './chunks.js';

export class EgressStream {
  #id;
  #shape;
  #hooks;
  #closed = false;
  #waiting = new Set();     // wakes next() calls waiting for a step, when close() runs

  /**
   * @param {number} id the engine's egress id
   * @param {import('./chunks.js').ChunkShape} shape
   * @param {{ engine: () => any, nextChunk: (id: number, columns: object[]) => object | string | null, nextStep: () => Promise<void>, taken: () => void }} hooks
   *   engine() returns the open engine (throws CLOSED after p.close()), nextChunk()
   *   the engine's next chunk, read already or as text ('' none, null failed; EngineFastPath.nextChunkOrText),
   *   nextStep() settles after the next step, taken() runs after a chunk left the queue
   */
  constructor(id, shape, hooks) {
    this.#id = id;
    this.#shape = shape;
    this.#hooks = hooks;
  }

  /** The egress id, as p.stats().egress names this stream. */
  get id() {
    return this.#id;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  // Not an async function: a change's chunk is usually queued already, and
  // an async function's frame object is most of what a call would leave to
  // the young-generation collector (see row_chunk.js). Errors still come as
  // a rejected promise, never thrown.
  next() {
    try {
      const result = this.#take();
      if (result) return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#nextAfterSteps();
  }

  // The next result when there is one now (a chunk, or done); undefined when
  // next() must wait for a step.
  #take() {
    if (this.#closed) return { done: true, value: undefined };
    const chunk = this.#hooks.nextChunk(this.#id, this.#shape.columns);
    if (chunk === null) throw errorOf(this.#hooks.engine().lastError());
    if (!chunk) return undefined;
    this.#hooks.taken();
    return { done: false, value: typeof chunk === 'string' ? parseChunk(chunk, this.#shape) : chunk };
  }

  async #nextAfterSteps() {
    for (;;) {
      let wake;
      const woken = new Promise((resolve, reject) => {
        wake = resolve;
        this.#hooks.nextStep().then(resolve, reject);
      });
      this.#waiting.add(wake);
      try {
        await woken;
      } finally {
        this.#waiting.delete(wake);
      }
      const result = this.#take();
      if (result) return result;
    }
  }

  async return() {
    this.close();
    return { done: true, value: undefined };
  }

  /** Stops the stream and frees its queue; later next() calls are done. Idempotent. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    for (const wake of this.#waiting) wake();
    let engine = null;
    try {
      engine = this.#hooks.engine();
    } catch {
      return;  // the pipeline closed first and freed every stream
    }
    engine.closeEgress(this.#id);
    this.#hooks.taken();  // a blocked pipeline may step again
  }
}
