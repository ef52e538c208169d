// LiveView: a view's rows kept current for UI code (p.live(view, options)),
// built on one egress stream with a snapshot (egress.js).
//
// ## Lifecycle
//   loading ──(snapshot complete, also of an empty view)──► ready
//   ready ──(a new snapshot starts: the stream ended or lost chunks, and a
//            fresh one opens; or it sent a fresh snapshot)──► loading ──► ready
//   loading | ready ──(the stream fails: a failed step, p.close(); rows that
//            contradict the key; a stream that ends before its snapshot is
//            complete)──► error                      (final: no reconnect)
// close() ends the stream and drops the listeners; status and rows stay.
// Every arrow, and every step that changed the view (one chunk per step),
// is one notification: `version` + 1, then every listener, once.
//
// ## Design
// Rows live in a mirror (live_rows.js) that applies a chunk in O(changed
// rows) and keeps each unchanged row's frozen object. `current` is built on
// read (an array of references, O(view)) and cached until the next change,
// so a listener that never reads it costs O(changed rows) per step. While a
// fresh snapshot loads, `current` keeps the rows of the last one; when it
// completes, rows equal to the old ones keep their objects and `changes`
// holds the difference, so a UI sees one ordinary update.
//
// The stream is read in a loop of awaited next() calls, so a change shows
// after the step that made it once pending promise callbacks ran (an
// `await` of anything later), never inside p.step().

import { FreshetError } from './errors.js';

const NO_ROWS = Object.freeze([]);

// { step, ...changes }, built from an empty object: the notification's
// changes stay until the next one, and V8 may allocate a literal's objects
// in the old generation once most of them outlive a young collection (see
// live_rows.js, above CountedRow), which kept each change's rows alive longer.
function withStep(step, changes) {
  const result = {};
  result.step = step;
  return Object.assign(result, changes);
}

export class LiveView {
  #view;
  #open;         // () => a new EgressStream with a snapshot
  #makeRows;     // () => an empty mirror (live_rows.js)
  #rows;
  #stream = null;
  #status = 'loading';
  #error = null;
  #changes = null;
  #version = 0;
  #current = NO_ROWS;    // null: to build on the next read
  #listeners = new Set();
  #closed = false;

  /**
   * @param {string} view
   * @param {() => AsyncIterator<object> & { close(): void }} open opens the egress stream (sendSnapshot: true)
   * @param {() => { apply: Function, diff: Function, rows: () => object[] }} makeRows
   */
  constructor(view, open, makeRows) {
    this.#view = view;
    this.#open = open;
    this.#makeRows = makeRows;
    this.#rows = makeRows();
    this.#follow(open());  // the first open() throws to p.live()'s caller (unknown view, CLOSED, ...)
  }

  get view() {
    return this.#view;
  }

  /** The rows, frozen; an unchanged row keeps its object from one value to the next. */
  get current() {
    return (this.#current ??= Object.freeze(this.#rows.rows()));
  }

  /** 'loading' | 'ready' | 'error' */
  get status() {
    return this.#status;
  }

  /** @returns {FreshetError | null} why the status is 'error' */
  get error() {
    return this.#error;
  }

  /** The last notification's changes ({ step, inserts, deletes } or { step, upserts, deletes }); null for a status change. */
  get changes() {
    return this.#changes;
  }

  /** + 1 per notification. */
  get version() {
    return this.#version;
  }

  /**
   * The Svelte store contract: calls `listener(current)` at once and after
   * each notification. @returns {() => void} unsubscribe
   */
  subscribe(listener) {
    if (typeof listener !== 'function') throw new FreshetError('INVALID_ARGUMENT', 'subscribe(listener) takes a function');
    const notify = () => listener(this.current);
    notify();
    return this.#add(notify);
  }

  /** Calls `listener()` after each notification (not at once). @returns {() => void} unsubscribe */
  listen(listener) {
    if (typeof listener !== 'function') throw new FreshetError('INVALID_ARGUMENT', 'listen(listener) takes a function');
    return this.#add(() => listener());
  }

  #add(notify) {
    if (this.#closed) return () => {};
    this.#listeners.add(notify);
    return () => this.#listeners.delete(notify);
  }

  /** Ends the egress stream and forgets the listeners; the last rows and status stay readable. Idempotent. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    const stream = this.#stream;
    this.#stream = null;
    stream?.close();
  }

  // ------------------------------------------------------------ the stream

  async #follow(stream) {
    this.#stream = stream;
    let snapshot = null;   // the mirror a snapshot in progress fills
    let step = 0;
    let sequence = 0;      // the sequenceNumber expected next
    let completed = false; // this stream delivered a whole snapshot
    try {
      for (;;) {
        const { done, value: chunk } = await stream.next();
        if (stream !== this.#stream) return;   // closed meanwhile
        if (done || chunk.sequenceNumber !== sequence++) {
          // Ended, or lost chunks: a fresh stream, unless this one never completed its snapshot
          // (a source that keeps ending would have the view reconnect forever).
          if (!completed) throw new FreshetError('INTERNAL', `live view of '${this.#view}': the egress stream ${done ? 'ended' : 'lost chunks'} before its snapshot was complete`);
          return this.#reconnect(stream);
        }
        if (chunk.snapshot) {
          if (!snapshot) {
            snapshot = this.#makeRows();
            if (this.#status !== 'loading') this.#setStatus('loading');
          }
          snapshot.apply(chunk, this.#rows);   // rows equal to the last snapshot's keep their objects
          step = chunk.step;
          if (!chunk.snapshotComplete) continue;
          const changes = snapshot.diff(this.#rows);
          this.#rows = snapshot;
          snapshot = null;
          completed = true;
          this.#status = 'ready';
          this.#changed(withStep(step, changes));
        } else if (snapshot) {
          throw new FreshetError('INTERNAL', `live view of '${this.#view}': a delta came before the snapshot was complete`);
        } else {
          this.#changed(withStep(chunk.step, this.#rows.apply(chunk)));
        }
      }
    } catch (error) {
      if (stream !== this.#stream) return;
      stream.close();
      this.#stream = null;
      this.#error = error instanceof FreshetError ? error : new FreshetError('INTERNAL', `live view of '${this.#view}': ${error?.message ?? error}`);
      this.#setStatus('error');
    }
  }

  /** A fresh stream and snapshot; `current` keeps the old rows until it completes. */
  #reconnect(stream) {
    stream.close();
    this.#stream = null;
    this.#setStatus('loading');
    let fresh;
    try {
      fresh = this.#open();
    } catch (error) {
      this.#error = error;
      this.#setStatus('error');
      return;
    }
    this.#follow(fresh);
  }

  #setStatus(status) {
    this.#status = status;
    this.#notify(null);
  }

  #changed(changes) {
    this.#current = null;
    this.#notify(Object.freeze(changes));
  }

  #notify(changes) {
    this.#changes = changes;
    ++this.#version;
    for (const notify of Array.from(this.#listeners)) {
      try {
        notify();
      } catch (error) {
        queueMicrotask(() => {
          throw error;  // a listener's bug surfaces as an uncaught error, as in an EventTarget; the others still run
        });
      }
    }
  }
}
