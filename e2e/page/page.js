// What the browser tests call through page.evaluate: the package as a page
// gets it (its browser entry), the shared storage contract, and raw
// IndexedDB helpers to look at what the sinks wrote.
import * as freshet from '../../wasm-bindings/js/browser.js';
import { checkStorageContract } from '../../tests/js/storage_contract.mjs';

function request(make) {
  return new Promise((resolve, reject) => {
    const req = make();
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Every entry of an object store as { key: value }, read without the package. */
async function dumpStore(database, store) {
  const db = await request(() => indexedDB.open(database));
  try {
    if (!db.objectStoreNames.contains(store)) return null;
    const tx = db.transaction(store, 'readonly');
    const [keys, values] = await Promise.all([
      request(() => tx.objectStore(store).getAllKeys()),
      request(() => tx.objectStore(store).getAll()),
    ]);
    return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
  } finally {
    db.close();
  }
}

/** The application's own database: version 1 with a store 'app' holding one entry. */
async function makeAppDatabase(database) {
  const db = await request(() => {
    const open = indexedDB.open(database, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('app');
    return open;
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction('app', 'readwrite');
    tx.objectStore('app').put('mine', 'k');
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

async function databaseVersion(database) {
  const db = await request(() => indexedDB.open(database));
  const { version } = db;
  db.close();
  return version;
}

/** Runs `fn` and returns its error as a plain object (or null). */
async function errorOf(fn) {
  try {
    await fn();
    return null;
  } catch (error) {
    return { name: error.name, code: error.code, message: error.message };
  }
}

window.t = { freshet, checkStorageContract, dumpStore, makeAppDatabase, databaseVersion, errorOf };
document.getElementById('status').textContent = 'ready';
