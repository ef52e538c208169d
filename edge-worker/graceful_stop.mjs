// The graceful stop of a local edge worker (`npm start`, dev.mjs): on
// SIGINT, SIGTERM or SIGHUP (the terminal closed) every pipeline stops taking input, delivers what it
// accepted to its connectors and writes a last checkpoint (POST
// .../shutdown, host_shutdown.js), then workerd is stopped. All of it within
// a bounded time (FRESHET_STOP_TIMEOUT_MS, default STOP_TIMEOUT_MS); a second
// signal stops at once. The terminal's Ctrl-C does not reach workerd
// (workerd_process.mjs, detachWorkerd), so it is still there to answer.

/** How long the last checkpoints may take, all pipelines together, before workerd is stopped anyway. */
export const STOP_TIMEOUT_MS = 15_000;

/**
 * Asks every pipeline of the worker at `url` to shut down (no more input, a last checkpoint).
 * @param {string} url the worker's base URL
 * @param {{ headers?: Record<string, string>, timeoutMs?: number }} [options]
 * @returns {Promise<{ name: string, ok: boolean, answer: object | string }[]>} one entry a pipeline
 */
export async function shutDownPipelines(url, { headers = {}, timeoutMs = STOP_TIMEOUT_MS } = {}) {
  const signal = AbortSignal.timeout(timeoutMs);
  const listed = await fetch(`${url}/v0/pipelines?selector=status`, { headers, signal });
  if (!listed.ok) throw new Error(`GET /v0/pipelines answered ${listed.status}: ${await listed.text()}`);
  const names = (await listed.json()).map((pipeline) => pipeline.name);
  // Leave a second for the answers after the connectors' flush.
  const flushMs = Math.max(0, timeoutMs - 1_000);
  return Promise.all(names.map(async (name) => {
    try {
      const response = await fetch(`${url}/v0/pipelines/${encodeURIComponent(name)}/shutdown?flush_ms=${flushMs}`,
                                   { method: 'POST', headers, signal });
      const text = await response.text();
      return { name, ok: response.ok, answer: response.ok ? JSON.parse(text) : text };
    } catch (error) {
      return { name, ok: false, answer: error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : error.message };
    }
  }));
}

/**
 * Calls `stop(signal)` on the first SIGINT, SIGTERM or SIGHUP, and exits at once (status 130) on a second one.
 * Takes the signals over from Miniflare, whose exit hook would exit at once.
 * @param {(signal: string) => Promise<void>} stop
 */
export function onStopSignals(stop) {
  let stopping = false;
  const handle = (signal) => {
    if (stopping) {
      console.log(`${signal} again: stopping at once`);
      process.exit(130);
    }
    stopping = true;
    stop(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.removeAllListeners(signal);
    process.on(signal, handle);
  }
}
