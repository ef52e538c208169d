// Pipeline: the package's main class (docs/js-api.md) — one compiled program
// running in one wasm Engine (../cpp/engine.h), driven from JS's event loop.
//
// ## Design
// The engine never waits; this class decides when things happen:
//   ingest ──► engine buffers ──► AutoStepper.wake() ──► one step per turn
//   step ────► connectors' writes, all in one call (Connector, async) ──► acknowledge
//         └──► egress streams wake up and pull their chunks (EgressStream)
//         └──► completion waiters re-check their tokens
// Engine calls return Replies ({code, message, text, number}); a code
// becomes a FreshetError. The per-change calls (ingest, step, nextChunk)
// return a plain number or text instead, and engine.lastError() says why one
// failed: a Reply costs more to cross Embind than the work of a small change.
// Rows cross in bulk as JSON text both ways; on the per-change path the text
// is written into and read out of wasm memory directly (EngineFastPath).

import { AutoStepper } from './auto_step.js';
import { StepClock } from './clock.js';
import { explainCircuit, inspectCircuit } from './circuit_explain.js';
import { emptyStatus, noteFailedWrite, resume, writeCheckpoint } from './checkpoints.js';
import { Connector } from './connector.js';
import { EgressStream } from './egress.js';
import { EngineFastPath, inputFormat } from './engine_fast_path.js';
import { loadEngineModule } from './engine_loader.js';
import { MicrotaskBatch } from './microtask_batch.js';
import { engineStopped, onEngineStop } from './engine_guard.js';
import { LiveView } from './live_view.js';
import { memoryBudgetOf } from './memory_budget.js';
import { closeNamedEgress, openNamedEgress } from './named_egress.js';
import { rowsMaker } from './live_rows.js';
import { FreshetError, errorOf, invalidArgument, requireString, unwrap } from './errors.js';
import { IncidentLog } from './incidents.js';
import { hostStateText, openLog } from './input_log.js';
import { replayLog } from './log_replay.js';
import { replaceEngineProgram } from './replace_program.js';
import { Program } from './program.js';
import { parseQueryRows } from './query.js';
import { labelOf, retryPolicy, withRetries } from './retrying.js';
import { DELETES, RECORDS, REFUSED, ROWS } from './row_block.js';
import { openProgram, runtimeErrorOptions } from './runtime_errors.js';
import { toStats } from './stats.js';
import { TokenBook } from './tokens.js';
import { parseRows, stringifyJson } from './values.js';
import { abandonResetsOfFailedViews } from './view_failures.js';

const CREATE_OPTIONS = new Set(['sql', 'outputs', 'storage', 'onProgramChange', 'clock', 'clockResolutionMs', 'temporalStepMs',
                                'onIncompatibleCheckpoint', 'storageRetry', 'durability', 'maxMemoryBytes', 'onRuntimeError',
                                'errorViewRetention', 'paused']);
const SINK_METHODS = ['write', 'reset'];
const DEFAULT_CLOSE_TIMEOUT_MS = 5000;
const encoder = new TextEncoder();
const STORAGE_METHODS = ['put', 'get', 'list', 'delete'];
const LAG_POLICIES = new Set(['block', 'coalesce', 'drop']);
const constructing = Symbol('Pipeline.create');
// A pipeline dropped without close() still frees its engine once collected
// (Embind only finalizes smart-pointer handles by itself). Hosts without
// FinalizationRegistry rely on close() alone.
const forgottenEngines = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((engine) => engine.delete())
  : null;

// A promise that may settle with nobody listening (no unhandled rejection).
// A class, not an object literal: V8 counts how many of a literal's objects
// outlive a young-generation collection and, past a threshold, allocates
// the literal's objects in the old generation from then on. It did so for
// this literal in about half the runs of the orders workload with a consumer
// waiting on next() before each step, and each change's signal, once old,
// kept its promise, the waiting next() and what that awaited alive through
// every young collection (3.3-3.8 ms each instead of ~0.7 ms); objects
// made by `new` are not moved so.
class Signal {
  // One signal for good: V8 keeps an object shape only while some object
  // has it (or for a couple of major collections after), and a pipeline's
  // step and next() code, once optimized, checks the signal's. An
  // application whose steps went a while without a waiting next() (or the
  // warm-up's end: warm_up.js) lost it, and that code was thrown away and
  // compiled again during its next ~3,000 changes.
  static #keepsTheShape = new Signal();

  constructor() {
    this.promise = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.promise.catch(() => {});
  }
}

const RAW_ROWS = Object.freeze({ updateFormat: 'raw' });  // insert()'s options, not an object a call
// delete()'s: its rows are each deleted, written as such (row_block.js
// DELETES); their {delete: row} records are made only for the JSON way and
// the log. (A record object a row cost an allocation, and the records' map
// changed under code V8 had optimized for them: see the warm-up's deletes.)
const DELETE_ROWS = Object.freeze({ updateFormat: 'insert_delete' });

export class Pipeline {
  #module;
  #engine;
  #fast;                            // the per-change calls without Embind (EngineFastPath)
  #program;
  #state = 'running';
  #failure = null;                  // the error that stopped the pipeline (a table's input failed; a failed view does not)
  #stepper = new AutoStepper((forced, clockDue) => this.#autoStep(forced, clockDue));
  #clock;                           // the time each step gives NOW() (StepClock)
  #usesClock = false;               // some view reads NOW()
  #stepped = null;                  // a Signal that settles after the next step, made when awaited
  #connectors = new Map();          // name → Connector
  #connectorNumbers = new Map();    // the number the engine knows a connector by → Connector
  #nextConnectorNumber = 1;         // never reused: a removed connector's late writes find nobody
  #connectorOf = (number) => this.#connectorNumbers.get(number);
  #pumps = new MicrotaskBatch();    // the connectors' pumps after a step, in one microtask
  #completionWaiters = [];          // { token, resolve, reject }
  #tokens = new TokenBook();
  #storage;                         // where checkpoints go (optional)
  #checkpoint = emptyStatus();      // stats().checkpoint
  #checkpointing = Promise.resolve();  // checkpoints run one at a time
  #incidents = new IncidentLog();   // storage and sink faults (stats().incidents)
  #retry;                           // the storageRetry policy (retrying.js)
  #log = null;                      // InputLog with durability: 'log'
  #logCovered = 0;                  // records the newest checkpoint holds (the log is truncated to the one before)
  #held = null;                     // ingests held while a step waits for the log: { args, resolve, reject }
  #closing = null;                  // close()'s Promise once it was called
  #memoryBudget = 0;                // maxMemoryBytes (memory_budget.js)
  #stopListening = null;            // onEngineStop's unsubscribe
  #lastCoreStats = null;            // the engine's last stats, for stats() once the engine stopped

  /**
   * Compiles `sql` and starts the pipeline (running, unless `paused`). With a `storage` that
   * holds checkpoints it resumes from the newest valid one.
   * With `durability: 'log'` every ingest is also written to the storage's
   * input log before its token resolves, and the log after the checkpoint
   * is replayed here (input_log.js, log_replay.js). Input that a resume
   * leaves buffered is stepped before it resolves, unless `paused`.
   * @param {{ sql: string, outputs?: Record<string, object>, storage?: object, onProgramChange?: 'fail' | 'restart', durability?: 'none' | 'log', paused?: boolean }} options
   */
  static async create(options) {
    if (typeof options?.sql !== 'string') throw invalidArgument('Pipeline.create needs { sql: string }');
    for (const key of Object.keys(options)) {
      if (!CREATE_OPTIONS.has(key)) throw invalidArgument(`Pipeline.create: unsupported option '${key}'`);
    }
    const { onProgramChange = 'fail', onIncompatibleCheckpoint = 'fail', durability = 'none' } = options;
    let { storage } = options;
    if (durability !== 'none' && durability !== 'log') throw invalidArgument(`durability is 'none' or 'log', not '${durability}'`);
    if (durability === 'log' && !storage) throw invalidArgument("durability: 'log' needs a storage: Pipeline.create({ sql, storage, durability: 'log' })");
    if (storage !== undefined && STORAGE_METHODS.some((method) => typeof storage?.[method] !== 'function')) {
      throw invalidArgument(`a storage has ${STORAGE_METHODS.join(', ')} (MemoryStorage, IndexedDBStorage, KVStorage, FileStorage)`);
    }
    if (onProgramChange !== 'fail' && onProgramChange !== 'restart') {
      throw invalidArgument(`onProgramChange is 'fail' or 'restart', not '${onProgramChange}'`);
    }
    if (onIncompatibleCheckpoint !== 'fail' && onIncompatibleCheckpoint !== 'restart') {
      throw invalidArgument(`onIncompatibleCheckpoint is 'fail' or 'restart', not '${onIncompatibleCheckpoint}'`);
    }
    const { paused = false } = options;
    if (typeof paused !== 'boolean') throw invalidArgument(`paused is true or false, not ${JSON.stringify(paused)}`);
    const memoryBudget = memoryBudgetOf(options);
    const runtime = runtimeErrorOptions(options);
    const retry = retryPolicy(options.storageRetry);
    const incidents = new IncidentLog();
    if (storage) storage = withRetries(storage, STORAGE_METHODS, { label: labelOf(storage, 'storage'), incidents, policy: retry });
    const clock = new StepClock(options);
    const module = await loadEngineModule();
    const openEngine = () => {
      const engine = new module.Engine();
      const opened = openProgram(engine, options.sql, runtime);
      if (opened.code) {
        engine.delete();
        throw new FreshetError(opened.code, opened.message);
      }
      engine.setMemoryBudget(memoryBudget);
      return engine;
    };
    // The checkpoint is restored before any output is configured, so that
    // connectors are matched against the checkpointed ones as they are added.
    let engine, status = emptyStatus(), startedAfresh = false;
    if (storage) ({ engine, status, startedAfresh } = await resume(openEngine, storage, onProgramChange, onIncompatibleCheckpoint));
    else engine = openEngine();
    let log = null, records = [];
    if (durability === 'log') {
      try {
        ({ log, records } = await openLog(storage, engine.hostState(), status.restoredFrom !== null, startedAfresh));
      } catch (error) {
        engine.delete();
        throw error;
      }
    }
    const pipeline = new Pipeline(constructing, module, engine);
    pipeline.#storage = storage;
    pipeline.#incidents = incidents;
    pipeline.#retry = retry;
    pipeline.#clock = clock;
    pipeline.#usesClock = engine.usesClock();
    pipeline.#checkpoint = status;
    pipeline.#memoryBudget = memoryBudget;
    pipeline.#tokens.restore(engine.hostState());
    if (log) {
      log.onFailure = (error) => pipeline.#fail(error);
      pipeline.#log = log;
      pipeline.#logCovered = log.nextSeq - records.length;
    }
    try {
      for (const [name, config] of Object.entries(options.outputs ?? {})) pipeline.addOutput(name, config);
      // After the outputs: their connectors get the replayed steps' writes.
      if (records.length) pipeline.#replay(records);
    } catch (error) {
      pipeline.#free();
      throw error;
    }
    if (paused) pipeline.pause();
    // Input the checkpoint held buffered, or that the log's end replayed without the
    // step record after it (step records are written lazily: input_log.js), was
    // acknowledged and, in the pipeline that wrote it, most likely stepped already
    // (its output delivered): it is in the views before create resolves, so that
    // a query right after a restart does not lack it. Paused: it waits for a step.
    else if (engine.hasBufferedInput()) pipeline.#autoStep(false);
    pipeline.#stepper.wake();  // snapshots of outputs added above
    pipeline.#scheduleClock();  // a resumed temporal filter may have rows due
    return pipeline;
  }

  /** @private use Pipeline.create() */
  constructor(token, module, engine) {
    if (token !== constructing) throw invalidArgument('use Pipeline.create()');
    this.#module = module;
    this.#engine = engine;
    this.#fast = new EngineFastPath(module, engine);
    forgottenEngines?.register(this, engine, this);
    // A trap in any pipeline of the realm stops the wasm instance (engine_guard.js): this one fails too.
    this.#stopListening = onEngineStop(module, Pipeline.#stopListener(weakRefTo(this)));
    this.#program = new Program(unwrap(engine.describeProgram()).text);
  }

  // ------------------------------------------------------------- stepping

  /** 'running' | 'paused' ('closed' after close()). */
  get state() {
    return this.#engine ? this.#state : 'closed';
  }

  /** Steps automatically soon after input arrives (the default). */
  start() {
    this.#open().setPaused(false);
    this.#state = 'running';
    this.#clock.resume();
    this.#stepper.wake();
    this.#scheduleClock();
  }

  /** Stops automatic steps; explicit step() and forced snapshot steps still run. */
  pause() {
    this.#open().setPaused(true);
    this.#state = 'paused';
    this.#clock.pause();  // steps taken while paused keep this time
    this.#stepper.wakeAfter(null);
  }

  /**
   * The program's description: tables, views, their columns, keys, LATENESS
   * and indexes, as the compiler knows them. Deep-frozen; also after close().
   * @returns {import('./index.js').ProgramDescription}
   */
  get program() {
    return this.#program.description;
  }

  /** NOW() of the last step, in milliseconds since 1970 (null before a step, or when no view reads NOW()). */
  get now() {
    if (!this.#usesClock) return null;
    const micros = this.#open().clock();
    return micros < 0 ? null : micros / 1000;
  }

  /**
   * Runs one step now. With `durability: 'log'` it first waits until every
   * ingest so far is durable, and returns a Promise of the same.
   * @returns {{ step: number, inputRecords: number, durationMs: number }}
   */
  step() {
    this.#open();
    if (!this.#log) return this.#stepNow();
    return this.#whenLogDurable().then(() => {
      try {
        return this.#stepNow();
      } finally {
        this.#releaseHeld();
      }
    });
  }

  #stepNow() {
    const engine = this.#open();
    const now = this.#usesClock ? this.#clock.stepMicros() : null;
    if (now !== null) engine.setClock(now);
    const started = performance.now();
    const step = this.#fast.step();
    if (step < 0) {
      // Only a table's input failing fails a step (a view's runtime error fails that view, and
      // the step is logged as any other: replay fails the same view again).
      // Replay leaves out the input this step took: a resumed pipeline does not fail on it again.
      this.#log?.append({ kind: 'failed_step' });
      throw this.#fail(errorOf(engine.lastError()));
    }
    const durationMs = performance.now() - started;
    const inputRecords = this.#fast.stepInputRecords();
    // Behind every ingest it consumed: replay steps the same input here.
    this.#log?.append({ kind: 'step', step, now }, undefined, { lazy: true });
    this.#afterStep();
    return { step, inputRecords, durationMs };
  }

  #autoStep(forced, clockDue = false) {
    // clockDue: a temporal filter's row is due, a step is needed without input.
    if (!this.#engine || this.#closing || this.#failure || (!clockDue && !this.#engine.needsStep())) return this.#releaseHeld();
    if (!forced && (this.#state === 'paused' || !this.#engine.canAutoStep())) return this.#releaseHeld();
    if (this.#log?.pendingInput) {
      // Only durable input is stepped: wait for the log, holding new ingests back meanwhile.
      // Then a timer turn, so that the answers to the ingests just made durable go out before the step.
      this.#whenLogDurable().then(() => setTimeout(() => this.#autoStep(forced, clockDue), 0));
      return;
    }
    try {
      this.#stepNow();
    } catch {
      // #fail() recorded it: waiters, egress streams and stats() report it.
    }
    this.#releaseHeld();
  }

  /** Resolves once nothing ingested is waiting for the log; ingests made meanwhile are held (#held). */
  async #whenLogDurable() {
    while (this.#log.pendingInput) {
      this.#held ??= [];
      await this.#log.inputDurable();
    }
  }

  #rejectHeld(error) {
    for (const { reject } of this.#held?.splice(0) ?? []) reject(error);
  }

  /** Lets ingests held during a wait for the log in, in order. */
  #releaseHeld() {
    const held = this.#held;
    this.#held = null;
    for (const { args, resolve, reject } of held ?? []) {
      if (this.#held) this.#held.push({ args, resolve, reject });  // a step is waiting again
      else this.#ingestLogged(...args).then(resolve, reject);
    }
  }

  /** Re-runs the log's records after the checkpoint: the same ingests, the same steps (log_replay.js). */
  #replay(records) {
    replayLog(records, {
      ingest: (table, payload, options) => this.#ingestNumber(table, payload, options),
      step: (now) => {
        if (this.#usesClock && now !== null) this.#engine.setClock(now);
        const step = this.#fast.step();
        if (step < 0) throw errorOf(this.#engine.lastError());
        this.#afterStep();
        return step;
      },
      cover: (incarnation, below) => this.#tokens.cover(incarnation, below),
    });
  }

  #afterStep() {
    this.#scheduleClock();
    this.#deliverWrites();
    if (this.#connectors.size) abandonResetsOfFailedViews(this.#connectors, () => this.#engine.stats());  // no closure a step for nothing
    const stepped = this.#stepped;
    this.#stepped = null;
    stepped?.resolve();
    this.#checkCompletions();
  }

  /** Asks for a step when the next row enters or leaves a temporal filter (running only). */
  #scheduleClock() {
    if (!this.#usesClock || !this.#engine) return;
    const running = this.#state === 'running' && !this.#failure;
    this.#stepper.wakeAfter(running ? this.#clock.delayUntil(this.#engine.nextClockChange()) : null);
  }

  /** Settles after the next step (rejects when the pipeline fails). */
  #nextStep() {
    if (this.#failure) return Promise.reject(this.#failure);
    this.#stepped ??= new Signal();
    return this.#stepped.promise;
  }

  // The listener for the engine's stop (a trap anywhere in the instance, engine_guard.js): weakly
  // where the host can (workerd has no WeakRef; close() unsubscribes), so that the module's list
  // of listeners does not keep a dropped pipeline alive. Made where no closure holds the pipeline
  // (V8 shares one context among a scope's closures: one in the constructor would keep `this`).
  static #stopListener(ref) {
    return (error) => ref.deref()?.#engineStopped(error);
  }

  #engineStopped(error) {
    this.#fail(error);
    this.#stepper.stop();
  }

  #fail(error) {
    this.#failure = error;
    this.#rejectHeld(error);
    this.#stepped?.reject(error);
    this.#stepped = null;
    for (const waiter of this.#completionWaiters.splice(0)) waiter.reject(error);
    for (const connector of this.#connectors.values()) connector.abandonResets(error);
    return error;
  }

  // ---------------------------------------------------------------- input

  /**
   * Parses `data` inside wasm and buffers it for the next step.
   * With `durability: 'log'`: a Promise of the token, resolved once the
   * input is durable in the storage's log (a bad record rejects it).
   * @returns {string | Promise<string>} a completion token
   */
  ingest(table, data, options = {}) {
    if (this.#log) return this.#ingestDurably(table, data, options);
    this.#open();
    if (this.#closing) throw closedError();
    return this.#tokens.issue(this.#ingestNumber(table, data, options));
  }

  /** ingest() with the log: every error, CLOSED too, is a rejected Promise. */
  #ingestDurably(table, data, options) {
    if (!this.#engine || this.#closing) return Promise.reject(closedError());
    if (this.#held) return new Promise((resolve, reject) => this.#held.push({ args: [table, data, options], resolve, reject }));
    return this.#ingestLogged(table, data, options);
  }

  /** Ingests and appends the input to the log; resolves to the token once it is durable. */
  #ingestLogged(table, data, options) {
    let number, token;
    const record = {};
    try {
      this.#open();
      if (this.#closing) throw closedError();
      number = this.#ingestNumber(table, data, options, record);
      token = this.#tokens.issue(number);
    } catch (error) {
      return Promise.reject(error);
    }
    const { payload, ...input } = record;
    const header = { kind: 'ingest', table, ...input, incarnation: this.#tokens.incarnation, token: number };
    return this.#log.append(header, payload).then(() => token);
  }

  /**
   * Ingests into the engine; the engine's token number. `record`, when
   * given, receives the input as the log keeps it (format, updateFormat,
   * array, payload bytes).
   */
  #ingestNumber(table, data, options = {}, record = null) {
    const engine = this.#open();
    requireString(table, 'the table');
    const { format = 'json', updateFormat = 'insert_delete' } = options;
    requireString(format, 'format');
    requireString(updateFormat, 'updateFormat');
    const number = this.#program.tableNumber(table);
    // The rows of insert(), delete() and ingest() of an array, the
    // per-change path, first and in a method of its own: V8 optimizes a
    // function once it has run about as much bytecode as it has times a
    // few thousand, so a long function whose calls take one short branch
    // of it is optimized late (when this one held every kind of input,
    // Chromium's V8 compiled it with TurboFan only at an application's
    // changes ~#8,000-#15,000, even after the warm-up: warm_up.js).
    if (Array.isArray(data)) return this.#ingestArray(engine, table, number, data, options, format, updateFormat, record);
    return this.#ingestPayload(engine, table, number, payloadOf(data), format, updateFormat, options.array ?? true, record);
  }

  /** An array of objects: a row block (row_block.js), or JSON text where a block cannot say it. */
  #ingestArray(engine, table, number, data, options, format, updateFormat, record) {
    if (format !== 'json') throw invalidArgument(`an array of objects is JSON input, not ${format}`);
    const deletes = options === DELETE_ROWS;
    const kind = deletes ? DELETES : updateFormat === 'insert_delete' ? RECORDS : updateFormat === 'raw' ? ROWS : -1;
    const token = number >= 0 && kind >= 0
      ? this.#fast.ingestObjects(number, data, this.#program.columnNames(number), kind)
      : REFUSED;
    if (token === REFUSED) return this.#ingestPayload(engine, table, number, stringifyJson(deletes ? deleteRecords(data) : data), format, updateFormat, true, record);
    if (record) Object.assign(record, { format, updateFormat, array: true, payload: encoder.encode(stringifyJson(deletes ? deleteRecords(data) : data)) });
    return this.#accepted(token);
  }

  /** JSON or CSV text, or its bytes. */
  #ingestPayload(engine, table, number, payload, format, updateFormat, array, record) {
    const formatNumber = inputFormat(format, updateFormat);
    const token = number >= 0 && formatNumber !== undefined
      ? this.#fast.ingest(number, payload, formatNumber, array !== false)
      : engine.ingest(table, payload, format, updateFormat, array !== false);  // the engine names what is wrong
    if (token < 0) throw errorOf(engine.lastError());
    if (record) {
      const bytes = typeof payload === 'string' ? encoder.encode(payload) : payload.slice();  // the caller may reuse its buffer
      Object.assign(record, { format, updateFormat, array: array !== false, payload: bytes });
    }
    return this.#accepted(token);
  }

  #accepted(token) {
    if (this.#state === 'running') this.#stepper.wake();  // paused: only step() and snapshots step
    return token;
  }

  /** Inserts rows (objects keyed by column name). */
  insert(table, rows) {
    return this.ingest(table, Array.isArray(rows) ? rows : [rows], RAW_ROWS);
  }

  /** Deletes rows, or for a table with a PRIMARY KEY, rows by key ({ id: 1 }). */
  delete(table, rowsOrKeys) {
    return this.ingest(table, Array.isArray(rowsOrKeys) ? rowsOrKeys : [rowsOrKeys], DELETE_ROWS);
  }

  /** @returns {'complete' | 'inprogress'} */
  completionStatus(token) {
    const engine = this.#open();
    return unwrap(engine.completionStatus(this.#tokens.number(token))).number ? 'complete' : 'inprogress';
  }

  /** Resolves once completionStatus(token) is 'complete'. */
  async waitForCompletion(token) {
    if (this.completionStatus(token) === 'complete') return;
    if (this.#failure) throw this.#failure;
    const number = this.#tokens.number(token);
    await new Promise((resolve, reject) => this.#completionWaiters.push({ token: number, resolve, reject }));
  }

  #checkCompletions() {
    if (!this.#completionWaiters.length) return;
    this.#completionWaiters = this.#completionWaiters.filter((waiter) => {
      const complete = this.#engine.completionStatus(waiter.token).number === 1;
      if (complete) waiter.resolve();
      return !complete;
    });
  }

  // ------------------------------------------------------- pull: egress

  /**
   * An async iterator over a view's changes (one consumer).
   * @param {string} view
   * With `name` the stream is a named egress (named_egress.js): it outlives
   * its consumer, and `resumeFrom` (the last sequenceNumber received)
   * continues with the chunk after it.
   * @param {{ sendSnapshot?: boolean, index?: string, maxQueuedChunks?: number, onLag?: 'block' | 'coalesce' | 'drop',
   *   name?: string, resumeFrom?: number, retention?: { chunks?: number, bytes?: number } }} [options]
   */
  egress(view, options = {}) {
    const engine = this.#open();
    const { sendSnapshot = false, index = '', maxQueuedChunks = 1000, onLag = 'block', name } = options;
    requireString(view, 'the view');
    requireString(index, 'index');
    if (!LAG_POLICIES.has(onLag)) throw invalidArgument(`onLag is 'block', 'coalesce' or 'drop', not '${onLag}'`);
    if (!(Number.isInteger(maxQueuedChunks) && maxQueuedChunks > 0)) {
      throw invalidArgument('maxQueuedChunks is a positive integer');
    }
    const id = name === undefined
      ? unwrap(engine.openEgress(view, index, !!sendSnapshot, maxQueuedChunks, onLag)).number
      : openNamedEgress(engine, { view, index, sendSnapshot: !!sendSnapshot, maxQueuedChunks, onLag }, options);
    const stream = new EgressStream(id, this.#program.shape(view, index), {
      engine: () => this.#open(),
      nextChunk: (egressId, columns) => {
        this.#open();
        return this.#fast.nextChunkOrText(egressId, columns);
      },
      nextStep: () => this.#nextStep(),
      taken: () => this.#state === 'running' && this.#stepper.wake(),  // a full queue may have held steps back
    });
    if (sendSnapshot && options.resumeFrom === undefined) this.#stepper.wake(true);
    return stream;
  }

  /**
   * Replaces the program in place (replace_program.js): kept views keep their
   * state and streams, new, changed and failed views are bootstrapped.
   * @param {string} sql
   * @returns {Promise<{ rebuiltViews: string[], restoredOperators: number, rebuiltOperators: number }>}
   */
  async replaceProgram(sql) {
    const engine = this.#open();
    const result = replaceEngineProgram(engine, sql);
    this.#program = new Program(unwrap(engine.describeProgram()).text);
    this.#usesClock = engine.usesClock();
    this.#stepper.wake();  // input buffered, snapshots pending
    return result;
  }

  /** Closes the named egress `name` for good (a stream's close() only disconnects it). */
  closeEgress(name) {
    closeNamedEgress(this.#open(), name);
  }

  /**
   * A live view of a materialized view for UI code: its rows kept current
   * from an egress stream with a snapshot (live_view.js). `index` egresses
   * through that index (one row per key); `key` names columns that tell rows
   * apart (else equal rows are one, counted).
   * @param {string} view
   * @param {{ index?: string, key?: string | string[] }} [options]
   */
  live(view, options = {}) {
    this.#open();
    requireString(view, 'the view');
    for (const option of Object.keys(options ?? {})) {
      if (option !== 'index' && option !== 'key') throw invalidArgument(`live('${view}'): unsupported option '${option}' (index, key)`);
    }
    const { index = '', key } = options ?? {};
    requireString(index, 'index');
    const makeRows = rowsMaker(view, this.#program.shape(view, index), key);
    return new LiveView(view, () => this.egress(view, { sendSnapshot: true, index }), makeRows);
  }

  // ---------------------------------------------------- push: connectors

  /**
   * Adds a named output connector writing a view's changes to `sink`.
   * @param {string} name
   * @param {{ view: string, index?: string, sendSnapshot?: boolean, sink: { write(chunk: object): unknown, reset?(): unknown, describe?(): unknown } }} config
   */
  addOutput(name, config) {
    const engine = this.#open();
    const { view, index = '', sendSnapshot = false } = config ?? {};
    let { sink } = config ?? {};
    requireString(name, "an output's name");
    requireString(view, `output '${name}': view`);
    requireString(index, `output '${name}': index`);
    if (typeof sink?.write !== 'function') throw invalidArgument(`output '${name}' needs a sink with write(chunk)`);
    const description = typeof sink.describe === 'function' ? JSON.stringify(sink.describe()) ?? '{}' : '{}';
    sink = withRetries(sink, SINK_METHODS, { label: `output '${name}'`, incidents: this.#incidents, policy: this.#retry });
    const number = this.#nextConnectorNumber;
    const added = unwrap(engine.addOutput(name, view, index, !!sendSnapshot, typeof sink.reset === 'function', description, number));
    ++this.#nextConnectorNumber;
    const shape = this.#program.shape(view, index);
    const connector = new Connector(name, { view, index, sendSnapshot: !!sendSnapshot, shape }, sink,
                                    (sequenceNumber) => this.#acknowledge(connector, number, sequenceNumber),
                                    (pump) => this.#pumps.add(pump));
    this.#connectors.set(name, connector);
    this.#connectorNumbers.set(number, connector);
    // Configured otherwise than in the checkpoint: a new connector, whose
    // destination is wiped before anything is written to it.
    if (added.number === 1) connector.wipe();
    this.#deliverWrites();  // a resumed connector's chunks its sink had not yet taken
    if (sendSnapshot) this.#stepper.wake(true);
  }

  removeOutput(name) {
    unwrap(this.#open().removeOutput(requireString(name, "an output's name")));
    const connector = this.#connectors.get(name);
    connector.stop(new FreshetError('UNKNOWN_OUTPUT', `output '${name}' was removed`));
    this.#connectors.delete(name);
    for (const [number, other] of this.#connectorNumbers) if (other === connector) this.#connectorNumbers.delete(number);
    this.#checkCompletions();
    this.#stepper.wake();
  }

  /**
   * Wipes the output's destination (sink.reset()) and writes a fresh snapshot
   * of the view into it; resolves once that snapshot is written.
   */
  async resetOutput(name) {
    unwrap(this.#open().resetOutput(requireString(name, "an output's name")));
    if (this.#failure) throw this.#failure;  // no step will deliver the snapshot
    const written = this.#connectors.get(name).reset();
    this.#stepper.wake(true);
    await written;
  }

  #deliverWrites() {
    if (!this.#connectors.size) return;  // only connectors write
    this.#fast.takeWrites(this.#connectorOf);  // every chunk written, in one call
  }

  #acknowledge(connector, number, sequenceNumber) {
    if (!this.#engine || this.#connectors.get(connector.name) !== connector) return;
    const next = this.#fast.acknowledge(number, sequenceNumber);
    if (next < 0) throw errorOf(this.#engine.lastError());
    if (next) this.#deliverWrites();  // the core offered the connector's next chunk
    this.#checkCompletions();
    // A connector with a full queue may have held steps back (only automatic ones: paused, none run).
    if (this.#state === 'running') this.#stepper.wake();
  }

  // -------------------------------------------------------------- queries

  /** The current rows of a materialized view. */
  snapshot(view) {
    const reply = unwrap(this.#open().snapshot(requireString(view, 'the view')));
    return parseRows(reply.text, this.#program.view(view).columns);
  }

  /**
   * Runs one SELECT once over the current contents (as of the last step) of
   * the materialized views and tables, compiled by the same SQL front end as
   * the program; rows come in ORDER BY order. A relation that is not
   * materialized fails with NOT_MATERIALIZED, bad SQL with SQL_ERROR naming
   * line and column. Bounded (LIMIT_EXCEEDED past a bound, nothing kept):
   * the answer by `maxRows` (default 100,000) and `maxBytes` (16 MiB), the
   * work on the way by `maxWorkRows` (4,000,000 rows built by its operators,
   * its inputs' copies included) and `maxWorkBytes` (64 MiB).
   * @param {string} sql
   * @param {{ maxRows?: number, maxBytes?: number, maxWorkRows?: number, maxWorkBytes?: number }} [limits]
   * @returns {Promise<Record<string, any>[]>}
   */
  async query(sql, limits = {}) {
    const bound = (name) => {
      const value = limits[name] ?? 0;
      if (!(Number.isSafeInteger(value) && value >= 0)) throw invalidArgument(`${name} is a positive integer`);
      return value;  // 0: the engine's default
    };
    const reply = unwrap(this.#open().query(requireString(sql, 'the query'), bound('maxRows'), bound('maxBytes'),
                                            bound('maxWorkRows'), bound('maxWorkBytes')));
    return parseQueryRows(reply.text);
  }

  /**
   * The rows of an index for one key: an object of the key's columns, an
   * array of their values in index order, or the value of a one-column key.
   */
  lookup(index, key) {
    const engine = this.#open();
    const found = this.#program.index(requireString(index, 'the index'));
    const names = found.key;
    let keyObject;
    if (Array.isArray(key) || typeof key !== 'object' || key === null) {
      const values = Array.isArray(key) ? key : [key];
      if (values.length !== names.length) {
        throw invalidArgument(`index '${index}' has ${names.length} key column(s) (${names.join(', ')}), got ${values.length} value(s)`);
      }
      keyObject = Object.fromEntries(names.map((name, i) => [name, values[i]]));
    } else {
      const missing = names.filter((name) => !(name in key));
      if (missing.length) throw invalidArgument(`lookup key for index '${index}' misses ${missing.join(', ')}`);
      keyObject = key;
    }
    const reply = unwrap(engine.lookup(index, stringifyJson(keyObject)));
    return parseRows(reply.text, this.#program.view(found.view).columns);
  }

  // ---------------------------------------------------------- checkpoints

  /**
   * Writes one checkpoint of the state as of the last step (tables, views,
   * buffered input, connectors' snapshot state and statistics) to the storage.
   * @returns {Promise<{ sequenceNumber: number, step: number, bytes: number }>}
   */
  checkpoint() {
    this.#open();
    if (!this.#storage) return Promise.reject(invalidArgument('checkpoint() needs a storage: Pipeline.create({ sql, storage })'));
    if (this.#failure) return Promise.reject(this.#failure);
    const run = this.#checkpointing.then(async () => {
      const engine = this.#open();
      let covered = null;
      const hostState = () => {
        covered = this.#log?.nextSeq ?? null;  // taken as the state is encoded
        return hostStateText(this.#tokens.save(), covered);
      };
      try {
        const written = await writeCheckpoint(this.#module.Engine, engine, this.#storage, this.#checkpoint, hostState);
        if (covered !== null) await this.#truncateLog(covered);
        return written;
      } catch (error) {
        noteFailedWrite(this.#checkpoint, error);  // the previous checkpoint stays in use
        throw error;
      }
    });
    this.#checkpointing = run.catch(() => {});
    return run;
  }

  /**
   * Drops the log up to what the checkpoint before this one holds: the
   * storage keeps the newest two checkpoints, and resuming from the older
   * one (the newer damaged) still finds its log.
   */
  async #truncateLog(covered) {
    const older = this.#logCovered;
    this.#logCovered = covered;
    try {
      await this.#log.truncate(older);
    } catch (error) {
      this.#checkpoint.lastError = error.message;  // the checkpoint is whole; the log only costs space
    }
  }

  // --------------------------------------------------- status and lifetime

  /** The circuit, or what view `view` depends on, as text and operators (circuit_explain.js). */
  explain(view) {
    return explainCircuit(this.#open(), view);
  }

  /** Every operator's live figures: state rows and bytes, time in the last step and in total. */
  inspect() {
    return inspectCircuit(this.#open());
  }

  stats() {
    const stopped = engineStopped(this.#module);
    if (!stopped) this.#lastCoreStats = this.#open().stats();
    else if (!this.#engine) throw closedError();
    const stats = toStats(this.#lastCoreStats ?? STOPPED_CORE_STATS, {
      state: this.#state,
      connectors: this.#connectors,
      wasmMemoryBytes: stopped ? null : this.#module.wasmMemoryBytes(),
    });
    stats.memoryBudgetBytes = this.#memoryBudget;
    stats.failure = this.#failure && { code: this.#failure.code, message: this.#failure.message };
    stats.checkpoint = { ...this.#checkpoint, skippedDamaged: [...this.#checkpoint.skippedDamaged] };
    stats.incidents = this.#incidents.snapshot();
    return stats;
  }

  /**
   * Stops the pipeline. New input is refused at once (CLOSED). With a
   * storage it then waits for the input log's writes and the connectors'
   * and takes a last checkpoint (unless `checkpoint: false`, which waits for
   * the log alone), for at most `timeoutMs` (default 5000), and frees the
   * engine; any later use fails with CLOSED. Idempotent: every call returns
   * the same Promise.
   * @param {{ timeoutMs?: number, checkpoint?: boolean }} [options]
   * @returns {Promise<void>}
   */
  close(options = {}) {
    if (this.#closing) return this.#closing;
    if (!this.#engine) return (this.#closing = Promise.resolve());
    const { timeoutMs = DEFAULT_CLOSE_TIMEOUT_MS, checkpoint = true } = options ?? {};
    if (!(typeof timeoutMs === 'number' && timeoutMs >= 0)) throw invalidArgument('close({ timeoutMs }) is a number of milliseconds >= 0');
    if (!this.#log && (!this.#storage || !checkpoint || this.#failure)) {
      this.#free();
      return (this.#closing = Promise.resolve());
    }
    this.#stepper.stop();
    this.#closing = closeGracefully(() => this.#flushAndCheckpoint(checkpoint), timeoutMs).finally(() => this.#free());
    this.#closing.catch(() => {});
    return this.#closing;
  }

  /** What close() waits for: the log, then (`checkpoint`) the connectors' queued writes and a checkpoint. */
  async #flushAndCheckpoint(checkpoint) {
    await this.#log?.idle();
    if (!checkpoint || this.#failure) return;
    while (this.#engine && [...this.#connectors.values()].some((connector) => connector.busy)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (this.#engine && !this.#failure) await this.checkpoint();
  }

  /** Frees the engine; any later use fails with CLOSED. */
  #free() {
    if (!this.#engine) return;
    const engine = this.#engine;
    this.#engine = null;
    this.#stepper.stop();
    const error = closedError();
    // Kept, stopped: nothing reads them after close (every method asks
    // #open() first), and a closed pipeline the warm-up keeps thereby
    // keeps the connectors' shapes, which the step's optimized code checks
    // (warm_up.js).
    for (const connector of this.#connectors.values()) connector.stop(error);
    for (const waiter of this.#completionWaiters.splice(0)) waiter.reject(error);
    this.#rejectHeld(error);
    this.#stepped?.reject(error);
    this.#stepped = null;
    forgottenEngines?.unregister(this);
    this.#stopListening?.();
    engine.delete();
  }

  #open() {
    if (!this.#engine) throw closedError();
    const stopped = engineStopped(this.#module);
    if (stopped) throw stopped;
    return this.#engine;
  }
}

/** Text or bytes as ingest() takes them: a string, or a Uint8Array over the bytes. */
function payloadOf(data) {
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw invalidArgument('ingest takes JSON or CSV text, bytes, or an array of objects');
}

/** delete()'s rows as the insert_delete records they stand for. */
function deleteRecords(rows) {
  return rows.map((row) => ({ delete: row }));
}

/** A WeakRef to `object`, or where the host has none (workerd) a strong one. */
function weakRefTo(object) {
  return typeof WeakRef === 'function' ? new WeakRef(object) : { deref: () => object };
}

// stats() of a pipeline whose engine stopped before any stats() was read.
const STOPPED_CORE_STATS = JSON.stringify({ step: null, memory_bytes: null, inputs: {}, outputs: {}, egress: {} });

function closedError() {
  return new FreshetError('CLOSED', 'the pipeline is closed');
}

/** Runs `work`, giving up after `timeoutMs` (close() then frees the engine anyway). */
function closeGracefully(work, timeoutMs) {
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  return Promise.race([work().catch(() => {}), timeout]).finally(() => clearTimeout(timer));
}
