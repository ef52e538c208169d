// One IndexedDB object store, opened lazily and shared by IndexedDBStorage and
// IndexedDBSink: opening, creating the store when the database lacks it, and
// running one transaction as a Promise.
//
// Why the version dance: a store can only be created in a version-change
// transaction, and the database may belong to the application (IndexedDBSink
// writes into the user's database). So the database is opened at whatever
// version it has, and only when the store is missing it is reopened at
// version + 1 to create it. Our connections close when another connection
// asks for a version change, so we never block another tab's upgrade; the next
// call simply reopens.

export class IndexedDBConnection {
  #database;
  #store;
  /** @type {Promise<IDBDatabase> | null} */
  #opening = null;

  /** @param {string} database @param {string} store */
  constructor(database, store) {
    this.#database = database;
    this.#store = store;
  }

  /**
   * Runs one transaction on the store. `body(objectStore, fail)` issues the
   * requests and returns a function giving the result; the Promise resolves
   * with it once the transaction has committed, and rejects (after aborting,
   * so nothing of it is applied) when anything in it failed. A request
   * callback that hits an error calls `fail(error)`: the transaction aborts
   * and the Promise rejects with that error.
   * @template T
   * @param {'readonly' | 'readwrite'} mode
   * @param {(store: IDBObjectStore, fail: (error: unknown) => void) => (() => T) | void} body
   * @param {{ durability?: 'default' | 'strict' | 'relaxed' }} [options]
   * @returns {Promise<T>}
   */
  async run(mode, body, options) {
    const db = await this.#open();
    let tx;
    try {
      tx = db.transaction(this.#store, mode, options);
    } catch (error) {
      // The connection closed under us (a version change elsewhere): reopen once.
      this.#opening = null;
      tx = (await this.#open()).transaction(this.#store, mode, options);
    }
    return new Promise((resolve, reject) => {
      let result;
      let thrown;
      tx.oncomplete = () => resolve(result?.());
      tx.onabort = () => reject(thrown ?? tx.error ?? new Error('the transaction was aborted'));
      const fail = (error) => {
        thrown ??= error;
        try {
          tx.abort();
        } catch {
          reject(error);  // already finished: abort() throws and onabort will not come
        }
      };
      try {
        result = body(tx.objectStore(this.#store), fail);
      } catch (error) {
        fail(error);
      }
    });
  }

  /** Closes the connection (the next call reopens it). */
  close() {
    const opening = this.#opening;
    this.#opening = null;
    opening?.then((db) => db.close(), () => {});
  }

  #open() {
    this.#opening ??= this.#openDatabase().catch((error) => {
      this.#opening = null;  // let the next call try again
      throw error;
    });
    return this.#opening;
  }

  async #openDatabase() {
    if (typeof indexedDB === 'undefined') throw new Error('this host has no IndexedDB');
    let db = await this.#request(() => indexedDB.open(this.#database));
    // Another opener may take the version we asked for (creating its own
    // store): then our store is still missing and we go one version higher.
    for (let attempt = 0; !db.objectStoreNames.contains(this.#store); ++attempt) {
      if (attempt === 5) throw new Error(`cannot create object store '${this.#store}'`);
      const version = db.version + 1;
      db.close();
      try {
        db = await this.#request(() => indexedDB.open(this.#database, version), (upgraded) => {
          if (!upgraded.objectStoreNames.contains(this.#store)) upgraded.createObjectStore(this.#store);
        });
      } catch (error) {
        if (error?.name !== 'VersionError') throw error;
        db = await this.#request(() => indexedDB.open(this.#database));  // someone went higher meanwhile
      }
    }
    db.onversionchange = () => {
      db.close();
      this.#opening = null;
    };
    db.onclose = () => {
      this.#opening = null;  // closed by the browser (storage cleared, ...)
    };
    return db;
  }

  #request(open, upgrade) {
    return new Promise((resolve, reject) => {
      const request = open();
      request.onupgradeneeded = () => {
        try {
          upgrade?.(request.result);
        } catch (error) {
          request.transaction?.abort();
          reject(error);
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      // onblocked: another connection holds an older version open; the open
      // completes once it closes (ours close themselves on versionchange).
    });
  }
}
