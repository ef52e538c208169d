// The edge worker on this machine: real workerd through Miniflare (no
// wrangler needed), with the bindings of wrangler.toml — PIPELINES (the
// Durable Objects), KV — persisted under one folder, and an ASSETS binding
// served from Node (static_files.mjs). Used by `npm start` (dev.mjs), the
// tests (tests/edge/) and the benchmarks (bench/edge/). One process at a
// time persists into a folder (state_lock.mjs).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Miniflare } from 'miniflare';

import { lockStateFolder } from './state_lock.mjs';
import { serveStaticFile } from './static_files.mjs';
import { detachWorkerd, workerdChildren } from './workerd_process.mjs';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Miniflare's options for a Worker whose modules are this repository's
 * files: .js and .mjs as ES modules, .wasm as compiled modules (as wrangler
 * bundles them), at wrangler.toml's compatibility date. Spread them into
 * `new Miniflare({ ...REPO_MODULES, scriptPath, ... })`.
 */
export const REPO_MODULES = Object.freeze({
  modules: true,
  modulesRoot: REPO_ROOT,
  modulesRules: [
    { type: 'ESModule', include: ['**/*.js', '**/*.mjs'] },
    { type: 'CompiledWasm', include: ['**/*.wasm'] },
  ],
  compatibilityDate: '2025-01-01',
});

/**
 * Starts workerd with the edge worker. Resolves once it listens.
 * @param {{ persistDir: string, port?: number, host?: string, apiKey?: string, faults?: string, vars?: Record<string, string>, detached?: boolean }} options
 *   port 0 (the default) picks a free one; `apiKey` (one key or several, comma-separated)
 *   is the FRESHET_API_KEY secret; without it the API needs no key (FRESHET_NO_AUTH); `faults`
 *   ("fail_every=7,slow_ms=5", tests only) makes KV calls fail or slow (fault_injection.js);
 *   `vars` are more Worker variables (wrangler.toml's [vars]: FRESHET_CHECKPOINT_STORE,
 *   FRESHET_CORS_ORIGINS, FRESHET_MAX_*: pipeline_storage.js, cors.js, limits.js);
 *   `detached`: workerd runs in a session of its own, out of reach of the terminal's signals (workerd_process.mjs)
 * @returns {Promise<{ mf: Miniflare, url: string, workerdPid: number | null, staleLock: object | null, stop: () => Promise<void> }>}
 *   url without a trailing slash; `staleLock`: the lock of a dead process it took over;
 *   stop() kills workerd (Miniflare sends SIGKILL) and releases the folder
 * @throws {import('./state_lock.mjs').StateFolderLocked} when another process uses `persistDir`
 */
export async function startEdgeWorker({ persistDir, port = 0, host = '127.0.0.1', apiKey = '', faults = '', vars = {}, detached = false }) {
  const lock = lockStateFolder(persistDir);
  if (detached) detachWorkerd();
  const before = workerdChildren();
  const mf = new Miniflare({
    ...REPO_MODULES,
    scriptPath: join(REPO_ROOT, 'edge-worker/worker.js'),
    durableObjects: {
      PIPELINES: { className: 'PipelineObject', useSQLite: true },
      REGISTRY: { className: 'PipelineRegistry', useSQLite: true },
    },
    // FRESHET_LOCAL_HOST: this process stops workerd, and asks first (host_shutdown.js).
    bindings: { ...vars, ...(apiKey ? { FRESHET_API_KEY: apiKey } : { FRESHET_NO_AUTH: 'true' }), ...(faults ? { FRESHET_FAULTS: faults } : {}),
                FRESHET_LOCAL_HOST: 'true' },
    durableObjectsPersist: join(persistDir, 'durable-objects'),
    kvNamespaces: ['KV'],
    kvPersist: join(persistDir, 'kv'),
    serviceBindings: { ASSETS: serveStaticFile },
    host,
    port,
  });
  const ready = await mf.ready.catch((error) => {
    lock.release();
    throw error;
  });
  const workerdPid = workerdChildren().find((pid) => !before.includes(pid)) ?? null;
  lock.setWorkerdPid(workerdPid);
  return { mf, url: ready.href.replace(/\/$/, ''), workerdPid, staleLock: lock.tookOver,
           stop: () => mf.dispose().finally(() => lock.release()) };
}

/** The Worker variables of limits.js and cors.js set in this process's environment (for `npm start`). */
export function workerVarsFromEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name === 'FRESHET_CORS_ORIGINS' || name.startsWith('FRESHET_MAX_')));
}
