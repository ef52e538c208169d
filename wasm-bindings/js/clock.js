// StepClock: the time each step gives NOW() (../cpp/engine.h set_clock), and
// when a temporal filter next needs a step with no input.
//
// A step's time is the host clock (Date.now() unless `clock` is given)
// rounded down to `clockResolutionMs`, as Feldera's clock_resolution_usecs.
// While the pipeline is paused its clock does not move: steps taken then
// (explicit step(), forced snapshot steps) keep the time it was paused at.
// The engine never lets the clock go backwards (a resumed checkpoint's time
// holds until the host clock passes it).
//
// The next change (the earliest time a row enters or leaves a temporal
// filter) is turned into a timer delay: the first time the rounded clock
// reaches it, rounded up to `temporalStepMs` so that rows due close together
// leave in one step.

import { invalidArgument } from './errors.js';

const DEFAULT_RESOLUTION_MS = 100;   // Feldera's default clock_resolution_usecs
const DEFAULT_TEMPORAL_STEP_MS = 1000;

function positive(value, name, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw invalidArgument(`${name} is a positive number of milliseconds, not ${value}`);
  }
  return value;
}

export class StepClock {
  #clock;
  #resolution;
  #temporalStep;
  #pausedAt = null;  // the rounded time at pause(); null while running

  /** @param {{ clock?: () => number, clockResolutionMs?: number, temporalStepMs?: number }} options */
  constructor(options) {
    const { clock = Date.now } = options;
    if (typeof clock !== 'function') throw invalidArgument('clock is a function returning milliseconds since 1970');
    this.#clock = clock;
    this.#resolution = positive(options.clockResolutionMs, 'clockResolutionMs', DEFAULT_RESOLUTION_MS);
    this.#temporalStep = positive(options.temporalStepMs, 'temporalStepMs', DEFAULT_TEMPORAL_STEP_MS);
  }

  /** The host clock rounded down to the resolution, in milliseconds. */
  #rounded() {
    const now = Number(this.#clock());
    if (!Number.isFinite(now)) throw invalidArgument(`the clock returned ${now}, not milliseconds`);
    return Math.floor(now / this.#resolution) * this.#resolution;
  }

  /** The time of a step taken now, in microseconds (for Engine.setClock). */
  stepMicros() {
    return (this.#pausedAt ?? this.#rounded()) * 1000;
  }

  pause() {
    this.#pausedAt ??= this.#rounded();
  }

  resume() {
    this.#pausedAt = null;
  }

  /**
   * Milliseconds to wait before stepping for a change due at `nextMicros`
   * (Engine.nextClockChange()), or null when none is due.
   */
  delayUntil(nextMicros) {
    if (nextMicros < 0) return null;
    const due = Math.ceil(nextMicros / 1000);
    // The first rounded clock time at or after the change, then the granularity.
    let wake = Math.ceil(due / this.#resolution) * this.#resolution;
    wake = Math.ceil(wake / this.#temporalStep) * this.#temporalStep;
    return Math.max(1, wake - Number(this.#clock()));
  }
}
