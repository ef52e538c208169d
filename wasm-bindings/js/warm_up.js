// warmUp(): runs a small built-in program through a throwaway pipeline so
// that the engine's hot paths are compiled by the host's optimizing wasm
// tier, and the package's JS around each step by its optimizing JS
// compiler, before the application's own pipelines need them
// (docs/js-api.md).
//
// ## Why
// V8 (Node, Chrome, workerd) first runs every wasm function in its baseline
// code (Liftoff) and compiles a function with TurboFan, on background
// threads, once it has run enough ("dynamic tiering"). The engine's hot
// paths therefore get compiled while the application's first big load and
// first ~1,000 changes run: 1-2 s of compiler CPU on helper threads, which
// on a machine with few cores takes the cores the application's steps need
// (changes of a few µs then take 4-30 ms). The JS that drives each step
// (ingesting a row, stepping, taking a chunk) is compiled the same way
// by the optimizing JS compiler. Running the same paths here first moves
// that compilation before the application's first pipeline.
//
// The program touches what ordinary programs use: a PRIMARY KEY table's
// upserts and deletes, a table without a key (inserts and deletes of whole
// rows, by delete() and as insert_delete records; values of every kind),
// a join, GROUP BYs (COUNT/SUM/MAX over the join; AVG/MIN and
// COUNT(DISTINCT) by a column; by a CASE), a filter, DISTINCT, a top-k
// (ORDER BY ... LIMIT) and a ROW_NUMBER() window, a step with every kind
// of value, one big step and single-row steps (which merge the traces'
// spines level by level), steps of a few hundred upserts at random ids
// (merges of random keys), the egress of two views (chunks taken after
// their step, and asked for before it) and an output (a callback sink) of
// a third. Its pipeline is closed at the end: it shares nothing with the
// application's pipelines but the wasm instance (whose memory it does not
// grow: its peak fits in the initial 16 MiB). After it, a second small
// pipeline takes 16,000 single-row upserts, each stepped and its chunk
// taken, so that a V8 with a middle tier (Maglev) has the per-change path
// compiled by its last one too (see LIGHT_STEPS). It does not wait for
// V8's compiler threads: they go on for a moment after it resolves.
//
// Before all that it runs and closes a small pipeline with an egress stream
// and an output: V8's optimized code assumes what it has seen of an object
// of a class so far (a stream's closed flag was never set; a pipeline's
// engine was always an engine) and is thrown away the first time any
// object of that class breaks it. Closing only the warm-up's pipeline, at
// its end, threw away the per-change paths it had just had compiled
// (insert, ingest, delete, an egress's next): the application's first
// ~4,000 changes then ran them unoptimized and had them compiled again on
// V8's helper threads, which on a 2-core machine took the core its steps
// needed (bench/js/README.md, eighteenth session).
//
// It keeps its closed pipelines and their streams (a few KB of JS objects,
// no wasm memory): V8 keeps an object shape (a "map") only while some
// object has it, or for a couple of major collections after, and the code
// it optimized during the warm-up checks the shapes of the warm-up's
// objects. Collected before the application's first pipeline existed (an
// application fetching its data meanwhile, a browser's idle-time
// collections; the benchmark's gc()), they took that code with them, and
// V8 compiled it again during the application's first ~3,000 changes
// (tests/js/warm_up.test.mjs; pipeline.js keeps a step signal and a closed
// pipeline its stopped connectors for the same reason).
//
// Last, it writes zeros over the instance's memory that no allocation holds
// (above the heap's top, up to the memory's size, ~8-12 MiB), so that its
// pages are resident before the application's first big step needs them:
// on small VMs a page's first touch costs 13-16 µs, and a load of 200k rows
// after a warm-up took ~1,800 such faults in that memory (~25 ms); where it
// is ~0.3 µs a page, as on most machines, this costs about 1 ms.

import { loadEngineModule } from './engine_loader.js';
import { Pipeline } from './pipeline.js';
import { callbackSink } from './sinks/callback_sink.js';

const PROGRAM = `
CREATE TABLE warm_keys (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR);
CREATE TABLE warm_facts (id BIGINT NOT NULL PRIMARY KEY, key_id BIGINT, amount DOUBLE);
CREATE TABLE warm_plain (a BIGINT, b VARCHAR, flag BOOLEAN, score DOUBLE, note VARCHAR);
CREATE MATERIALIZED VIEW warm_by_name AS
  SELECT k.name, COUNT(*) AS n, SUM(f.amount) AS total, MAX(f.amount) AS top
  FROM warm_facts f JOIN warm_keys k ON f.key_id = k.id
  GROUP BY k.name;
CREATE MATERIALIZED VIEW warm_even AS SELECT a, b, flag, score FROM warm_plain WHERE a % 2 = 0;
CREATE MATERIALIZED VIEW warm_stats AS
  SELECT key_id, AVG(amount) AS mean, MIN(amount) AS least, COUNT(DISTINCT amount) AS amounts
  FROM warm_facts GROUP BY key_id;
CREATE MATERIALIZED VIEW warm_sizes AS
  SELECT CASE WHEN amount < 100 THEN 'small' ELSE 'large' END AS size, COUNT(*) AS n
  FROM warm_facts GROUP BY CASE WHEN amount < 100 THEN 'small' ELSE 'large' END;
CREATE MATERIALIZED VIEW warm_names AS
  SELECT DISTINCT k.name FROM warm_facts f JOIN warm_keys k ON f.key_id = k.id WHERE f.amount > 2000;
CREATE MATERIALIZED VIEW warm_top AS SELECT id, amount FROM warm_facts ORDER BY amount DESC, id LIMIT 5;
CREATE TABLE warm_ids (id BIGINT NOT NULL PRIMARY KEY, key_id BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW warm_ids_kept AS SELECT id, amount FROM warm_ids WHERE amount >= 0;
CREATE MATERIALIZED VIEW warm_ranked AS SELECT t.id, t.key_id FROM (
  SELECT id, key_id, ROW_NUMBER() OVER (PARTITION BY key_id ORDER BY amount DESC, id) AS rn FROM warm_facts) AS t
  WHERE t.rn <= 2;
`;
const KEYS = 64;
// Enough that V8 tiers up what a big step and a single-row step run (fewer
// leave part of it to the application's first changes; more cost startup
// time for nothing: bench/js/user_shaped.mjs --warm-up measures both). The
// big step is a bulk one: over the upsert input's bulk threshold (4,096
// operations) and sent in two parts (engine_fast_path.js, ~16k cells a part),
// so that a bulk load's own paths are compiled too.
const BATCH_ROWS = 6000;
// The package's JS per change (insert, step, taking a chunk) is compiled by
// V8's optimizing JS compiler only after ~1,500-3,000 calls: with 400
// single-row steps it was compiled during the application's first ~4,000
// changes, on the helper threads those changes then waited for (in five
// runs of 100k changes, 8 over 4 ms with 400 steps, 3 with 2,000; with
// this program's views too, 1-3 in 9 of 25 runs: bench/js/README.md,
// sixteenth session). The warm-up takes ~250 ms longer on a 2-core VM.
const SINGLE_ROW_STEPS = 2000;
// Every PAUSE_EVERY of those steps, a pause of PAUSE_MS. V8 queues at most
// eight functions for its optimizing JS compiler, and a function it finds
// hot while the queue is full stays unoptimized until it has run as much
// again (node --trace-concurrent-recompilation: "Compilation queue full,
// will retry optimizing later"). The single-row steps make dozens of the
// package's functions hot within a few ms, and on a 2-core machine the
// compiler threads, sharing the cores with the steps, fell behind: in 10
// of 20 runs some of the per-change path (#ingestNumber(), an egress's
// next(), a token's decimal()) was left to the application's first ~2,000
// changes, 1.5-17 ms of compiling on a helper thread then; with the
// pauses, in none of 24 (bench/js/README.md, thirtieth session). They cost
// no CPU and ~70 ms of the warm-up's time (median 731 against 658 ms).
// Where timers are throttled they are skipped (see pauseForCompilers()).
const PAUSE_EVERY = 100;
const PAUSE_MS = 2;
// A pause that took longer than this was throttled: no more pauses.
const THROTTLED_PAUSE_MS = 50;
// Then steps without input. V8 optimizes a function once it has run enough
// of its own code, and code inlined into an optimized caller no longer
// counts for it: step(), #stepNow() and #afterStep() ran inlined into the
// loop above and were compiled only during the application's first
// ~5,000 changes (~25-40 ms of compiler work on helper threads, traced
// with --trace-opt). 6,000 more calls, each almost free in the engine, get
// them compiled here (traced: none of the three compiled during the
// changes after it), at no cost we could measure (the warm-up took 420-470
// ms with them and without). bench/js/README.md, nineteenth session.
const EMPTY_STEPS = 6000;
// Between the two: steps of a few hundred upserts of ids at random places
// in a table of their own (warm_ids). A trace's merges of batches of
// random keys (an upsert table's, an arrangement's by a column that is not
// a growing id) go key by key, the two sides taking turns, in code the
// steps above run too little for V8 to compile it: it was compiled during
// the application's first ~1,200 changes instead, in the step of its first
// large merge of such keys, whose main thread then waited up to ~5 ms for
// the core V8's compiler thread took (bench/js/user_shaped.mjs, change
// #1151; the twenty-ninth session of bench/js/README.md).
const RANDOM_UPSERT_STEPS = 40;
const RANDOM_UPSERT_ROWS = 300;
// Last, in a small pipeline of its own, single-row upserts each stepped and
// its chunk taken, as an application's changes are. V8 versions with
// Maglev, a middle tier (Chromium 156's, Node 22's and 24's; not Node
// 20's), optimize a function with Maglev after a few hundred calls and
// with TurboFan only after many thousands more: after the steps above,
// Chromium 156 had the package's per-change path (ingest, #writeBlock,
// #stepNow, #afterStep, an egress's #take, readRowChunk) in Maglev's code
// only, and compiled it with TurboFan during the application's first
// ~20,000 changes, whose main thread then waited for the compiler's work
// on it: a change over 4 ms in 10 of 12 runs of 100,000 changes, and none
// of 12 with these steps (bench/web/README.md); with 12,000 part of that
// path was still compiled during the changes. They make the warm-up ~135
// ms longer in Chromium (median 1,610 against 1,475 ms) and ~45 ms in Node
// 20 (713 against 670), which has no Maglev and needs none of them. Node 24 did
// as Chromium did (the same dozen functions compiled with TurboFan after
// the load without these steps, none with them), Node 22 less so (three).
// With a pause every LIGHT_PAUSE_EVERY, as above.
const LIGHT_STEPS = 16000;
const LIGHT_PAUSE_EVERY = 1000;
const LIGHT_PROGRAM = `
CREATE TABLE warm_rows (id BIGINT NOT NULL PRIMARY KEY, key_id BIGINT, amount DOUBLE);
CREATE MATERIALIZED VIEW warm_rows_kept AS SELECT id, amount FROM warm_rows WHERE amount >= 0;
`;
const LIGHT_KEYS = 1000;

// Every kind of value a row block and a row chunk hold (a boolean, null,
// an absent column, short, long and non-ASCII text, a fraction) goes
// through warm_plain: in a first step of its own, before the bulk of the
// batch (in blocks of growing size, each more than the input buffer holds,
// so that it is grown: row_block.js), in the new even row of every other
// single-row step (so warm_even's chunks keep having them), and in one big
// insert early in the single-row steps, whose long notes the input buffer
// must grow for, in two parts (engine_fast_path.js #writeBlock). V8
// optimizes a function with the type feedback gathered so far, and code
// optimized without feedback for a branch is thrown away when the branch
// first runs. A branch first run once, in the middle of the warm-up, was
// missing in ~1 of 5 runs from code V8 had started compiling before and
// installed after it: with every kind of value only in one insert at step
// 200, an application's first load (a boolean, a long or non-ASCII text, a
// grown buffer) threw away writeRowBlock(), readRows() or #writeBlock() and ran
// them unoptimized while V8 compiled them again (40-120 ms of compiler work
// on a helper thread, traced with --trace-deopt; tests/js/warm_up.test.mjs).
// Run in the first calls of a function (after V8 allocated its feedback
// vector, before it optimizes it), a branch is in all the code it compiles.
const RICH_BLOCKS = [[0, 64], [64, 320], [320, 1344]];
const BIG_INSERT_AT = 40;
const BIG_INSERT_ROWS = 5000;
const BIG_INSERT_FROM = 6 * BATCH_ROWS;  // its rows' a, and on: each with a long note
const RICH_ROWS = RICH_BLOCKS.at(-1)[1];
const LONG_TEXT = 'a text longer than sixty-four characters, as a note or a title may be';

/** warm_plain's row `a` (each a has one, so a delete names it whole). */
function plainRow(a) {
  // The bulk step's rows: two columns, short texts (with long and
  // non-ASCII texts among them too, the warm-up's peak outgrew the
  // instance's first 16 MiB: 20 MB).
  if (a >= RICH_ROWS && a < BATCH_ROWS) return { a, b: `b${a % 100}` };
  // Of every eight even rows (those warm_even shows), one has a long b,
  // one a non-ASCII b and one a null b.
  const kind = a % 16;
  const b = kind === 2 ? LONG_TEXT : kind === 4 ? 'déjà vu' : kind === 6 ? null : `b${a % 100}`;
  const flag = a % 3 === 0, score = a / 8;
  const note = kind === 3 || a >= BIG_INSERT_FROM ? LONG_TEXT : kind === 5 ? 'übrigens' : 'short';
  // No note in every fifth row. Two literals, not a note added to a row:
  // the map of the row with a note would die with the warm-up's rows, and
  // a major collection throw away the code optimized for it ("weak objects").
  return a % 5 ? { a, b, flag, score, note } : { a, b, flag, score };
}

/**
 * Resolves after PAUSE_MS, the main thread idle so that V8's compiler
 * threads get the cores; at once where timers are throttled. A hidden
 * page's timers fire about once a second (Chrome aligns them to whole
 * seconds, and to whole minutes after a while): its 36 pauses would make
 * the warm-up of a dashboard opened in a background tab 36 s longer. So
 * none in a hidden page, and none after one that took THROTTLED_PAUSE_MS
 * (a worker of a hidden page, a host's own throttling).
 */
async function pauseForCompilers(state) {
  if (state.throttled || globalThis.document?.hidden) return;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  if (performance.now() - started > THROTTLED_PAUSE_MS) state.throttled = true;
}

const warmed = new WeakMap();  // engine module → Promise of the first warm-up's result
const kept = [];               // the warm-up's closed pipelines and streams (see "It keeps" above)

/**
 * Warms the engine once per loaded wasm instance; later calls resolve to the
 * first call's result. Resolves to `{ ms }`, how long the warm-up took.
 */
export async function warmUp() {
  const module = await loadEngineModule();
  let result = warmed.get(module);
  if (!result) {
    result = run(module);
    warmed.set(module, result);
    result.catch(() => warmed.delete(module));  // a later call may try again
  }
  return result;
}

async function run(module) {
  const started = performance.now();
  const pauses = { throttled: false };  // once throttled, no more pauses (pauseForCompilers())
  await closeOnce();
  const p = await Pipeline.create({ sql: PROGRAM });
  try {
    p.pause();
    const views = ['warm_by_name', 'warm_even'].map((view) => p.egress(view, { sendSnapshot: false })[Symbol.asyncIterator]());
    // An output too (addOutput: a connector and its sink), on a third view.
    p.addOutput('warm_output', { view: 'warm_stats', sink: callbackSink(() => {}) });
    const takeChunks = () => Promise.all(views.map((view) => view.next()));
    const plainRows = (from, to) => Array.from({ length: to - from }, (_, i) => plainRow(from + i));
    const facts = (from, to) => Array.from({ length: to - from }, (_, i) => ({ id: from + i, key_id: (from + i) % KEYS, amount: (from + i) / 2 }));
    // A first step with every kind of value (see RICH_BLOCKS above): its
    // rows of warm_plain in blocks of growing size, each more than the
    // input buffer holds.
    p.insert('warm_keys', Array.from({ length: KEYS }, (_, i) => ({ id: i, name: `k${i % 16}` })));
    p.insert('warm_facts', facts(0, KEYS));
    for (const [from, to] of RICH_BLOCKS) p.insert('warm_plain', plainRows(from, to));
    p.step();
    await takeChunks();
    // Then the bulk of the batch in one step.
    p.insert('warm_facts', facts(KEYS, BATCH_ROWS));
    p.insert('warm_plain', plainRows(RICH_ROWS, BATCH_ROWS));
    p.step();
    await takeChunks();
    for (let i = 0; i < SINGLE_ROW_STEPS; ++i) {
      if (i % PAUSE_EVERY === PAUSE_EVERY - 1) await pauseForCompilers(pauses);
      // Every fourth step's chunks are asked for before it, as `for await`
      // over a stream does: next() then waits for the step.
      const waiting = i % 4 === 0 ? takeChunks() : null;
      // Every step changes both views, so that each has a chunk to take: a
      // new fact, an upsert of a fact with an amount no fact had, or the
      // delete of a batch fact (by key) no earlier step touched; the delete
      // of a batch row with an even `a` (each once: by delete(), or as a
      // record beside an insert's), or a new even one.
      if (i % 3 === 0) p.insert('warm_facts', [{ id: BATCH_ROWS + i, key_id: i % KEYS, amount: i }]);
      else if (i % 3 === 1) p.insert('warm_facts', [{ id: BATCH_ROWS / 2 + ((i * 7919) % (BATCH_ROWS / 2)), key_id: (i * 31) % KEYS, amount: 1e6 + i }]);
      else p.delete('warm_facts', { id: i });
      const a = 2 * ((i * 729) % (BATCH_ROWS / 2));  // distinct for distinct i < BATCH_ROWS / 2
      if (i % 4 === 1) p.delete('warm_plain', [plainRow(a)]);
      else if (i % 4 === 3) p.ingest('warm_plain', [{ delete: plainRow(a) }, { insert: { a: 4 * BATCH_ROWS + i, b: 'odd' } }]);
      else p.insert('warm_plain', [{ a: a + 1, b: 'odd' }, plainRow(2 * BATCH_ROWS + i)]);  // i is even here
      if (i === BIG_INSERT_AT) p.insert('warm_plain', plainRows(BIG_INSERT_FROM, BIG_INSERT_FROM + BIG_INSERT_ROWS));
      p.step();
      await (waiting ?? takeChunks());
    }
    // Into a table of their own with one view, not through the others (a
    // quarter of the CPU; the streams' views do not change: no chunk to
    // take), in rows of warm_facts' shape (no new object shape for V8).
    p.insert('warm_ids', facts(0, BATCH_ROWS));
    for (let i = 0; i < RANDOM_UPSERT_STEPS; ++i) {
      const ids = Array.from({ length: RANDOM_UPSERT_ROWS }, (_, k) => ((i * RANDOM_UPSERT_ROWS + k) * 7919) % BATCH_ROWS);
      p.insert('warm_ids', ids.map((id) => ({ id, key_id: id % KEYS, amount: 2e6 + i })));
      p.step();
    }
    for (let i = 0; i < EMPTY_STEPS; ++i) p.step();
    for (const view of views) view.return();
    kept.push(...views);
  } finally {
    await p.close();
    kept.push(p);
  }
  await lightSteps(pauses);
  module.touchFreeMemory();
  return { ms: performance.now() - started };
}

/** The light steps (see LIGHT_STEPS above): upserts of LIGHT_KEYS ids, in rows of warm_facts' shape. */
async function lightSteps(pauses) {
  const p = await Pipeline.create({ sql: LIGHT_PROGRAM });
  try {
    p.pause();
    const stream = p.egress('warm_rows_kept', { sendSnapshot: false })[Symbol.asyncIterator]();
    for (let i = 0; i < LIGHT_STEPS; ++i) {
      if (i % LIGHT_PAUSE_EVERY === LIGHT_PAUSE_EVERY - 1) await pauseForCompilers(pauses);
      const id = i % LIGHT_KEYS;
      p.insert('warm_rows', [{ id, key_id: id % KEYS, amount: i }]);
      p.step();
      await stream.next();
    }
    kept.push(stream);
  } finally {
    await p.close();
    kept.push(p);
  }
}

// A pipeline's life in short, before the warm-up's hot loop: a step that
// reaches an egress stream and an output, then the stream's return() and
// the pipeline's close() (see "Before all that" above).
async function closeOnce() {
  const p = await Pipeline.create({ sql: 'CREATE TABLE warm_t (a BIGINT); CREATE MATERIALIZED VIEW warm_v AS SELECT a FROM warm_t;' });
  try {
    p.pause();
    const stream = p.egress('warm_v', { sendSnapshot: false })[Symbol.asyncIterator]();
    p.addOutput('warm_output', { view: 'warm_v', sink: callbackSink(() => {}) });
    p.insert('warm_t', [{ a: 1 }]);
    p.step();
    await stream.next();
    await stream.return();
    kept.push(stream);
  } finally {
    await p.close();
    kept.push(p);
  }
}
