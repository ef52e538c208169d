// How the persistent sinks (IndexedDBSink, KVSink) name their entries, so that
// a reader of the destination can find a row again:
//   - through an index: the JSON text of the key's values in the index's
//     column order, e.g. '["west"]' for an index on (region). A string rather
//     than an IndexedDB array key because NULL, booleans and BigInts are not
//     valid IndexedDB keys but are valid SQL key values.
//   - on a view: the JSON text of the whole row with its columns sorted by
//     name ("stable": the same row always gives the same text, whatever order
//     its properties were in), holding { row, count }.
// BIGINTs beyond 2^53 are written with every digit (stringifyJson).

import { stringifyJson } from '../values.js';

/** The entry name of an index key (an object of the key's columns, in index order). */
export function keyText(key) {
  return stringifyJson(Object.values(key));
}

/** The entry name of a view row: stable JSON (columns sorted by name). */
export function rowText(row) {
  const sorted = {};
  for (const name of Object.keys(row).sort()) sorted[name] = row[name];
  return stringifyJson(sorted);
}

/**
 * A view chunk's rows netted per distinct row: text → { row, delta }, where
 * delta is inserts minus deletes (a row deleted and inserted in one step
 * nets to 0 and is left out). Lets a sink touch each entry once per chunk.
 * @returns {Map<string, { row: object, delta: number }>}
 */
export function rowDeltas(chunk) {
  const deltas = new Map();
  const add = (row, by) => {
    const text = rowText(row);
    const entry = deltas.get(text);
    if (entry) entry.delta += by;
    else deltas.set(text, { row, delta: by });
  };
  for (const row of chunk.deletes) add(row, -1);
  for (const row of chunk.inserts) add(row, +1);
  for (const [text, { delta }] of deltas) if (delta === 0) deltas.delete(text);
  return deltas;
}
