// Chunks as JS sees them: the facade's chunk objects ({sequence_number,
// step, snapshot, snapshot_complete, records}, records in Feldera's
// insert_delete format or upsert/delete through an index) become
//   { sequenceNumber, step, snapshot, snapshotComplete, inserts, deletes }
//   { sequenceNumber, step, snapshot, snapshotComplete, upserts: [{key, row}], deletes: [{key}] }
// A row of weight w arrives as w records already (the core repeats it).

import { fixRow, parseJson } from './values.js';

/**
 * The shape of an endpoint's rows: the view's columns, and the index's key
 * columns when it goes through an index (else null).
 * @typedef {{ columns: {name: string, type: string}[], keyColumns: {name: string, type: string}[] | null }} ChunkShape
 */

/** Converts one parsed facade chunk; `tagged` from parseJson. */
export function toChunk(raw, shape, tagged) {
  const header = {
    sequenceNumber: raw.sequence_number,
    step: raw.step,
    snapshot: raw.snapshot,
    snapshotComplete: raw.snapshot_complete,
  };
  const deletes = [];
  if (shape.keyColumns) {
    const upserts = [];
    for (const record of raw.records) {
      if (record.upsert) {
        const { key, row } = record.upsert;
        if (tagged) {
          fixRow(key, shape.keyColumns);
          fixRow(row, shape.columns);
        }
        upserts.push({ key, row });
      } else {
        if (tagged) fixRow(record.delete.key, shape.keyColumns);
        deletes.push({ key: record.delete.key });
      }
    }
    return { ...header, upserts, deletes };
  }
  const inserts = [];
  for (const record of raw.records) {
    const row = record.insert ?? record.delete;
    if (tagged) fixRow(row, shape.columns);
    (record.insert ? inserts : deletes).push(row);
  }
  return { ...header, inserts, deletes };
}

/** Parses the facade's JSON text of one chunk. */
export function parseChunk(text, shape) {
  const { value, tagged } = parseJson(text);
  return toChunk(value, shape, tagged);
}
