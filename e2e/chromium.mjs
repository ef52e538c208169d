// How the e2e tests launch Debian's Chromium (never a browser Playwright
// downloads), with everything the browser writes kept in build/e2e-run/
// instead of $HOME.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const runDir = join(root, 'build', 'e2e-run');
for (const sub of ['config', 'cache', 'tmp', 'home', 'profiles']) mkdirSync(join(runDir, sub), { recursive: true });

export const browserEnv = {
  XDG_CONFIG_HOME: join(runDir, 'config'),
  XDG_CACHE_HOME: join(runDir, 'cache'),
  TMPDIR: join(runDir, 'tmp'),
  HOME: join(runDir, 'home'),  // Chromium's NSS database goes to $HOME/.pki
};

export const launchOptions = {
  executablePath: process.env.FRESHET_CHROMIUM ?? '/usr/bin/chromium',
  // --disable-dev-shm-usage: containers and chroots (fresh-machine.sh) may
  // have no /dev/shm mounted; Chromium then keeps shared memory in TMPDIR.
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  env: { ...process.env, ...browserEnv },
};

export const port = Number(process.env.FRESHET_E2E_PORT ?? 8791);
export const baseURL = `http://127.0.0.1:${port}`;
