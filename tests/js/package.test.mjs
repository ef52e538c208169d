// The package as users get it: `npm pack` makes a tarball that installs into
// an empty folder (no network: it has no dependencies) and runs there.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../..', import.meta.url));

const PROGRAM = `
import { Pipeline, MapSink } from 'freshet';
const sink = new MapSink();
const p = await Pipeline.create({
  sql: 'CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, n INT); CREATE MATERIALIZED VIEW total AS SELECT SUM(n) AS s FROM t;',
  outputs: { out: { view: 'total', sendSnapshot: true, sink } },
});
await p.waitForCompletion(p.insert('t', [{ id: 1, n: 20 }, { id: 2, n: 22 }]));
console.log(JSON.stringify({ snapshot: p.snapshot('total'), mirror: sink.rows() }));
p.close();
`;

test('npm pack → npm install ./freshet-*.tgz in an empty folder → a program runs', () => {
  const work = mkdtempSync(join(tmpdir(), 'freshet-pack-'));
  try {
    const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'],
                                            { cwd, encoding: 'utf8', env: { ...process.env, npm_config_offline: 'true' } });
    npm(['pack', '--pack-destination', work], root);
    const [tarball] = readdirSync(work).filter((name) => /^freshet-.*\.tgz$/.test(name));
    assert.ok(tarball, 'npm pack made no tarball');
    const app = join(work, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
    npm(['install', join(work, tarball)], app);
    writeFileSync(join(app, 'main.mjs'), PROGRAM);
    const output = JSON.parse(execFileSync('node', ['main.mjs'], { cwd: app, encoding: 'utf8' }));
    assert.deepEqual(output, { snapshot: [{ s: 42 }], mirror: [{ s: 42 }] });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

// Every page that uses the package downloads the engine: its budget is 600 KB
// gzipped (level 9, as bundlers and CDNs serve it). It once grew past that
// unnoticed, one SQL feature at a time; the SQL compiler is now built for
// size (core/CMakeLists.txt), and this test says when the engine outgrows it.
test('the wasm engine is at most 600 KB gzipped', () => {
  const wasm = readFileSync(join(root, 'wasm-bindings/js/engine/freshet_engine.wasm'));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  assert.ok(gzipped <= 600_000, `the engine is ${gzipped} bytes gzipped (${wasm.length} raw): over its budget of 600,000`);
});
