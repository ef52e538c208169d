// The crash-test harness: real workerd (started as local.mjs starts it),
// acknowledged ingress over HTTP, `kill -9` of workerd at a random point, a
// restart on the same state folder, and a check of what survived. Used by
// scripts/crash-test.mjs (many runs, totals) and tests/edge/crash.test.mjs
// (a few runs under node:test).
//
// One pipeline, `crash`, whose table keeps every record (no primary key, so
// a record applied twice shows twice) and whose view sums the table in
// buckets; two KV connectors on the view: `mirror` through an index (an
// idempotent sink: it must hold exactly the view) and `plain` on the view
// itself (rows with counts: at-least-once, its duplicates are counted).
//
// Crash points (`kind`):
//   ack         between the acknowledgement of ingress and the next checkpoint
//   checkpoint  in the middle of a checkpoint write (POST .../checkpoint)
//   connector   while the KV connectors deliver a large change (sometimes after a
//               checkpoint taken while they do)
//
// After the restart a run checks: every acknowledged record is in the table
// exactly once (lost / duplicated otherwise); the view equals the view
// recomputed from the table; `mirror` holds exactly the view; `plain` holds
// it at least once (its extra copies counted as duplicates, missing rows as
// lost); every acknowledged token answers (`complete`, not 410 INPUT_LOST).

import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { startEdgeWorker } from '../../edge-worker/local.mjs';
// A run's random choices (sizes, delays) come from its seed; where the kill lands also depends on the machine's timing.
import { random } from '../js/support.mjs';

export const BUCKETS = 64;
export const SQL = `
CREATE TABLE t (id BIGINT NOT NULL, run BIGINT NOT NULL) WITH ('materialized' = 'true');
CREATE MATERIALIZED VIEW buckets AS SELECT id % ${BUCKETS} AS bucket, COUNT(*) AS n, SUM(id) AS total FROM t GROUP BY id % ${BUCKETS};
CREATE INDEX buckets_by_bucket ON buckets(bucket);
`;
export const MIRROR_PREFIX = 'outputs/crash/mirror/';
export const PLAIN_PREFIX = 'outputs/crash/plain/';
export const KINDS = ['ack', 'checkpoint', 'connector'];

export const DEFINITION = {
  program_code: SQL,
  outputs: {
    mirror: { view: 'buckets', index: 'buckets_by_bucket', send_snapshot: true, sink: { type: 'kv', prefix: MIRROR_PREFIX } },
    plain: { view: 'buckets', send_snapshot: true, sink: { type: 'kv', prefix: PLAIN_PREFIX } },
  },
  // A long interval: the crash lands between checkpoints, as on the edge.
  checkpoint_interval_ms: 60_000,
};

/** One state folder, one pipeline, many crashes: what was acknowledged so far, and the checks. */
export class CrashSubject {
  /** ids acknowledged (each ingested once), tokens acknowledged */
  acknowledged = new Set();
  tokens = [];
  #nextId = 1;
  #run = 0;
  worker = null;

  constructor(persistDir) {
    this.persistDir = persistDir;
  }

  async start() {
    this.worker = await startEdgeWorker({ persistDir: this.persistDir });
    if (this.worker.workerdPid === null) throw new Error('could not tell the pid of workerd (needs Linux /proc)');
  }

  async create() {
    const created = await this.call('PUT', '', DEFINITION);
    if (created.status !== 201) throw new Error(`PUT: ${created.status} ${JSON.stringify(created.body)}`);
  }

  /** fetch under the pipeline; the answer's status and parsed body (null for an empty one). */
  async call(method, path, body) {
    const response = await fetch(`${this.worker.url}/v0/pipelines/crash${path ? `/${path}` : ''}`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  /** Ingests `count` new records in one request; remembers them once acknowledged. */
  async ingest(count) {
    const ids = Array.from({ length: count }, () => this.#nextId++);
    const answer = await this.call('POST', 'ingress/t?update_format=raw', ids.map((id) => ({ id, run: this.#run })));
    if (answer.status !== 200) throw new Error(`ingress: ${answer.status} ${JSON.stringify(answer.body)}`);
    for (const id of ids) this.acknowledged.add(id);
    this.tokens.push(answer.body.token);
    return answer.body.token;
  }

  /** Ingests batches back to back until `stop()` (or a failure, e.g. workerd gone); resolves with how many were acknowledged. */
  burst(batch) {
    let stopped = false;
    const done = (async () => {
      let acknowledged = 0;
      while (!stopped) {
        try {
          await this.ingest(batch);
          acknowledged += batch;
        } catch {
          break;  // killed: what was answered counts, what was not is not acknowledged
        }
      }
      return acknowledged;
    })();
    return { stop: () => ((stopped = true), done), done };
  }

  /** kill -9 of workerd, then a new workerd on the same folder. */
  async crashAndRestart() {
    process.kill(this.worker.workerdPid, 'SIGKILL');
    await this.worker.stop().catch(() => {});
    ++this.#run;
    await this.start();
  }

  /**
   * One crash of the given kind at a random point; then the checks.
   * @param {'ack' | 'checkpoint' | 'connector'} kind
   * @param {() => number} rand
   */
  async crashOnce(kind, rand) {
    if (kind === 'ack') {
      if (rand() < 0.5) await this.call('POST', 'checkpoint');
      const burst = this.burst(1 + Math.floor(rand() * 50));
      await sleep(20 + rand() * 400);
      await this.crashAndRestart();
      await burst.done;
    } else if (kind === 'checkpoint') {
      // One checkpoint timed, then a kill at a random point of the next one (or just after it).
      await this.ingest(200 + Math.floor(rand() * 800));
      const started = Date.now();
      await this.call('POST', 'checkpoint');
      const duration = Date.now() - started;
      await this.ingest(200 + Math.floor(rand() * 800));
      const written = this.call('POST', 'checkpoint').catch(() => null);
      await sleep(rand() * 1.2 * duration);
      await this.crashAndRestart();
      await written;
    } else {
      // A change to every bucket: a hundred KV operations per connector, which take about a
      // second here; half the time a checkpoint is taken while they are under way.
      await this.ingest(BUCKETS);
      if (rand() < 0.5) await this.call('POST', 'checkpoint');
      await sleep(rand() * 800);
      await this.crashAndRestart();
    }
    return this.check();
  }

  /** What survived, against what was acknowledged. */
  async check() {
    // A checkpoint holds input no step consumed yet, which the restored pipeline steps soon
    // after: one step now consumes it, so that the table and the view are read as of one step.
    const stepped = await this.call('POST', 'step');
    if (stepped.status !== 200) throw new Error(`step: ${stepped.status} ${JSON.stringify(stepped.body)}`);
    const counts = new Map();
    const rows = await this.#query('SELECT id FROM t');
    for (const { id } of rows) counts.set(id, (counts.get(id) ?? 0) + 1);
    let lost = 0;
    let duplicated = 0;
    for (const id of this.acknowledged) {
      const count = counts.get(id) ?? 0;
      if (count === 0) ++lost;
      else duplicated += count - 1;
    }
    const view = await this.#query('SELECT * FROM buckets');
    const viewMatchesTable = sameRows(view, recompute(rows));
    const connectors = await this.#connectorsAgainst(view);
    let tokensUnanswered = 0;
    for (const token of this.tokens) {
      const answer = await this.call('GET', `completion_status?token=${token}`);
      if (answer.status !== 200) ++tokensUnanswered;
    }
    return { acknowledged: this.acknowledged.size, lost, duplicated, viewMatchesTable, ...connectors, tokensUnanswered };
  }

  async #query(sql) {
    const answer = await this.call('GET', `query?format=json_array&sql=${encodeURIComponent(sql)}`);
    if (answer.status !== 200) throw new Error(`${sql}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** Waits (bounded) for the connectors to catch up, then compares their KV rows with the view. */
  async #connectorsAgainst(view) {
    const wanted = new Map(view.map((row) => [row.bucket, row]));
    let last;
    for (let attempt = 0; attempt < 40; ++attempt) {
      const stats = (await this.call('GET', 'stats')).body;
      if (stats?.global_metrics?.pipeline_complete) {
        last = await this.#compareKV(wanted);
        if (last.mirrorExact && last.plainLost === 0) return last;
      }
      await sleep(250);
    }
    return last ?? (await this.#compareKV(wanted));
  }

  async #compareKV(wanted) {
    const kv = await this.worker.mf.getKVNamespace('KV');
    const mirror = await readPrefix(kv, MIRROR_PREFIX);
    const mirrorExact = mirror.length === wanted.size &&
      mirror.every(({ value }) => sameRows([value], [wanted.get(value.bucket)]));
    // The plain sink: { row, count } per distinct row; compare its multiset with the view's.
    const plain = new Map();
    for (const { value } of await readPrefix(kv, PLAIN_PREFIX)) plain.set(JSON.stringify(ordered(value.row)), value.count);
    let plainLost = 0;
    let plainDuplicated = 0;
    for (const row of wanted.values()) {
      const count = plain.get(JSON.stringify(ordered(row))) ?? 0;
      if (count === 0) ++plainLost;
      else plainDuplicated += count - 1;
      plain.delete(JSON.stringify(ordered(row)));
    }
    const plainStale = [...plain.values()].reduce((sum, count) => sum + Math.max(0, count), 0);
    return { mirrorExact, plainLost, plainDuplicated: plainDuplicated + plainStale };
  }
}

async function readPrefix(kv, prefix) {
  const names = [];
  let cursor;
  do {
    const page = await kv.list({ prefix, cursor });
    names.push(...page.keys.map((key) => key.name));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  const values = [];
  for (let i = 0; i < names.length; i += 64) {
    values.push(...await Promise.all(names.slice(i, i + 64).map(async (name) => ({ name, value: await kv.get(name, 'json') }))));
  }
  return values;
}

/** The view computed from scratch from the table's rows. */
function recompute(rows) {
  const buckets = new Map();
  for (const { id } of rows) {
    const bucket = buckets.get(id % BUCKETS) ?? { bucket: id % BUCKETS, n: 0, total: 0 };
    bucket.n += 1;
    bucket.total += id;
    buckets.set(id % BUCKETS, bucket);
  }
  return [...buckets.values()];
}

function ordered(row) {
  return Object.fromEntries(Object.entries(row ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function sameRows(a, b) {
  const text = (rows) => rows.map((row) => JSON.stringify(ordered(row))).sort().join('\n');
  return text(a) === text(b);
}

/** Sums of the checks of many runs (each on its own state folder). */
export function totals(results) {
  const sum = (field) => results.reduce((total, result) => total + result[field], 0);
  const count = (failed) => results.filter(failed).length;
  return {
    runs: results.length,
    acknowledged: sum('acknowledged'),
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    viewMismatches: count((result) => !result.viewMatchesTable),
    mirrorMismatches: count((result) => !result.mirrorExact),
    plainLost: sum('plainLost'),
    plainDuplicated: sum('plainDuplicated'),
    tokensUnanswered: sum('tokensUnanswered'),
  };
}

/**
 * One run on a fresh state folder under `parent`: start, create, crash once (`kind`), check, stop.
 * @returns {Promise<object>} the checks, with `kind`, `seed`
 */
export async function crashRun(parent, kind, seed) {
  const folder = mkdtempSync(join(parent, `${kind}-`));
  const subject = new CrashSubject(folder);
  try {
    await subject.start();
    await subject.create();
    const result = await subject.crashOnce(kind, random(seed));
    return { kind, seed, ...result };
  } finally {
    await subject.worker?.stop().catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  }
}
