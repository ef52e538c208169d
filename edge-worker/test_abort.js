// Tests only: with the FRESHET_TEST_ABORT variable set to 'replay', the wasm
// engine aborts at the first ingest after the Durable Object starts: the
// replay of its input log's first record (an ingest; the log's step records
// are written lazily, so a killed worker may not have one); set to 'step',
// at the first step after the object starts (with nothing to replay: the
// first step of new input); set to 'hang', the resume never ends (as if the
// host were about to kill the isolate for its CPU), after writing the KV key
// TEST_HANG_KEY so that a test knows it is there and kills workerd
// (resume_attempts.js). Through the package's test-only fault
// (wasm-bindings/js/engine_guard.js armEngineAbort). Only local.mjs sets
// variables, and only when a test asks (startEdgeWorker({ vars })). Never
// set it in wrangler.toml.

import { armEngineAbort } from '../wasm-bindings/js/engine_guard.js';

export const TEST_HANG_KEY = 'test/resume_hanging';

/** Arms the engine's abort when `env` asks for it (or hangs, with 'hang'). */
export async function armTestAbort(env) {
  if (env?.FRESHET_TEST_ABORT === 'hang') {
    await env.KV.put(TEST_HANG_KEY, String(Date.now()));
    await new Promise(() => {});
  }
  if (env?.FRESHET_TEST_ABORT === 'replay') await armEngineAbort('ingest');
  if (env?.FRESHET_TEST_ABORT === 'step') await armEngineAbort('step');
}
