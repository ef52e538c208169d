// A failed view over HTTP (a runtime error in its SQL failed it: docs/js-api.md).
// An egress opened on it answers its error up front, with the status
// http_errors.js gives a failed view's error (503), rather than a 200 stream
// whose first line is the error; a stream open when the view fails ends with
// an error line (egress_response.js).

import { FreshetError } from '../wasm-bindings/js/workerd.js';

/** Throws view `view`'s FreshetError when it is failed. */
export function throwIfViewFailed(pipeline, view) {
  const failed = pipeline.stats().views[view]?.failed;
  if (failed) throw new FreshetError(failed.code, failed.message);
}

/** Whether any view of `pipeline` is failed (a PUT of the same program recovers them). */
export function hasFailedView(pipeline) {
  return Object.values(pipeline.stats().views).some((view) => view.failed);
}
