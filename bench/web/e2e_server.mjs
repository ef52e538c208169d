// Starts the e2e tests' static server (e2e/server.mjs) on a port of its own
// for a benchmark; resolves once it listens. kill() it when done.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { root } from '../../e2e/chromium.mjs';

export async function startServer(port) {
  const server = spawn(process.execPath, [join(root, 'e2e/server.mjs')], { env: { ...process.env, FRESHET_E2E_PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    server.stdout.once('data', resolve);
    server.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  return server;
}
