// The workerd process that Miniflare starts (local.mjs): its pid, for the
// state folder's lock and the crash tests, and its detachment from the
// terminal, for `npm start`'s graceful stop (dev.mjs).

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

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
export function workerdChildren() {
  let entries;
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const pids = [];
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
