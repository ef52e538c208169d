// `npm start`'s server (edge-worker/dev.mjs) as a user runs it: it creates
// the sample pipeline, feeds it orders, serves the demo's files, and after a
// stop and a start on the same folder resumes the pipeline instead of
// creating it again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { until } from './support.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const state = mkdtempSync(join(tmpdir(), 'freshet-edge-start-'));
after(() => rmSync(state, { recursive: true, force: true }));

/** Starts dev.mjs; resolves with its URL and a stop() once it printed it. */
function startServer() {
  const child = spawn(process.execPath, [join(root, 'edge-worker/dev.mjs')], {
    env: { ...process.env, PORT: '0', FRESHET_EDGE_STATE: state, FRESHET_DEMO_RATE: '400' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`dev.mjs did not start:\n${output}`)), 60_000);
    const onData = (data) => {
      output += data;
      const match = /Freshet edge worker on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        output: () => output,
        stop: async () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => reject(new Error(`dev.mjs exited (${code}):\n${output}`)));
  });
}

const json = async (url) => (await fetch(url)).json();

test('npm start: the sample pipeline is created, fed and served; a restart resumes it', async () => {
  let server = await startServer();
  assert.match(server.output(), /created pipeline 'demo'/);
  const stats = `${server.url}/v0/pipelines/demo/stats`;
  const fed = await until(async () => {
    const { tables: inputs } = await json(stats);
    return inputs.orders.total_records >= 200 && inputs;
  }, { what: 'the generator to feed orders' });
  assert.equal(fed.customers.total_records, 200);
  const revenue = await json(`${server.url}/v0/pipelines/demo/query?sql=SELECT * FROM revenue_by_region`);
  assert.ok(revenue.length > 0 && revenue.every((row) => row.orders > 0));
  const demoFile = await fetch(`${server.url}/web-demo/sample_pipeline.js`);
  assert.equal(demoFile.status, 200);
  await demoFile.text();
  const checkpoint = await (await fetch(`${server.url}/v0/pipelines/demo/checkpoint`, { method: 'POST' })).json();
  const step = (await json(stats)).step;
  assert.equal(await server.stop(), 0, 'it stops cleanly on SIGTERM');

  server = await startServer();
  assert.match(server.output(), /resumed pipeline 'demo' at step \d+/);
  const resumed = await json(`${server.url}/v0/pipelines/demo/stats`);
  assert.ok(resumed.step >= step, `resumed at step ${resumed.step}, the checkpoint was at step ${checkpoint.step}`);
  assert.ok(resumed.checkpoint.restored_from >= checkpoint.checkpoint_sequence_number);
  assert.equal(resumed.tables.customers.total_records, 200, 'customers are not loaded twice');
  assert.equal(await server.stop(), 0);
});
