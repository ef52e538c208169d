// MicrotaskBatch: runs the callbacks queued during one turn together, in
// queue order, in ONE microtask. A step that writes to the connectors of 20
// views queues 20 pumps: one microtask for all of them rather than one each.

export class MicrotaskBatch {
  #queued = [];
  #run = () => this.#runQueued();

  /** Runs `callback` in the batch's next microtask (one is queued for the first callback only). */
  add(callback) {
    if (this.#queued.push(callback) === 1) queueMicrotask(this.#run);
  }

  #runQueued() {
    // Callbacks queued while these run (a pump delivering a next chunk) run in this microtask too.
    const queued = this.#queued;
    for (let i = 0; i < queued.length; ++i) {
      try {
        queued[i]();
      } catch (error) {
        reportLater(error);
      }
    }
    queued.length = 0;
  }
}

// A callback's error is not the other callbacks' business: thrown on its own, as from a microtask of its own.
function reportLater(error) {
  queueMicrotask(() => {
    throw error;
  });
}
