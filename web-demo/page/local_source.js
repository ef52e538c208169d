// LocalSource: the dashboard's data from the engine in our own Web Worker
// (engine_worker.js). Calls are messages answered by id; chunks, status,
// program and reset progress arrive unasked and go to the handlers.

export class LocalSource {
  kind = 'local';
  capabilities = { rate: true, sql: true, reset: true, step: true, checkpoint: true, latency: true };
  #worker;
  #calls = new Map();
  #nextId = 1;

  /** @param {{ onChunk, onStatus, onProgram, onReset, onError }} handlers */
  constructor(handlers) {
    // index.html starts the worker early; it says nothing until asked to start.
    this.#worker = window.freshetWorker ?? new Worker(new URL('../engine_worker.js', import.meta.url), { type: 'module' });
    this.#worker.onmessage = ({ data }) => {
      if (data.id !== undefined) {
        const call = this.#calls.get(data.id);
        this.#calls.delete(data.id);
        if (data.error) call.reject(Object.assign(new Error(data.error.message), data.error));
        else call.resolve(data.result);
        return;
      }
      if (data.type === 'chunk') handlers.onChunk(data.view, data.chunk, data.ingestedAt);
      else if (data.type === 'status') handlers.onStatus(data.status);
      else if (data.type === 'program') handlers.onProgram(data);
      else if (data.type === 'reset') handlers.onReset(data);
      else if (data.type === 'error') handlers.onError(data.message);
    };
    this.#worker.onerror = (event) => handlers.onError(`the engine worker failed: ${event.message ?? 'unknown error'}`);
  }

  call(method, ...args) {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      this.#worker.postMessage({ id, method, args });
    });
  }

  start(options) {
    return this.call('start', options);
  }
}
