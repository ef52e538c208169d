// `npm start`'s server (edge-worker/dev.mjs) as a child process in its own
// process group, as a terminal runs it: `interrupt()` is Ctrl-C (SIGINT to
// the whole group, workerd included), `kill()` is kill -9 of the Node
// process alone (its workerd outlives it, as after a crash).

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts dev.mjs on `state`; resolves once it printed its URL (or exited).
 * @param {string} state the state folder
 * @param {Record<string, string>} [env] more environment (FRESHET_DEMO_RATE, ...)
 */
export function startDevServer(state, env = {}) {
  const child = spawn(process.execPath, [join(root, 'edge-worker/dev.mjs')], {
    env: { ...process.env, PORT: '0', FRESHET_EDGE_STATE: state, FRESHET_DEMO_RATE: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,  // its own process group, as in a terminal
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const server = {
    pid: child.pid,
    url: null,
    exited,
    output: () => output,
    /** Ctrl-C in the terminal: SIGINT to the whole process group. */
    interrupt: (signal = 'SIGINT') => process.kill(-child.pid, signal),
    /** kill -9 of dev.mjs alone. */
    kill: () => process.kill(child.pid, 'SIGKILL'),
    /** Whatever is left: the group, and workerd (in a session of its own) as the lock names it (cleanup). */
    killGroup: () => {
      let workerdPid = null;
      try {
        workerdPid = JSON.parse(readFileSync(join(state, 'freshet.lock'), 'utf8')).workerdPid;
      } catch {
        // no lock: nothing of it runs
      }
      for (const pid of [-child.pid, workerdPid]) {
        try {
          if (pid) process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dev.mjs did not start:\n${output}`)), 60_000);
    const onData = (data) => {
      output += data;
      const match = /Freshet edge worker on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (!match || server.url) return;
      clearTimeout(timer);
      server.url = match[1];
      resolve(server);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then(() => {
      clearTimeout(timer);
      resolve(server);  // exited before it listened: `url` is null, `output()` says why
    });
  });
}
