// The edge worker on this machine: real workerd through Miniflare (no
// wrangler needed), with the bindings of wrangler.toml — PIPELINES (the
// Durable Objects), KV — persisted under one folder, and an ASSETS binding
// served from Node (static_files.mjs). Used by `npm start` (dev.mjs), the
// tests (tests/edge/) and the benchmarks (bench/edge/).

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Miniflare } from 'miniflare';

import { serveStaticFile } from './static_files.mjs';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts workerd with the edge worker. Resolves once it listens.
 * @param {{ persistDir: string, port?: number, host?: string, apiKey?: string, faults?: string, vars?: Record<string, string> }} options
 *   port 0 (the default) picks a free one; `apiKey` (one key or several, comma-separated)
 *   is the FRESHET_API_KEY secret; without it the API needs no key (FRESHET_NO_AUTH); `faults`
 *   ("fail_every=7,slow_ms=5", tests only) makes KV calls fail or slow (fault_injection.js);
 *   `vars` are more Worker variables (wrangler.toml's [vars]: FRESHET_CHECKPOINT_STORE,
 *   FRESHET_CORS_ORIGINS, FRESHET_MAX_*: pipeline_storage.js, cors.js, limits.js)
 * @returns {Promise<{ mf: Miniflare, url: string, stop: () => Promise<void> }>} url without a trailing slash
 */
export async function startEdgeWorker({ persistDir, port = 0, host = '127.0.0.1', apiKey = '', faults = '', vars = {} }) {
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(REPO_ROOT, 'edge-worker/worker.js'),
    modulesRoot: REPO_ROOT,
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js', '**/*.mjs'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
    ],
    compatibilityDate: '2025-01-01',
    durableObjects: {
      PIPELINES: { className: 'PipelineObject', useSQLite: true },
      REGISTRY: { className: 'PipelineRegistry', useSQLite: true },
    },
    bindings: { ...vars, ...(apiKey ? { FRESHET_API_KEY: apiKey } : { FRESHET_NO_AUTH: 'true' }), ...(faults ? { FRESHET_FAULTS: faults } : {}) },
    durableObjectsPersist: join(persistDir, 'durable-objects'),
    kvNamespaces: ['KV'],
    kvPersist: join(persistDir, 'kv'),
    serviceBindings: { ASSETS: serveStaticFile },
    host,
    port,
  });
  const ready = await mf.ready;
  return { mf, url: ready.href.replace(/\/$/, ''), stop: () => mf.dispose() };
}

/** The Worker variables of limits.js and cors.js set in this process's environment (for `npm start`). */
export function workerVarsFromEnv(env = process.env) {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name === 'FRESHET_CORS_ORIGINS' || name.startsWith('FRESHET_MAX_')));
}
