// Failed views on the JS side: a runtime error in a view's SQL fails that view
// (core/src/pipeline/view_failures.cpp), whose endpoints then get nothing
// more. A connector reset waiting for the fresh snapshot of a view that
// failed meanwhile would wait for ever: it fails with the view's error.

import { FreshetError } from './errors.js';

/**
 * After a step: rejects the resets waiting on connectors whose view failed.
 * @param {Map<string, import('./connector.js').Connector>} connectors
 * @param {() => string} coreStats the engine's stats JSON (read only when a reset waits)
 */
export function abandonResetsOfFailedViews(connectors, coreStats) {
  let waiting = null;  // none on almost every step: nothing allocated then
  for (const connector of connectors.values()) if (connector.resetPending) (waiting ??= []).push(connector);
  if (!waiting) return;
  const views = JSON.parse(coreStats()).views ?? {};
  for (const connector of waiting) {
    const failed = views[connector.config.view]?.failed;
    if (failed) connector.abandonResets(new FreshetError(failed.code, failed.message));
  }
}
