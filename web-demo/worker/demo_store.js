// DemoStore: what the dashboard keeps next to its checkpoints, in its own
// IndexedDBStorage: the order generator's positions, the program last
// applied, and whether the pipeline was paused.
//
// The generator's position lets a resumed dashboard continue the stream
// instead of re-inserting order 1.
// The engine's checkpoint cannot hold it, so it sits next to the checkpoint,
// in its own IndexedDBStorage, under a name that ties it to the checkpoint's
// contents: the number of records the `orders` table had received when the
// checkpoint was encoded (stats().inputs.orders.totalRecords, which a
// checkpoint carries over). The feed is held while a checkpoint is written,
// so that number and the generator's position describe the same instant.
// On resume the entry whose number equals the restored total is the right
// one, whichever checkpoint the engine picked (a damaged newest one is
// skipped by the engine; its generator entry is then simply not used).

import { IndexedDBStorage } from '../../wasm-bindings/js/browser.js';

const KEEP = 4;  // the engine keeps at least two checkpoints; keep a little more
const PREFIX = 'generator-';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const nameOf = (ordersReceived) => `${PREFIX}${String(ordersReceived).padStart(20, '0')}`;

export class DemoStore {
  #storage = new IndexedDBStorage('freshet-demo-app');

  /** @param {number} ordersReceived @param {{ seed: number, nextOrderId: number, live: number[] }} position */
  async save(ordersReceived, position) {
    await this.#storage.put(nameOf(ordersReceived), encoder.encode(JSON.stringify(position)));
    const names = await this.#storage.list(PREFIX);
    for (const name of names.slice(0, -KEEP)) await this.#storage.delete(name);
  }

  /** The position saved at exactly `ordersReceived` records, or null. */
  async load(ordersReceived) {
    const bytes = await this.#storage.get(nameOf(ordersReceived));
    return bytes ? JSON.parse(decoder.decode(bytes)) : null;
  }

  /** The SQL the dashboard last applied (null: the sample program). */
  async loadProgram() {
    const bytes = await this.#storage.get('program');
    return bytes ? decoder.decode(bytes) : null;
  }

  async saveProgram(sql) {
    await this.#storage.put('program', encoder.encode(sql));
  }

  /** Whether the pipeline was paused when the page went away. */
  async loadPaused() {
    const bytes = await this.#storage.get('paused');
    return bytes?.[0] === 1;
  }

  async savePaused(paused) {
    await this.#storage.put('paused', new Uint8Array([paused ? 1 : 0]));
  }
}
