// DemoSession: one pipeline running one program in the Web Worker, with
// everything the dashboard shows about it.
//
//   OrderFeed ──ingest──► Pipeline ──egress (sendSnapshot)──► post('chunk') ──► page
//                            │ └──────connector 'mirror'─────► IndexedDBSink
//                            └──checkpoint every 5 s──► IndexedDBStorage('freshet-demo')
//                                                       + DemoStore (feed position, program, paused)
//
// Pipeline.create with the same storage resumes from the newest checkpoint;
// onProgramChange: 'restart' lets a newly applied program start afresh
// instead of failing on the old program's checkpoint.

import { IndexedDBStorage, Pipeline } from '../../wasm-bindings/js/browser.js';
import { DemoStore } from './demo_store.js';
import { MirrorSink, readMirror } from './mirror_sink.js';
import { OrderFeed } from './order_feed.js';
import { outlineOf } from './program_outline.js';

const CHECKPOINT_EVERY_MS = 5000;
const STATUS_EVERY_MS = 250;
const MIRROR_VIEW = 'large_orders';
const MIRROR_INDEX = 'large_orders_by_id';

export class DemoSession {
  #pipeline;
  #outline;
  #post;
  #feed = null;
  #mirror = null;
  #streams = new Map();     // view → EgressStream
  #timers = [];
  #store;
  #lastCheckpoint = null;   // { sequenceNumber, step, bytes, at }
  #stepRate = { at: performance.now(), step: 0, perSecond: 0 };
  #closed = false;

  /**
   * Opens (or resumes) the pipeline for `sql` and starts feeding and following it.
   * @param {{ sql: string, rate: number, post: (message: object) => void }} options
   */
  static async open({ sql, rate, post }) {
    // A dashboard paused before a reload comes back paused, showing the
    // checkpoint's state: paused before the first automatic step.
    const store = new DemoStore();
    const paused = await store.loadPaused();
    const pipeline = await Pipeline.create({ sql, storage: new IndexedDBStorage('freshet-demo'), onProgramChange: 'restart' });
    // The mirror connector when the program has its view and index; added
    // in the turn of create, as create adds its own (a resumed connector
    // is matched with the checkpoint's all the same).
    const outline = outlineOf(pipeline.program);
    const mirror = outline.views.includes(MIRROR_VIEW) && outline.indexes.some((i) => i.name === MIRROR_INDEX)
      ? new MirrorSink() : null;
    if (mirror) {
      try {
        pipeline.addOutput('mirror', { view: MIRROR_VIEW, index: MIRROR_INDEX, sendSnapshot: true, sink: mirror });
      } catch (error) {
        pipeline.close({ checkpoint: false });
        throw error;
      }
    }
    if (paused) pipeline.pause();
    const session = new DemoSession(pipeline, outline, mirror, store, post);
    // The program, so the page has a place for each view's chunks; then the
    // views (the page waits for them), the mirror's check, and the feed (the
    // check compares a still pipeline).
    post({ type: 'program', sql, outline });
    for (const view of outline.views) session.#follow(view);
    if (mirror && pipeline.stats().checkpoint.restoredFrom !== null) await session.#repairMirror();
    await session.#startFeed(rate, paused);
    session.#timers.push(setInterval(() => session.#postStatus(), STATUS_EVERY_MS));
    session.#timers.push(setInterval(() => session.#autoCheckpoint(), CHECKPOINT_EVERY_MS));
    return session;
  }

  constructor(pipeline, outline, mirror, store, post) {
    this.#store = store;
    this.#pipeline = pipeline;
    this.#outline = outline;
    this.#mirror = mirror;
    this.#post = post;
    this.#stepRate.step = pipeline.stats().step;
  }

  // The feed runs when the program has the sample's tables. A resumed
  // pipeline continues from the generator position saved with its
  // checkpoint; without one (older checkpoint, foreign data) new order ids
  // start past every id the table can have seen, with no live orders.
  async #startFeed(rate, paused) {
    if (!['customers', 'orders'].every((table) => this.#outline.tables.includes(table))) return;
    const stats = this.#pipeline.stats();
    const received = stats.inputs.orders.totalRecords;
    if (stats.checkpoint.restoredFrom === null) {
      this.#feed = new OrderFeed(this.#pipeline, { rate, seed: 42 });
      this.#feed.insertCustomers();
    } else {
      const saved = await this.#store.load(received);
      // A new seed per resume: a different but equally valid continuation.
      const seed = ((saved?.seed ?? 42) * 31 + received) >>> 0;
      const position = saved ?? { nextOrderId: received + 1, live: [] };
      this.#feed = new OrderFeed(this.#pipeline, { rate, seed, position });
    }
    if (!paused) this.#feed.start();
  }

  // Follows a view: its snapshot, then one chunk per step, posted to the
  // page. 'coalesce': a page that falls behind gets merged deltas, and the
  // engine never holds its steps back for the dashboard.
  async #follow(view) {
    const index = view === MIRROR_VIEW && this.#mirror ? MIRROR_INDEX : undefined;
    const stream = this.#pipeline.egress(view, { sendSnapshot: true, index, onLag: 'coalesce' });
    this.#streams.set(view, stream);
    try {
      for await (const chunk of stream) {
        this.#post({ type: 'chunk', view, chunk, ingestedAt: chunk.snapshot ? undefined : this.#feed?.ingestedAt(chunk.step) });
      }
    } catch (error) {
      if (!this.#closed) this.#post({ type: 'error', message: `view ${view}: ${error.message}` });
    }
  }

  // ------------------------------------------------------------ controls

  /** Stops the feed and the steps; what the feed sent is stepped, so the views show all of it. */
  async pause() {
    this.#feed?.stop();
    this.#pipeline.pause();
    this.#pipeline.step();
    this.#postStatus();
    await this.#store.savePaused(true);
  }

  async resume() {
    this.#pipeline.start();
    this.#feed?.start();
    this.#postStatus();
    await this.#store.savePaused(false);
  }

  /** One step: a tick's worth of new orders (when paused), stepped now. */
  step() {
    if (this.#feed && !this.#feed.running && !this.#feed.held) this.#feed.ingest(Math.max(1, Math.round(this.#feed.rate / 20)));
    const result = this.#pipeline.step();
    this.#postStatus();
    return result;
  }

  setRate(rate) {
    if (this.#feed) this.#feed.rate = rate;
  }

  /** A checkpoint, with the feed held so the generator's position matches it. */
  async checkpoint() {
    const release = this.#feed?.hold();
    try {
      const received = this.#pipeline.stats().inputs.orders?.totalRecords;
      if (this.#feed) await this.#store.save(received, this.#feed.position());
      const result = await this.#pipeline.checkpoint();
      this.#lastCheckpoint = { ...result, at: Date.now() };
      return result;
    } finally {
      release?.();
    }
  }

  // Every few seconds, unless nothing moved since the last one (paused).
  #autoCheckpoint() {
    const { step, checkpoint } = this.#pipeline.stats();
    if (step !== checkpoint.step) this.checkpoint().catch(() => {});  // stats().checkpoint.lastError shows it
  }

  /** resetOutput('mirror') with progress posted as it goes, then a check of the result. */
  async resetMirror() {
    if (!this.#mirror) throw new Error('this program has no mirror (it needs large_orders and large_orders_by_id)');
    const progress = (phase) => {
      const output = this.#pipeline.stats().outputs.mirror;
      this.#post({ type: 'reset', phase, sent: output.snapshotRecords, total: output.snapshotTotal });
    };
    progress('wiping');
    const poll = setInterval(() => progress('writing'), 50);
    try {
      await this.#pipeline.resetOutput('mirror');
    } finally {
      clearInterval(poll);
    }
    progress('verifying');
    const check = await this.checkMirror();
    this.#post({ type: 'reset', phase: 'done', ...check });
    return check;
  }

  // After a resume the mirror may be ahead of the engine: it took the chunks
  // of steps after the checkpoint, whose input died with the page (the feed
  // is not a replayable source). Once the resumed connector has delivered
  // what it still had queued, a mirror that differs from the view is reset,
  // visibly. A reload right after a checkpoint (or while paused) finds them
  // equal and sends nothing.
  async #repairMirror() {
    for (let turn = 0; turn < 100 && this.#pipeline.stats().outputs.mirror.queuedChunks > 0; ++turn) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const check = await this.checkMirror();
    if (check.equal) return;
    this.#post({ type: 'reset', phase: 'repair', ...check });
    await this.resetMirror();
  }

  /**
   * Compares the mirror store with p.snapshot(large_orders). The feed is held
   * and the last input waited for, so both describe the same step.
   */
  async checkMirror() {
    const release = this.#feed?.hold();
    try {
      if (this.#feed?.lastToken) await this.#pipeline.waitForCompletion(this.#feed.lastToken);
      const view = this.#pipeline.snapshot(MIRROR_VIEW);
      const stored = await readMirror();
      const text = (rows) => rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort();
      const [a, b] = [text(view), text(stored)];
      const equal = a.length === b.length && a.every((row, i) => row === b[i]);
      return { equal, viewRows: view.length, mirrorRows: stored.length };
    } finally {
      release?.();
    }
  }

  /** The view's rows, once every chunk queued for the page has been posted. */
  async snapshot(view) {
    for (let turn = 0; turn < 200; ++turn) {
      const queued = Object.values(this.#pipeline.stats().egress).some((endpoint) => endpoint.queuedChunks > 0);
      if (!queued) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 0));  // let the egress loops post
    return this.#pipeline.snapshot(view);
  }

  close() {
    this.#closed = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#feed?.stop();
    for (const stream of this.#streams.values()) stream.close();
    // No last checkpoint: the engine worker checkpoints before it replaces the
    // program, and a late one of the old program would be newer than the new one's.
    this.#pipeline.close({ checkpoint: false });
  }

  // -------------------------------------------------------------- status

  status() {
    const stats = this.#pipeline.stats();
    const now = performance.now();
    if (now - this.#stepRate.at >= 1000) {
      this.#stepRate.perSecond = ((stats.step - this.#stepRate.step) * 1000) / (now - this.#stepRate.at);
      Object.assign(this.#stepRate, { at: now, step: stats.step });
    }
    const egress = {};
    for (const endpoint of Object.values(stats.egress)) egress[endpoint.view] = endpoint;
    return {
      state: stats.state,
      step: stats.step,
      stepsPerSecond: this.#stepRate.perSecond,
      rate: this.#feed?.rate ?? 0,
      ingestRate: this.#feed?.running ? this.#feed.measuredRate() : 0,
      liveOrders: this.#feed?.liveOrders ?? null,
      feed: this.#feed ? (this.#feed.running ? 'running' : 'paused') : 'none (no orders/customers tables)',
      memoryBytes: stats.memoryBytes,
      wasmMemoryBytes: stats.wasmMemoryBytes,
      inputs: stats.inputs,
      outputs: stats.outputs,
      egress,
      checkpoint: { ...stats.checkpoint, bytes: this.#lastCheckpoint?.bytes ?? null, at: this.#lastCheckpoint?.at ?? null },
      mirrorWritten: this.#mirror?.written ?? null,
      failure: stats.failure,
      circuit: this.#circuit(),
    };
  }

  /** The circuit's operators (p.explain) with their live figures (p.inspect), for the circuit card. */
  #circuit() {
    const { operators } = this.#pipeline.explain();
    const figures = this.#pipeline.inspect().operators;
    return { operators: operators.map((op, i) => ({ ...op, lastStepMicros: figures[i].lastStepMicros, totalMicros: figures[i].totalMicros })) };
  }

  #postStatus() {
    if (!this.#closed) this.#post({ type: 'status', status: this.status() });
  }
}
