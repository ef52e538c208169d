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
