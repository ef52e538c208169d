// EngineGuard: every call into a loaded wasm engine goes through here, so
// that no wasm trap or abort (a RuntimeError: an allocation the heap could
// not grow for, a broken invariant, `unreachable`) escapes as anything but
// a FreshetError.
//
// ## Design
// The loader guards a module once, when it is loaded: each method of the
// Embind classes' prototypes and each plain `_freshet_*` export is wrapped
// (one try/catch a call: no cost worth measuring, bench/js). A call that
// trapped has left the instance in an unknown state (Emscripten marks an
// aborted one dead for good), and one
// wasm instance serves every Pipeline of the realm, so the first trap stops
// the whole module:
//   - the call, and every later call into the module, throws
//     FreshetError('INTERNAL', 'the engine stopped (<what>): re-create the pipeline');
//   - every Pipeline on it is told (onEngineStop) and fails with that error;
//   - the loader forgets the module: the next Pipeline.create loads a fresh
//     instance, and resumes from its storage as after a crash.
// Freeing a handle of a stopped module (Embind's delete) does nothing.

import { FreshetError } from './errors.js';

const guards = new WeakMap();  // module → { stopped: FreshetError | null, listeners: Set<function> }

/** Wraps every entry point of `module` (once); `onStop(error)` runs when it stops. */
export function guardModule(module, onStop) {
  const guard = { stopped: null, listeners: new Set([onStop]) };
  guards.set(module, guard);
  const failure = (error, name) => {
    if (error instanceof FreshetError) return error;
    if (isTrap(error)) return stop(guard, name, error);
    // A JS-side error of the glue (an Embind BindingError: a bug of ours): the instance itself is fine.
    return new FreshetError('INTERNAL', `${name}: ${error?.message ?? error}`);
  };
  const wrap = (fn, name, quietWhenStopped) => function guarded(...args) {
    if (guard.stopped) {
      if (quietWhenStopped) return undefined;
      throw guard.stopped;
    }
    try {
      return fn.apply(this, args);
    } catch (error) {
      throw failure(error, name);
    }
  };
  const wrapAll = (object, names, quiet = new Set()) => {
    for (const name of names) {
      const value = object[name];
      if (typeof value === 'function' && name !== 'constructor') object[name] = wrap(value, name, quiet.has(name));
    }
  };
  const { Engine } = module;
  wrapAll(Engine.prototype, Object.getOwnPropertyNames(Engine.prototype));
  // Embind's ClassHandle (the base of every handle): a stopped module's handles free as a no-op.
  const handle = Object.getPrototypeOf(Engine.prototype);
  wrapAll(handle, ['delete', 'isDeleted', 'clone'], new Set(['delete', 'isDeleted']));
  wrapAll(Engine, ['checkpointBlobsToPrune', 'nextCheckpointSequence']);
  for (const name of ['wasmMemoryBytes', 'liveEngines', 'touchFreeMemory']) {
    const wrapped = wrap(module[name], name, false);
    Object.defineProperty(module, name, { get: () => wrapped, set: () => {}, configurable: true });
  }
  for (const name of Object.keys(module).filter((key) => key.startsWith('_freshet_'))) guardExport(module, name, guard, failure);
  return module;
}

// The plain exports are the per-change calls (engine_fast_path.js): their
// guard takes fixed parameters (no rest array, no apply: a wasm function
// ignores extra arguments) and calls the wasm export itself. Emscripten's
// export thunk stands in for it until its first call, which assigns the
// export to Module: the setter keeps it, and the wrapper stays in place.
const MAX_EXPORT_PARAMETERS = 5;

function guardExport(module, name, guard, failure) {
  let fn = module[name];
  const guarded = function guarded(a, b, c, d, e) {
    if (guard.stopped) throw guard.stopped;
    try {
      return fn(a, b, c, d, e);
    } catch (error) {
      throw failure(error, name);
    }
  };
  const keep = (exported) => {
    if (exported.length > MAX_EXPORT_PARAMETERS) throw new FreshetError('INTERNAL', `${name} takes more than ${MAX_EXPORT_PARAMETERS} parameters`);
    fn = exported;
  };
  Object.defineProperty(module, name, { get: () => guarded, set: keep, configurable: true });
}

// A trap (\`unreachable\`, a bad access, Emscripten's abort()) or the wasm
// stack overflowing (a RangeError, which leaves the shadow stack pointer
// where it was): the instance can no longer be trusted.
function isTrap(error) {
  return error instanceof WebAssembly.RuntimeError || error instanceof RangeError || /^Aborted/.test(error?.message ?? '');
}

function stop(guard, name, error) {
  const what = error?.message ?? String(error);
  guard.stopped = new FreshetError('INTERNAL', `the engine stopped (${what}, in ${name}): re-create the pipeline`);
  for (const listener of [...guard.listeners]) {
    try {
      listener(guard.stopped);
    } catch {
      // one listener's failure does not keep the others from hearing
    }
  }
  return guard.stopped;
}

/** The error that stopped `module`, or null while it runs. */
export function engineStopped(module) {
  return guards.get(module)?.stopped ?? null;
}

/** Calls `listener(error)` if `module` stops; returns a function that stops listening. */
export function onEngineStop(module, listener) {
  const guard = guards.get(module);
  if (!guard) return () => {};
  guard.listeners.add(listener);
  return () => guard.listeners.delete(listener);
}

/**
 * Test only (not exported by the package): the realm's engine aborts at the
 * next step ('step') or ingest ('ingest') of any pipeline.
 */
export async function armEngineAbort(where) {
  const { loadEngineModule } = await import('./engine_loader.js');
  const point = { step: 1, ingest: 2 }[where];
  if (!point) throw new FreshetError('INVALID_ARGUMENT', "armEngineAbort('step' | 'ingest')");
  (await loadEngineModule())._freshet_test_arm_abort(point);
}
