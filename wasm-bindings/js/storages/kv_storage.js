// KVStorage(namespace, { prefix }): checkpoint blobs in a Cloudflare Workers
// KV namespace (the binding a worker gets in `env`), one KV entry per blob
// under `prefix` + name, the value stored as an ArrayBuffer.
//
// Limits that shape it: a KV value is at most 25 MiB (the core splits a
// checkpoint into parts of at most 16 MiB, so every blob fits); a key is at
// most 512 bytes (a blob name is at most 200, see blob_names.js, so the
// prefix may take the rest); list() returns at most 1000 keys a call, so it
// follows the cursor until `list_complete`.
//
// Consistency: KV is eventually consistent. A put is visible at once in the
// location that made it, but elsewhere get() may return the old value and
// list() may omit a new key (or still show a deleted one) for up to about
// a minute. The checkpoint protocol tolerates this because it writes every
// part of a checkpoint first and its manifest last, and trusts a checkpoint
// only through a manifest whose parts all read back with matching checksums:
// a lagging list() at worst shows an older checkpoint, never a half one.
// Do not run two pipelines on one prefix, and expect KV's limit of about one
// write a second to one key.

import { checkBytes, checkName, checkPrefix, storageError } from './blob_names.js';

/** Largest KV value (Cloudflare's limit). */
export const KV_MAX_VALUE_BYTES = 25 * 1024 * 1024;
const KV_MAX_KEY_BYTES = 512;
const encoder = new TextEncoder();

export class KVStorage {
  #kv;
  #prefix;
  #label;

  /**
   * @param {KVNamespace} namespace the KV binding (`env.MY_KV`)
   * @param {{ prefix?: string }} [options] prepended to every blob name, so that
   *   several pipelines can share a namespace ('pipelines/orders/')
   */
  constructor(namespace, { prefix = '' } = {}) {
    if (!namespace || typeof namespace.get !== 'function' || typeof namespace.list !== 'function') {
      throw storageError('KVStorage', 'use namespace', String(namespace), 'pass a KV namespace binding (env.MY_KV)');
    }
    if (typeof prefix !== 'string' || encoder.encode(prefix).length > KV_MAX_KEY_BYTES - 200) {
      throw storageError('KVStorage', 'use prefix', String(prefix), `the prefix must be a string of at most ${KV_MAX_KEY_BYTES - 200} bytes`);
    }
    this.#kv = namespace;
    this.#prefix = prefix;
    this.#label = `KVStorage(prefix '${prefix}')`;
  }

  get prefix() {
    return this.#prefix;
  }

  async put(name, bytes) {
    checkName(this.#label, 'write blob', name);
    checkBytes(this.#label, name, bytes);
    if (bytes.byteLength > KV_MAX_VALUE_BYTES) {
      throw storageError(this.#label, 'write blob', name, `${bytes.byteLength} bytes is more than KV's limit of 25 MiB a value`);
    }
    try {
      // A copy: the runtime may read the body after we return.
      await this.#kv.put(this.#prefix + name, bytes.slice().buffer);
    } catch (error) {
      throw storageError(this.#label, 'write blob', name, error);
    }
  }

  async get(name) {
    checkName(this.#label, 'read blob', name);
    let value;
    try {
      value = await this.#kv.get(this.#prefix + name, { type: 'arrayBuffer' });
    } catch (error) {
      throw storageError(this.#label, 'read blob', name, error);
    }
    return value === null ? undefined : new Uint8Array(value);
  }

  async list(prefix = '') {
    checkPrefix(this.#label, prefix);
    const names = [];
    let cursor;
    try {
      do {
        const page = await this.#kv.list({ prefix: this.#prefix + prefix, ...(cursor ? { cursor } : {}) });
        for (const { name } of page.keys) names.push(name.slice(this.#prefix.length));
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
    } catch (error) {
      throw storageError(this.#label, 'list blobs with prefix', prefix, error);
    }
    // KV lists in UTF-8 byte order; sort as the other storages do (code units).
    return names.sort();
  }

  async delete(name) {
    checkName(this.#label, 'delete blob', name);
    try {
      await this.#kv.delete(this.#prefix + name);
    } catch (error) {
      throw storageError(this.#label, 'delete blob', name, error);
    }
  }

  describe() {
    return { type: 'KVStorage', prefix: this.#prefix };
  }
}
