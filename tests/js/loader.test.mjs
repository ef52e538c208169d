// The loader paths other than Node's, each in a fresh process (the engine
// loads once per realm): the browser entry (fetch + instantiateStreaming, or
// bytes when the server sends the wrong MIME type) with a fetch that serves
// the package's files, and the workerd entry with the .wasm imported as a
// compiled WebAssembly.Module, as wrangler's CompiledWasm rule does.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { runModule } from './support.mjs';

// Runs `program` (an ES module) in a child process; the last line printed is its JSON result.
function run(program, nodeOptions = []) {
  return JSON.parse(runModule(program, nodeOptions).trim().split('\n').pop());
}

const USE = `
  const p = await Pipeline.create({ sql: 'CREATE TABLE t (x INT); CREATE MATERIALIZED VIEW v AS SELECT COUNT(*) AS n FROM t;' });
  p.insert('t', [{ x: 1 }, { x: 2 }]);
  p.step();
  const rows = p.snapshot('v');
  p.close();`;

// The same, after the warm-up (warm_up.js) ran in that realm.
const WARM_USE = `
  const { ms } = await warmUp();
  ${USE}`;

function browserProgram(contentType, use = USE) {
  return `
    import { readFileSync } from 'node:fs';
    import { fileURLToPath } from 'node:url';
    const fetched = [];
    globalThis.fetch = async (url) => {
      fetched.push(String(url));
      return new Response(readFileSync(fileURLToPath(url)), { headers: { 'content-type': '${contentType}' } });
    };
    const { Pipeline, warmUp } = await import('../../wasm-bindings/js/browser.js');
    ${use}
    console.log(JSON.stringify({ rows, fetched, warmUpMs: typeof ms === 'undefined' ? null : ms }));`;
}

test('browser entry: fetch + instantiateStreaming', () => {
  const { rows, fetched } = run(browserProgram('application/wasm'));
  assert.deepEqual(rows, [{ n: 2 }]);
  assert.equal(fetched.length, 1);
  assert.match(fetched[0], /^file:.*\/wasm-bindings\/js\/engine\/freshet_engine\.wasm$/);
});

test('browser entry: a server without application/wasm falls back to compiling the bytes', () => {
  const { rows, fetched } = run(browserProgram('text/plain'));
  assert.deepEqual(rows, [{ n: 2 }]);
  assert.equal(fetched.length, 2);
});

test('workerd entry: the engine arrives as an imported WebAssembly.Module', () => {
  const program = `import { Pipeline } from 'freshet'; ${USE} console.log(JSON.stringify(rows));`;
  assert.deepEqual(run(program, ['--import', './compiled_wasm_hooks.mjs', '--conditions=workerd']), [{ n: 2 }]);
});

test('browser entry: warmUp() runs before the first pipeline, which sees none of it', () => {
  const { rows, fetched, warmUpMs } = run(browserProgram('application/wasm', WARM_USE));
  assert.deepEqual(rows, [{ n: 2 }]);
  assert.equal(fetched.length, 1);  // the warm-up and the pipeline share the instance
  assert.ok(warmUpMs > 0);
});

test('workerd entry: warmUp() runs before the first pipeline, which sees none of it', () => {
  const program = `import { Pipeline, warmUp } from 'freshet'; ${WARM_USE} console.log(JSON.stringify({ rows, ms }));`;
  const { rows, ms } = run(program, ['--import', './compiled_wasm_hooks.mjs', '--conditions=workerd']);
  assert.deepEqual(rows, [{ n: 2 }]);
  assert.ok(ms > 0);
});
