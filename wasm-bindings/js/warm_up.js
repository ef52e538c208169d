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
// (ORDER BY ... LIMIT) and a ROW_NUMBER() window, one big step and
// single-row steps (which merge the traces' spines level by level), the
// egress of two views (chunks taken after their step, and asked for
// before it) and an output (a callback sink) of a third. Its
// pipeline is closed at the end: it shares nothing with the application's
// pipelines but the wasm instance (whose memory it does not grow: its peak
// fits in the initial 16 MiB). It does not wait for V8's compiler threads:
// they go on for a moment after it resolves.
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

// One step, once the package's functions have run a while, inserts a
// block with every kind of value a row block holds (a boolean, null, an
// absent column, short, long and non-ASCII text, a fraction) and more text
// than the input buffer has room for, so that it is grown (row_block.js). V8
// collects type feedback only once a function has run a few times, and
// code optimized without feedback for a branch is thrown away when the
// branch first runs: an application's first insert with a boolean column,
// or one bigger than the buffer, had writeRowBlock() thrown away and its
// load then ran it unoptimized while V8 compiled it again (40-120 ms of
// compiler work on a helper thread, traced with --trace-deopt).
const EVERY_KIND_AT = 200;
const EVERY_KIND_ROWS = 5000;

function everyKindOfValue() {
  const texts = [null, 'plain', 'déjà vu', 'a text longer than sixty-four characters, as a note or a title may be'];
  return Array.from({ length: EVERY_KIND_ROWS }, (_, i) => {
    // Those with an even `a` reach warm_even's chunks: each text there too.
    const row = { a: 6 * BATCH_ROWS + i, b: texts[(i >> 1) % 4], flag: i % 3 === 0, score: i / 8 };
    if (i % 5) row.note = texts[i % 4];  // absent in every fifth row
    return row;
  });
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
  await closeOnce();
  const p = await Pipeline.create({ sql: PROGRAM });
  try {
    p.pause();
    const views = ['warm_by_name', 'warm_even'].map((view) => p.egress(view, { sendSnapshot: false })[Symbol.asyncIterator]());
    // An output too (addOutput: a connector and its sink), on a third view.
    p.addOutput('warm_output', { view: 'warm_stats', sink: callbackSink(() => {}) });
    const takeChunks = () => Promise.all(views.map((view) => view.next()));
    p.insert('warm_keys', Array.from({ length: KEYS }, (_, i) => ({ id: i, name: `k${i % 16}` })));
    p.insert('warm_facts', Array.from({ length: BATCH_ROWS }, (_, i) => ({ id: i, key_id: i % KEYS, amount: i / 2 })));
    p.insert('warm_plain', Array.from({ length: BATCH_ROWS }, (_, i) => ({ a: i, b: `b${i % 100}` })));
    p.step();
    await takeChunks();
    for (let i = 0; i < SINGLE_ROW_STEPS; ++i) {
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
      if (i % 4 === 1) p.delete('warm_plain', [{ a, b: `b${a % 100}` }]);
      else if (i % 4 === 3) p.ingest('warm_plain', [{ delete: { a, b: `b${a % 100}` } }, { insert: { a: 4 * BATCH_ROWS + i, b: 'odd' } }]);
      else p.insert('warm_plain', [{ a: a + 1, b: 'odd' }, { a: 2 * BATCH_ROWS + 2 * i, b: 'new' }]);
      if (i === EVERY_KIND_AT) p.insert('warm_plain', everyKindOfValue());
      p.step();
      await (waiting ?? takeChunks());
    }
    for (let i = 0; i < EMPTY_STEPS; ++i) p.step();
    for (const view of views) view.return();
    kept.push(...views);
  } finally {
    await p.close();
    kept.push(p);
  }
  module.touchFreeMemory();
  return { ms: performance.now() - started };
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
