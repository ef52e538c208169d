// MicrotaskBatch: runs the callbacks queued during one turn together, in
// queue order, in ONE microtask. A step that writes to the connectors of 20
// views queues 20 pumps: one microtask for all of them rather than one each.

// The microtask is a reaction to a settled promise, not queueMicrotask():
// Node's queueMicrotask() makes an AsyncResource a call, an object whose
// shape lives only while a microtask is queued, and V8's optimized step
// code, which inlines it, was thrown away once that shape was collected
// (a couple of major collections without a step, as after warmUp()). A
// reaction allocates less, and runs in the same order; #runQueued() throws
// nothing (each callback's error is reported on its own), so an error
// cannot turn into a rejection.
const SETTLED = Promise.resolve();

export class MicrotaskBatch {
  #queued = [];
  #run = () => this.#runQueued();

  /** Runs `callback` in the batch's next microtask (one is queued for the first callback only). */
  add(callback) {
    if (this.#queued.push(callback) === 1) SETTLED.then(this.#run);
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
