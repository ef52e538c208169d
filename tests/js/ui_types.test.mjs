// The type declarations of freshet/react and freshet/vue (react.d.ts,
// vue.d.ts) compile against an app's use of them (tests/js/types/ui/usage.ts),
// resolved through the package's exports as a TypeScript app resolves them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('react.d.ts and vue.d.ts type-check an app using them', () => {
  const run = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tests/js/types/ui'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `tsc failed:\n${run.stdout}${run.stderr}`);
});
