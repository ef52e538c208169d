// warmUp() in real workerd (Miniflare), through the package's workerd entry
// with the .wasm as a CompiledWasm module: it runs, and the pipeline created
// after it sees none of its rows (tests/js/warm_up.test.mjs has the rest).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';

import { Miniflare } from 'miniflare';

import { REPO_MODULES, REPO_ROOT } from '../../edge-worker/local.mjs';

test('warmUp() in workerd: once per instance, and a pipeline after it starts empty', async () => {
  const mf = new Miniflare({
    ...REPO_MODULES,
    scriptPath: join(REPO_ROOT, 'tests/edge/fixtures/warm_up_worker.js'),
    host: '127.0.0.1',
    port: 0,
  });
  try {
    const response = await mf.dispatchFetch('http://localhost/');
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(typeof body.ms, 'number');  // workerd's clocks stand still while code runs: may be 0
    assert.equal(body.same, true);
    assert.deepEqual(body.rows, [{ n: 1, s: 2.5 }]);
    assert.equal(body.step, 1);
  } finally {
    await mf.dispose();
  }
});
