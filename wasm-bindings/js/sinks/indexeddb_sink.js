// IndexedDBSink({ database, store }): mirrors a view into an object store of
// the application's IndexedDB database, so that a page can read the view's
// rows even before the pipeline is running again.
//   - through an index: one entry per key, named keyText(key) (sink_keys.js,
//     e.g. '["west"]'), holding the row; upserts replace, deletes remove.
//     Writing the same chunk twice gives the same state (idempotent), so a
//     retry after a failure or a crash is harmless.
//   - on a view: one entry per distinct row, named rowText(row), holding
//     { row, count } (a row may appear several times); count reaches 0 → the
//     entry goes. Counts make a repeated delta count twice: use an index
//     where a chunk may be delivered again.
// Each chunk is applied in ONE transaction: all of it or nothing, and
// write() resolves only once the transaction has committed, so the pipeline
// acknowledges a chunk only when it is really there (and retries it when not).
// The store is created (one version up) when the database lacks it.

import { storageError } from '../storages/blob_names.js';
import { IndexedDBConnection } from '../storages/indexeddb_connection.js';
import { keyText, rowDeltas } from './sink_keys.js';

export class IndexedDBSink {
  #database;
  #store;
  #label;
  #connection;

  /** @param {{ database: string, store: string }} options */
  constructor({ database, store } = {}) {
    for (const [what, value] of [['database', database], ['store', store]]) {
      if (typeof value !== 'string' || value === '') {
        throw storageError('IndexedDBSink', `use ${what}`, String(value), `options.${what} must be a non-empty string`);
      }
    }
    this.#database = database;
    this.#store = store;
    this.#label = `IndexedDBSink('${database}', '${store}')`;
    this.#connection = new IndexedDBConnection(database, store);
  }

  async write(chunk) {
    try {
      await this.#connection.run('readwrite', chunk.upserts
        ? (store) => {
          for (const { key } of chunk.deletes) store.delete(keyText(key));
          for (const { key, row } of chunk.upserts) store.put(row, keyText(key));
        }
        : (store, fail) => {
          // Read-modify-write of each row's count, inside the same transaction.
          for (const [text, { row, delta }] of rowDeltas(chunk)) {
            const request = store.get(text);
            request.onsuccess = () => {
              try {
                const count = (request.result?.count ?? 0) + delta;
                if (count > 0) store.put({ row, count }, text);
                else store.delete(text);
              } catch (error) {
                fail(error);
              }
            };
          }
        });
    } catch (error) {
      throw storageError(this.#label, 'write chunk', String(chunk.sequenceNumber), error);
    }
  }

  /** Empties the store (the pipeline then writes a fresh snapshot). */
  async reset() {
    try {
      await this.#connection.run('readwrite', (store) => {
        store.clear();
      });
    } catch (error) {
      throw storageError(this.#label, 'clear store', this.#store, error);
    }
  }

  describe() {
    return { type: 'IndexedDBSink', database: this.#database, store: this.#store };
  }

  /** Closes the database connection; a later write reopens it. */
  close() {
    this.#connection.close();
  }
}
