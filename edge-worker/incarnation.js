// One incarnation of a pipeline: one Pipeline object of the package, from the
// moment the Durable Object installs it (create, replace, or resume after a
// restart) until it is closed. Feldera's /stats and /checkpoint_status name
// the incarnation (`incarnation_uuid`, `start_time`) so that a client can tell
// that the pipeline restarted between two calls; and Feldera's progress
// figures (buffered, processed, completed records) need to know which
// ingested records are still waiting for a step or for their outputs, which
// the package only answers per completion token. The Durable Object tells the
// incarnation of every ingest and of every checkpoint that failed.
//
// Records ingested by an earlier incarnation and restored from a checkpoint
// are processed and complete (the checkpoint holds their effect).

/** @type {WeakMap<object, Incarnation>} Pipeline → its incarnation */
const incarnations = new WeakMap();

export class Incarnation {
  uuid = crypto.randomUUID();
  startTime = Date.now();
  /** Ingests not yet known complete, oldest first: { token, table, records, bytes, step } (step: the pipeline's step count when ingested). */
  pending = [];
  /** The last checkpoint this incarnation failed to write: { sequence_number, error, failed_at }, or null. */
  checkpointFailure = null;
  /** Bytes of the last checkpoint this incarnation wrote (0 until it writes one). */
  checkpointBytes = 0;
  /** `pending` is pruned when it grows to this length, so that it stays small when nobody asks for stats. */
  #pruneAt = 64;

  /**
   * Records an ingest that the pipeline accepted.
   * @param {{ stats(): object }} pipeline
   * @param {string} token its completion token
   * @param {{ table: string, records: number, bytes: number, step?: number }} ingest the table and what the ingest added to its totals
   *   (and the step count when it was ingested, else now)
   */
  ingested(pipeline, token, ingest) {
    this.pending.push({ token, step: pipeline.stats().step, ...ingest });
    if (this.pending.length >= this.#pruneAt) {
      this.#prune(pipeline);
      this.#pruneAt = Math.max(64, 2 * this.pending.length);  // amortized: a constant cost per ingest
    }
  }

  /**
   * The ingests whose outputs are not all delivered yet (`incomplete`, forgetting the complete
   * ones), and of those the ones no step has consumed yet (`buffered`: a step consumes all the
   * input pending when it starts, so an ingest made at step count n is consumed once it is > n).
   * @returns {{ incomplete: object[], buffered: object[] }} entries as ingested() keeps them
   */
  progress(pipeline) {
    this.#prune(pipeline);
    const step = pipeline.stats().step;
    return { incomplete: this.pending, buffered: this.pending.filter((entry) => entry.step >= step) };
  }

  /** Forgets the ingests that are complete. */
  #prune(pipeline) {
    this.pending = this.pending.filter(({ token }) => {
      try {
        return pipeline.completionStatus(token) !== 'complete';
      } catch {
        return false;  // unknown to the pipeline: nothing left to wait for
      }
    });
  }

  /** Remembers a checkpoint written (its size is Feldera's storage_bytes). */
  checkpointWritten(result) {
    this.checkpointBytes = result.bytes;
  }

  /** Remembers a checkpoint that failed (Feldera's CheckpointFailure). */
  checkpointFailed(pipeline, error) {
    const last = pipeline.stats().checkpoint.sequenceNumber;
    this.checkpointFailure = {
      sequence_number: last === null ? 0 : last + 1,  // the number it would have had
      error: String(error?.message ?? error),
      failed_at: new Date().toISOString(),
    };
  }
}

/** The incarnation of `pipeline`, begun the first time it is asked for (the Durable Object asks when it installs one). */
export function incarnationOf(pipeline) {
  let incarnation = incarnations.get(pipeline);
  if (!incarnation) incarnations.set(pipeline, (incarnation = new Incarnation()));
  return incarnation;
}

/**
 * Ingests into `pipeline` through `ingest()` and tells its incarnation how many records and bytes the
 * ingest added to the table's totals (the package counts them when it parses, inside ingest()).
 * With durability 'log' ingest() gives a Promise of the token: the ingest is recorded once it resolves.
 * @returns {string | Promise<string>} the completion token
 */
export function ingestCounted(pipeline, table, ingest) {
  const totals = () => {
    const inputs = pipeline.stats().inputs;
    // The package accepts a table's name in any case unless it was quoted; stats() keys it as declared.
    const name = table in inputs ? table : Object.keys(inputs).find((key) => key.toLowerCase() === table.toLowerCase());
    return { name, ...(inputs[name] ?? { totalRecords: 0, totalBytes: 0 }) };
  };
  const before = totals();
  const token = ingest();
  const after = totals();
  const counted = {
    table: after.name ?? table,
    records: after.totalRecords - before.totalRecords,
    bytes: after.totalBytes - before.totalBytes,
    step: pipeline.stats().step,  // the step count at the ingest, not once it is durable
  };
  if (typeof token?.then !== 'function') {
    incarnationOf(pipeline).ingested(pipeline, token, counted);
    return token;
  }
  return token.then((durable) => {
    incarnationOf(pipeline).ingested(pipeline, durable, counted);
    return durable;
  });
}
