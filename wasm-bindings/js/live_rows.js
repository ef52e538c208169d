// Live rows: the mirror of a view's rows a LiveView (live_view.js) keeps,
// applying egress chunks in O(changed rows) and keeping the object of every
// row that did not change, so that UIs re-render only what changed.
//
// Three ways to tell rows apart, chosen by p.live()'s options:
//   RowsByValue   no key: equal rows are one entry with a count (a row of
//                 weight w appears w times, as the same frozen object)
//   RowsByKey     `key` columns: one row per key; a delete and an insert of
//                 one key in one step update the row in place (its position
//                 in `current` stays)
//   RowsByIndex   `index`: the index's upserts and deletes by key, one row
//                 per key (Feldera's upsert semantics of an index)
// Invariants: every row held is frozen; entries keep their first insertion
// order, which is the order of `current`; a chunk never deletes a row the
// mirror does not hold (it would mean a gap in the stream: INTERNAL).

import { FreshetError, invalidArgument } from './errors.js';

/**
 * Values as text: equal SQL values give equal text (NaN and null differ, 1 and '1' too).
 * A finite number is written by JSON.stringify (the same digits as String()):
 * V8 keeps the string of every number String() converts in a cache in its
 * old generation, and every young-generation collection then copied and
 * visited all of them (up to ~16k): 2-3 ms collections every ~4,000 changes
 * in a live view of the orders workload's by_region, ~0.7 ms with this.
 */
export function valuesText(values) {
  let text = '';
  for (const value of values) {
    if (typeof value === 'string') text += JSON.stringify(value);
    else if (typeof value === 'number') text += Number.isFinite(value) ? JSON.stringify(value) : String(value);
    else if (typeof value === 'bigint') text += `${value}n`;
    else text += String(value);  // boolean, null
    text += ',';
  }
  return text;
}

const rowText = (row) => valuesText(Object.values(row));

// A mirror's entries, and the objects a notification hands out, are kept
// until a later change replaces them. Made from object or array literals,
// V8 may see most of a literal's objects outlive a young-generation
// collection and allocate them in the old generation from then on
// ("pretenuring"): then each change's entry, dead once replaced, kept its
// young row and text alive through the next collections (1.5 MB copied
// each, 5-7 ms a collection, in some runs). Classes, empty literals filled
// in and Array.prototype.map make objects V8 does not pretenure.

class CountedRow {
  constructor(row) {
    this.row = row;
    this.count = 1;
  }
}

class KeyedRow {
  constructor(row, text) {
    this.row = row;
    this.text = text;
  }
}

class IndexedRow {
  constructor(key, row, text) {
    this.key = key;
    this.row = row;
    this.text = text;
  }
}

/** { key } as a plain object (see above CountedRow). */
function keyOnly(key) {
  const object = {};
  object.key = key;
  return object;
}

/** { key, row } as a plain object (see above CountedRow). */
function keyAndRow(key, row) {
  const object = keyOnly(key);
  object.row = row;
  return object;
}

/**
 * The rows of `entries` ({ row, count? }) in order, a row of count c c times,
 * into an array allocated at its final `size` (pushing into a growing array
 * costs three times as much at 100k rows).
 */
function listRows(entries, size) {
  const rows = new Array(size);
  let i = 0;
  if (size === entries.size) {
    for (const entry of entries.values()) rows[i++] = entry.row;
    return rows;
  }
  for (const entry of entries.values()) {
    for (let n = entry.count; n > 0; --n) rows[i++] = entry.row;
  }
  return rows;
}

function brokenMirror(view, what) {
  return new FreshetError('INTERNAL', `live view of '${view}': the stream deleted ${what} the view did not hold`);
}

const MIN_RENEWAL = 256;  // RowsByValue renews its Map after at least this many deletes

/** Rows told apart by value: equal rows share one frozen object and a count. */
export class RowsByValue {
  #view;
  #entries = new Map();  // row text → CountedRow
  #size = 0;             // the sum of the counts
  #deleted = 0;          // entries deleted from this Map object

  constructor(view) {
    this.#view = view;
  }

  /** @returns {{ inserts: object[], deletes: object[] }} the mirror's rows inserted and deleted */
  apply(chunk, previous = null) {
    const deletes = chunk.deletes.map((row) => this.#remove(row));
    const inserts = chunk.inserts.map((row) => this.#add(row, previous));
    return { inserts, deletes };
  }

  #add(row, previous) {
    const text = rowText(row);
    ++this.#size;
    const entry = this.#entries.get(text);
    if (entry) {
      ++entry.count;
      return entry.row;
    }
    const kept = previous?.#entries.get(text)?.row ?? Object.freeze(row);
    this.#entries.set(text, new CountedRow(kept));
    return kept;
  }

  #remove(row) {
    const text = rowText(row);
    const entry = this.#entries.get(text);
    if (!entry) throw brokenMirror(this.#view, `the row ${text}`);
    --this.#size;
    if (--entry.count === 0) {
      this.#entries.delete(text);
      if (++this.#deleted >= Math.max(this.#entries.size, MIN_RENEWAL)) this.#renew();
    }
    return entry.row;
  }

  // A changed row is a new text: an entry deleted and one added each change.
  // V8 then rebuilds the Map's hash table every few changes, in the old
  // generation once the Map is old, and each table it leaves behind kept
  // the young texts and rows it held alive through the next young
  // collections (~400 KB copied each, 3-5 ms, in most runs of a view of 10
  // rows). A new Map starts young; copying it once per as many deletes as it
  // has entries costs at most one entry per delete.
  #renew() {
    this.#entries = new Map(this.#entries);
    this.#deleted = 0;
  }

  /** What turns `previous` into this mirror: rows whose count grew or shrank. */
  diff(previous) {
    const inserts = [], deletes = [];
    for (const [text, { row, count }] of this.#entries) {
      for (let n = count - (previous.#entries.get(text)?.count ?? 0); n > 0; --n) inserts.push(row);
    }
    for (const [text, { row, count }] of previous.#entries) {
      for (let n = count - (this.#entries.get(text)?.count ?? 0); n > 0; --n) deletes.push(row);
    }
    return { inserts, deletes };
  }

  rows() {
    return listRows(this.#entries, this.#size);
  }
}

/** Rows told apart by the values of `key` columns: one row per key. */
export class RowsByKey {
  #view;
  #keyColumns;
  #entries = new Map();  // key text → { row, text }

  constructor(view, keyColumns) {
    this.#view = view;
    this.#keyColumns = keyColumns;
  }

  #keyText(row) {
    return valuesText(this.#keyColumns.map((column) => row[column]));
  }

  apply(chunk, previous = null) {
    const removed = new Set();  // keys deleted, unless an insert below replaces their row
    const deletes = chunk.deletes.map((row) => {
      const key = this.#keyText(row);
      const entry = this.#entries.get(key);
      if (!entry || entry.text !== rowText(row)) throw brokenMirror(this.#view, `the row ${rowText(row)}`);
      removed.add(key);
      return entry.row;
    });
    const inserts = chunk.inserts.map((row) => {
      const key = this.#keyText(row);
      if (this.#entries.has(key) && !removed.delete(key)) {
        throw invalidArgument(`live view of '${this.#view}': two rows have the key (${this.#keyColumns.join(', ')}) = (${key.slice(0, -1)}); ` +
                              'give key columns that are unique in the view');
      }
      const text = rowText(row);
      const before = previous?.#entries.get(key);
      const kept = before?.text === text ? before.row : Object.freeze(row);
      this.#entries.set(key, new KeyedRow(kept, text));  // an existing key keeps its position
      return kept;
    });
    for (const key of removed) this.#entries.delete(key);
    return { inserts, deletes };
  }

  diff(previous) {
    const inserts = [], deletes = [];
    for (const [key, { row }] of this.#entries) {
      const before = previous.#entries.get(key);
      if (before?.row === row) continue;
      inserts.push(row);
      if (before) deletes.push(before.row);
    }
    for (const [key, { row }] of previous.#entries) if (!this.#entries.has(key)) deletes.push(row);
    return { inserts, deletes };
  }

  rows() {
    return listRows(this.#entries, this.#entries.size);
  }
}

/** Rows through an index: upserts and deletes by the index's key, one row per key. */
export class RowsByIndex {
  #view;
  #entries = new Map();  // key text → { key, row, text }

  constructor(view) {
    this.#view = view;
  }

  /** @returns {{ upserts: { key: object, row: object }[], deletes: { key: object }[] }} */
  apply(chunk, previous = null) {
    const deletes = chunk.deletes.map(({ key }) => {
      const text = rowText(key);
      const entry = this.#entries.get(text);
      if (!entry) throw brokenMirror(this.#view, `the key ${text}`);
      this.#entries.delete(text);
      return keyOnly(entry.key);
    });
    const upserts = chunk.upserts.map(({ key, row }) => {
      const keyText = rowText(key);
      const text = rowText(row);
      const before = (this.#entries.get(keyText) ?? previous?.#entries.get(keyText));
      const entry = before?.text === text ? before : new IndexedRow(Object.freeze(key), Object.freeze(row), text);
      this.#entries.set(keyText, entry);
      return keyAndRow(entry.key, entry.row);
    });
    return { upserts, deletes };
  }

  diff(previous) {
    const upserts = [], deletes = [];
    for (const [keyText, entry] of this.#entries) {
      if (previous.#entries.get(keyText)?.row !== entry.row) upserts.push(keyAndRow(entry.key, entry.row));
    }
    for (const [keyText, entry] of previous.#entries) {
      if (!this.#entries.has(keyText)) deletes.push(keyOnly(entry.key));
    }
    return { upserts, deletes };
  }

  rows() {
    return listRows(this.#entries, this.#entries.size);
  }
}

/**
 * Checks p.live()'s options against the view and returns a maker of empty
 * mirrors for it.
 * @param {string} view
 * @param {{ columns: { name: string }[], keyColumns: { name: string }[] | null }} shape the endpoint's (Program.shape)
 * @param {string | string[] | undefined} key
 * @returns {() => RowsByValue | RowsByKey | RowsByIndex}
 */
export function rowsMaker(view, shape, key) {
  const names = key === undefined ? null : Array.isArray(key) ? key : [key];
  if (names) {
    if (!names.length || names.some((name) => typeof name !== 'string')) {
      throw invalidArgument(`live view of '${view}': key is a column name or an array of column names`);
    }
    const columns = new Set(shape.columns.map((column) => column.name));
    const unknown = names.filter((name) => !columns.has(name));
    if (unknown.length) {
      throw invalidArgument(`live view of '${view}': the view has no column ${unknown.map((n) => `'${n}'`).join(', ')} ` +
                            `(its columns: ${[...columns].join(', ')})`);
    }
  }
  if (shape.keyColumns) {
    const indexKey = shape.keyColumns.map((column) => column.name);
    if (names && names.join('\0') !== indexKey.join('\0')) {
      throw invalidArgument(`live view of '${view}': key (${names.join(', ')}) is not the index's key (${indexKey.join(', ')}); give one of them`);
    }
    return () => new RowsByIndex(view);
  }
  return names ? () => new RowsByKey(view, names) : () => new RowsByValue(view);
}
