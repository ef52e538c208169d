// MapSink: an in-memory mirror of a view, kept by applying each chunk.
// Through an index it maps each key to its row (upserts replace, deletes
// remove: the index's key is taken to be unique, as Feldera's upsert outputs
// assume); on a view it counts each distinct row (a row may appear several
// times).

import { stringifyJson } from '../values.js';

// Keys compare by their columns' values in column-name order, so that an
// object key written in any order finds its entry.
function keyText(key) {
  return stringifyJson(Object.keys(key).sort().map((name) => key[name]));
}

export class MapSink {
  /** @type {Map<string, { key?: object, row: object, count: number }>} */
  #entries = new Map();

  write(chunk) {
    if (chunk.upserts) {
      for (const { key } of chunk.deletes) this.#entries.delete(keyText(key));
      for (const { key, row } of chunk.upserts) this.#entries.set(keyText(key), { key, row, count: 1 });
      return;
    }
    for (const row of chunk.deletes) {
      const text = stringifyJson(row);
      const entry = this.#entries.get(text);
      if (entry && --entry.count === 0) this.#entries.delete(text);
    }
    for (const row of chunk.inserts) {
      const text = stringifyJson(row);
      const entry = this.#entries.get(text);
      if (entry) ++entry.count;
      else this.#entries.set(text, { row, count: 1 });
    }
  }

  reset() {
    this.#entries.clear();
  }

  describe() {
    return { type: 'MapSink' };
  }

  /** Distinct keys (through an index) or distinct rows (on a view). */
  get size() {
    return this.#entries.size;
  }

  /** Through an index: the row of a key (an object of the key's columns). */
  get(key) {
    return this.#entries.get(keyText(key))?.row;
  }

  /** Every row, a row of multiplicity n repeated n times. */
  rows() {
    const rows = [];
    for (const { row, count } of this.#entries.values()) for (let i = 0; i < count; ++i) rows.push(row);
    return rows;
  }
}
