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
  const waiting = [...connectors.values()].filter((connector) => connector.resetPending);
  if (!waiting.length) return;
  const views = JSON.parse(coreStats()).views ?? {};
  for (const connector of waiting) {
    const failed = views[connector.config.view]?.failed;
    if (failed) connector.abandonResets(new FreshetError(failed.code, failed.message));
  }
}
