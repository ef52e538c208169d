// What the edge tests share: the edge worker in real workerd (Miniflare) on
// 127.0.0.1 with a temporary persistence folder, HTTP helpers, and a reader
// of NDJSON egress streams.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEdgeWorker } from '../../edge-worker/local.mjs';

/**
 * A worker on a fresh folder; `restart()` stops workerd and starts it again on the same folder.
 * @param {{ faults?: string }} [options] passed to startEdgeWorker (`faults`: KV fault injection, local.mjs)
 */
export async function edgeWorker(options = {}) {
  const persistDir = mkdtempSync(join(tmpdir(), 'freshet-edge-'));
  let worker = await startEdgeWorker({ ...options, persistDir });
  const handle = {
    get url() {
      return worker.url;
    },
    /** `overrides` replace options for this start and the later ones (vars: a test variable set or unset). */
    async restart(overrides = {}) {
      await worker.stop();
      options = { ...options, ...overrides };
      worker = await startEdgeWorker({ ...options, persistDir });
    },
    /** The worker's KV namespace, read from Node. */
    kv: () => worker.mf.getKVNamespace('KV'),
    async stop() {
      await worker.stop();
      rmSync(persistDir, { recursive: true, force: true });
    },
    /** fetch under /v0/pipelines/; `body` objects are sent as JSON. */
    async call(method, path, body, init = {}) {
      let response;
      try {
        response = await fetch(`${worker.url}/v0/pipelines/${path}`, {
          method,
          ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
          ...init,
        });
      } catch (error) {
        // undici says only 'fetch failed'; what failed is in its cause.
        const cause = error.cause ? ` (${error.cause.code ?? ''} ${error.cause.message})` : '';
        throw new Error(`${method} ${path}: ${error.message}${cause}`, { cause: error });
      }
      const text = await response.text();
      let json = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = text;
      }
      return { status: response.status, body: json, headers: response.headers };
    },
  };
  return handle;
}

/** Reads an NDJSON egress response object by object; `next(timeoutMs)` rejects when nothing comes in time. */
export function ndjsonReader(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const lines = [];
  return {
    raw: () => buffer,
    async next(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!lines.length) {
        const cut = buffer.indexOf('\r\n');
        if (cut >= 0) {
          lines.push(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          break;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no egress object within ${timeoutMs} ms`);
        let timer;
        const { value, done } = await Promise.race([
          reader.read(),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no egress object within ${timeoutMs} ms`)), left))),
        ]).finally(() => clearTimeout(timer));
        if (done) return null;
        buffer += decoder.decode(value, { stream: true });
      }
      return JSON.parse(lines.shift());
    },
    cancel: () => reader.cancel(),
  };
}

/** A multiset of rows (JSON text → count) that deltas are applied to. */
export class RowBag {
  counts = new Map();

  apply(records) {
    for (const record of records) {
      const [kind, row] = record.insert ? ['insert', record.insert] : ['delete', record.delete];
      const key = canonical(row);
      const count = (this.counts.get(key) ?? 0) + (kind === 'insert' ? 1 : -1);
      if (count === 0) this.counts.delete(key);
      else this.counts.set(key, count);
    }
  }

  sorted() {
    return [...this.counts].flatMap(([key, count]) => Array(count).fill(key)).sort();
  }
}

export function canonical(row) {
  return JSON.stringify(Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : 1))));
}

export function sortedRows(rows) {
  return rows.map(canonical).sort();
}

/** Asserts an error answer: status, error_code, and Feldera's three fields (message, error_code, details). */
export function assertError(answer, status, code, message) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.deepEqual(Object.keys(answer.body).sort(), ['details', 'error_code', 'message']);
  assert.equal(answer.body.error_code, code);
  if (message) assert.match(answer.body.message, message);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a truthy value (then returns it) or the time is up. */
export async function until(probe, { timeoutMs = 20_000, everyMs = 25, what = 'a condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}
