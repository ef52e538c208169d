// Playwright for the browser tests: Debian's Chromium (chromium.mjs), a tiny
// static server of the repo's files (server.mjs), artifacts under build/.
import { join } from 'node:path';

import { defineConfig } from '@playwright/test';

import { baseURL, browserEnv, launchOptions, port, root, runDir } from './chromium.mjs';

// Playwright's own temporary profiles and files go to the run folder too.
process.env.TMPDIR = browserEnv.TMPDIR;

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.mjs',
  outputDir: join(runDir, 'results'),
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: { baseURL, browserName: 'chromium', launchOptions },
  webServer: {
    command: `node ${JSON.stringify(join(root, 'e2e/server.mjs'))}`,
    url: `${baseURL}/e2e/page/index.html`,
    reuseExistingServer: false,
    timeout: 10_000,
    env: { FRESHET_E2E_PORT: String(port) },
  },
});
