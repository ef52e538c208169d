// Types of the npm package `freshet` (docs/js-api.md). The same declarations
// serve every entry point (node, browser, workerd).

/**
 * A SQL value in JS: BIGINT outside ±(2^53 − 1) is a bigint; DATE, TIMESTAMP and TIME
 * ('12:30:00.250') are strings; an INTERVAL is its text as CAST(... AS VARCHAR) gives it
 * ('+1 02:00:00', '+1-02').
 */
export type SqlValue = boolean | number | bigint | string | null;
/** A row: an object keyed by column name. */
export type Row = Record<string, SqlValue>;

export type ErrorCode =
  | 'INVALID_ARGUMENT' | 'SQL_ERROR' | 'PARSE_ERROR' | 'TYPE_ERROR' | 'UNKNOWN_TABLE' | 'UNKNOWN_VIEW'
  | 'UNKNOWN_INDEX' | 'UNKNOWN_OUTPUT' | 'DUPLICATE_OUTPUT' | 'UNKNOWN_TOKEN' | 'NOT_MATERIALIZED'
  | 'NOT_RESETTABLE' | 'PROGRAM_MISMATCH' | 'CHECKPOINT_CORRUPT' | 'STORAGE_ERROR' | 'CLOSED' | 'OVERFLOW'
  | 'INTERNAL' | 'RESUME_UNAVAILABLE' | 'LIMIT_EXCEEDED' | 'OUT_OF_MEMORY' | 'CHECKPOINT_VERSION';

export const ERROR_CODES: readonly ErrorCode[];

/** Every error the package throws. */
export class FreshetError extends Error {
  constructor(code: ErrorCode, message: string);
  readonly name: 'FreshetError';
  readonly code: ErrorCode;
  /** Where the problem is, when the message names it (SQL: line and column; input: table, record, column). */
  readonly details: { line?: number; column?: number | string; table?: string; record?: number };
}

/** A chunk of a view's changes: its snapshot, or one step's delta. */
export interface RowChunk {
  sequenceNumber: number;
  /** The step that produced it (steps are numbered from 0, as StepResult.step). */
  step: number;
  snapshot: boolean;
  snapshotComplete: boolean;
  inserts: Row[];
  deletes: Row[];
}

/** A chunk of changes through an index: upserts and deletes by key. */
export interface KeyedChunk {
  sequenceNumber: number;
  step: number;
  snapshot: boolean;
  snapshotComplete: boolean;
  upserts: { key: Row; row: Row }[];
  deletes: { key: Row }[];
}

export type Chunk = RowChunk | KeyedChunk;

/** Where a connector writes. write() may return a Promise; a throw or rejection is retried. */
export interface Sink {
  write(chunk: Chunk): unknown;
  /** Wipes the destination (resetOutput, and a changed connector on resume). */
  reset?(): unknown;
  /** A JSON-able description, part of the connector's identity in a checkpoint. */
  describe?(): unknown;
}

export interface OutputConfig {
  view: string;
  index?: string;
  sendSnapshot?: boolean;
  sink: Sink;
}

/** Where checkpoints go: named blobs (MemoryStorage, IndexedDBStorage, KVStorage, FileStorage, DurableObjectStorage, or your own). */
export interface Storage {
  put(name: string, bytes: Uint8Array): Promise<void> | void;
  get(name: string): Promise<Uint8Array | ArrayBuffer | undefined> | Uint8Array | ArrayBuffer | undefined;
  /** Names starting with `prefix`. */
  list(prefix: string): Promise<string[]> | string[];
  delete(name: string): Promise<void> | void;
}

export interface CreateOptions {
  sql: string;
  outputs?: Record<string, OutputConfig>;
  /** Resumes from the newest valid checkpoint it holds; checkpoint() writes there. */
  storage?: Storage;
  /** A checkpoint of another program: fail with PROGRAM_MISMATCH (default) or start afresh. */
  onProgramChange?: 'fail' | 'restart';
  /**
   * 'log' (needs a storage): every ingest is written to the storage's input
   * log before its token is given (ingest, insert, delete and step then
   * return Promises); steps take only input that is durable; create replays
   * the log after the newest checkpoint, re-running the same steps, and a
   * checkpoint truncates it. So nothing acknowledged is lost in a crash.
   * Costs one storage write per ingest (ingests of one turn of the event
   * loop share it). Default 'none': input after the last checkpoint is lost
   * in a crash.
   */
  durability?: Durability;
  /**
   * The engine's memory budget in bytes: its state plus what one step
   * builds. A step past it fails with OUT_OF_MEMORY naming the operator
   * that grew. Default 40 MiB (fits a 128 MiB Workers isolate with room);
   * 0 or Infinity: none. At most 4 GiB.
   */
  maxMemoryBytes?: number;
  /**
   * What an SQL runtime error (division by zero, overflow, a bad cast, a
   * scalar subquery with two rows) does in a view without its own
   * WITH ('on_runtime_error' = ...): 'fail' (default, as Feldera) fails the
   * view and the views that depend on it (stats().views[v].failed; the
   * others step on); 'null' makes the failing expression NULL for that row (such
   * expressions are typed nullable), counts it (stats().views[v].nulledErrors)
   * and lists it in the system view error_view.
   */
  onRuntimeError?: 'fail' | 'null';
  /** Rows the system view error_view keeps, the newest (default 1000; older ones leave it). */
  errorViewRetention?: number;
  /**
   * Starts paused (as if pause() ran first): input a resume left buffered
   * waits for step() or start(). Default false: that input is stepped before
   * create resolves.
   */
  paused?: boolean;
  /**
   * A checkpoint of a format version this package does not read (written by
   * a newer package, or by an older one whose format is no longer read):
   * fail with CHECKPOINT_VERSION (default; details: version, readableVersions)
   * or start afresh without it. Never resumed from an older checkpoint instead.
   */
  onIncompatibleCheckpoint?: 'fail' | 'restart';
  /**
   * Storage and sink calls that fail are tried again after an exponential
   * backoff with jitter (attempt n waits between cap/2 and cap, cap =
   * min(maxDelayMs, firstDelayMs * 2^(n-1))), up to `attempts` tries in all
   * (defaults 5, 20, 2000); stats().incidents reports them.
   */
  storageRetry?: { attempts?: number; firstDelayMs?: number; maxDelayMs?: number };
  /**
   * The host clock NOW() reads, in milliseconds since 1970-01-01 UTC
   * (default Date.now). Tests set the time with it: `clock: () => fakeNow`.
   */
  clock?: () => number;
  /**
   * NOW() is the clock rounded down to this many milliseconds (default 100,
   * as Feldera's clock_resolution_usecs): constant within a step, the time
   * the step was taken. Held while the pipeline is paused; never goes
   * backwards (a resumed checkpoint's time holds until the clock passes it).
   */
  clockResolutionMs?: number;
  /**
   * A running pipeline steps by itself when a row is due to enter or leave
   * a temporal filter (`WHERE ts > NOW() - INTERVAL '1' HOUR`), at that time
   * rounded up to this many milliseconds (default 1000). A view reading
   * NOW() elsewhere (in SELECT) changes at every tick: it steps every
   * max(clockResolutionMs, temporalStepMs), redoing its rows each time.
   */
  temporalStepMs?: number;
}

/** Bounds on one ad-hoc query (`p.query`); 0 or absent keeps the default. */
export interface QueryLimits {
  /** Rows of the answer, each counted as often as it occurs (default 100,000). */
  maxRows?: number;
  /** Bytes of the answer's rows in the engine's encoding (default 16 MiB). */
  maxBytes?: number;
  /** Rows the query's operators build on the way, its inputs' copies included (default 4,000,000). */
  maxWorkRows?: number;
  /** Their bytes (default 64 MiB). */
  maxWorkBytes?: number;
}

export interface CheckpointResult {
  sequenceNumber: number;
  step: number;
  /** Bytes written (parts and manifest). */
  bytes: number;
}

export interface CheckpointStats {
  /** The newest checkpoint written or resumed from. */
  sequenceNumber: number | null;
  step: number | null;
  /** The checkpoint this pipeline resumed from. */
  restoredFrom: number | null;
  /** Damaged checkpoints skipped when resuming. */
  skippedDamaged: number[];
  lastError: string | null;
  /** Checkpoint writes that failed (after their retries); the one in use stays sequenceNumber. */
  failedWrites: number;
  /** The last failed write: its error, when, and the checkpoint still in use then. */
  lastFailure: { error: string; code: ErrorCode; at: string; inUse: number | null } | null;
}

/**
 * A run of consecutive failures of one operation (put, get, write, ...) on
 * one storage or sink, retried: `outcome` 'retrying' while it lasts,
 * 'recovered' once a try succeeded, 'failed' when the retries gave up.
 */
export interface StorageIncident {
  target: string;
  operation: string;
  failures: number;
  firstError: string;
  lastError: string;
  startedAt: string;
  durationMs: number;
  outcome: 'retrying' | 'recovered' | 'failed';
}

export interface IncidentStats {
  incidents: number;
  failures: number;
  /** Incidents whose retries gave up (the error then reached the checkpoint or the connector). */
  givenUp: number;
  /** The newest incidents (at most 20 closed ones), open ones last. */
  recent: StorageIncident[];
}

export interface IngestOptions {
  format?: 'json' | 'csv';
  updateFormat?: 'insert_delete' | 'raw';
  /** JSON text: one array of records (true, the default) or newline-delimited records. */
  array?: boolean;
}

/** What p.replaceProgram() did. */
export interface ProgramReplacement {
  /** Views bootstrapped: new, changed (also those reading a changed view) or recovered (failed) ones. */
  rebuiltViews: string[];
  /** Operators that kept their state, and those rebuilt. */
  restoredOperators: number;
  rebuiltOperators: number;
}

export interface EgressOptions {
  sendSnapshot?: boolean;
  index?: string;
  maxQueuedChunks?: number;
  onLag?: 'block' | 'coalesce' | 'drop';
  /** A named egress: it outlives its consumer, is checkpointed, and resumes (docs/js-api.md). */
  name?: string;
  /** With `name`: the sequenceNumber of the last chunk you have; continues with the next one (else RESUME_UNAVAILABLE). */
  resumeFrom?: number;
  /** With `name`: how much of what was taken it keeps for a resume (default 1000 chunks, 2 MiB). */
  retention?: { chunks?: number; bytes?: number };
}

export interface StepResult {
  /** This step's number: the first step is 0 (chunks it produces carry it). */
  step: number;
  inputRecords: number;
  durationMs: number;
}

export interface EndpointStats {
  view: string;
  transmittedRecords: number;
  transmittedBatches: number;
  queuedRecords: number;
  queuedChunks: number;
  snapshotSent: boolean;
  snapshotRecords: number;
  snapshotTotal: number;
  resets: number;
  resetInProgress: boolean;
  errors: number;
  lastError: string | null;
  droppedChunks: number;
  /** Its view failed (ViewStats.failed): the endpoint gets nothing more. */
  failed: { code: ErrorCode; message: string } | null;
}

/**
 * A view's figures. `failed`: a runtime error (division by zero, overflow, a
 * bad cast, a scalar subquery with two rows) in an operator the view comes
 * from failed it at `step`; the message names the view, the step and the
 * operator. A failed view stays failed until the pipeline is re-created.
 */
export interface ViewStats {
  /** A runtime error failed the view (and its dependents), at that step; null while it steps. */
  failed: { code: ErrorCode; message: string; step: number } | null;
  /** Runtime errors its expressions turned into NULL ('null' mode; each evaluation counts). */
  nulledErrors: number;
}

/** One operator of `p.explain()`. */
export interface CircuitOperator {
  /** `#12`: the operator's id (its place in evaluation order for now). */
  id: string;
  /** `'join'`, `'aggregate'`, `'top_k'`, `'upsert input'`, ... */
  kind: string;
  /** Its parameters in a few words (`'on (id)'`, `'SUM by (name)'`, `'limit 10'`), or `''`. */
  description: string;
  /** Ids of the operators whose outputs it reads (a delay's back edge included). */
  inputs: string[];
  /** What its output stream is: `'table t'`, `'view v'`, `'index i'`. */
  outputs: string[];
  /** The views that depend on it. */
  views: string[];
  /** Operators reading its output. */
  consumers: number;
  /** Its output is read more than once (several operators, or several views/indexes). */
  shared: boolean;
  /** Entries of state it keeps (traces, groups); an upper bound while a trace has unmerged batches. */
  rows: number;
  bytes: number;
}

/** What `p.explain()` returns. */
export interface CircuitExplanation {
  text: string;
  operators: CircuitOperator[];
  /** The views in scope: the operator writing each, and a materialized view's own copy. */
  views: { name: string; operator: string; materialized: boolean; bytes: number }[];
}

/** One operator of `p.inspect()`. */
export interface OperatorFigures {
  id: string;
  kind: string;
  views: string[];
  rows: number;
  bytes: number;
  /** Time it took in the last step (0 when it was skipped). */
  lastStepMicros: number;
  totalMicros: number;
  shared: boolean;
  consumers: number;
}

/** What `p.inspect()` returns. */
export interface CircuitInspection {
  /** Steps run so far. */
  step: number;
  operators: OperatorFigures[];
  views: { name: string; operator: string; materialized: boolean; bytes: number }[];
  totals: { operators: number; rows: number; bytes: number; viewBytes: number; lastStepMicros: number; totalMicros: number };
}

export interface Stats {
  /** Steps run so far, which is also the number the next step will carry. */
  step: number;
  state: 'running' | 'paused';
  /** Bytes held by the engine's state (traces, operator state, queues). */
  memoryBytes: number;
  /** The size of the wasm memory (it only grows); null once the engine stopped (a trap). */
  wasmMemoryBytes: number | null;
  /** maxMemoryBytes in force (0: none). */
  memoryBudgetBytes: number;
  checkpoint: CheckpointStats;
  /**
   * Per table: records taken, bytes of input (text or bytes as given; for an
   * array of objects, the binary block it crossed into the engine as, or its
   * JSON text when it went as JSON), calls refused, and updates dropped as
   * late by a LATENESS column (0 without one).
   */
  inputs: Record<string, { totalRecords: number; totalBytes: number; parseErrors: number; lateRecords: number }>;
  outputs: Record<string, EndpointStats>;
  /** Egress streams by id (EgressStream.id). */
  egress: Record<string, EndpointStats>;
  /** Every view of the program by name. */
  views: Record<string, ViewStats>;
  /** The system view error_view: rows kept, its retention, rows that left it (or never entered) for the retention. */
  errorView: { rows: number; retention: number; evicted: number };
  /** The error that stopped the pipeline (a table's input failed in a step), if one did. */
  failure: { code: ErrorCode; message: string } | null;
  /** Storage and sink calls that failed and were retried, one entry per incident (storageRetry). */
  incidents: IncidentStats;
}

/** One consumer of a view's changes; `for await` it, then close() or break. */
export interface EgressStream<C extends Chunk = Chunk> extends AsyncIterableIterator<C> {
  readonly id: number;
  next(): Promise<IteratorResult<C, undefined>>;
  return(): Promise<IteratorResult<C, undefined>>;
  close(): void;
}

/** p.live()'s options: `index` follows the view through that index (one row per key); `key` names the columns that tell rows apart. */
export interface LiveOptions {
  index?: string;
  key?: string | string[];
}
/** 'loading' until the snapshot is complete (also for an empty view), and again while a fresh one loads. */
export type LiveStatus = 'loading' | 'ready' | 'error';
/** A live view's last change without an index: the rows inserted and deleted (the view's row objects). */
export interface LiveChanges<R extends Row = Row> {
  step: number;
  inserts: readonly Readonly<R>[];
  deletes: readonly Readonly<R>[];
}
/** A live view's last change through an index. */
export interface LiveKeyedChanges<R extends Row = Row> {
  step: number;
  upserts: readonly { key: Readonly<Row>; row: Readonly<R> }[];
  deletes: readonly { key: Readonly<Row> }[];
}
/** A view's rows kept current for UI code (p.live()); the Svelte store contract. */
export interface LiveView<R extends Row = Row> {
  readonly view: string;
  /** Frozen rows, built on read and cached until the next change; an unchanged row keeps its object. */
  readonly current: readonly Readonly<R>[];
  readonly status: LiveStatus;
  readonly error: FreshetError | null;
  /** The last notification's changes; null when it was a status change. */
  readonly changes: LiveChanges<R> | LiveKeyedChanges<R> | null;
  /** + 1 per notification. */
  readonly version: number;
  /** Calls `listener(current)` at once and after each notification; returns the unsubscribe function. */
  subscribe(listener: (rows: readonly Readonly<R>[]) => void): () => void;
  /** Calls `listener()` after each notification only. */
  listen(listener: () => void): () => void;
  /** Ends the egress stream; the last rows and status stay readable. */
  close(): void;
}

export type IngestData = string | Uint8Array | ArrayBuffer | ArrayBufferView | object[];

/**
 * A column of a table or view. `type` is the SQL type as Feldera writes it,
 * without NOT NULL (`nullable` says that): 'BIGINT', 'DECIMAL(10, 2)',
 * 'VARCHAR', 'VARCHAR(20)', 'TIMESTAMP', 'INTERVAL HOUR TO MINUTE', ...
 */
export interface ColumnDescription {
  name: string;
  type: string;
  nullable: boolean;
  /** DECIMAL columns: digits in all and after the point. */
  precision?: number;
  scale?: number;
  /** VARCHAR(n) columns: n. */
  length?: number;
}

/** CREATE INDEX name ON view(key...). */
export interface IndexDescription {
  name: string;
  view: string;
  /** The key columns, in the index's order. */
  key: string[];
}

export interface TableDescription {
  name: string;
  columns: ColumnDescription[];
  /** The PRIMARY KEY columns (empty without one): updates by key, deletes by key. */
  primaryKey: string[];
  /** WITH ('materialized' = 'true'): its rows are kept (snapshot, egress with sendSnapshot, query). */
  materialized: boolean;
  /** Its WITH (...) properties as written, key to value. */
  properties: Record<string, string>;
  /** The 'connectors' property's JSON array ([] without one). */
  connectors: unknown[];
  /** The LATENESS column (at most one), its bound as a SQL literal: "INTERVAL '1' HOUR", "60". */
  lateness: { column: string; lateness: string }[];
}

export interface ViewDescription {
  name: string;
  columns: ColumnDescription[];
  /** Its rows are kept (snapshot, sendSnapshot, lookup): declared MATERIALIZED, or indexed. */
  materialized: boolean;
  /** Its WITH (...) properties as written, key to value. */
  properties: Record<string, string>;
  /** The 'connectors' property's JSON array ([] without one). */
  connectors: unknown[];
  indexes: IndexDescription[];
}

/** A compile warning: a property accepted but not honoured, or an unknown one. */
export interface CompileWarning {
  message: string;
  line: number;
  column: number;
}

/** What the compiler knows of a program: `p.program`. Tables and views in program order. */
export interface ProgramDescription {
  tables: TableDescription[];
  views: ViewDescription[];
  /** The system view error_view (late records, runtime errors turned into NULL), readable as a materialized view. */
  systemViews: ViewDescription[];
  /** Some view reads NOW(): the pipeline steps by itself as time passes. */
  readsNow: boolean;
  warnings: CompileWarning[];
}

/** Whether acknowledged input survives a crash (CreateOptions.durability). */
export type Durability = 'none' | 'log';

/** What an ingest returns: the token, or with durability 'log' a Promise of it, resolved once the input is durable. */
export type Acknowledged<D extends Durability, T> = D extends 'log' ? Promise<T> : T;

/** Options of close(). */
export interface CloseOptions {
  /** How long close() waits for the input log, connectors' writes and the last checkpoint (default 5000 ms). */
  timeoutMs?: number;
  /** Take a last checkpoint when there is a storage (default true). */
  checkpoint?: boolean;
}

export class Pipeline<D extends Durability = 'none'> {
  private constructor();
  static create<D extends Durability = 'none'>(options: CreateOptions & { durability?: D }): Promise<Pipeline<D>>;

  /** 'closed' after close(). */
  readonly state: 'running' | 'paused' | 'closed';
  start(): void;
  pause(): void;
  /** With durability 'log', waits until every ingest so far is durable, then steps. */
  step(): Acknowledged<D, StepResult>;
  /** NOW() of the last step (ms since 1970), or null before a step or when no view reads NOW(). */
  readonly now: number | null;
  /** The program's description (deep-frozen; also after close()). */
  readonly program: ProgramDescription;

  /** Returns a completion token (durability 'log': a Promise of it, resolved once the input is durable in the storage). */
  ingest(table: string, data: IngestData, options?: IngestOptions): Acknowledged<D, string>;
  insert(table: string, rows: Row | Row[]): Acknowledged<D, string>;
  delete(table: string, rowsOrKeys: Row | Row[]): Acknowledged<D, string>;
  completionStatus(token: string): 'complete' | 'inprogress';
  waitForCompletion(token: string): Promise<void>;

  egress(view: string, options: EgressOptions & { index: string }): EgressStream<KeyedChunk>;
  egress(view: string, options?: EgressOptions): EgressStream<RowChunk>;
  /** Closes the named egress `name` for good (a stream's close() only disconnects it). */
  closeEgress(name: string): void;
  /**
   * Replaces the program in place, without re-creating the pipeline: views
   * whose text did not change keep their state and their open streams; new,
   * changed and failed views are bootstrapped from the full contents of
   * their inputs (a failed view recovers). A changed materialized view's
   * open streams get the difference; a changed view that is not
   * materialized, or whose columns changed, ends its streams with
   * RESUME_UNAVAILABLE; a removed view's streams end with UNKNOWN_VIEW.
   * PROGRAM_MISMATCH when a table was added, removed or changed, or a new
   * view reads a table that keeps no rows (no PRIMARY KEY, not
   * materialized); the old program then runs on.
   */
  replaceProgram(sql: string): Promise<ProgramReplacement>;
  /** A live view of a materialized view (loading until its snapshot is complete). */
  live<R extends Row = Row>(view: string, options?: LiveOptions): LiveView<R>;

  addOutput(name: string, config: OutputConfig): void;
  removeOutput(name: string): void;
  resetOutput(name: string): Promise<void>;

  /** The current rows of a materialized view or materialized table (WITH ('materialized' = 'true')). */
  snapshot(view: string): Row[];
  /**
   * Runs one SELECT (filters, joins, aggregates, ORDER BY, LIMIT, ...) once
   * over the current contents, as of the last step, of the materialized views
   * and tables. Rows come in ORDER BY order. Reading a relation that is not
   * materialized fails with code NOT_MATERIALIZED; bad SQL with SQL_ERROR,
   * naming line and column. Bounded by `limits` (defaults in QueryLimits):
   * past one, LIMIT_EXCEEDED and nothing kept.
   */
  query(sql: string, limits?: QueryLimits): Promise<Row[]>;
  lookup(index: string, key: Row | SqlValue[] | SqlValue): Row[];

  /** Writes one checkpoint (state, buffered input, connectors) to the storage given to create(). */
  checkpoint(): Promise<CheckpointResult>;

  stats(): Stats;
  /**
   * The circuit the program compiled to, or the part of it view `view`
   * depends on (UNKNOWN_VIEW when there is none): one line per operator in
   * `text`, and the operators with their inputs, state and sharing.
   */
  explain(view?: string): CircuitExplanation;
  /** Every operator's live figures: state, time in the last step and in total. */
  inspect(): CircuitInspection;
  /**
   * Refuses new input at once (CLOSED); with a storage, waits for the input
   * log and the connectors' writes and takes a last checkpoint (at most
   * `timeoutMs`), then frees the engine. Every call returns the same Promise.
   */
  close(options?: CloseOptions): Promise<void>;
}

/** An in-memory mirror of a view: rows with multiplicities, or rows by index key. */
export class MapSink implements Sink {
  write(chunk: Chunk): void;
  reset(): void;
  describe(): { type: 'MapSink' };
  readonly size: number;
  get(key: Row): Row | undefined;
  rows(): Row[];
}

export function callbackSink(
  write: (chunk: Chunk) => unknown,
  options?: { reset?: () => unknown; description?: unknown },
): Sink;

/** What `warmUp()` resolves to. */
export interface WarmUpResult {
  /** How long the warm-up took, in ms (in workerd, where clocks stand still while code runs, it may read 0). */
  ms: number;
}

/**
 * Steps a small built-in program (its own pipeline, closed at the end)
 * through the engine's hot paths so that the host's wasm compiler optimizes
 * them before your pipelines' first big load and changes need them. Runs
 * once per loaded engine; later calls resolve to the first result.
 */
export function warmUp(): Promise<WarmUpResult>;

export * from './storages.js';
