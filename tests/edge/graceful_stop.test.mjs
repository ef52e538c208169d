// `npm start` (edge-worker/dev.mjs) as a terminal runs it, in its own
// process group: Ctrl-C during a burst of ingress loses nothing that was
// acknowledged (every pipeline refuses new input, flushes and takes a last
// checkpoint before workerd stops); a second `npm start` on the same state
// folder fails at once naming the first; the lock of a process killed with
// kill -9 is taken over, and the workerd it left behind is stopped.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { CrashSubject, SQL } from './crash_harness.mjs';
import { startDevServer } from './dev_server.mjs';
import { assertError, edgeWorker, sleep, until } from './support.mjs';

/** A stop that hangs fails its test instead of the run (dev servers are killed in after()). */
const LIMIT = { timeout: 120_000 };
const servers = [];
const folders = [];
const orphans = [];  // workerd pids left behind on purpose, killed here if the test failed to see them stopped
after(() => {
  for (const server of servers) server.killGroup();
  for (const pid of orphans.filter(alive)) process.kill(pid, 'SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function stateFolder() {
  const folder = mkdtempSync(join(tmpdir(), 'freshet-graceful-'));
  folders.push(folder);
  return folder;
}

async function devServer(state, env) {
  const server = await startDevServer(state, env);
  servers.push(server);
  return server;
}

/** The process runs (a zombie, which nobody may reap in a container, does not). */
const alive = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

test('Ctrl-C during a burst of ingress: after a restart every acknowledged record is there once, tokens answer, the connector mirrors the view', LIMIT, async () => {
  const state = stateFolder();
  const server = await devServer(state, { FRESHET_DEMO_RATE: '400' });  // the generator runs too, and must stop first
  const subject = new CrashSubject(state);
  subject.worker = { url: server.url };
  await subject.create();  // checkpoints only every 60 s: what survives is the last checkpoint's doing
  await subject.ingest(10);
  const bursts = [subject.burst(20), subject.burst(20), subject.burst(20)];
  await until(() => subject.acknowledged.size >= 600, { what: 'a burst of acknowledged ingress' });
  server.interrupt('SIGINT');
  const acknowledged = (await Promise.all(bursts.map((burst) => burst.done))).reduce((a, b) => a + b, 0);
  await server.exited;
  assert.ok(acknowledged >= 600, `${acknowledged} acknowledged in the burst`);

  await subject.start();  // the same worker on the same folder, in this process (to read its KV)
  try {
    const result = await subject.check();
    assert.deepEqual(result, {
      acknowledged: subject.acknowledged.size, lost: 0, duplicated: 0, viewMatchesTable: true,
      mirrorExact: true, plainLost: 0, plainDuplicated: 0, tokensUnanswered: 0,
    });
    const stats = (await subject.call('GET', 'stats')).body;
    assert.equal(stats.connectors.mirror.resets, 0, 'nothing was lost, so no connector was reset');
  } finally {
    await subject.worker.stop();
  }
  assert.equal(await server.exited, 0, server.output());
  assert.match(server.output(), /SIGINT: stopping/);
  assert.match(server.output(), /pipeline 'crash': checkpoint at step \d+\n/, 'the last checkpoint, connectors flushed');
  assert.match(server.output(), /pipeline 'demo': checkpoint at step \d+/);
});

test('a second npm start on the same folder fails at once, naming the process that holds it; the first runs on', LIMIT, async () => {
  const state = stateFolder();
  const first = await devServer(state);
  const second = await devServer(state);
  assert.equal(second.url, null, 'the second did not start');
  assert.equal(await second.exited, 1);
  assert.match(second.output(), new RegExp(`state folder ${state} is in use by process ${first.pid} \\(.*dev\\.mjs`));
  assert.equal((await fetch(`${first.url}/v0/pipelines/demo/stats`)).status, 200, 'the first still serves');
  first.interrupt('SIGTERM');
  assert.equal(await first.exited, 0, first.output());
});

test('the lock of a dev.mjs killed with kill -9 is taken over, and the workerd it left behind is stopped', LIMIT, async () => {
  const state = stateFolder();
  const first = await devServer(state);
  const { workerdPid } = JSON.parse(readFileSync(join(state, 'freshet.lock'), 'utf8'));
  assert.ok(workerdPid > 0);
  orphans.push(workerdPid);
  first.kill();
  await first.exited;
  await sleep(200);
  assert.ok(alive(workerdPid), 'workerd outlived its parent (it runs in a session of its own)');

  const next = await devServer(state);
  assert.ok(next.url, next.output());
  assert.match(next.output(), new RegExp(`took over the state folder from process ${first.pid}`));
  await until(() => !alive(workerdPid), { what: `the orphaned workerd ${workerdPid} to be stopped` });
  assert.equal((await fetch(`${next.url}/v0/pipelines/demo/stats`)).status, 200);
  next.interrupt('SIGINT');
  assert.equal(await next.exited, 0, next.output());
});

test('POST .../shutdown: input from then on is refused with 503 CLOSED, the accepted input is in the last checkpoint', LIMIT, async () => {
  const edge = await edgeWorker();
  try {
    assert.equal((await edge.call('PUT', 'down', { program_code: SQL, checkpoint_interval_ms: 0 })).status, 201);
    const token = (await edge.call('POST', 'down/ingress/t?update_format=raw', [{ id: 1, run: 0 }, { id: 2, run: 0 }])).body.token;
    const shutdown = await edge.call('POST', 'down/shutdown?flush_ms=2000');
    assert.equal(shutdown.status, 200, JSON.stringify(shutdown.body));
    assert.deepEqual({ ...shutdown.body, step: 0, checkpoint_sequence_number: 0 },
                     { checkpointed: true, flushed: true, step: 0, checkpoint_sequence_number: 0 });
    assertError(await edge.call('POST', 'down/ingress/t?update_format=raw', [{ id: 3, run: 0 }]), 503, 'CLOSED', /shutting down/);
    await edge.restart();
    assert.deepEqual((await edge.call('GET', 'down/query?sql=SELECT id FROM t ORDER BY id')).body, [{ id: 1 }, { id: 2 }]);
    assert.deepEqual((await edge.call('GET', `down/completion_status?token=${token}`)).body, { status: 'complete' });
    assert.equal((await edge.call('POST', 'down/ingress/t?update_format=raw', [{ id: 3, run: 1 }])).status, 200, 'a new workerd takes input');
  } finally {
    await edge.stop();
  }
});
