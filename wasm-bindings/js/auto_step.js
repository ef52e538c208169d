// AutoStepper: when to run automatic steps. Input and new endpoints wake it;
// it steps once, soon (a zero-delay timer), so that every ingest of the
// current turn of the event loop lands in one step. Whether that step may
// run is the pipeline's call (running, not held back by a full queue, or
// forced for a snapshot even while paused).

export class AutoStepper {
  #timer = null;
  #forced = false;
  #tryStep;

  /** @param {(forced: boolean) => void} tryStep runs a step if one is due and allowed */
  constructor(tryStep) {
    this.#tryStep = tryStep;
  }

  /** Asks for a step soon; `force` lets it run while paused or held back (a snapshot is due). */
  wake(force = false) {
    if (force) this.#forced = true;
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      const forced = this.#forced;
      this.#forced = false;
      this.#tryStep(forced);
    }, 0);
  }

  stop() {
    clearTimeout(this.#timer);
    this.#timer = null;
  }
}
