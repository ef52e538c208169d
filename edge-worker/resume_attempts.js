// The last guard against an eviction loop. A resume (restore the checkpoint,
// replay the input log) that the host cuts off — the isolate killed for
// CPU or memory past its limits, in a step the engine's own bounds did not
// stop — would otherwise run again at every start of the object and be cut
// off again, for ever. So each resume is counted in the object's storage
// before it begins and the count is cleared once it ends, either way (a
// resume that fails with an error was not cut off: it has its own path,
// failed_resume.js). A count already at MAX_RESUME_ATTEMPTS means that many
// resumes in a row died: the pipeline is stopped with an error saying so and
// the way out (/clear, then /start), instead of trying again.

import { FreshetError } from '../wasm-bindings/js/errors.js';  // not workerd.js: tests import this module from Node

/** Resumes in a row that may die before the pipeline is stopped (more than one: a deploy or an eviction can cut one short). */
export const MAX_RESUME_ATTEMPTS = 3;
const KEY = 'resume_attempts';

/** Counts a resume about to begin; throws INTERNAL once MAX_RESUME_ATTEMPTS resumes in a row died. */
export async function beginResume(storage) {
  const died = (await storage.get(KEY)) ?? 0;
  if (died >= MAX_RESUME_ATTEMPTS) {
    throw new FreshetError('INTERNAL', `the last ${died} resumes were cut off before they ended (the isolate was killed ` +
      'while restoring the checkpoint or replaying the input log: a step past the CPU or memory the host allows)');
  }
  await storage.put(KEY, died + 1);
}

/** The resume ended (resumed, or failed with an error): the count starts again. */
export async function endResume(storage) {
  await storage.delete(KEY);
}
