// When a pipeline checkpoints by itself: once `intervalSteps` steps ran since
// the last checkpoint, or `intervalMs` after the first step that is not yet in
// one (0 turns either off). The Durable Object calls poke() after anything
// that may have led to a step (ingress, /step, a replace); poke() looks one
// timer turn later, after the package's automatic step has run.
//
// Input that arrives after the last checkpoint is in the object's input log
// (pipeline_storage.js), replayed after a restart: the intervals bound how
// much a restart replays and how long the log grows, not what is lost.

export class AutoCheckpoint {
  #pipeline;
  #write;
  #intervalMs;
  #intervalSteps;
  #lastStep;
  #timer = null;
  #look = null;

  /**
   * @param {{ stats(): { step: number } }} pipeline
   * @param {() => Promise<unknown>} write writes one checkpoint
   * @param {{ intervalMs: number, intervalSteps: number }} intervals
   */
  constructor(pipeline, write, { intervalMs, intervalSteps }) {
    this.#pipeline = pipeline;
    this.#write = write;
    this.#intervalMs = intervalMs;
    this.#intervalSteps = intervalSteps;
    this.#lastStep = pipeline.stats().step;
  }

  /** The step the last checkpoint holds. */
  written(step) {
    this.#lastStep = Math.max(this.#lastStep, step);
    if (this.#unsavedSteps() === 0) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
  }

  poke() {
    this.#look ??= setTimeout(() => {
      this.#look = null;
      this.#check();
    }, 1);
  }

  stop() {
    clearTimeout(this.#timer);
    clearTimeout(this.#look);
    this.#timer = this.#look = null;
  }

  #unsavedSteps() {
    try {
      return this.#pipeline.stats().step - this.#lastStep;
    } catch {
      return 0;  // closed
    }
  }

  #check() {
    const unsaved = this.#unsavedSteps();
    if (unsaved <= 0) return;
    if (this.#intervalSteps && unsaved >= this.#intervalSteps) {
      this.#checkpointNow();
    } else if (this.#intervalMs && !this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#checkpointNow();
      }, this.#intervalMs);
    }
  }

  #checkpointNow() {
    this.#write().catch((error) => console.error('freshet edge worker: automatic checkpoint failed:', error?.message ?? error));
  }
}
