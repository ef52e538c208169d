// Chunks as JS sees them. The facade writes each chunk already in its final
// shape (../cpp/js_chunk.h), so one JSON.parse gives the object consumers get:
//   { sequenceNumber, step, snapshot, snapshotComplete, inserts, deletes }
//   { sequenceNumber, step, snapshot, snapshotComplete, upserts: [{key, row}], deletes: [{key}] }
// (the second through an index). A row of weight w arrives as w rows already.
// Only text that may hold values JSON.parse cannot read exactly (integers of
// 16+ digits, "NaN"/"Infinity") takes values.js's slower path, and then its
// rows are finished here by their columns' types.

import { fixRow, parseJson } from './values.js';

/**
 * The shape of an endpoint's rows: the view's columns, and the index's key
 * columns when it goes through an index (else null).
 * @typedef {{ columns: {name: string, type: string}[], keyColumns: {name: string, type: string}[] | null }} ChunkShape
 */

/** Finishes the rows of a chunk parsed from tagged text, in place. */
function fixChunk(chunk, shape) {
  if (shape.keyColumns) {
    for (const { key, row } of chunk.upserts) {
      fixRow(key, shape.keyColumns);
      fixRow(row, shape.columns);
    }
    for (const { key } of chunk.deletes) fixRow(key, shape.keyColumns);
  } else {
    for (const row of chunk.inserts) fixRow(row, shape.columns);
    for (const row of chunk.deletes) fixRow(row, shape.columns);
  }
  return chunk;
}

/** Parses the facade's JSON text of one chunk. */
export function parseChunk(text, shape) {
  const { value, tagged } = parseJson(text);
  return tagged ? fixChunk(value, shape) : value;
}
