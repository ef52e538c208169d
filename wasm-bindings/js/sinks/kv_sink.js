// KVSink(namespace, { prefix }): mirrors a view into a Cloudflare Workers KV
// namespace, one entry per key under `prefix`, values as JSON text:
//   - through an index: entry prefix + keyText(key) (sink_keys.js, e.g.
//     'dash/["west"]') holds the row. Upserts put, deletes delete; a key both
//     deleted and upserted in one chunk is only put. Idempotent: writing a
//     chunk again after a failure or a crash gives the same state.
//   - on a view: entry prefix + rowText(row) holds { row, count,
//     sequenceNumber }. KV has no transactions, so a chunk that fails halfway
//     is retried whole by the pipeline; `sequenceNumber` records the last chunk
//     applied to the entry, and a retried chunk skips the entries it already
//     changed instead of counting them twice. (So the prefix must be empty,
//     or reset, when a pipeline starts writing into it afresh: entries left
//     by an earlier run carry its sequence numbers.)
// A name longer than KV's 512-byte key limit becomes prefix + '#' + the
// SHA-256 (hex) of its text ('#' cannot start JSON text, so no clash).
// Workers allow about 1000 KV operations per invocation: a snapshot of more
// rows than that must be written from a Durable Object or split by the host.
// A chunk is NOT applied atomically (readers may see part of it for a
// moment), and KV is eventually consistent: other locations may see a write
// up to about a minute late. reset() deletes every key under the prefix —
// and only those — following list()'s cursor.

import { storageError } from '../storages/blob_names.js';
import { stringifyJson } from '../values.js';
import { keyText, rowDeltas } from './sink_keys.js';

const KV_MAX_KEY_BYTES = 512;
// KV operations in flight at once: a Worker runs at most 6 subrequests (KV
// calls among them) at a time and queues the rest, so more would only queue.
const CONCURRENCY = 6;
const encoder = new TextEncoder();

export class KVSink {
  #kv;
  #prefix;
  #label;

  /**
   * @param {KVNamespace} namespace the KV binding (`env.MY_KV`)
   * @param {{ prefix: string }} options every entry's key starts with it; must
   *   not be empty (reset() deletes everything under it)
   */
  constructor(namespace, { prefix } = {}) {
    if (!namespace || typeof namespace.get !== 'function' || typeof namespace.list !== 'function') {
      throw storageError('KVSink', 'use namespace', String(namespace), 'pass a KV namespace binding (env.MY_KV)');
    }
    if (typeof prefix !== 'string' || prefix === '' || encoder.encode(prefix).length > 256) {
      throw storageError('KVSink', 'use prefix', String(prefix),
        'options.prefix must be a non-empty string of at most 256 bytes (reset() deletes every key under it)');
    }
    this.#kv = namespace;
    this.#prefix = prefix;
    this.#label = `KVSink(prefix '${prefix}')`;
  }

  async write(chunk) {
    try {
      if (chunk.upserts) await this.#writeIndex(chunk);
      else await this.#writeView(chunk);
    } catch (error) {
      throw storageError(this.#label, 'write chunk', String(chunk.sequenceNumber), error);
    }
  }

  async #writeIndex(chunk) {
    // The last word on each key, so that no delete races a put of the same key.
    /** @type {Map<string, object | null>} */
    const final = new Map();
    for (const { key } of chunk.deletes) final.set(keyText(key), null);
    for (const { key, row } of chunk.upserts) final.set(keyText(key), row);
    await eachLimited([...final], async ([text, row]) => {
      const key = await this.#keyOf(text);
      if (row === null) await this.#kv.delete(key);
      else await this.#kv.put(key, stringifyJson(row));
    });
  }

  async #writeView(chunk) {
    const sequence = typeof chunk.sequenceNumber === 'number' ? chunk.sequenceNumber : null;
    await eachLimited([...rowDeltas(chunk)], async ([text, { row, delta }]) => {
      const key = await this.#keyOf(text);
      const entry = JSON.parse((await this.#kv.get(key)) ?? 'null');
      if (entry && sequence !== null && typeof entry.sequenceNumber === 'number' && entry.sequenceNumber >= sequence) {
        return;  // this chunk (or a later one) already reached this entry
      }
      const count = (entry?.count ?? 0) + delta;
      if (count > 0) await this.#kv.put(key, stringifyJson({ row, count, sequenceNumber: sequence }));
      else if (entry) await this.#kv.delete(key);
    });
  }

  /** Deletes every key under the prefix (the pipeline then writes a fresh snapshot). */
  async reset() {
    try {
      // List everything first, then delete: deleting while paging could
      // disturb the cursor.
      const keys = [];
      let cursor;
      do {
        const page = await this.#kv.list({ prefix: this.#prefix, ...(cursor ? { cursor } : {}) });
        for (const { name } of page.keys) keys.push(name);
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      await eachLimited(keys, (key) => this.#kv.delete(key));
    } catch (error) {
      throw storageError(this.#label, 'delete keys with prefix', this.#prefix, error);
    }
  }

  describe() {
    return { type: 'KVSink', prefix: this.#prefix };
  }

  async #keyOf(text) {
    const key = this.#prefix + text;
    if (encoder.encode(key).length <= KV_MAX_KEY_BYTES) return key;
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
    return `${this.#prefix}#${[...digest].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  }
}

/**
 * Runs `fn` over `items` with at most CONCURRENCY calls in flight. On a
 * failure it starts no more calls and rejects only once the ones in flight
 * have settled: a straggler from a failed attempt must not land after the
 * pipeline's retry (or the next chunk) wrote the same key.
 */
async function eachLimited(items, fn) {
  let next = 0;
  let failure = null;
  const worker = async () => {
    while (next < items.length && !failure) {
      try {
        await fn(items[next++]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  if (failure) throw failure.error;
}
