// DurableObjectStorage(storage, { prefix, maxValueBytes }): blobs in a
// Cloudflare Durable Object's own storage (`ctx.storage`, its key-value
// API): transactional, strongly consistent, local to the object — where the
// edge worker keeps a pipeline's input log and checkpoints.
//
// A value holds at most 128 KiB on a KV-backed object and 2 MB (key and
// value) on a SQLite-backed one, and one put() takes at most 128 keys. So a
// blob is split into parts of `maxValueBytes`, stored under a generation of
// its own, and a small record names the generation:
//   {prefix}b/{name}             → { generation, parts, bytes }   (the blob's record)
//   {prefix}p/{name}/{generation}/{i}  → part i (Uint8Array)
// A put writes the parts, then the record (one storage call when it all
// fits in 128 keys, which DO storage makes atomic; otherwise the record last,
// so a crash midway leaves the old record and its parts whole), then deletes
// the old generation's parts. get() follows the record; list() lists records.

import { checkBytes, checkName, checkPrefix, storageError } from './blob_names.js';

/** Largest value a KV-backed object takes; the default part size. */
export const DO_KV_BACKED_MAX_VALUE_BYTES = 128 * 1024;
/** What a SQLite-backed object takes in one value, less room for the key. */
export const DO_SQLITE_MAX_VALUE_BYTES = 2_000_000 - 4096;
const MAX_KEYS_PER_CALL = 128;

export class DurableObjectStorage {
  #storage;
  #prefix;
  #partBytes;
  #label;

  /**
   * @param {DurableObjectStorage} storage the object's `ctx.storage`
   * @param {{ prefix?: string, maxValueBytes?: number }} [options] `prefix` keeps
   *   these blobs apart from the object's other keys; `maxValueBytes` the
   *   part size (default 128 KiB; up to DO_SQLITE_MAX_VALUE_BYTES on a SQLite-backed object)
   */
  constructor(storage, { prefix = '', maxValueBytes = DO_KV_BACKED_MAX_VALUE_BYTES } = {}) {
    if (!storage || typeof storage.get !== 'function' || typeof storage.list !== 'function') {
      throw storageError('DurableObjectStorage', 'use storage', String(storage), "pass a Durable Object's ctx.storage");
    }
    if (typeof prefix !== 'string') throw storageError('DurableObjectStorage', 'use prefix', String(prefix), 'the prefix must be a string');
    if (!(Number.isInteger(maxValueBytes) && maxValueBytes > 0 && maxValueBytes <= DO_SQLITE_MAX_VALUE_BYTES)) {
      throw storageError('DurableObjectStorage', 'use part size', String(maxValueBytes),
                         `maxValueBytes is a whole number of bytes from 1 to ${DO_SQLITE_MAX_VALUE_BYTES}`);
    }
    this.#storage = storage;
    this.#prefix = prefix;
    this.#partBytes = maxValueBytes;
    this.#label = `DurableObjectStorage(prefix '${prefix}')`;
  }

  async put(name, bytes) {
    checkName(this.#label, 'write blob', name);
    checkBytes(this.#label, name, bytes);
    const old = await this.#call('write blob', name, () => this.#storage.get(this.#recordKey(name)));
    const generation = randomGeneration();
    const entries = {};
    let parts = 0;
    for (let at = 0; at < bytes.byteLength || parts === 0; at += this.#partBytes, ++parts) {
      entries[this.#partKey(name, generation, parts)] = bytes.slice(at, at + this.#partBytes);
    }
    const record = { generation, parts, bytes: bytes.byteLength };
    await this.#call('write blob', name, async () => {
      const keys = Object.keys(entries);
      if (keys.length < MAX_KEYS_PER_CALL) {
        await this.#storage.put({ ...entries, [this.#recordKey(name)]: record });  // one call: atomic
      } else {
        for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL) {
          const slice = Object.fromEntries(keys.slice(i, i + MAX_KEYS_PER_CALL).map((key) => [key, entries[key]]));
          await this.#storage.put(slice);
        }
        await this.#storage.put(this.#recordKey(name), record);
      }
    });
    if (old) await this.#deleteParts(name, old);
  }

  async get(name) {
    checkName(this.#label, 'read blob', name);
    return this.#call('read blob', name, async () => {
      const record = await this.#storage.get(this.#recordKey(name));
      if (!record) return undefined;
      const keys = Array.from({ length: record.parts }, (_, i) => this.#partKey(name, record.generation, i));
      const bytes = new Uint8Array(record.bytes);
      let at = 0;
      for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL) {
        const found = await this.#storage.get(keys.slice(i, i + MAX_KEYS_PER_CALL));
        for (const key of keys.slice(i, i + MAX_KEYS_PER_CALL)) {
          const part = found.get(key);
          if (!part) throw new Error(`part '${key}' is missing`);
          bytes.set(new Uint8Array(part.buffer ?? part, part.byteOffset ?? 0, part.byteLength), at);
          at += part.byteLength;
        }
      }
      if (at !== record.bytes) throw new Error(`the parts hold ${at} bytes, the record says ${record.bytes}`);
      return bytes;
    });
  }

  async list(prefix = '') {
    checkPrefix(this.#label, prefix);
    const start = `${this.#prefix}b/`;
    const found = await this.#call('list blobs with prefix', prefix, () => this.#storage.list({ prefix: start + prefix }));
    return [...found.keys()].map((key) => key.slice(start.length)).sort();
  }

  async delete(name) {
    checkName(this.#label, 'delete blob', name);
    const record = await this.#call('delete blob', name, () => this.#storage.get(this.#recordKey(name)));
    if (!record) return;
    await this.#call('delete blob', name, () => this.#storage.delete(this.#recordKey(name)));
    await this.#deleteParts(name, record);
  }

  describe() {
    return { type: 'DurableObjectStorage', prefix: this.#prefix };
  }

  #recordKey(name) {
    return `${this.#prefix}b/${name}`;
  }

  #partKey(name, generation, i) {
    return `${this.#prefix}p/${name}/${generation}/${i}`;
  }

  async #deleteParts(name, record) {
    const keys = Array.from({ length: record.parts }, (_, i) => this.#partKey(name, record.generation, i));
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_CALL) {
      await this.#call('delete blob', name, () => this.#storage.delete(keys.slice(i, i + MAX_KEYS_PER_CALL)));
    }
  }

  async #call(action, name, call) {
    try {
      return await call();
    } catch (error) {
      throw storageError(this.#label, action, name, error);
    }
  }
}

function randomGeneration() {
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
