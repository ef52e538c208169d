// AutoStepper: when to run automatic steps. Input and new endpoints wake it;
// it steps once, soon (a zero-delay timer), so that every ingest of the
// current turn of the event loop lands in one step. Whether that step may
// run is the pipeline's call (running, not held back by a full queue, or
// forced for a snapshot even while paused). A view reading NOW() also asks
// for a step at a time (wakeAfter): when a row is due to enter or leave a
// temporal filter, with no input.

export class AutoStepper {
  #timer = null;
  #clockTimer = null;
  #forced = false;
  #tryStep;

  /** @param {(forced: boolean, clockDue: boolean) => void} tryStep runs a step if one is due and allowed */
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
      this.#tryStep(forced, false);
    }, 0);
  }

  /**
   * Asks for a step after `delayMs` even without input (the clock moves a
   * row across a temporal filter); replaces the previous such request, and
   * null cancels it. The timer does not keep a Node process alive.
   */
  wakeAfter(delayMs) {
    clearTimeout(this.#clockTimer);
    this.#clockTimer = null;
    if (delayMs === null) return;
    this.#clockTimer = setTimeout(() => {
      this.#clockTimer = null;
      this.#tryStep(false, true);
    }, delayMs);
    this.#clockTimer?.unref?.();
  }

  stop() {
    clearTimeout(this.#timer);
    this.#timer = null;
    this.wakeAfter(null);
  }
}
