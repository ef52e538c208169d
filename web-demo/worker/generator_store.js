// Where the order generator's position is kept between page loads, so that a
// resumed dashboard continues the stream instead of re-inserting order 1.
//
// The engine's checkpoint cannot hold it, so it sits next to the checkpoint,
// in its own IndexedDBStorage, under a name that ties it to the checkpoint's
// contents: the number of records the `orders` table had received when the
// checkpoint was encoded (stats().inputs.orders.totalRecords, which a
// checkpoint carries over). The feed is held while a checkpoint is written,
// so that number and the generator's position describe the same instant.
// On resume the entry whose number equals the restored total is the right
// one, whichever checkpoint the engine picked (a damaged newest one is
// skipped by the engine; its generator entry is then simply not used).
//
// The same storage keeps the program the dashboard last applied.

import { IndexedDBStorage } from '../../wasm-bindings/js/browser.js';

const KEEP = 4;  // the engine keeps at least two checkpoints; keep a little more
const PREFIX = 'generator-';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const nameOf = (ordersReceived) => `${PREFIX}${String(ordersReceived).padStart(20, '0')}`;

export class GeneratorStore {
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
}
