// Durable ingress on real workerd: ingress is answered once its input is in
// the Durable Object's storage (the input log), so `kill -9` of workerd (the
// whole process group: Node, Miniflare and workerd) after acknowledgements
// and before the next checkpoint loses none of them. After a restart on the
// same folder every acknowledged record is in the view exactly once, its
// token answers, and the KV connector holds exactly the view.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';

import { random, seed } from '../js/support.mjs';

import { until } from './support.mjs';

const PROCESS = new URL('./worker_process.mjs', import.meta.url).pathname;
const SQL = `
CREATE TABLE t (id BIGINT NOT NULL, v BIGINT);
CREATE MATERIALIZED VIEW all_rows AS SELECT * FROM t;
CREATE MATERIALIZED VIEW totals AS SELECT v, COUNT(*) AS n FROM t GROUP BY v;
CREATE INDEX totals_by_v ON totals(v);
`;
const PREFIX = 'outputs/d/totals/';

const persistDir = mkdtempSync(join(tmpdir(), 'freshet-durable-ingress-'));
let worker = null;
after(() => {
  worker?.kill();
  rmSync(persistDir, { recursive: true, force: true });
});

/** Starts the worker in its own process group. @returns {{ url, kill() }} */
async function startWorker() {
  const child = spawn(process.execPath, [PROCESS, persistDir], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', (code) => reject(new Error(`the worker process exited (${code})`)));
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    url,
    /** SIGKILL to the process group: workerd dies with Node, as in a crash. */
    kill: async () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
  };
}

async function call(method, path, body) {
  const response = await fetch(`${worker.url}/v0/pipelines/${path}`, {
    method, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The KV namespace as the worker's KV connector wrote it, read back over the query route's twin: Miniflare's files. */
async function kvMirror() {
  const { Miniflare } = await import('miniflare');
  const mf = new Miniflare({ script: 'export default {}', modules: true, kvNamespaces: ['KV'], kvPersist: join(persistDir, 'kv') });
  try {
    const kv = await mf.getKVNamespace('KV');
    const entries = {};
    for (const { name } of (await kv.list({ prefix: PREFIX })).keys) entries[name] = await kv.get(name, 'json');
    return entries;
  } finally {
    await mf.dispose();
  }
}

test('kill -9 of workerd after acknowledgements, before the next checkpoint: every acknowledged record once, tokens answer', async () => {
  const next = random(seed('durable ingress kill'));
  worker = await startWorker();
  const created = await call('PUT', 'd', {
    program_code: SQL,
    outputs: { mirror: { view: 'totals', index: 'totals_by_v', sink: { type: 'kv', prefix: PREFIX } } },
    checkpoint_interval_ms: 0,  // checkpoints only when a round asks for one
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const acknowledged = [];  // { ids, token }
  let id = 0;
  for (let round = 0; round < 3; ++round) {
    // A burst: several clients, each sending batches until the kill; some rounds checkpoint midway.
    let killed = false;
    const client = async () => {
      while (!killed) {
        const ids = Array.from({ length: 1 + Math.floor(next() * 40) }, () => id++);
        let answer;
        try {
          answer = await call('POST', 'd/ingress/t', ids.map((n) => ({ insert: { id: n, v: n % 5 } })));
        } catch {
          return;  // the connection died with workerd: not acknowledged
        }
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        acknowledged.push({ ids, token: answer.body.token });
        if (round === 1 && acknowledged.length % 10 === 0) await call('POST', 'd/checkpoint').catch(() => {});
      }
    };
    const clients = [client(), client(), client()];
    const before = acknowledged.length;
    await until(() => acknowledged.length >= before + 5 + Math.floor(next() * 30), { what: 'acknowledgements' });
    killed = true;
    await worker.kill();
    await Promise.all(clients);

    worker = await startWorker();
    for (const { token } of acknowledged) {
      await until(async () => (await call('GET', `d/completion_status?token=${token}`)).body.status === 'complete',
                  { what: `token ${token}` });
    }
    const rows = (await call('GET', 'd/query?sql=SELECT * FROM all_rows')).body;
    const counts = new Map();
    for (const row of rows) counts.set(row.id, (counts.get(row.id) ?? 0) + 1);
    assert.deepEqual([...counts].filter(([, n]) => n > 1), [], `round ${round}: no record twice`);
    const lost = acknowledged.flatMap(({ ids }) => ids).filter((n) => !counts.has(n));
    assert.deepEqual(lost, [], `round ${round}: no acknowledged record lost`);
    const totals = (await call('GET', 'd/query?sql=SELECT * FROM totals')).body;
    const want = new Map();
    for (const row of rows) want.set(row.v, (want.get(row.v) ?? 0) + 1);
    assert.deepEqual(new Map(totals.map((row) => [row.v, row.n])), want, 'the incremental totals against a recount');
    await until(async () => {
      const mirror = await kvMirror();
      return isDeepStrictEqual(mirror, Object.fromEntries(totals.map((row) => [`${PREFIX}[${row.v}]`, row])));
    }, { what: 'the KV connector to hold exactly the view' });
  }
  await worker.kill();
  worker = null;
});
