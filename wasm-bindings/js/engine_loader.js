// Loads the wasm engine once per JS realm. The host-specific part — how the
// .wasm bytes or module are obtained — is set by the package's entry point
// (node.js, browser.js, workerd.js) with setWasmSource(); the rest is shared.
//
// Emscripten's glue is always given instantiateWasm and locateFile, so it
// never tries to fetch or read the file itself (its defaults break in Node
// ESM, where it calls fetch() on a file path, and in workerd, which forbids
// compiling wasm from bytes).

import createFreshetEngine from './engine/freshet_engine.mjs';
import { guardModule } from './engine_guard.js';
import { FreshetError } from './errors.js';

/** @type {((imports: WebAssembly.Imports) => Promise<WebAssembly.Instance>) | null} */
let instantiate = null;
let loading = null;

/** Sets how this host instantiates the engine's wasm module with Emscripten's imports. */
export function setWasmSource(source) {
  instantiate = source;
  loading = null;
}

/** The Emscripten module with the Embind classes (Engine), loaded on first use. */
export function loadEngineModule() {
  if (!instantiate) throw new FreshetError('INTERNAL', 'no wasm source: import freshet through its package entry');
  // Every call into the module is guarded (engine_guard.js); once one
  // traps, the module is dead and the next create loads a fresh one.
  const loaded = (loading ??= load(instantiate).then(
    (module) => guardModule(module, () => {
      if (loading === loaded) loading = null;
    }),
    (error) => {
      loading = null;  // a later create may try again (a network error, say)
      throw error;
    },
  ));
  return loaded;
}

function load(source) {
  detachAnArrayBuffer();
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const ready = createFreshetEngine({
    locateFile: (file) => file,
    instantiateWasm(imports, receive) {
      source(imports).then((instance) => receive(instance), (error) => {
        fail(new FreshetError('INTERNAL', `could not load the engine's wasm: ${error?.message ?? error}`));
      });
      return {};  // exports arrive through receive()
    },
    onAbort: (what) => fail(new FreshetError('INTERNAL', `the engine aborted: ${what}`)),
  });
  // The glue's own promise never settles when instantiation fails.
  return Promise.race([ready, failed]);
}

// V8 compiles JS's typed-array reads without a "was the buffer detached?"
// check for as long as no ArrayBuffer of the isolate has ever been
// detached; the first detach throws all such optimized code away at once.
// The wasm memory's first growth detaches its old buffer: without this, an
// application's first big load threw away the optimized code of the
// package's row readers and writers (and of the application's own code
// over typed arrays) at its end, and V8 compiled it all again on its
// helper threads during the next ~4,000 changes, which then waited ~4 ms
// for a core now and then on a 2-core machine (bench/js/user_shaped.mjs
// --explain-spikes). Detaching a buffer of our own before anything is
// optimized makes V8 compile with the check from the start (one compare
// per typed-array read). The buffer has two views: newer V8s (Chromium
// 156's; not Node 20's) keep track of a buffer's view and, detaching a
// buffer with at most one, mark that view detached and leave the
// isolate's code alone; only detaching a buffer with more views (the wasm
// memory has Emscripten's eight) makes them throw the code away. With no
// view, Chromium still discarded the package's per-change code at the
// first growth and compiled it again during the application's next
// ~20,000 changes (bench/web/README.md).
function detachAnArrayBuffer() {
  try {
    const buffer = new ArrayBuffer(8);
    const views = [new Uint8Array(buffer), new Float64Array(buffer)];
    structuredClone(buffer, { transfer: [buffer] });  // while both views exist
    void views;
  } catch {
    // no structuredClone with transfer in this host
  }
}
