// freshet/react and freshet/vue as the package ships them: subpath exports
// with types, in the tarball, React and Vue optional peers (never bundled,
// never installed for users who do not use them).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

test('the subpaths resolve to react.js and vue.js, with their declarations', () => {
  assert.equal(fileURLToPath(import.meta.resolve('freshet/react')), `${root}wasm-bindings/js/react.js`);
  assert.equal(fileURLToPath(import.meta.resolve('freshet/vue')), `${root}wasm-bindings/js/vue.js`);
  assert.equal(pkg.exports['./react'].types, './wasm-bindings/js/react.d.ts');
  assert.equal(pkg.exports['./vue'].types, './wasm-bindings/js/vue.d.ts');
});

test('react and vue are optional peer dependencies only', () => {
  for (const name of ['react', 'vue']) {
    assert.ok(pkg.peerDependencies[name], `${name} is a peer dependency`);
    assert.equal(pkg.peerDependenciesMeta[name].optional, true);
    assert.equal(pkg.dependencies?.[name], undefined);
  }
});

test('the tarball holds the hooks and their types', () => {
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--loglevel=error'], { cwd: root, encoding: 'utf8' }));
  const files = new Set(packed.files.map((file) => file.path));
  for (const file of ['react.js', 'react.d.ts', 'vue.js', 'vue.d.ts']) {
    assert.ok(files.has(`wasm-bindings/js/${file}`), `${file} is packed`);
  }
  assert.ok(![...files].some((file) => file.startsWith('examples/')), 'the example app is not packed');
});
