// The edge worker on this machine: real workerd through Miniflare (no
// wrangler needed), with the bindings of wrangler.toml — PIPELINES (the
// Durable Objects), KV — persisted under one folder, and an ASSETS binding
// served from Node (static_files.mjs). Used by `npm start` (dev.mjs), the
// tests (tests/edge/) and the benchmarks (bench/edge/). One process at a
// time persists into a folder (state_lock.mjs).

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Miniflare } from 'miniflare';

import { lockStateFolder } from './state_lock.mjs';
import { serveStaticFile } from './static_files.mjs';

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Starts workerd with the edge worker. Resolves once it listens.
 * @param {{ persistDir: string, port?: number, host?: string, apiKey?: string, detached?: boolean }} options
 *   port 0 (the default) picks a free one; `apiKey` (one key or several, comma-separated)
 *   is the FRESHET_API_KEY secret; without it the API needs no key (FRESHET_NO_AUTH);
 *   `detached`: workerd runs in a session of its own, out of reach of the terminal's signals (detachWorkerd)
 * @returns {Promise<{ mf: Miniflare, url: string, workerdPid: number | null, staleLock: object | null, stop: () => Promise<void> }>}
 *   url without a trailing slash; `staleLock`: the lock of a dead process it took over;
 *   stop() kills workerd (Miniflare sends SIGKILL) and releases the folder
 * @throws {import('./state_lock.mjs').StateFolderLocked} when another process uses `persistDir`
 */
export async function startEdgeWorker({ persistDir, port = 0, host = '127.0.0.1', apiKey = '', detached = false }) {
  const lock = lockStateFolder(persistDir);
  if (detached) detachWorkerd();
  const before = workerdChildren();
  let started;
  try {
    started = await newMiniflare({ persistDir, port, host, apiKey });
  } catch (error) {
    lock.release();
    throw error;
  }
  const workerdPid = workerdChildren().find((pid) => !before.includes(pid)) ?? null;
  lock.setWorkerdPid(workerdPid);
  return {
    mf: started.instance,
    url: started.url,
    workerdPid,
    staleLock: lock.tookOver,
    stop: async () => {
      try {
        await started.instance.dispose();
      } finally {
        lock.release();
      }
    },
  };
}

async function newMiniflare({ persistDir, port, host, apiKey }) {
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
    // FRESHET_LOCAL_HOST: this process stops workerd, and asks first (host_shutdown.js).
    bindings: { ...(apiKey ? { FRESHET_API_KEY: apiKey } : { FRESHET_NO_AUTH: 'true' }), FRESHET_LOCAL_HOST: 'true' },
    durableObjectsPersist: join(persistDir, 'durable-objects'),
    kvNamespaces: ['KV'],
    kvPersist: join(persistDir, 'kv'),
    serviceBindings: { ASSETS: serveStaticFile },
    host,
    port,
  });
  const ready = await mf.ready;
  return { instance: mf, url: ready.href.replace(/\/$/, '') };
}

/**
 * Ctrl-C in a terminal sends SIGINT to the whole process group, and a
 * process manager may send SIGTERM to it: workerd would die before the last
 * checkpoints could be written (dev.mjs). Miniflare spawns workerd through
 * MINIFLARE_WORKERD_PATH: workerd_detached.sh execs the real binary in a
 * session of its own (the same pid). Process-wide, for every later start of
 * this process. workerd is still stopped with SIGKILL by Miniflare (on stop
 * and when this process exits), or, when this process was killed with
 * SIGKILL, by the next start that takes the stale lock over (state_lock.mjs).
 */
export function detachWorkerd() {
  process.env.FRESHET_WORKERD ??= process.env.MINIFLARE_WORKERD_PATH ?? createRequire(import.meta.url)('workerd').default;
  process.env.MINIFLARE_WORKERD_PATH = join(REPO_ROOT, 'edge-worker/workerd_detached.sh');
}

/** The pids of this process's workerd children (Linux /proc; empty elsewhere). */
function workerdChildren() {
  const pids = [];
  let entries = [];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return pids;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid && /workerd/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) pids.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
