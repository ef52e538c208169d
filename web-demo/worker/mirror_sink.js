// The dashboard's output connector: an IndexedDBSink mirroring large_orders
// (through its index, so a chunk delivered twice is harmless), wrapped to
//   - count what this page session wrote (snapshot chunks and records,
//     deltas): "a reload does not resend the snapshot" is then visible;
//   - start every snapshot on an empty store. The pipeline resets the sink
//     for resetOutput() and for a connector configured otherwise than in
//     the checkpoint, but not when it starts without a checkpoint (first
//     visit, or a new program under onProgramChange: 'restart'): a mirror
//     left from an earlier run would keep rows the new snapshot lacks.
// The description is the inner sink's, so the connector's identity in the
// checkpoint is the same from one page load to the next.

import { IndexedDBSink } from '../../wasm-bindings/js/browser.js';

export const MIRROR = { database: 'freshet-demo-mirror', store: 'large_orders' };

export class MirrorSink {
  #inner = new IndexedDBSink(MIRROR);
  #inSnapshot = false;
  written = { snapshotChunks: 0, snapshotRecords: 0, deltaChunks: 0, deltaRecords: 0, resets: 0 };

  async write(chunk) {
    const records = chunk.upserts.length + chunk.deletes.length;
    if (chunk.snapshot && !this.#inSnapshot) await this.#inner.reset();
    this.#inSnapshot = chunk.snapshot && !chunk.snapshotComplete;
    await this.#inner.write(chunk);
    if (chunk.snapshot) {
      this.written.snapshotChunks += 1;
      this.written.snapshotRecords += records;
    } else {
      this.written.deltaChunks += 1;
      this.written.deltaRecords += records;
    }
  }

  async reset() {
    this.#inSnapshot = false;
    this.written.resets += 1;
    await this.#inner.reset();
  }

  describe() {
    return this.#inner.describe();
  }
}

/** Every row of the mirror store, read with plain IndexedDB (as another page would). */
export async function readMirror() {
  const request = (make) => new Promise((resolve, reject) => {
    const req = make();
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const db = await request(() => indexedDB.open(MIRROR.database));
  try {
    if (!db.objectStoreNames.contains(MIRROR.store)) return [];
    return await request(() => db.transaction(MIRROR.store, 'readonly').objectStore(MIRROR.store).getAll());
  } finally {
    db.close();
  }
}
