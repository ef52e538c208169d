// IndexedDBStorage(name): checkpoint blobs in the browser's IndexedDB (main
// thread or Web Worker). One database, 'freshet:<name>', with one object store
// 'blobs' mapping a blob name to its bytes (an ArrayBuffer). The database name
// is prefixed so that a pipeline called like one of the application's own
// databases does not collide with it.
//
// Each put is its own transaction with 'strict' durability: it resolves only
// once the browser has flushed the blob, which the checkpoint protocol (blobs
// first, manifest last) relies on.

import { checkBytes, checkName, checkPrefix, exactBuffer, storageError } from './blob_names.js';
import { IndexedDBConnection } from './indexeddb_connection.js';

const STORE = 'blobs';

export class IndexedDBStorage {
  #name;
  #label;
  #connection;

  /** @param {string} name the pipeline's storage name (database 'freshet:<name>') */
  constructor(name) {
    if (typeof name !== 'string' || name === '') {
      throw storageError('IndexedDBStorage', 'use database', String(name), 'the name must be a non-empty string');
    }
    this.#name = name;
    this.#label = `IndexedDBStorage('${name}')`;
    this.#connection = new IndexedDBConnection(`freshet:${name}`, STORE);
  }

  /** The IndexedDB database name. */
  get database() {
    return `freshet:${this.#name}`;
  }

  async put(name, bytes) {
    checkName(this.#label, 'write blob', name);
    checkBytes(this.#label, name, bytes);
    try {
      await this.#connection.run('readwrite', (store) => {
        store.put(exactBuffer(bytes), name);
      }, { durability: 'strict' });
    } catch (error) {
      throw storageError(this.#label, 'write blob', name, error);
    }
  }

  async get(name) {
    checkName(this.#label, 'read blob', name);
    let value;
    try {
      value = await this.#connection.run('readonly', (store) => {
        const request = store.get(name);
        return () => request.result;
      });
    } catch (error) {
      throw storageError(this.#label, 'read blob', name, error);
    }
    if (value === undefined) return undefined;
    // Stored as an ArrayBuffer; a Uint8Array written by another version reads too.
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    throw storageError(this.#label, 'read blob', name, `it holds a ${typeof value}, not bytes`);
  }

  async list(prefix = '') {
    checkPrefix(this.#label, prefix);
    try {
      const names = await this.#connection.run('readonly', (store) => {
        const found = [];
        // Keys are ordered, so the names with the prefix are one run starting
        // at the prefix: walk the keys from there and stop at the first miss.
        const request = store.openKeyCursor(prefix === '' ? null : IDBKeyRange.lowerBound(prefix));
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor || typeof cursor.key !== 'string' || !cursor.key.startsWith(prefix)) return;
          found.push(cursor.key);
          cursor.continue();
        };
        return () => found;
      });
      return names.sort();
    } catch (error) {
      throw storageError(this.#label, 'list blobs with prefix', prefix, error);
    }
  }

  async delete(name) {
    checkName(this.#label, 'delete blob', name);
    try {
      await this.#connection.run('readwrite', (store) => {
        store.delete(name);
      }, { durability: 'strict' });
    } catch (error) {
      throw storageError(this.#label, 'delete blob', name, error);
    }
  }

  /** Closes the database connection; a later call reopens it. */
  close() {
    this.#connection.close();
  }

  describe() {
    return { type: 'IndexedDBStorage', name: this.#name };
  }
}
